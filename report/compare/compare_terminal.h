// The terminal output of `analyzer compare`: per comparison the run time, MPI time and waiting,
// then tables of the largest changes first (call sites summed over ranks, per rank, patterns,
// MPI time per operation, root causes), the POP efficiencies, what was not compared; the
// scaling table; the --fail-if-worse verdicts.
#pragma once

#include <cstddef>
#include <ostream>

#include "compare_report.h"

namespace collwrap {

// `top`: rows per table (changes of 0 are never listed).
void write_compare_terminal(const CompareReport& report, std::size_t top, std::ostream& out);

}  // namespace collwrap
