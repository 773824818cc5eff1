// ordered_pipeline: every chunk is produced, prepared and finished once, produced and finished
// in order, never more than `slots` at a time between the two; one thread goes chunk by chunk;
// an exception reaches the caller.
#include "ordered_pipeline.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

namespace collwrap {
namespace {

struct Log {
  std::vector<std::size_t> produced, finished;
  std::vector<std::atomic<int>> prepared;
  std::atomic<std::size_t> in_flight{0}, most_in_flight{0};
  explicit Log(std::size_t chunks) : prepared(chunks) {}
};

void run(Log& log, std::size_t chunks, std::size_t slots, unsigned threads) {
  // Each slot holds its chunk's number from produce to finish: a slot reused too early shows.
  std::vector<std::size_t> slot_holds(slots);
  ordered_pipeline(
      slots, threads,
      [&](std::size_t k, std::size_t slot) {
        if (k == chunks) return false;
        log.produced.push_back(k);
        slot_holds[slot] = k;
        const std::size_t now = ++log.in_flight;
        std::size_t most = log.most_in_flight;
        while (now > most && !log.most_in_flight.compare_exchange_weak(most, now)) {
        }
        return true;
      },
      [&](std::size_t k, std::size_t slot, unsigned worker) {
        EXPECT_LT(worker, worker_count(threads, slots));
        EXPECT_EQ(slot_holds[slot], k);
        ++log.prepared[k];
        // Uneven work, so that chunks are prepared out of order.
        if (k % 3 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
      },
      [&](std::size_t k, std::size_t slot) {
        EXPECT_EQ(slot_holds[slot], k);
        EXPECT_EQ(log.prepared[k].load(), 1);
        log.finished.push_back(k);
        --log.in_flight;
      });
}

TEST(OrderedPipeline, EveryChunkGoesThroughTheStagesOnceAndInOrder) {
  for (const unsigned threads : {1u, 2u, 4u}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    const std::size_t chunks = 100, slots = 3;
    Log log(chunks);
    run(log, chunks, slots, threads);
    std::vector<std::size_t> in_order(chunks);
    for (std::size_t k = 0; k < chunks; ++k) in_order[k] = k;
    EXPECT_EQ(log.produced, in_order);
    EXPECT_EQ(log.finished, in_order);
    for (const auto& p : log.prepared) EXPECT_EQ(p.load(), 1);
    EXPECT_LE(log.most_in_flight.load(), slots);
    if (threads == 1) {
      EXPECT_EQ(log.most_in_flight.load(), 1u);  // chunk by chunk
    }
  }
}

TEST(OrderedPipeline, NoChunksIsNoWork) {
  Log log(0);
  run(log, 0, 4, 2);
  EXPECT_TRUE(log.produced.empty());
  EXPECT_TRUE(log.finished.empty());
}

TEST(OrderedPipeline, RethrowsAStagesException) {
  for (const unsigned threads : {1u, 2u}) {
    std::size_t finished = 0;
    EXPECT_THROW(ordered_pipeline(
                     4, threads, [&](std::size_t k, std::size_t) { return k < 1000; },
                     [&](std::size_t k, std::size_t, unsigned) {
                       if (k == 10) throw std::runtime_error("chunk 10 failed");
                     },
                     [&](std::size_t, std::size_t) { ++finished; }),
                 std::runtime_error);
    EXPECT_LE(finished, 10u);  // chunk 10 is never finished, so neither is any after it
  }
}

}  // namespace
}  // namespace collwrap
