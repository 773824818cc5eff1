// The MPI collectives `collwrap-bench coll` measures, blocking and nonblocking (the latter
// started and waited for, so that a run is the operation to completion).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace collwrap::bench {

// Buffers and arguments of one collective at one message size. `bytes` is what each rank
// contributes (or receives) per peer; reductions combine floats, bytes/4 of them (at least
// one for a nonzero size).
class CollCall {
 public:
  CollCall(MPI_Comm comm, int root, std::size_t bytes);

  MPI_Comm comm;
  int root, rank, size;
  int count;                     // bytes, as MPI_BYTE elements
  int floats;                    // reduction elements
  std::vector<char> send, recv;  // size·bytes each, enough for every collective
  std::vector<int> counts, displacements, float_counts;  // per rank, for the v/w variants
  std::vector<MPI_Datatype> types;                       // MPI_BYTE per rank, for Alltoallw
};

struct Collective {
  const char* name;  // command-line name: "bcast", "ibcast", …
  const char* mpi_name;
  bool rooted;  // uses --root
  void (*run)(CollCall& call);
};

std::span<const Collective> all_collectives();

// False for the barriers, whose message size means nothing.
bool moves_data(const Collective& collective);

// `list` is "all", "blocking", "nonblocking" or a comma list of names. Returns an empty vector
// and names the unknown entry in `unknown` when one is not a collective.
std::vector<const Collective*> select_collectives(std::string_view list, std::string& unknown);

}  // namespace collwrap::bench
