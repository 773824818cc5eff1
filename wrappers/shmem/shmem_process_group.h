// The OpenSHMEM adapter's ProcessGroup: the recording layer's own communication over the
// untraced pshmem_* entry points and a private block of symmetric memory, so that a pure
// OpenSHMEM program (no MPI) is set up, clock-synchronized and finalized over OpenSHMEM itself.
// Messages of words (clock synchronization's ping-pong) go through one mailbox per sender on
// every PE: the sender waits until its previous message was taken, puts the words, fences and
// raises a sequence number the receiver waits on; the receiver acknowledges by a put back.
#pragma once

#include <cstdint>
#include <vector>

#include "record/process_group.h"

namespace collwrap::tracer {

class ShmemProcessGroup final : public ProcessGroup {
 public:
  // Collective over all PEs, after shmem_init: allocates the symmetric block. The destructor
  // (also collective) frees it and must run before shmem_finalize.
  ShmemProcessGroup();
  ~ShmemProcessGroup() override;
  ShmemProcessGroup(const ShmemProcessGroup&) = delete;
  ShmemProcessGroup& operator=(const ShmemProcessGroup&) = delete;

  // Whether the symmetric block was allocated on this PE (all PEs agree).
  bool usable() const { return block_ != nullptr; }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const char* process_label() const override { return "SHMEM PE"; }
  const char* finalize_call() const override { return "shmem_finalize"; }

  void barrier() override;
  bool all(bool mine) override;
  void broadcast(std::vector<std::uint8_t>& bytes) override;
  std::vector<std::vector<std::uint8_t>> gather(std::span<const std::uint8_t> mine) override;
  std::vector<std::uint8_t> scatter(const std::vector<std::vector<std::uint8_t>>& parts) override;
  void send_words(int peer, std::span<const std::int64_t> words) override;
  void receive_words(int peer, std::span<std::int64_t> words) override;
  OTF2_ErrorCode attach_to_archive(OTF2_Archive* archive) override;

  static constexpr std::size_t kMaxWords = 8;  // per message

 private:
  // The symmetric block: a published value (size or flag) and a length put by process 0, then
  // per sender PE: a sequence number, an acknowledgement and a mailbox of kMaxWords words.
  long* published() const { return block_; }
  long* length() const { return block_ + 1; }
  long* sequence(int pe) const { return block_ + 2 + pe; }
  long* acknowledged(int pe) const { return block_ + 2 + size_ + pe; }
  std::int64_t* mailbox(int pe) const {
    return reinterpret_cast<std::int64_t*>(block_ + 2 + 2 * size_) + std::size_t(pe) * kMaxWords;
  }
  // Every PE's published value (collective).
  std::vector<long> publish(long mine);

  long* block_ = nullptr;
  int rank_ = 0;
  int size_ = 1;
  std::vector<long> sent_, received_;  // messages per peer
};

}  // namespace collwrap::tracer
