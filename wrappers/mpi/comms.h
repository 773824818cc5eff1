// Communicator bookkeeping: the handlers of the calls that create, free and name
// communicators, and the lookup every other handler uses.
//
// Keys: a communicator created collectively inside this job gets the key its rank 0 proposes
// (make_comm_key(world rank, creation counter)), broadcast to all members right after the
// creation, when all of them are inside the creating call anyway. Intercommunicators are merged
// for that, so both groups agree on the key and on one group order (local group or remote group
// first is decided by MPI_Intercomm_merge, the same for all). These handlers run on every rank
// between MPI_Init and MPI_Finalize even when a rank or thread does not record, so no member
// can miss the broadcast.
//
// Communicators shared with another job (spawn, connect/accept, join, the parent) are
// registered from local information only: the other side may not be traced at all, so a
// collective exchange could hang. So are communicators the tracer first meets in use (e.g. from
// MPI_Comm_idup). Their keys carry kLocalCommKey and do not unify across ranks.
#pragma once

#include <mpi.h>

#include "mpi/comm_registry.h"
#include "mpi/semantics.h"

namespace collwrap::tracer {

// comm_entry() for a communicator the registry does not map: registers it from local
// information. nullptr for MPI_COMM_NULL.
const CommEntry* register_unseen_comm(Semantics& sem, MPI_Comm comm);

// The entry of `comm`, registered from local information if the tracer has not seen it yet.
// nullptr for MPI_COMM_NULL. Inline, and the registration out of line, because every message
// and collective record asks, nearly always for a known communicator.
inline const CommEntry* comm_entry(Semantics& sem, MPI_Comm comm) {
  if (const CommEntry* entry = sem.comms.find(comm)) return entry;
  return register_unseen_comm(sem, comm);
}

// Registers MPI_COMM_WORLD and MPI_COMM_SELF and turns the bookkeeping on (after PMPI_Init).
void start_comm_bookkeeping(Semantics& sem);

// MPI_Comm_dup/split/create…, topology constructors, MPI_Intercomm_create/merge.
void handle_comm_created(Semantics& sem, int rc, const MPI_Comm* newcomm);
// MPI_Comm_spawn(_multiple), MPI_Comm_accept/connect/join, MPI_Comm_get_parent.
void handle_comm_attached(Semantics& sem, int rc, const MPI_Comm* comm);
// MPI_Comm_free, MPI_Comm_disconnect (before the PMPI call, which nulls the handle).
void handle_comm_freed(Semantics& sem, const MPI_Comm* comm);
void handle_comm_named(Semantics& sem, int rc, MPI_Comm comm, const char* name);

}  // namespace collwrap::tracer
