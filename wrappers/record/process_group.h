// The processes of a traced run as the recording layer sees them: the paradigm's own
// communication, used only at initialization, clock synchronization and finalization (never per
// event), in the spirit of Score-P's SCOREP_Ipc. A paradigm adapter implements it with its
// untraced entry points (the MPI adapter with PMPI on a duplicate of MPI_COMM_WORLD), so that
// the tracer never records its own communication.
//
// Every method except rank(), size() and the names is collective or pairwise: all processes
// (or both peers) call it, in the same order.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <span>
#include <vector>

namespace collwrap::tracer {

class ProcessGroup {
 public:
  virtual ~ProcessGroup() = default;

  virtual int rank() const = 0;  // 0 .. size() - 1; process 0 is the reference clock
  virtual int size() const = 0;
  // What the archive calls a process ("MPI Rank" gives location groups "MPI Rank 3").
  virtual const char* process_label() const = 0;
  // The call that ends a run of this paradigm, named when a process exits without it.
  virtual const char* finalize_call() const = 0;

  virtual void barrier() = 0;
  // True on every process if `mine` is true on every process.
  virtual bool all(bool mine) = 0;
  bool any(bool mine) { return !all(!mine); }
  // Process 0's bytes, on every process.
  virtual void broadcast(std::vector<std::uint8_t>& bytes) = 0;
  // Process 0 receives every process's bytes, by rank; the others get an empty vector.
  virtual std::vector<std::vector<std::uint8_t>> gather(std::span<const std::uint8_t> mine) = 0;
  // Process 0 sends process i parts[i]; every process returns its own part.
  virtual std::vector<std::uint8_t> scatter(
      const std::vector<std::vector<std::uint8_t>>& parts) = 0;

  // The clock synchronization's pairwise exchange of timestamps: a blocking, ordered message of
  // 64-bit words to or from one peer. Between two peers, messages arrive in the order sent.
  virtual void send_words(int peer, std::span<const std::int64_t> words) = 0;
  virtual void receive_words(int peer, std::span<std::int64_t> words) = 0;

  // Collective: gives `archive` the collective callbacks OTF2 needs to write files together.
  virtual OTF2_ErrorCode attach_to_archive(OTF2_Archive* archive) = 0;
};

}  // namespace collwrap::tracer
