// One call family in a loop, timed, for whole-run overhead comparisons: run_whole_run_overhead.sh
// starts this program as separate processes with and without libcollwrap.so preloaded and
// compares the MPI_* figures of the two runs (what a user sees). Each run also times the same
// loop through PMPI_* (never intercepted), so a traced run gives the in-process figure too.
//
// Families (each is ns per call, except ping-pong: ns per round trip):
//   comm_rank   MPI_Comm_rank
//   iprobe      MPI_Iprobe(MPI_ANY_SOURCE) with nothing pending
//   test        MPI_Test on a receive that stays pending
//   testall     MPI_Testall on two receives that stay pending
//   send_recv   blocking 0-byte MPI_Send + MPI_Recv to self (2 calls)
//   isend_wait  MPI_Irecv + MPI_Isend + 2 MPI_Wait to self, 1 byte (4 calls)
//   allreduce   MPI_Allreduce of one int over both ranks
//   ping_pong   1-byte MPI_Send/MPI_Recv round trip between ranks 0 and 1
//
// Rank 0 prints "<family> <MPI_* ns> <PMPI_* ns>". Both loops run in blocks that alternate, and
// each figure is the median block, so both see the same load.
//
// usage: call_family_loop FAMILY [CALLS]   (default 100000 calls per loop; run with 2 ranks)
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kBlocks = 10;
constexpr int kPendingTag = 77;  // never sent until the loops are over

// The MPI functions one loop calls: the MPI_* or the PMPI_* entry points.
struct Api {
  int (*comm_rank)(MPI_Comm, int*);
  int (*iprobe)(int, int, MPI_Comm, int*, MPI_Status*);
  int (*test)(MPI_Request*, int*, MPI_Status*);
  int (*testall)(int, MPI_Request*, int*, MPI_Status*);
  int (*send)(const void*, int, MPI_Datatype, int, int, MPI_Comm);
  int (*recv)(void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status*);
  int (*isend)(const void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*);
  int (*irecv)(void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*);
  int (*wait)(MPI_Request*, MPI_Status*);
  int (*allreduce)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm);
};

const Api kTraced{MPI_Comm_rank, MPI_Iprobe, MPI_Test,  MPI_Testall, MPI_Send,
                  MPI_Recv,      MPI_Isend,  MPI_Irecv, MPI_Wait,    MPI_Allreduce};
const Api kUntraced{PMPI_Comm_rank, PMPI_Iprobe, PMPI_Test,  PMPI_Testall, PMPI_Send,
                    PMPI_Recv,      PMPI_Isend,  PMPI_Irecv, PMPI_Wait,    PMPI_Allreduce};

struct Context {
  int rank = 0;
  int peer = 1;
  MPI_Request pending[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  char byte = 0;
};

// Runs `iterations` of one family's body; returns the number of MPI calls made per iteration.
int run(const char* family, const Api& api, Context& c, int iterations) {
  int flag = 0, value = 1, sum = 0, rank = 0;
  MPI_Status status;
  if (std::strcmp(family, "comm_rank") == 0) {
    for (int i = 0; i < iterations; ++i) api.comm_rank(MPI_COMM_WORLD, &rank);
    return 1;
  }
  if (std::strcmp(family, "iprobe") == 0) {
    for (int i = 0; i < iterations; ++i)
      api.iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status);
    return 1;
  }
  if (std::strcmp(family, "test") == 0) {
    for (int i = 0; i < iterations; ++i) api.test(&c.pending[0], &flag, &status);
    return 1;
  }
  if (std::strcmp(family, "testall") == 0) {
    for (int i = 0; i < iterations; ++i) api.testall(2, c.pending, &flag, MPI_STATUSES_IGNORE);
    return 1;
  }
  if (std::strcmp(family, "send_recv") == 0) {
    for (int i = 0; i < iterations; ++i) {
      api.send(&c.byte, 0, MPI_BYTE, c.rank, 1, MPI_COMM_WORLD);
      api.recv(&c.byte, 0, MPI_BYTE, c.rank, 1, MPI_COMM_WORLD, &status);
    }
    return 2;
  }
  if (std::strcmp(family, "isend_wait") == 0) {
    char in = 0;
    for (int i = 0; i < iterations; ++i) {
      MPI_Request r[2];
      api.irecv(&in, 1, MPI_BYTE, c.rank, 3, MPI_COMM_WORLD, &r[0]);
      api.isend(&c.byte, 1, MPI_BYTE, c.rank, 3, MPI_COMM_WORLD, &r[1]);
      api.wait(&r[1], &status);
      api.wait(&r[0], &status);
    }
    return 4;
  }
  if (std::strcmp(family, "allreduce") == 0) {
    for (int i = 0; i < iterations; ++i)
      api.allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return 1;
  }
  if (std::strcmp(family, "ping_pong") == 0) {
    for (int i = 0; i < iterations; ++i) {
      if (c.rank == 0) {
        api.send(&c.byte, 1, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
        api.recv(&c.byte, 1, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (c.rank == 1) {
        api.recv(&c.byte, 1, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        api.send(&c.byte, 1, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
      }
    }
    return 1;  // figure per round trip
  }
  return 0;
}

// Called right after a barrier, so that both ranks start the block together.
double ns_per_call(const char* family, const Api& api, Context& c, int iterations) {
  auto start = Clock::now();
  int calls = run(family, api, c, iterations);
  double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  return ns / (static_cast<double>(iterations) * calls);
}

// The timed blocks of each side, as functions of their own so that an instruction-level
// profiler (run_added_instructions.sh: callgrind) can tell the two loops' costs apart; the
// barrier before each block stays outside, since its polling varies with the peer's pace.
[[gnu::noinline]] double traced_block(const char* family, Context& c, int iterations) {
  return ns_per_call(family, kTraced, c, iterations);
}
[[gnu::noinline]] double untraced_block(const char* family, Context& c, int iterations) {
  return ns_per_call(family, kUntraced, c, iterations);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Context c;
  int size = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  c.peer = c.rank == 0 ? 1 : 0;
  const char* family = argc > 1 ? argv[1] : "";
  Context probe;
  if (size < 2 || run(family, kUntraced, probe, 0) == 0) {
    if (c.rank == 0)
      std::fprintf(stderr,
                   "usage: call_family_loop FAMILY [CALLS] with 2 ranks; families: "
                   "comm_rank iprobe test testall send_recv isend_wait allreduce "
                   "ping_pong\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int calls = argc > 2 ? std::max(kBlocks, std::atoi(argv[2])) : 100000;
  const int per_block = calls / kBlocks;

  // Receives that stay pending through the loops, for the test families.
  if (c.rank < 2) {
    MPI_Irecv(&c.byte, 1, MPI_BYTE, c.peer, kPendingTag, MPI_COMM_WORLD, &c.pending[0]);
    MPI_Irecv(&c.byte, 1, MPI_BYTE, c.peer, kPendingTag, MPI_COMM_WORLD, &c.pending[1]);
  }
  run(family, kTraced, c, per_block / 10 + 1);  // warm-up: first-call setup, caches
  std::vector<double> traced, untraced;
  for (int b = 0; b < kBlocks; ++b) {
    PMPI_Barrier(MPI_COMM_WORLD);
    traced.push_back(traced_block(family, c, per_block));
    PMPI_Barrier(MPI_COMM_WORLD);
    untraced.push_back(untraced_block(family, c, per_block));
  }
  if (c.rank < 2) {  // complete the pending receives
    char out = 0;
    for (int i = 0; i < 2; ++i) MPI_Send(&out, 1, MPI_BYTE, c.peer, kPendingTag, MPI_COMM_WORLD);
    MPI_Waitall(2, c.pending, MPI_STATUSES_IGNORE);
  }
  if (c.rank == 0) std::printf("%s %.1f %.1f\n", family, median(traced), median(untraced));
  MPI_Finalize();
  return 0;
}
