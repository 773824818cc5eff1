#include "timer_report.h"

#include <gtest/gtest.h>

namespace collwrap::bench {
namespace {

TEST(TimerReport, JsonHoldsEveryRunAndTheVerdict) {
  tracer::TimerCheckOutcome o;
  o.ranks = 2;
  o.timer = "tsc";
  o.ticks_per_second = 2.6e9;
  o.sync = "linear";
  o.sync_ms = 0.25;
  o.figures.residual_us = {0, 0.3};
  o.figures.null_us = {0.1, 0.2, 0.3};
  o.figures.up_us = {20.1, 20.2, 20.0};
  o.figures.expected_up_us = 20;
  o.figures.rates = {2.6e9, 2.6e9};
  o.verdict = tracer::judge_timer_check(o.figures);
  const nlohmann::ordered_json j = timer_json(o, 10);
  EXPECT_EQ(j["subcommand"], "timer");
  EXPECT_EQ(j["ranks"], 2);
  EXPECT_EQ(j["sync"], "linear");
  EXPECT_EQ(j["residual_offsets_us"].size(), 2u);
  EXPECT_EQ(j["wait_pattern_null"]["runs_us"].size(), 3u);
  EXPECT_DOUBLE_EQ(j["wait_pattern_null"]["median_us"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(j["wait_pattern_up"]["expected_us"].get<double>(), 20);
  EXPECT_DOUBLE_EQ(j["wait_pattern_up"]["unit_us"].get<double>(), 10);
  EXPECT_DOUBLE_EQ(j["wait_pattern_up"]["min_us"].get<double>(), 20.0);
  EXPECT_EQ(j["trusted"], o.verdict.trusted);
  EXPECT_TRUE(j["trusted"].get<bool>());
}

}  // namespace
}  // namespace collwrap::bench
