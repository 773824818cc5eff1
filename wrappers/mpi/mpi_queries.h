// MpiQueries: the questions the semantic handlers ask MPI. The tracer answers them with PMPI
// calls (PmpiQueries); unit tests answer them with a fake, so the handlers run without MPI.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "mpi/comm_registry.h"

namespace collwrap::tracer {

// A communicator's facts plus the key its members agreed on.
struct AgreedComm {
  CommFacts facts;
  std::uint64_t key = 0;
};

class MpiQueries {
 public:
  virtual ~MpiQueries() = default;

  // This process's rank in MPI_COMM_WORLD.
  virtual int world_rank() = 0;

  // Bytes per element of `type`; 0 for MPI_DATATYPE_NULL or an invalid type.
  virtual std::uint64_t type_size(MPI_Datatype type) = 0;

  // Bytes a completed receive got.
  virtual std::uint64_t received_bytes(const MPI_Status& status) = 0;

  virtual bool cancelled(const MPI_Status& status) = 0;

  // The facts about `comm`, from local calls only. Intercommunicators list the local group
  // first, then the remote one, so the order differs between the two sides.
  virtual CommFacts describe(MPI_Comm comm) = 0;

  // For a communicator all of its members have just created: its facts and the key proposed
  // by its rank 0. Collective over `comm`; for an intercommunicator over both groups, which it
  // merges to give both sides the same group order.
  virtual AgreedComm describe_new(MPI_Comm comm, std::uint64_t key_proposal) = 0;
};

}  // namespace collwrap::tracer
