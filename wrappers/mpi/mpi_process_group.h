// The MPI adapter's ProcessGroup: the recording layer's own communication, over PMPI on a
// private duplicate of a communicator, so that it is never traced and never matches the
// program's messages. Also used by the measurement programs' clock (wrappers/clock/).
#pragma once

#include <mpi.h>

#include "record/process_group.h"

namespace collwrap::tracer {

class MpiProcessGroup final : public ProcessGroup {
 public:
  // Collective over `comm`: duplicates it. The duplicate is freed by the destructor, which must
  // run before MPI_Finalize.
  explicit MpiProcessGroup(MPI_Comm comm);
  ~MpiProcessGroup() override;
  MpiProcessGroup(const MpiProcessGroup&) = delete;
  MpiProcessGroup& operator=(const MpiProcessGroup&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const char* process_label() const override { return "MPI Rank"; }
  const char* finalize_call() const override { return "MPI_Finalize"; }

  void barrier() override;
  bool all(bool mine) override;
  void broadcast(std::vector<std::uint8_t>& bytes) override;
  std::vector<std::vector<std::uint8_t>> gather(std::span<const std::uint8_t> mine) override;
  std::vector<std::uint8_t> scatter(const std::vector<std::vector<std::uint8_t>>& parts) override;
  void send_words(int peer, std::span<const std::int64_t> words) override;
  void receive_words(int peer, std::span<std::int64_t> words) override;
  OTF2_ErrorCode attach_to_archive(OTF2_Archive* archive) override;

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace collwrap::tracer
