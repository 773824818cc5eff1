#include "shmem/shmem_process_group.h"

#include <pshmem.h>

#include <algorithm>
#include <cstring>

#include "record/group_collectives.h"

namespace collwrap::tracer {

ShmemProcessGroup::ShmemProcessGroup()
    : rank_(pshmem_my_pe()),
      size_(pshmem_n_pes()),
      sent_(std::size_t(size_)),
      received_(std::size_t(size_)) {
  const std::size_t longs = 2 + 2 * std::size_t(size_) + std::size_t(size_) * kMaxWords;
  block_ = static_cast<long*>(pshmem_calloc(longs, sizeof(long)));
  pshmem_barrier_all();
}

ShmemProcessGroup::~ShmemProcessGroup() {
  if (block_ != nullptr) pshmem_free(block_);
}

void ShmemProcessGroup::barrier() {
  pshmem_barrier_all();
}

std::vector<long> ShmemProcessGroup::publish(long mine) {
  *published() = mine;
  pshmem_barrier_all();
  std::vector<long> all(static_cast<std::size_t>(size_));
  for (int pe = 0; pe < size_; ++pe) all[std::size_t(pe)] = pshmem_long_g(published(), pe);
  pshmem_barrier_all();  // nobody publishes again before everyone has read
  return all;
}

bool ShmemProcessGroup::all(bool mine) {
  auto values = publish(mine ? 1 : 0);
  return std::ranges::all_of(values, [](long v) { return v == 1; });
}

void ShmemProcessGroup::broadcast(std::vector<std::uint8_t>& bytes) {
  const long size = publish(rank_ == 0 ? long(bytes.size()) : 0)[0];
  auto* buffer = static_cast<std::uint8_t*>(pshmem_malloc(std::size_t(std::max(size, 1L))));
  if (rank_ == 0) std::memcpy(buffer, bytes.data(), std::size_t(size));
  pshmem_barrier_all();
  if (rank_ != 0) {
    bytes.resize(std::size_t(size));
    pshmem_getmem(bytes.data(), buffer, std::size_t(size), 0);
  }
  pshmem_free(buffer);  // collective: a barrier before the memory is released
}

std::vector<std::vector<std::uint8_t>> ShmemProcessGroup::gather(
    std::span<const std::uint8_t> mine) {
  const auto sizes = publish(long(mine.size()));
  const long largest = *std::ranges::max_element(sizes);
  auto* buffer = static_cast<std::uint8_t*>(pshmem_malloc(std::size_t(std::max(largest, 1L))));
  if (!mine.empty()) std::memcpy(buffer, mine.data(), mine.size());
  pshmem_barrier_all();
  std::vector<std::vector<std::uint8_t>> parts;
  if (rank_ == 0) {
    for (int pe = 0; pe < size_; ++pe) {
      auto& part = parts.emplace_back(std::size_t(sizes[std::size_t(pe)]));
      pshmem_getmem(part.data(), buffer, part.size(), pe);
    }
  }
  pshmem_free(buffer);
  return parts;
}

std::vector<std::uint8_t> ShmemProcessGroup::scatter(
    const std::vector<std::vector<std::uint8_t>>& parts) {
  long largest = 0;
  if (rank_ == 0)
    for (const auto& part : parts) largest = std::max(largest, long(part.size()));
  largest = publish(largest)[0];
  auto* buffer = static_cast<std::uint8_t*>(pshmem_malloc(std::size_t(std::max(largest, 1L))));
  if (rank_ == 0) {
    for (int pe = 0; pe < size_; ++pe) {
      const std::size_t size = std::size_t(pe) < parts.size() ? parts[std::size_t(pe)].size() : 0;
      if (size > 0) pshmem_putmem(buffer, parts[std::size_t(pe)].data(), size, pe);
      pshmem_long_p(length(), long(size), pe);
    }
    pshmem_quiet();
  }
  pshmem_barrier_all();
  std::vector<std::uint8_t> mine(buffer, buffer + *length());
  pshmem_free(buffer);
  return mine;
}

void ShmemProcessGroup::send_words(int peer, std::span<const std::int64_t> words) {
  const std::size_t n = std::min(words.size(), kMaxWords);
  long& sent = sent_[std::size_t(peer)];
  pshmem_long_wait_until(acknowledged(peer), SHMEM_CMP_GE, sent);  // our mailbox there is free
  pshmem_putmem(mailbox(rank_), words.data(), n * sizeof(std::int64_t), peer);
  pshmem_fence();  // the words arrive before the sequence number
  pshmem_long_p(sequence(rank_), ++sent, peer);
  pshmem_quiet();
}

void ShmemProcessGroup::receive_words(int peer, std::span<std::int64_t> words) {
  long& received = received_[std::size_t(peer)];
  pshmem_long_wait_until(sequence(peer), SHMEM_CMP_GE, received + 1);
  const std::size_t n = std::min(words.size(), kMaxWords);
  std::memcpy(words.data(), mailbox(peer), n * sizeof(std::int64_t));
  pshmem_long_p(acknowledged(rank_), ++received, peer);
  pshmem_quiet();
}

OTF2_ErrorCode ShmemProcessGroup::attach_to_archive(OTF2_Archive* archive) {
  return attach_group_collectives(archive, *this);
}

}  // namespace collwrap::tracer
