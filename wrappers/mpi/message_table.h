// MessageTable: the communicator of each message matched by MPI_Mprobe/MPI_Improbe, because
// MPI_Mrecv/MPI_Imrecv receive it by message handle alone. An entry lives from the probe to the
// receive; MPI frees (and may reuse) the handle at the receive.
#pragma once

#include <mpi.h>

#include <mutex>
#include <unordered_map>

namespace collwrap::tracer {

struct CommEntry;

class MessageTable {
 public:
  void add(MPI_Message message, const CommEntry* comm);

  // Removes and returns the message's communicator; nullptr if unknown.
  const CommEntry* take(MPI_Message message);

 private:
  std::mutex mutex_;
  std::unordered_map<MPI_Message, const CommEntry*> messages_;
};

}  // namespace collwrap::tracer
