// The root-cause parts of the terminal summary: "Lines to change, by estimated gain" (printed
// first), then the delay-cost balance, the critical path and the POP efficiencies.
#pragma once

#include <cstddef>
#include <functional>
#include <ostream>
#include <string>

#include "cause_result.h"

namespace collwrap {

using PathShown = std::function<std::string(const std::string&)>;  // a recorded file as printed

void write_lines_to_change(const CauseAnalysis& causes, std::size_t top, const PathShown& path,
                           std::ostream& out);
void write_efficiencies(const CauseAnalysis& causes, std::size_t top, const PathShown& path,
                        std::ostream& out);

}  // namespace collwrap
