// From a matched trace to the root causes of its waiting, the critical path, the POP
// efficiencies and the gain of fixing each cause: replay (analyzer/replay), delay costs,
// critical path, ideal-network replay, then one what-if replay per estimated cause and per
// question asked.
#pragma once

#include <memory>
#include <vector>

#include "cause_result.h"
#include "matching.h"
#include "what_if.h"

namespace collwrap {

struct CauseOptions {
  bool enabled = true;
  std::size_t estimated_causes = 20;  // root causes whose gain is estimated by a replay
  std::size_t top_segments = 10;      // critical-path segments and call sites listed
  std::vector<WhatIfSpec> what_ifs;
  // The path's pieces for the HTML report's timeline, one per stay on a location: as many as
  // the path's changes of rank (about half the calls of a tightly coupled run), so they are
  // kept only when the timeline is drawn.
  bool critical_path_pieces = false;
};

class CauseFinder;

// The root-cause analysis in two steps, so that its caller may free before and in between
// what they do not read (release_details_for_root_causes). Preparing it (the constructor)
// builds the replay graph and the compute segment types: it reads the calls, the matching but
// message_of_op, and of the ops only op_kind, op_peer and op_call. run() then reads only the
// calls, op_kind, op_peer and the definitions.
//
// `threads`: the cores it may use (0: one per core); the result does not depend on it. The
// what-if replays hold the Enters of two replays per two threads, and of two on one (8 bytes
// per call each), and the lists of the segments their questions change: on one thread both
// run in one pass (replay_ends), on more each on a thread of its own.
class RootCauseAnalysis {
 public:
  RootCauseAnalysis(const Trace& trace, const Matching& matching, const CauseOptions& options,
                    unsigned threads = 0);
  RootCauseAnalysis(RootCauseAnalysis&&) noexcept;
  RootCauseAnalysis& operator=(RootCauseAnalysis&&) noexcept;
  ~RootCauseAnalysis();

  CauseAnalysis run();  // once

 private:
  std::unique_ptr<CauseFinder> finder_;
};

// When the owner of a trace and its matching may free what the root-cause analysis does not
// read, so that its replay graph does not add to them at the analyzer's peak.
enum class RootCauseStage {
  BeforePreparing,  // the op columns but op_kind, op_peer and op_call; message_of_op
  AfterPreparing,   // op_call too, and the rest of the matching
};

// Frees what the root-cause analysis does not read from `stage` on, and gives the freed
// pages back to the system.
void release_details_for_root_causes(Trace& trace, Matching& matching, RootCauseStage stage);

// Both steps at once.
CauseAnalysis find_root_causes(const Trace& trace, const Matching& matching,
                               const CauseOptions& options, unsigned threads = 0);

}  // namespace collwrap
