#include "divided_trace.h"

#include <algorithm>

#include "every_pattern_trace.h"
#include "ghost_selection.h"
#include "request_linkage.h"
#include "trace_builder.h"

namespace collwrap {

// Each step, one thread of every rank sends to the next rank, whose other thread receives it:
// blocking or nonblocking on both ends, with three tags, so that both threads of a rank send on
// one key (a mixed key). Besides: messages on a communicator of ranks 0 and 2; over the world
// MPI_Allreduce, MPI_Reduce, MPI_Barrier, MPI_Scan, MPI_Ibarrier and an
// MPI_Neighbor_allgather on a ring; an MPI_Bcast over ranks 1-3; a cancelled send followed by
// one received on its key; a send nobody receives; and at the end the shapes below.
Trace varied_trace() {
  TraceBuilder b(kVariedRanks, kVariedThreads);
  const std::uint32_t pair = b.comm({0, 2}, "pair");
  const std::uint32_t upper = b.comm({1, 2, 3}, "upper");
  const std::uint32_t ring = b.topology_comm({0, 1, 2, 3}, {{3, 1}, {0, 2}, {1, 3}, {2, 0}});
  b.role("MPI_Neighbor_allgather", RegionRole::CollOther);
  std::uint64_t request = 1;
  // Deterministic offsets in [0, 100), so that some senders and some receivers are late.
  unsigned seed = 12345;
  const auto jitter = [&seed] {
    seed = seed * 1103515245u + 12345u;
    return static_cast<TimeNs>((seed >> 16) % 100);
  };
  for (int step = 0; step < 12; ++step) {
    const TimeNs t0 = 10000 * step;
    const int sender = step % kVariedThreads, receiver = (step + 1) % kVariedThreads,
              tag = step % 3;
    const std::uint64_t bytes = step % 5 == 0 ? 1 << 20 : 8 + step;  // some above any eager limit
    for (int r = 0; r < kVariedRanks; ++r) {
      const int to = (r + 1) % kVariedRanks;
      const TimeNs s = t0 + jitter(), v = t0 + jitter();  // send and receive begin
      if ((step + r) % 2 == 0) {
        b.send(b.call(r, "MPI_Send", s, std::max(s, v) + 20, "v.c", 10, sender), to, tag, bytes);
      } else {
        const std::uint64_t id = request++;
        b.isend(b.call(r, "MPI_Isend", s, s + 2, "v.c", 11, sender), to, tag, bytes, id);
        b.isend_complete(b.call(r, "MPI_Wait", s + 10 + jitter(), v + 150, "v.c", 12, sender), id);
      }
      if (step % 3 == 0) {
        b.recv(b.call(to, "MPI_Recv", v, std::max(s, v) + 30, "v.c", 20, receiver), r, tag, bytes);
      } else {
        const std::uint64_t id = request++;
        b.irecv_request(b.call(to, "MPI_Irecv", v, v + 2, "v.c", 21, receiver), id);
        b.irecv(b.call(to, "MPI_Wait", v + 5 + jitter(), std::max(s, v) + 140, "v.c", 22, receiver),
                r, tag, bytes, id);
      }
    }
    if (step % 4 == 1) {
      const TimeNs s = t0 + 1000 + jitter(), v = t0 + 1000 + jitter();
      b.send(b.call(0, "MPI_Send", s, std::max(s, v) + 10, "v.c", 30, sender), 2, 5, 16, pair);
      b.recv(b.call(2, "MPI_Recv", v, std::max(s, v) + 15, "v.c", 31, receiver), 0, 5, 16, pair);
    }
    if (step % 3 == 2) {
      for (int r = 0; r < kVariedRanks; ++r)
        b.collective(
            b.call(r, "MPI_Allreduce", t0 + 2000 + jitter(), t0 + 2150 + jitter(), "v.c", 40),
            CollOp::Allreduce, 0, kNoWorldRank, 8, 8);
      for (int r = 0; r < kVariedRanks; ++r)
        b.collective(b.call(r, "MPI_Reduce", t0 + 2500 + jitter(), t0 + 2650, "v.c", 43),
                     CollOp::Reduce, 0, 1, r == 1 ? 0 : 8, r == 1 ? 32 : 0);
      for (int r = 1; r < kVariedRanks; ++r)
        b.collective(b.call(r, "MPI_Bcast", t0 + 3000 + jitter(), t0 + 3150, "v.c", 41, 1),
                     CollOp::Bcast, upper, 2, r == 2 ? 64 : 0, r == 2 ? 0 : 64);
    }
    if (step % 3 == 1)
      for (int r = 0; r < kVariedRanks; ++r)
        b.collective(
            b.call(r, "MPI_Barrier", t0 + 2000 + jitter(), t0 + 2150 + jitter(), "v.c", 42),
            CollOp::Barrier);
    if (step % 4 == 0) {
      for (int r = 0; r < kVariedRanks; ++r)
        b.collective(b.call(r, "MPI_Scan", t0 + 3500 + jitter(), t0 + 3650, "v.c", 44),
                     CollOp::Scan, 0, kNoWorldRank, 8, 8);
      for (int r = 0; r < kVariedRanks; ++r)
        b.collective(
            b.call(r, "MPI_Neighbor_allgather", t0 + 3700 + jitter(), t0 + 3850, "v.c", 45, 1),
            CollOp::Allgather, ring, kNoWorldRank, 8, 16);
    }
    if (step % 4 == 3) {
      for (int r = 0; r < kVariedRanks; ++r) {
        const std::uint64_t id = request++;
        const TimeNs post = t0 + 4000 + jitter();
        b.nbc_request(b.call(r, "MPI_Ibarrier", post, post + 5, "v.c", 50, 1), id);
        b.nbc_complete(b.call(r, "MPI_Wait", t0 + 4100 + jitter(), t0 + 4250, "v.c", 51, 1),
                       CollOp::Barrier, id);
      }
    }
    if (step == 5) {
      const std::uint64_t id = request++;
      b.isend(b.call(3, "MPI_Isend", t0 + 5000, t0 + 5001, "v.c", 60), 0, 9, 4, id);
      b.request_cancelled(b.call(3, "MPI_Wait", t0 + 5010, t0 + 5020, "v.c", 61), id);
      // Sent again on the same key: the receive takes this one, not the cancelled one.
      b.send(b.call(3, "MPI_Send", t0 + 5060, t0 + 5070, "v.c", 62), 0, 9, 4);
      b.recv(b.call(0, "MPI_Recv", t0 + 5030, t0 + 5080, "v.c", 63), 3, 9, 4);
    }
    if (step == 7) b.send(b.call(1, "MPI_Send", t0 + 6000, t0 + 6010, "v.c", 70, 1), 3, 42, 4);
  }
  // What the matching counts besides messages and instances: a receive nobody sends to, a
  // send on a communicator the archive does not define, a completion of a request never
  // posted, a barrier only one member of its communicator calls, and a message received before
  // it was sent (a clock violation).
  b.recv(b.call(2, "MPI_Recv", 150000, 150100, "v.c", 80, 1), 1, 77, 4);
  b.send(b.call(1, "MPI_Send", 150000, 150010, "v.c", 81), 0, 1, 4, 999);
  b.isend_complete(b.call(0, "MPI_Wait", 150000, 150010, "v.c", 82), 999999);
  b.collective(b.call(0, "MPI_Barrier", 151000, 151100, "v.c", 83), CollOp::Barrier, pair);
  b.send(b.call(2, "MPI_Send", 160000, 160010, "v.c", 84), 3, 88, 4);
  b.recv(b.call(3, "MPI_Recv", 155000, 159000, "v.c", 85), 2, 88, 4);
  // Ranks 0 and 1 exchange with a send and a receive back to back (MPI_Sendrecv would do), and
  // rank 2 waits for rank 3's late message while rank 0's had already arrived (wrong order).
  b.send(b.call(0, "MPI_Send", 165000, 165020, "v.c", 86), 1, 89, 4);
  b.recv(b.call(0, "MPI_Recv", 165025, 165100, "v.c", 87), 1, 89, 4);
  b.recv(b.call(1, "MPI_Recv", 165000, 165030, "v.c", 86), 0, 89, 4);
  b.send(b.call(1, "MPI_Send", 165035, 165050, "v.c", 87), 0, 89, 4);
  b.send(b.call(0, "MPI_Send", 168000, 168010, "v.c", 88), 2, 91, 4);
  b.recv(b.call(2, "MPI_Recv", 170000, 175000, "v.c", 89), 3, 90, 4);
  b.send(b.call(3, "MPI_Send", 174000, 174010, "v.c", 90), 2, 90, 4);
  b.recv(b.call(2, "MPI_Recv", 175100, 175200, "v.c", 91), 0, 91, 4);
  // A barrier that ranks 0-2 left before rank 3 entered it (clock violations of a collective).
  for (int r = 0; r < kVariedRanks; ++r)
    b.collective(
        b.call(r, "MPI_Barrier", r == 3 ? 178500 : 178000, r == 3 ? 178600 : 178100, "v.c", 94),
        CollOp::Barrier);
  // Rank 1 puts to rank 2: many small puts from one call site, then a large one.
  for (int i = 0; i < 120; ++i)
    b.put(b.call(1, "shmem_putmem", 180000 + 100 * i, 180050 + 100 * i, "v.c", 92), 2, 8);
  b.put(b.call(1, "shmem_putmem", 200000, 230000, "v.c", 93), 2, 1 << 20);
  // A UPC split-phase barrier: rank 3 notifies last, rank 1 enters upc_wait last; the others
  // wait from their upc_wait for rank 3's notify (wait_at_barrier joins at the upc_notify).
  for (int r = 0; r < kVariedRanks; ++r) {
    b.call(r, "upc_notify", r == 3 ? 235300 : 235000, (r == 3 ? 235300 : 235000) + 1, "v.c", 98);
    const TimeNs wait = r == 1 ? 235500 : r == 3 ? 235350 : 235200;
    b.collective(b.call(r, "upc_wait", wait, 235600, "v.c", 99), CollOp::Barrier);
  }
  // A fence epoch of an MPI window over the world in which rank 0 gets from rank 2: both stay
  // in the closing fence after rank 3 entered it (rma_early_fence), rank 2 for rank 0's get.
  b.role("MPI_Win_fence", RegionRole::Rma);
  for (int r = 0; r < kVariedRanks; ++r)
    b.collective(b.call(r, "MPI_Win_fence", 240000, 240010, "v.c", 95), CollOp::Barrier);
  b.get(b.call(0, "MPI_Get", 240100, 240110, "v.c", 96), 2, 8);
  for (int r = 0; r < kVariedRanks; ++r)
    b.collective(b.call(r, "MPI_Win_fence", 241000 + (r == 3 ? 500 : 0), 242000, "v.c", 97),
                 CollOp::Barrier);
  return b.finish();
}

Trace star_trace() {
  TraceBuilder b(kVariedRanks, kVariedThreads);
  for (int round = 0; round < 3; ++round) {
    const TimeNs t0 = 100000 * round;
    // When each worker's result is sent: rank 1 is slow.
    const TimeNs result[kVariedRanks] = {0, t0 + 9000, t0 + 5500, t0 + 6500};
    for (int w = 1; w < kVariedRanks; ++w) {
      const TimeNs handout = t0 + 1000 * w;  // rank 0 is busy between its hand-outs
      const std::uint64_t bytes = w == 3 ? 1 << 20 : 64;
      b.send(b.call(0, "MPI_Send", handout, handout + 20, "s.c", 10), w, 1, bytes);
      b.recv(b.call(w, "MPI_Recv", t0 + 100, handout + 30, "s.c", 20), 0, 1, bytes);
      b.send(b.call(w, "MPI_Send", result[w], result[w] + 20, "s.c", 21, 1), 0, 2, 64);
    }
    // A second piece for rank 2, handed out while rank 0 waits for rank 1's result: most of
    // rank 2's wait for it is rank 0's own wait, not its being busy.
    b.send(b.call(0, "MPI_Send", t0 + 6000, t0 + 6020, "s.c", 14), 2, 3, 64);
    b.recv(b.call(2, "MPI_Recv", t0 + 5200, t0 + 6030, "s.c", 22), 0, 3, 64);
    // Rank 0 takes the results from ranks 2, 1 and 3, in that order.
    b.recv(b.call(0, "MPI_Recv", t0 + 5000, t0 + 5530, "s.c", 11, 1), 2, 2, 64);
    b.recv(b.call(0, "MPI_Recv", t0 + 5540, t0 + 9030, "s.c", 12, 1), 1, 2, 64);
    b.recv(b.call(0, "MPI_Recv", t0 + 9040, t0 + 9070, "s.c", 13, 1), 3, 2, 64);
  }
  return b.finish();
}

Trace digested_collectives_trace() {
  TraceBuilder b(kVariedRanks);
  const std::uint32_t middle = b.comm({1, 2}, "middle");
  const std::uint32_t ends = b.comm({0, 3}, "ends");
  const std::uint32_t synced = b.comm({0, 1, 2, 3}, "upc synced");
  const std::uint32_t split = b.comm({0, 1, 2, 3}, "split phase");
  const TimeNs step = 1000;
  for (int round = 0; round < 2; ++round) {
    const TimeNs t = 10000 * round;
    // A barrier that ranks 1 and 3 join last together, and ranks 0 and 2 leave first together.
    const TimeNs barrier_enter[] = {100, 300, 200, 300}, barrier_leave[] = {350, 400, 350, 400};
    // An allreduce that rank 3 leaves before rank 1 enters (a clock violation).
    const TimeNs reduce_enter[] = {500, 650, 520, 540}, reduce_leave[] = {700, 700, 700, 600};
    // A broadcast whose root, rank 2, is late; rank 1 leaves before it enters.
    const TimeNs bcast_enter[] = {800, 810, 900, 820}, bcast_leave[] = {950, 880, 950, 950};
    for (int r = 0; r < kVariedRanks; ++r) {
      const CallRef barrier =
          b.call(r, "MPI_Barrier", t + barrier_enter[r], t + barrier_leave[r], "d.c", 10);
      b.collective(barrier, CollOp::Barrier);
      const CallRef reduce =
          b.call(r, "MPI_Allreduce", t + reduce_enter[r], t + reduce_leave[r], "d.c", 20);
      b.collective(reduce, CollOp::Allreduce, 0, kNoWorldRank, 8, 8);
      const CallRef bcast =
          b.call(r, "MPI_Bcast", t + bcast_enter[r], t + bcast_leave[r], "d.c", 30);
      // In the second round only the root's record says that data moved.
      b.collective(bcast, CollOp::Bcast, 0, 2, r == 2 ? 64 : 0, r != 2 && round == 0 ? 64 : 0);
      // Ranks 1 and 2 on their own communicator: digested too; ranks 0 and 3 scan theirs, whose
      // members travel as ghosts.
      if (r == 1 || r == 2) {
        const CallRef own = b.call(r, "MPI_Barrier", t + step + 100 * r, t + step + 300, "d.c", 40);
        b.collective(own, CollOp::Barrier, middle);
      } else {
        const CallRef scan = b.call(r, "MPI_Scan", t + step + 50 * r, t + step + 400, "d.c", 50);
        b.collective(scan, CollOp::Scan, ends, kNoWorldRank, 8, 8);
      }
      // A reduction to rank 1, which leaves before ranks 2 and 3 enter (a clock violation);
      // they enter together, last of the others.
      const TimeNs reduce_to_enter[] = {2100, 2050, 2200, 2200};
      const CallRef to_root =
          b.call(r, "MPI_Reduce", t + reduce_to_enter[r], t + (r == 1 ? 2150 : 2300), "d.c", 90);
      b.collective(to_root, CollOp::Reduce, 0, 1, r == 1 ? 0 : 8, r == 1 ? 24 : 0);
    }
  }
  for (int r = 0; r < kVariedRanks; ++r) {
    // Rank 3 calls another collective than the others: a mismatched instance.
    const CallRef reduce =
        b.call(r, r == 3 ? "MPI_Allgather" : "MPI_Allreduce", 30000 + 10 * r, 30100, "d.c", 60);
    b.collective(reduce, r == 3 ? CollOp::Allgather : CollOp::Allreduce, 0, kNoWorldRank, 8, 8);
    // Collectives whose members join otherwise than at their Enter: not digested.
    const CallRef exchange = b.call(r, "upc_all_exchange", 31000 + 10 * r, 31100, "d.c", 70);
    b.upc_sync(exchange, b.collective(exchange, CollOp::Alltoall, synced, kNoWorldRank, 8, 8),
               UpcSync::My, UpcSync::My);
    b.call(r, "upc_notify", 32000 + 10 * r, 32010, "d.c", 80);
    const CallRef wait = b.call(r, "upc_wait", 32100 + 10 * r, 32200, "d.c", 81);
    b.collective(wait, CollOp::Barrier, split);
  }
  return b.finish();
}

std::vector<Trace> divided_test_traces() {
  std::vector<Trace> traces;
  traces.push_back(varied_trace());
  traces.push_back(star_trace());
  traces.push_back(digested_collectives_trace());
  traces.push_back(testing::every_pattern_trace());
  return traces;
}

std::vector<std::uint64_t> events_per_location(const Trace& trace) {
  std::vector<std::uint64_t> events;
  for (const Location& l : trace.locations) events.push_back(2 * l.calls() + l.ops());
  return events;
}

std::vector<std::uint8_t> divided_digested_comms(const Trace& whole,
                                                 const std::vector<LocationRange>& shares) {
  std::vector<std::uint8_t> least(whole.comms.size(), kNoInstance);
  for (const LocationRange& share : shares) {
    const std::vector<std::uint8_t> mine = digestible_communicators(whole, share);
    for (std::size_t c = 0; c < least.size(); ++c) least[c] = std::min(least[c], mine[c]);
  }
  return least;
}

CollectiveDigests divided_digests(const Trace& whole, const std::vector<LocationRange>& shares) {
  return *divide(whole, shares).digests;
}

PartialTrace partial_trace(const Trace& whole, const std::vector<LocationRange>& shares,
                           unsigned self, const std::vector<std::uint8_t>* digested_comms) {
  const ProcessMap map(whole, shares);
  Matching links;
  link_requests(whole, links, 1);
  PartialTrace part{whole, shares[self], {}, {}};
  for (std::size_t l = 0; l < whole.locations.size(); ++l) {
    if (part.holds(static_cast<std::uint32_t>(l))) continue;
    part.trace.locations[l] = part.trace.locations[l].definition_only();
  }
  // What exchange_ghosts sends this process: of every other process's locations, the ops
  // this one needs.
  for (std::uint32_t l = 0; l < whole.locations.size(); ++l) {
    if (part.holds(l)) continue;
    const GhostSelection needs = select_ghosts(whole, links, l, map, digested_comms).at(self);
    if (!needs.empty())
      part.install({l, extract_ghost(whole.locations[l], needs.ops, needs.calls)});
  }
  return part;
}

DividedTrace divide(const Trace& whole, const std::vector<LocationRange>& shares, Digests digests) {
  DividedTrace divided;
  std::vector<std::uint8_t> comms;
  const std::vector<std::uint8_t>* digested = nullptr;
  if (digests == Digests::Made) {
    comms = divided_digested_comms(whole, shares);
    digested = &comms;
  }
  for (unsigned self = 0; self < shares.size(); ++self) {
    divided.parts.push_back(partial_trace(whole, shares, self, digested));
    divided.matchings.push_back(match_trace(divided.parts.back().trace, 1, shares[self], digested));
  }
  if (!digested) return divided;
  // Each process digests its members, the parts are merged in process order, and each process
  // takes the digests.
  auto merged = std::make_shared<CollectiveDigests>();
  for (unsigned self = 0; self < shares.size(); ++self)
    *merged = merge_digests(
        *merged, partial_digests(divided.parts[self].trace, divided.matchings[self], comms));
  for (unsigned self = 0; self < shares.size(); ++self)
    apply_digests(divided.parts[self].trace, divided.matchings[self], *merged, shares[self]);
  divided.digests = merged;
  return divided;
}

TrafficTotals divided_totals(const std::vector<PartialTrace>& parts,
                             const std::vector<Matching>& matchings, const RuleOptions& options) {
  TrafficTotals totals;
  for (std::size_t p = 0; p < parts.size(); ++p)
    merge_pair_traffic(totals.pairs, pair_traffic(parts[p].trace, matchings[p], parts[p].held));
  const std::int32_t master = master_of(totals.pairs, parts.at(0).trace.world_size);
  totals.master.master = master;
  if (master == kNoWorldRank) return totals;
  for (std::size_t p = 0; p < parts.size(); ++p)
    merge_master_traffic(totals.master, master_traffic({parts[p].trace, matchings[p], options},
                                                       master, parts[p].held));
  return totals;
}

}  // namespace collwrap
