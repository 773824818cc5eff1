// Test doubles for the MPI semantic layer: a ThreadRecorder that keeps its records in memory
// (this binary links it instead of the OTF2 backend) and MpiQueries answered from tables, so
// the handlers run without an MPI runtime. MPI is linked only for its predefined handles.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "mpi/semantics.h"
#include "record/recorder.h"

namespace collwrap::tracer::testing {

struct Record {
  enum class Kind {
    Send,
    Isend,
    IsendComplete,
    IrecvRequest,
    Recv,
    Irecv,
    RequestTest,
    RequestCancelled,
    CollectiveBegin,
    CollectiveEnd,
    NbcRequest,
    NbcComplete,
    // One-sided: comm = the window (WindowRef), peer = the remote rank; RmaGroupSync's tag is
    // its group, lock records' tag the lock id.
    RmaWinCreate,
    RmaWinDestroy,
    RmaPut,
    RmaGet,
    RmaAtomic,
    RmaOpCompleteNonBlocking,
    RmaCollectiveBegin,
    RmaCollectiveEnd,
    RmaGroupSync,
    RmaRequestLock,
    RmaAcquireLock,
    RmaReleaseLock,
  };
  Kind kind;
  std::uint32_t peer = kUndefinedRank;  // receiver, sender or root
  CommRef comm = 0;
  std::uint32_t tag = 0;
  std::uint64_t bytes = 0;     // message size, or bytes sent by a collective
  std::uint64_t received = 0;  // collectives
  RequestId request = 0;
  CollectiveOp op = CollectiveOp::Barrier;
  Ticks time = 0;  // completion records only (IsendComplete, Irecv, tests, cancels, NbcComplete),
                   // and every one-sided record
};

// A recorder whose records land in `records()`.
class RecordingRecorder {
 public:
  RecordingRecorder();
  ~RecordingRecorder();
  ThreadRecorder& recorder() { return recorder_; }
  const std::vector<Record>& records() const;

 private:
  ThreadRecorder recorder_;
};

// Opaque handles for communicators, requests and messages that MPI never sees.
template <class Handle>
Handle fake_handle(std::uintptr_t n) {
  return reinterpret_cast<Handle>(0x10000 + 0x40 * n);
}

// A status as MPI fills it in (Open MPI's layout: the byte count and the cancelled flag are
// implementation fields).
MPI_Status make_status(int source, int tag, std::uint64_t bytes, bool cancelled = false);

class FakeMpi final : public MpiQueries {
 public:
  int world_rank() override { return my_world_rank; }
  std::uint64_t type_size(MPI_Datatype type) override;
  std::uint64_t received_bytes(const MPI_Status& status) override;
  bool cancelled(const MPI_Status& status) override;
  CommFacts describe(MPI_Comm comm) override;
  AgreedComm describe_new(MPI_Comm comm, std::uint64_t key_proposal) override;

  int my_world_rank = 0;
  std::map<MPI_Datatype, std::uint64_t> type_sizes;
  std::map<MPI_Comm, CommFacts> comms;
  // describe_new: the key the communicator's rank 0 proposed (0: this process is rank 0).
  std::uint64_t agreed_key = 0;
  std::vector<std::uint64_t> proposals;  // keys passed to describe_new
  std::set<MPI_Datatype> queried_types;  // every type whose size was asked
};

// Facts of an intracommunicator whose members are these world ranks.
CommFacts intra_facts(std::vector<std::int32_t> world_ranks, std::int32_t my_rank);

// A Semantics over a FakeMpi, with MPI_COMM_WORLD (4 ranks, this process world rank 1)
// registered, plus a recorder: what every handler test starts from.
class SemanticsFixture {
 public:
  SemanticsFixture();
  Tracing tracing() { return {rec.recorder(), sem}; }
  const std::vector<Record>& records() const { return rec.records(); }
  const CommEntry& world() const { return *sem.comms.find(MPI_COMM_WORLD); }

  FakeMpi mpi;
  Semantics sem{mpi};
  RecordingRecorder rec;
};

}  // namespace collwrap::tracer::testing
