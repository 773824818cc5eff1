// The machine-readable form of `collwrap-bench timer` (--json): what the self-test measured
// and concluded, with every run's result so that scripts can apply their own criteria.
#pragma once

#include <nlohmann/json.hpp>

#include "clock/timer_check.h"

namespace collwrap::bench {

nlohmann::ordered_json timer_json(const tracer::TimerCheckOutcome& outcome, double unit_us);

}  // namespace collwrap::bench
