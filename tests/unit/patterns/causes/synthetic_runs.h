// Small hand-built runs with known waits, shared by the replay and root-cause tests.
#pragma once

#include <vector>

#include "delay_costs.h"
#include "matching.h"
#include "replay_graph.h"
#include "trace_builder.h"

namespace collwrap::testing {

// A trace with its matching and replay graph, built once.
struct TracedRun {
  Trace trace;
  Matching matching;
  ReplayGraph graph;
  explicit TracedRun(Trace t);
};

// A chain of delays over 3 ranks (times in ns): rank 0 computes 400 before its MPI_Send to
// rank 1 (sync.c:20), ranks 1 and 2 compute 100 before their MPI_Recv (sync.c:10); rank 1
// forwards to rank 2 as soon as its receive is done. Rank 1 waits 300 for rank 0, rank 2 waits
// 310 for rank 1, which only waited. Every rank starts with MPI_Init (sync.c:1, 0..10) and ends
// with MPI_Finalize (sync.c:30), which all leave at 440, 10 after ranks 1 and 2 enter it.
Trace delay_chain();

// Every rank computes work[r] ns after MPI_Init (0..10) and then calls MPI_Allreduce
// (sync.c:10, 10 ns after the last Enter), then MPI_Finalize (sync.c:30, 0..10 after).
Trace imbalance_before_allreduce(const std::vector<TimeNs>& work);

// A load that moves: 4 ranks, 4 rounds of compute and MPI_Allreduce (sync.c:10, 10 ns after the
// last Enter); in round i rank i computes 400, the others 100. Then MPI_Finalize (sync.c:30).
Trace moving_imbalance();

// A run of 4 ranks with uneven compute (the same on every build): each of `iterations` posts a
// receive from the left neighbour and a send to the right one, and waits for both; every 5th
// iteration ends in an MPI_Allreduce (which the ranks leave 3 ns apart), every 7th in an
// MPI_Bcast from rank 1. Transfers take 20 ns and the recorded times keep the clock condition,
// as the clock repair leaves them.
Trace neighbours_and_collectives(int iterations = 40);

// Expects every call's delay costs, the sums and the charges (in the order first charged) of
// `actual` to be `expected`'s, to the bit.
void expect_same_delay_costs(const DelayCosts& actual, const DelayCosts& expected);

}  // namespace collwrap::testing
