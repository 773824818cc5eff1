#include "timer_report.h"

namespace collwrap::bench {
namespace {

nlohmann::ordered_json spread_json(const tracer::PatternSpread& s) {
  return {{"median_us", s.median}, {"min_us", s.min}, {"max_us", s.max}};
}

}  // namespace

nlohmann::ordered_json timer_json(const tracer::TimerCheckOutcome& outcome, double unit_us) {
  const tracer::TimerCheckVerdict& v = outcome.verdict;
  const tracer::TimerCheckFigures& f = outcome.figures;
  nlohmann::ordered_json null = spread_json(v.null);
  null["expected_us"] = 0.0;
  null["runs_us"] = f.null_us;
  null["ok"] = v.null_ok;
  nlohmann::ordered_json up = spread_json(v.up);
  up["expected_us"] = f.expected_up_us;
  up["unit_us"] = unit_us;
  up["runs_us"] = f.up_us;
  up["ok"] = v.up_ok;
  return {{"subcommand", "timer"},
          {"ranks", outcome.ranks},
          {"timer", outcome.timer},
          {"ticks_per_second", outcome.ticks_per_second},
          {"sync", outcome.sync},
          {"sync_ms", outcome.sync_ms},
          {"residual_offsets_us", f.residual_us},
          {"residuals_ok", v.residuals_ok},
          {"wait_pattern_null", null},
          {"wait_pattern_up", up},
          {"rates_ticks_per_second", f.rates},
          {"rate_mismatched_ranks", v.rate_mismatched},
          {"trust_bound_us", tracer::kTimerTrustUs},
          {"trusted", v.trusted}};
}

}  // namespace collwrap::bench
