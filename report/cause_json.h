// The root-cause parts of the JSON report (share/schema/report.schema.json, since 1.3):
// "root_causes", "delay", "critical_path", "pop" and "what_if".
#pragma once

#include <nlohmann/json.hpp>

#include "cause_result.h"

namespace collwrap {

void add_cause_json(const CauseAnalysis& causes, nlohmann::ordered_json& report);

}  // namespace collwrap
