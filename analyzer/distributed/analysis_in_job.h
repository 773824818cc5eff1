// The analysis divided among the processes of an MPI job, each holding only its share of the
// archive's locations: a process reads its share, sends the others the ghosts of it they need
// (ghost_selection.h), matches and runs the rules on its partial trace, and makes the findings
// and the report's parts at its own locations only; process 0 merges what all made into the
// result the analyzer alone gives. No process holds more than its share and its ghosts.
//
// The clock repair runs so too: each process repairs its own locations, and its ghosts take
// their holders' times after every pass (clock_repair_in_job.h). Only rules that read no more
// than that run so (runs_divided); the root-cause analysis runs in slices of time over the
// processes (root_causes_in_job.h), on a trace whose clocks are repaired: can_divide says when
// a job can analyze so.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "analyze.h"
#include "mpi_job.h"
#include "partial_trace.h"
#include "trace_reader.h"

namespace collwrap {

// Whether the settings ask only for what the divided analysis gives: rules of runs_divided,
// and root causes only of a trace whose clocks are repaired (`clock_repair`), which the
// slices of time the replays are cut into need.
bool can_divide(const AnalysisSettings& settings, bool clock_repair);

// What a process of a divided analysis holds once it has read its share, received the others'
// ghosts of it, matched them and, when asked, repaired the clocks with the others.
struct HeldShare {
  std::vector<LocationRange> shares;  // every process's
  std::uint64_t timer_resolution = 0;
  PartialTrace part;
  std::unique_ptr<CollectiveDigests> digests;  // which `matching` reads; none without
  Matching matching;
  std::vector<LocationReport> reports;  // what reading said of its locations
  std::vector<std::string> archive_messages;
};

// The divided analysis up to the rules, for every process; `phase` as for analyze_in_job.
HeldShare hold_share_in_job(const MpiJob& job, const std::string& path,
                            const AnalysisSettings& settings, bool clock_repair,
                            const ReadProgress& progress,
                            const std::function<void(std::string_view)>& phase);

// Process 0's result; nullopt on the others. `phase` is told of each phase after reading, as the
// analyzer alone's progress is: matching, clock repair (with `clock_repair`), patterns. Failures
// while reading end every process alike (read_share_in_job: exceptions thrown on every process);
// failures after it end the job (end_job_after). std::invalid_argument unless can_divide.
std::optional<AnalysisResult> analyze_in_job(const MpiJob& job, const std::string& path,
                                             const AnalysisSettings& settings, bool clock_repair,
                                             const ReadProgress& progress,
                                             const std::function<void(std::string_view)>& phase);

}  // namespace collwrap
