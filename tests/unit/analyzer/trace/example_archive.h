// A small MPI program's trace, written as an OTF2 archive for the reader's tests:
//
//   every rank   MPI_Init                               (main, app.c:10)
//   `iterations` times:
//     rank 0     MPI_Send to 1, tag 5, 8 bytes           (exchange, app.c:20)
//     rank 1     MPI_Recv from 0                         (exchange, app.c:21)
//     rank 2     MPI_Send to 1 on "pair" = {2, 1}        (exchange, app.c:22)
//     rank 1     MPI_Recv from 2 on "pair"               (exchange, app.c:23)
//     every rank MPI_Barrier                             (main, app.c:30)
//   every rank   MPI_Finalize                            (main, app.c:40)
//
// Three ranks on two nodes (0, 1 on node0; 2 on node1); each location has clock offsets at
// its start and end. Iteration i starts at tick 10000 + 1000 * i.
#pragma once

#include <cstdint>
#include <string>

namespace collwrap::testing {

struct ExampleArchive {
  int iterations = 1;
  std::uint64_t timer_resolution = 1'000'000'000;
  std::uint64_t global_offset = 1000;
  bool record_trace_length = false;  // write ClockProperties' trace length (first to last event)
  std::int64_t rank1_offset_at_start = 0;  // clock offsets of rank 1, in ticks
  std::int64_t rank1_offset_at_end = 0;
  std::uint64_t chunk_size = 256 * 1024;

  static constexpr int kRanks = 3;
  static constexpr std::uint64_t kInitEnter = 1000;  // ticks
  static constexpr std::uint64_t kFirstIteration = 10000;
  static constexpr std::uint64_t kIterationTicks = 1000;

  std::uint64_t end_ticks() const { return kFirstIteration + kIterationTicks * iterations + 200; }
  // Writes the archive into `directory` (replaced) and returns the anchor file's path.
  std::string write(const std::string& directory) const;
};

}  // namespace collwrap::testing
