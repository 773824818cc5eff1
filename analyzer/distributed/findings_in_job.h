// The rules of RuleReach::Partners run by the processes of an MPI job, each on its own share of
// the archive's locations: a process reads its share, sends the others the ghosts of it they
// need (ghost_selection.h), matches and runs the rules on its partial trace, and finds at its
// own locations only; process 0 merges what all found. No process holds more than its share
// and its ghosts.
#pragma once

#include <optional>
#include <string>

#include "finding_bytes.h"
#include "mpi_job.h"
#include "trace_reader.h"

namespace collwrap {

// Process 0 gets the findings and the matching's counts of the whole archive, as
// find_findings and match_trace give them on the whole trace read alone (without clock
// repair); the others get nullopt. `settings.patterns` must all be RuleReach::Partners
// (std::invalid_argument otherwise). Failures while reading end every process alike
// (read_share_in_job); failures after it end the job (end_job_after).
std::optional<FoundAtHeld> find_findings_in_job(const MpiJob& job, const std::string& path,
                                                FindingSettings settings,
                                                const ReadOptions& options);

}  // namespace collwrap
