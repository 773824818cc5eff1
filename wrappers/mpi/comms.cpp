#include "mpi/comms.h"

#include <string>

namespace collwrap::tracer {
namespace {

std::uint64_t local_key(Semantics& sem) {
  return kLocalCommKey | make_comm_key(sem.world_rank(), sem.comms.next_counter());
}

}  // namespace

const CommEntry* register_unseen_comm(Semantics& sem, MPI_Comm comm) {
  // MPI_COMM_NULL is never registered, so it always ends up here.
  if (comm == MPI_COMM_NULL) return nullptr;
  return &sem.comms.add(comm, sem.mpi.describe(comm), local_key(sem));
}

void start_comm_bookkeeping(Semantics& sem) {
  const int world_rank = sem.mpi.world_rank();
  // Both keys are known without communication: world's rank 0 is world rank 0, and each
  // process is rank 0 of its own MPI_COMM_SELF.
  sem.comms.add(MPI_COMM_WORLD, sem.mpi.describe(MPI_COMM_WORLD), make_comm_key(0, kWorldCounter),
                "MPI_COMM_WORLD");
  sem.comms.add(MPI_COMM_SELF, sem.mpi.describe(MPI_COMM_SELF),
                make_comm_key(world_rank, kSelfCounter), "MPI_COMM_SELF");
  sem.start(world_rank);
}

void handle_comm_created(Semantics& sem, int rc, const MPI_Comm* newcomm) {
  if (rc != MPI_SUCCESS || !newcomm || *newcomm == MPI_COMM_NULL || !sem.active()) return;
  const std::uint64_t proposal = make_comm_key(sem.world_rank(), sem.comms.next_counter());
  AgreedComm agreed = sem.mpi.describe_new(*newcomm, proposal);
  sem.comms.add(*newcomm, std::move(agreed.facts), agreed.key);
}

void handle_comm_attached(Semantics& sem, int rc, const MPI_Comm* comm) {
  if (rc != MPI_SUCCESS || !comm || !sem.active()) return;
  comm_entry(sem, *comm);
}

void handle_comm_freed(Semantics& sem, const MPI_Comm* comm) {
  if (comm && *comm != MPI_COMM_NULL) sem.comms.forget(*comm);
}

void handle_comm_named(Semantics& sem, int rc, MPI_Comm comm, const char* name) {
  if (rc != MPI_SUCCESS || !name || !sem.active() || !comm_entry(sem, comm)) return;
  sem.comms.rename(comm, name);
}

}  // namespace collwrap::tracer
