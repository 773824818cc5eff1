// Runs the selected pattern rules over a matched trace.
#pragma once

#include <span>

#include "pattern.h"

namespace collwrap {

// Every instance of the selected patterns at the locations `at` with at least the context's
// options.min_wait of idle time goes to `sink` (Akopyan and Andreev, ISP RAS: instances below
// ε count as not occurring). Returns how many were dropped for their idle time.
std::uint64_t run_patterns(const RuleContext& context, std::span<const Pattern* const> patterns,
                           InstanceSink& sink, const LocationRange& at = {});

}  // namespace collwrap
