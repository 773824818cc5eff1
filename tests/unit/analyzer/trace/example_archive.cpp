#include "example_archive.h"

#include "synthetic_archive.h"

namespace collwrap::testing {

std::string ExampleArchive::write(const std::string& directory) const {
  SyntheticArchive a(directory, {.ranks = kRanks,
                                 .nodes = 2,
                                 .timer_resolution = timer_resolution,
                                 .global_offset = global_offset,
                                 .trace_length = record_trace_length ? end_ticks() - kInitEnter : 0,
                                 .chunk_size = chunk_size,
                                 .description = "example"});
  const auto init = a.region("MPI_Init");
  const auto send = a.region("MPI_Send");
  const auto recv = a.region("MPI_Recv");
  const auto barrier = a.region("MPI_Barrier");
  const auto finalize = a.region("MPI_Finalize");
  const auto at_init = a.call_site("/src/app.c", 10, "main");
  const auto at_send0 = a.call_site("/src/app.c", 20, "exchange");
  const auto at_recv0 = a.call_site("/src/app.c", 21, "exchange");
  const auto at_send2 = a.call_site("/src/app.c", 22, "exchange");
  const auto at_recv2 = a.call_site("/src/app.c", 23, "exchange");
  const auto at_barrier = a.call_site("/src/app.c", 30, "main");
  const auto at_finalize = a.call_site("/src/app.c", 40, "main");
  const auto pair = a.comm({2, 1}, "pair");  // rank 0 in "pair" is world rank 2

  for (int r = 0; r < kRanks; ++r) {
    LocationStream& s = a.location(r);
    const std::int64_t start = r == 1 ? rank1_offset_at_start : 0;
    const std::int64_t end = r == 1 ? rank1_offset_at_end : 0;
    s.clock_offset(0, start, 2.0);
    s.clock_offset(end_ticks(), end, 4.0);
    s.enter(kInitEnter, init, at_init);
    s.leave(kInitEnter + 1000, init);
    for (int i = 0; i < iterations; ++i) {
      const std::uint64_t t = kFirstIteration + kIterationTicks * i;
      if (r == 0) {
        s.enter(t + 100, send, at_send0);
        s.send(t + 110, 1, a.world(), 5, 8);
        s.leave(t + 150, send);
      } else if (r == 1) {
        s.enter(t + 50, recv, at_recv0);
        s.recv(t + 190, 0, a.world(), 5, 8);
        s.leave(t + 200, recv);
        s.enter(t + 250, recv, at_recv2);
        s.recv(t + 390, 0, pair, 6, 16);
        s.leave(t + 400, recv);
      } else {
        s.enter(t + 300, send, at_send2);
        s.send(t + 310, 1, pair, 6, 16);
        s.leave(t + 350, send);
      }
      s.enter(t + 500, barrier, at_barrier);
      s.collective_begin(t + 501);
      s.collective_end(t + 590, OTF2_COLLECTIVE_OP_BARRIER, a.world(), OTF2_COLLECTIVE_ROOT_NONE, 0,
                       0);
      s.leave(t + 600, barrier);
    }
    const std::uint64_t t = kFirstIteration + kIterationTicks * iterations;
    s.enter(t, finalize, at_finalize);
    s.leave(t + 200, finalize);
  }
  a.close();
  return a.anchor();
}

}  // namespace collwrap::testing
