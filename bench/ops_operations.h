// MPITEST's operations (the MPITEST description, "Efficiency test of the basic MPI operations"), in
// the order of its table. Sizes count integers (MPI_INT), as in MPITEST; point-to-point operations
// run between ranks 0 and 1 while the others only take part in the barriers around them.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <span>

namespace collwrap::bench {

struct OpsCall {
  MPI_Comm comm;
  int rank, size;
  int n;  // integers per message
  int* send;
  int* recv;
};

struct OpsOperation {
  const char* name;
  bool short_op;   // timed over the short-operation iteration count (t): quick, so many runs
  bool sized;      // runs once per message size; otherwise one row
  bool pairwise;   // needs ranks 0 and 1
  bool all_ranks;  // a buffer holds one message per rank (GATHER, ALLGATHER, ALL-TO-ALL)
  void (*run)(const OpsCall& call);  // nullptr for TIMING, which times the clock itself
};

std::span<const OpsOperation> ops_operations();

// Integers each buffer must hold for `op` with messages of `n` integers on `ranks` ranks.
std::size_t ops_buffer_ints(const OpsOperation& op, std::size_t n, int ranks);

}  // namespace collwrap::bench
