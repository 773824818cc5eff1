// A four-rank synthetic trace in which every pattern occurs once, at a known line of
// /src/app.c, with waits of milliseconds (above the default --min-wait); except the
// master-worker patterns (slow_workers, overloaded_master), which need a whole program whose
// traffic is a star around one process (tests/unit/patterns/pgas_transfer_patterns_test.cpp).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "trace_model.h"

namespace collwrap::testing {

inline constexpr const char* kAppFile = "/src/app.c";

struct ExpectedFinding {
  std::string_view pattern;
  std::int32_t rank;
  std::uint32_t line;
  double wait_s;
};

Trace every_pattern_trace();

// One entry per pattern of the catalog found in every_pattern_trace(), at its line.
const std::vector<ExpectedFinding>& every_pattern_expected();

}  // namespace collwrap::testing
