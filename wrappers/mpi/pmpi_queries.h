// PmpiQueries: MpiQueries answered by the MPI library through its PMPI interface (never the
// MPI_ names, which would re-enter the wrappers).
#pragma once

#include "mpi/mpi_queries.h"

namespace collwrap::tracer {

class PmpiQueries final : public MpiQueries {
 public:
  int world_rank() override;
  std::uint64_t type_size(MPI_Datatype type) override;
  std::uint64_t received_bytes(const MPI_Status& status) override;
  bool cancelled(const MPI_Status& status) override;
  CommFacts describe(MPI_Comm comm) override;
  AgreedComm describe_new(MPI_Comm comm, std::uint64_t key_proposal) override;
};

}  // namespace collwrap::tracer
