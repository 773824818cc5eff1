// Root causes in the SARIF log: each one a result of the rule "root_cause" at the line to
// change (the call site that ends the compute segment), with the waits it causes as related
// locations, so that an editor shows the cause where the code is and links to its victims.
#pragma once

#include <nlohmann/json.hpp>

#include "cause_result.h"

namespace collwrap {

inline constexpr const char* kRootCauseRule = "root_cause";

nlohmann::ordered_json root_cause_rule_json();

// `rule_index` is the position of the rule in the driver's rule list.
nlohmann::ordered_json root_cause_results_json(const CauseAnalysis& causes, int rule_index);

}  // namespace collwrap
