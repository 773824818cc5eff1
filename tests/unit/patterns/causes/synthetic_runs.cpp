#include "synthetic_runs.h"

#include <algorithm>

namespace collwrap::testing {

TracedRun::TracedRun(Trace t)
    : trace(std::move(t)),
      matching(match_trace(trace)),
      graph(build_replay_graph(trace, matching)) {}

// Messages arrive as their send ends; MPI_Finalize synchronizes the ranks: it ends together on
// all of them, 10 ns after the last enters.
Trace delay_chain() {
  TraceBuilder b(3);
  for (int r = 0; r < 3; ++r) b.call(r, "MPI_Init", 0, 10, "sync.c", 1);
  b.send(b.call(0, "MPI_Send", 410, 420, "sync.c", 20), 1, 0, 8);
  b.call(0, "MPI_Finalize", 420, 440, "sync.c", 30);
  b.recv(b.call(1, "MPI_Recv", 110, 420, "sync.c", 10), 0, 0, 8);
  b.send(b.call(1, "MPI_Send", 420, 430, "sync.c", 20), 2, 0, 8);
  b.call(1, "MPI_Finalize", 430, 440, "sync.c", 30);
  b.recv(b.call(2, "MPI_Recv", 110, 430, "sync.c", 10), 1, 0, 8);
  b.call(2, "MPI_Finalize", 430, 440, "sync.c", 30);
  return b.finish();
}

Trace imbalance_before_allreduce(const std::vector<TimeNs>& work) {
  const int ranks = static_cast<int>(work.size());
  TraceBuilder b(ranks);
  const TimeNs last = 10 + *std::max_element(work.begin(), work.end());
  for (int r = 0; r < ranks; ++r) {
    b.call(r, "MPI_Init", 0, 10, "sync.c", 1);
    b.collective(b.call(r, "MPI_Allreduce", 10 + work[r], last + 10, "sync.c", 10),
                 CollOp::Allreduce, 0, kNoWorldRank, 8, 8);
    b.call(r, "MPI_Finalize", last + 10, last + 20, "sync.c", 30);
  }
  return b.finish();
}

Trace moving_imbalance() {
  constexpr int kRanks = 4;
  TraceBuilder b(kRanks);
  for (int r = 0; r < kRanks; ++r) b.call(r, "MPI_Init", 0, 10, "sync.c", 1);
  TimeNs start = 10;
  for (int round = 0; round < kRanks; ++round) {
    const TimeNs end = start + 400 + 10;
    for (int r = 0; r < kRanks; ++r)
      b.collective(b.call(r, "MPI_Allreduce", start + (r == round ? 400 : 100), end, "sync.c", 10),
                   CollOp::Allreduce, 0, kNoWorldRank, 8, 8);
    start = end;
  }
  for (int r = 0; r < kRanks; ++r) b.call(r, "MPI_Finalize", start, start + 10, "sync.c", 30);
  return b.finish();
}

}  // namespace collwrap::testing
