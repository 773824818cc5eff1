#include "record/tracer_config.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace collwrap::tracer {
namespace {

std::map<std::string, std::string> g_env;

const char* fake_getenv(const char* name) {
  auto it = g_env.find(name);
  return it == g_env.end() ? nullptr : it->second.c_str();
}

TracerConfig read(std::map<std::string, std::string> env, std::vector<std::string>& problems) {
  g_env = std::move(env);
  return read_config(fake_getenv, problems);
}

TEST(TracerConfig, DefaultsWithoutEnvironment) {
  std::vector<std::string> problems;
  TracerConfig c = read({}, problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(c.trace_dir, "");
  EXPECT_EQ(c.timer, TimerKind::Auto);
  EXPECT_EQ(c.callsite_depth, 1u);
  EXPECT_EQ(c.clocksync, ClockSyncKind::Auto);
  EXPECT_EQ(c.clocksync_rounds, 30u);
  EXPECT_EQ(c.clocksync_interval_ms, 0u);
  EXPECT_FALSE(c.verbose);
  EXPECT_EQ(c.buffer_mib, 32u);
}

TEST(TracerConfig, ReadsEveryVariable) {
  std::vector<std::string> problems;
  TracerConfig c = read({{"COLLWRAP_TRACE_DIR", "/tmp/t"},
                         {"COLLWRAP_TIMER", "mpi_wtime"},
                         {"COLLWRAP_CALLSITE_DEPTH", "4"},
                         {"COLLWRAP_CLOCKSYNC", "off"},
                         {"COLLWRAP_CLOCKSYNC_ROUNDS", "100"},
                         {"COLLWRAP_CLOCKSYNC_INTERVAL", "0.25"},
                         {"COLLWRAP_VERBOSE", "1"},
                         {"COLLWRAP_BUFFER_MB", "2"}},
                        problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(c.trace_dir, "/tmp/t");
  EXPECT_EQ(c.timer, TimerKind::MpiWtime);
  EXPECT_EQ(c.callsite_depth, 4u);
  EXPECT_EQ(c.clocksync, ClockSyncKind::Off);
  EXPECT_EQ(c.clocksync_rounds, 100u);
  EXPECT_EQ(c.clocksync_interval_ms, 250u);
  EXPECT_TRUE(c.verbose);
  EXPECT_EQ(c.buffer_mib, 2u);
}

TEST(TracerConfig, InvalidValuesKeepDefaultsAndAreReported) {
  std::vector<std::string> problems;
  TracerConfig c = read({{"COLLWRAP_TIMER", "sundial"},
                         {"COLLWRAP_CALLSITE_DEPTH", "99"},
                         {"COLLWRAP_CLOCKSYNC_ROUNDS", "ten"},
                         {"COLLWRAP_CLOCKSYNC", "star"},
                         {"COLLWRAP_CLOCKSYNC_INTERVAL", "-5"}},
                        problems);
  EXPECT_EQ(problems.size(), 5u);
  EXPECT_EQ(c.clocksync_interval_ms, 0u);
  EXPECT_EQ(c.timer, TimerKind::Auto);
  EXPECT_EQ(c.callsite_depth, 1u);
  EXPECT_EQ(c.clocksync_rounds, 30u);
  EXPECT_EQ(c.clocksync, ClockSyncKind::Auto);
  EXPECT_NE(problems[0].find("COLLWRAP_TIMER='sundial'"), std::string::npos);
}

TEST(TracerConfig, SerializationRoundTrips) {
  TracerConfig c;
  c.trace_dir = "/x/y";
  c.timer = TimerKind::Tsc;
  c.callsite_depth = 3;
  c.clocksync = ClockSyncKind::Off;
  c.clocksync_rounds = 7;
  c.clocksync_interval_ms = 11;
  c.verbose = true;
  c.buffer_mib = 5;
  ByteWriter out;
  c.serialize(out);
  ByteReader in(out.bytes());
  TracerConfig d = TracerConfig::deserialize(in);
  EXPECT_FALSE(in.failed());
  EXPECT_EQ(d.trace_dir, c.trace_dir);
  EXPECT_EQ(d.timer, c.timer);
  EXPECT_EQ(d.callsite_depth, c.callsite_depth);
  EXPECT_EQ(d.clocksync, c.clocksync);
  EXPECT_EQ(d.clocksync_rounds, c.clocksync_rounds);
  EXPECT_EQ(d.clocksync_interval_ms, c.clocksync_interval_ms);
  EXPECT_EQ(d.verbose, c.verbose);
  EXPECT_EQ(d.buffer_mib, c.buffer_mib);
}

TEST(TracerConfig, ReadsEveryClockSyncAlgorithm) {
  for (ClockSyncKind kind : {ClockSyncKind::Auto, ClockSyncKind::Linear, ClockSyncKind::Ring,
                             ClockSyncKind::Tree, ClockSyncKind::Off}) {
    std::vector<std::string> problems;
    TracerConfig c = read({{"COLLWRAP_CLOCKSYNC", clocksync_kind_name(kind)}}, problems);
    EXPECT_TRUE(problems.empty());
    EXPECT_EQ(c.clocksync, kind);
  }
  EXPECT_FALSE(parse_clocksync_kind("Tree").has_value());
}

}  // namespace
}  // namespace collwrap::tracer
