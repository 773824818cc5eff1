// Tracer overhead, measured side by side in one run: each measurement alternates blocks of
// PMPI_* calls (never intercepted: the untraced baseline) with blocks of the same MPI_* calls
// (intercepted when libcollwrap.so is preloaded). Without the preload both columns measure the
// same thing, which shows the noise floor.
//
//   tight loop:  MPI_Comm_rank, ns per call
//   sustained:   the same over 2 million calls on rank 0 alone, long enough that the tracer
//                writes its full event buffer to disk (best of 3 runs instead of blocks)
//   self pair:   0-byte MPI_Send + MPI_Recv to self, ns per pair (2 intercepted calls)
//   ping-pong:   1-byte round trip between ranks 0 and 1, us per round trip
//
// Blocks are short and alternate many times, so both columns see the same machine load. Rank 0
// prints one line per figure: "<name> <untraced> <traced>", each the minimum over blocks (the
// least disturbed block: on a shared machine other processes only ever add time). Run with 2
// ranks; see run_tracer_overhead.sh.
//
// usage: tracer_overhead [BLOCKS] [ping-pong]   (default 100 blocks; "ping-pong": that figure
// only, for runs over another transport)
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

int g_blocks = 100;
constexpr int kCallsPerBlock = 5000;
constexpr int kRoundTripsPerBlock = 200;

double minimum(const std::vector<double>& v) {
  return *std::min_element(v.begin(), v.end());
}

template <typename Body>
double ns_per_iteration(int iterations, Body body) {
  auto start = Clock::now();
  for (int i = 0; i < iterations; ++i) body();
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count() / iterations;
}

struct Figure {
  std::vector<double> untraced, traced;
};

Figure tight_loop() {
  Figure f;
  int rank = 0;
  for (int b = 0; b < g_blocks; ++b) {
    f.untraced.push_back(
        ns_per_iteration(kCallsPerBlock, [&] { PMPI_Comm_rank(MPI_COMM_WORLD, &rank); }));
    f.traced.push_back(
        ns_per_iteration(kCallsPerBlock, [&] { MPI_Comm_rank(MPI_COMM_WORLD, &rank); }));
  }
  return f;
}

Figure sustained_loop(int my_rank) {
  constexpr int kCalls = 2'000'000;
  Figure f;
  int rank = 0;
  for (int run = 0; run < 3 && my_rank == 0; ++run) {
    f.untraced.push_back(ns_per_iteration(kCalls, [&] { PMPI_Comm_rank(MPI_COMM_WORLD, &rank); }));
    f.traced.push_back(ns_per_iteration(kCalls, [&] { MPI_Comm_rank(MPI_COMM_WORLD, &rank); }));
  }
  return f;
}

Figure self_pair() {
  Figure f;
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_SELF, &rank);
  char byte = 0;
  for (int b = 0; b < g_blocks; ++b) {
    f.untraced.push_back(ns_per_iteration(kCallsPerBlock / 4, [&] {
      PMPI_Send(&byte, 0, MPI_BYTE, 0, 1, MPI_COMM_SELF);
      PMPI_Recv(&byte, 0, MPI_BYTE, 0, 1, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    }));
    f.traced.push_back(ns_per_iteration(kCallsPerBlock / 4, [&] {
      MPI_Send(&byte, 0, MPI_BYTE, 0, 1, MPI_COMM_SELF);
      MPI_Recv(&byte, 0, MPI_BYTE, 0, 1, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    }));
  }
  return f;
}

Figure ping_pong(int rank) {
  Figure f;
  char byte = 1;
  auto untraced = [&] {
    if (rank == 0) {
      PMPI_Send(&byte, 1, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
      PMPI_Recv(&byte, 1, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      PMPI_Recv(&byte, 1, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      PMPI_Send(&byte, 1, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
    }
  };
  auto traced = [&] {
    if (rank == 0) {
      MPI_Send(&byte, 1, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
      MPI_Recv(&byte, 1, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(&byte, 1, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&byte, 1, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
    }
  };
  for (int b = 0; b < g_blocks; ++b) {
    PMPI_Barrier(MPI_COMM_WORLD);
    f.untraced.push_back(ns_per_iteration(kRoundTripsPerBlock, untraced) / 1000);
    PMPI_Barrier(MPI_COMM_WORLD);
    f.traced.push_back(ns_per_iteration(kRoundTripsPerBlock, traced) / 1000);
  }
  return f;
}

void print(const char* name, const Figure& f) {
  std::printf("%s %.2f %.2f\n", name, minimum(f.untraced), minimum(f.traced));
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0) std::fprintf(stderr, "tracer_overhead: run with 2 ranks (ping-pong)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (argc > 1) g_blocks = std::max(1, std::atoi(argv[1]));
  const bool ping_pong_only = argc > 2 && std::strcmp(argv[2], "ping-pong") == 0;
  if (!ping_pong_only) {
    Figure loop = tight_loop();
    Figure sustained = sustained_loop(rank);
    PMPI_Barrier(MPI_COMM_WORLD);
    Figure pair = self_pair();
    if (rank == 0) {
      print("comm_rank_ns", loop);
      print("comm_rank_sustained_ns", sustained);
      print("self_send_recv_ns", pair);
    }
  }
  Figure pong = ping_pong(rank);
  if (rank == 0) print("ping_pong_us", pong);
  MPI_Finalize();
  return 0;
}
