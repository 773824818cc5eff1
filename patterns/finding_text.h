// The words of a finding: what happened (comment) and what to change (recommendation),
// composed from its numbers and its pattern's declared texts.
#pragma once

#include <string>

#include "finding.h"
#include "pattern.h"

namespace collwrap {

// Who idled where and how long, the pattern, the peers, the worst instances and the
// pattern-specific facts (send modes, message order, related call).
std::string finding_comment(const Finding& finding, const Pattern& pattern);

// The pattern's recommendation, made concrete with the finding's numbers where there are any
// (early_wait: how much work to move between the nonblocking call and its wait).
std::string finding_recommendation(const Finding& finding, const Pattern& pattern);

}  // namespace collwrap
