// A ProcessGroup of one process without any parallel paradigm, for programs and tests that
// drive the recording layer directly: OTF2's serial collectives, every collective a copy.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <span>
#include <vector>

#include "record/process_group.h"

namespace collwrap::tracer {

// One process: every collective is a copy, and there is no peer to exchange words with.
class SingleProcess final : public ProcessGroup {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  const char* process_label() const override { return "PE"; }
  const char* finalize_call() const override { return "shmem_finalize"; }
  void barrier() override {}
  bool all(bool mine) override { return mine; }
  void broadcast(std::vector<std::uint8_t>&) override {}
  std::vector<std::vector<std::uint8_t>> gather(std::span<const std::uint8_t> mine) override {
    return {{mine.begin(), mine.end()}};
  }
  std::vector<std::uint8_t> scatter(const std::vector<std::vector<std::uint8_t>>& parts) override {
    return parts.empty() ? std::vector<std::uint8_t>{} : parts[0];
  }
  void send_words(int, std::span<const std::int64_t>) override {}
  void receive_words(int, std::span<std::int64_t> words) override {
    for (std::int64_t& w : words) w = 0;
  }
  OTF2_ErrorCode attach_to_archive(OTF2_Archive* archive) override {
    return OTF2_Archive_SetSerialCollectiveCallbacks(archive);
  }
};

}  // namespace collwrap::tracer
