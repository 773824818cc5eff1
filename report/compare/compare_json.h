// `analyzer compare --json FILE`: the comparison for programs (schema:
// share/schema/compare.schema.json, version kCompareSchemaVersion). Every changed quantity is
// {"base", "new", "change", "percent"}; percent is null when the base is 0.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "compare_report.h"

namespace collwrap {

nlohmann::ordered_json compare_json(const CompareReport& report);

void write_compare_json(const CompareReport& report, std::ostream& out);

}  // namespace collwrap
