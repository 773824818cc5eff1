// Writes a large synthetic OTF2 archive for the analyzer benchmark: the event mix of an
// iterative stencil code, laid out the way libcollwrap writes archives.
//
//   analyzer-bench-generate DIRECTORY [--events N] [--ranks R]
//
// Each iteration of each rank records (about 23 events):
//   halo exchange   MPI_Isend right, MPI_Irecv left, MPI_Waitall    (10 events)
//   pair exchange   MPI_Send / MPI_Recv with rank ^ 1, in turn        (6 events)
//   MPI_Allreduce   with MPI_CollectiveBegin/End                      (4 events)
//   MPI_Iprobe      no MPI record                                     (2 events)
//   every 8th: MPI_Bcast from rank 0 and MPI_Barrier                  (8 events)
// Times are consistent across ranks (no clock-condition violations).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "synthetic_archive.h"

namespace {

using collwrap::testing::LocationStream;
using collwrap::testing::SyntheticArchive;

struct Options {
  std::string directory;
  std::uint64_t events = 10'000'000;
  int ranks = 16;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--events" && i + 1 < argc) {
      o.events = std::strtoull(argv[++i], nullptr, 10);
    } else if (a == "--ranks" && i + 1 < argc) {
      o.ranks = std::atoi(argv[++i]);
    } else if (!a.empty() && a[0] != '-' && o.directory.empty()) {
      o.directory = a;
    } else {
      o.directory.clear();
      break;
    }
  }
  if (o.directory.empty() || o.ranks < 2 || o.events == 0) {
    std::fprintf(stderr, "usage: %s DIRECTORY [--events N] [--ranks R>=2]\n", argv[0]);
    std::exit(2);
  }
  return o;
}

struct Regions {
  std::uint32_t init, finalize, isend, irecv, waitall, send, recv, allreduce, iprobe, bcast,
      barrier;
  std::uint32_t at_init, at_halo, at_wait, at_pair, at_reduce, at_probe, at_bcast, at_barrier;
};

constexpr std::uint64_t kIterationNs = 20'000;
constexpr int kEventsPerIteration = 23;

void write_iteration(LocationStream& s, const Regions& g, int rank, int ranks, std::uint64_t i,
                     std::uint64_t t) {
  const auto right = static_cast<std::uint32_t>((rank + 1) % ranks);
  const auto left = static_cast<std::uint32_t>((rank + ranks - 1) % ranks);
  const std::uint64_t send_request = 2 * i + 1, recv_request = 2 * i + 2;
  constexpr std::uint32_t kWorld = 0;

  s.enter(t + 100, g.isend, g.at_halo);
  s.isend(t + 110, right, kWorld, 1, 4096, send_request);
  s.leave(t + 200, g.isend);
  s.enter(t + 300, g.irecv, g.at_halo);
  s.irecv_request(t + 310, recv_request);
  s.leave(t + 400, g.irecv);
  s.enter(t + 500, g.waitall, g.at_wait);
  s.isend_complete(t + 1500, send_request);
  s.irecv(t + 1510, left, kWorld, 1, 4096, recv_request);
  s.leave(t + 1600, g.waitall);

  const auto partner = static_cast<std::uint32_t>(rank ^ 1);
  if (partner < static_cast<std::uint32_t>(ranks)) {
    const bool sends_first = rank % 2 == 0;
    if (sends_first) {
      s.enter(t + 5000, g.send, g.at_pair);
      s.send(t + 5010, partner, kWorld, 2, 64);
      s.leave(t + 5100, g.send);
      s.enter(t + 5200, g.recv, g.at_pair);
      s.recv(t + 5890, partner, kWorld, 2, 64);
      s.leave(t + 5900, g.recv);
    } else {
      s.enter(t + 5000, g.recv, g.at_pair);
      s.recv(t + 5290, partner, kWorld, 2, 64);
      s.leave(t + 5300, g.recv);
      s.enter(t + 5400, g.send, g.at_pair);
      s.send(t + 5410, partner, kWorld, 2, 64);
      s.leave(t + 5500, g.send);
    }
  } else {  // the odd rank out talks to nobody but keeps the event count
    s.enter(t + 5000, g.iprobe, g.at_probe);
    s.leave(t + 5010, g.iprobe);
    s.enter(t + 5100, g.iprobe, g.at_probe);
    s.leave(t + 5110, g.iprobe);
  }

  s.enter(t + 10000 + 10 * rank, g.allreduce, g.at_reduce);
  s.collective_begin(t + 10001 + 10 * rank);
  s.collective_end(t + 12000, OTF2_COLLECTIVE_OP_ALLREDUCE, kWorld, OTF2_COLLECTIVE_ROOT_NONE, 8,
                   8);
  s.leave(t + 12010, g.allreduce);

  s.enter(t + 12500, g.iprobe, g.at_probe);
  s.leave(t + 12550, g.iprobe);

  if (i % 8 == 0) {
    s.enter(t + 13000 + 10 * rank, g.bcast, g.at_bcast);
    s.collective_begin(t + 13001 + 10 * rank);
    s.collective_end(t + 14000, OTF2_COLLECTIVE_OP_BCAST, kWorld, 0, rank == 0 ? 1024 : 0,
                     rank == 0 ? 0 : 1024);
    s.leave(t + 14010, g.bcast);
    s.enter(t + 15000 + 5 * rank, g.barrier, g.at_barrier);
    s.collective_begin(t + 15001 + 5 * rank);
    s.collective_end(t + 16000, OTF2_COLLECTIVE_OP_BARRIER, kWorld, OTF2_COLLECTIVE_ROOT_NONE, 0,
                     0);
    s.leave(t + 16010, g.barrier);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  constexpr std::uint64_t kStart = 1'000'000;  // the first event, as ClockProperties says
  SyntheticArchive a(o.directory, {.ranks = o.ranks,
                                   .nodes = (o.ranks + 7) / 8,
                                   .global_offset = kStart,
                                   .chunk_size = 1 << 20,
                                   .description = "collwrap analyzer benchmark"});
  Regions g{};
  g.init = a.region("MPI_Init");
  g.finalize = a.region("MPI_Finalize");
  g.isend = a.region("MPI_Isend");
  g.irecv = a.region("MPI_Irecv");
  g.waitall = a.region("MPI_Waitall");
  g.send = a.region("MPI_Send");
  g.recv = a.region("MPI_Recv");
  g.allreduce = a.region("MPI_Allreduce");
  g.iprobe = a.region("MPI_Iprobe");
  g.bcast = a.region("MPI_Bcast");
  g.barrier = a.region("MPI_Barrier");
  g.at_init = a.call_site("/bench/stencil.c", 12, "main");
  g.at_halo = a.call_site("/bench/stencil.c", 40, "exchange_halo");
  g.at_wait = a.call_site("/bench/stencil.c", 44, "exchange_halo");
  g.at_pair = a.call_site("/bench/stencil.c", 60, "exchange_pair");
  g.at_reduce = a.call_site("/bench/stencil.c", 75, "residual");
  g.at_probe = a.call_site("/bench/stencil.c", 80, "poll");
  g.at_bcast = a.call_site("/bench/stencil.c", 90, "update_parameters");
  g.at_barrier = a.call_site("/bench/stencil.c", 95, "checkpoint");

  const std::uint64_t iterations = std::max<std::uint64_t>(
      1, o.events / (static_cast<std::uint64_t>(o.ranks) * kEventsPerIteration));
  const std::uint64_t start = kStart, end = start + (iterations + 2) * kIterationNs;
  std::uint64_t events = 0;
  for (int r = 0; r < o.ranks; ++r) {
    LocationStream& s = a.location(r);
    s.clock_offset(0, 0, 50.0);
    s.clock_offset(end, 0, 80.0);
    s.enter(start, g.init, g.at_init);
    s.leave(start + 5000, g.init);
    for (std::uint64_t i = 0; i < iterations; ++i)
      write_iteration(s, g, r, o.ranks, i, start + (i + 1) * kIterationNs);
    s.enter(end - 1000, g.finalize, g.at_init);
    s.leave(end, g.finalize);
    events += s.events();
  }
  a.close();
  std::printf("%s: %llu events over %d locations (%llu iterations)\n", a.anchor().c_str(),
              static_cast<unsigned long long>(events), o.ranks,
              static_cast<unsigned long long>(iterations));
  return 0;
}
