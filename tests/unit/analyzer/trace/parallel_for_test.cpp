// parallel_for: every task runs once, worker numbers stay below the worker count (they index
// per-thread scratch space), and a task's exception reaches the caller.
#include "parallel_for.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

namespace collwrap {
namespace {

TEST(ParallelFor, RunsEveryTaskOnce) {
  for (unsigned threads : {1u, 2u, 5u}) {
    std::vector<std::atomic<int>> runs(100);
    parallel_for(runs.size(), threads, [&](std::size_t i) { ++runs[i]; });
    for (const auto& r : runs) EXPECT_EQ(r.load(), 1) << threads << " threads";
  }
}

TEST(ParallelFor, WorkerNumbersIndexScratchSpace) {
  const unsigned threads = 3;
  const unsigned workers = worker_count(threads, 50);
  ASSERT_EQ(workers, 3u);
  std::vector<std::atomic<int>> by_worker(workers);
  std::atomic<bool> out_of_range{false};
  parallel_for(50, threads, [&](std::size_t, unsigned worker) {
    if (worker >= workers)
      out_of_range = true;
    else
      ++by_worker[worker];
  });
  EXPECT_FALSE(out_of_range);
  int total = 0;
  for (const auto& n : by_worker) total += n;
  EXPECT_EQ(total, 50);
}

TEST(ParallelFor, WorkerCountIsCappedByTasksAndZeroMeansEveryCore) {
  EXPECT_EQ(worker_count(8, 2), 2u);
  EXPECT_EQ(worker_count(8, 0), 1u);
  EXPECT_GE(worker_count(0, 1000), 1u);
  EXPECT_EQ(worker_count(0, 1000), worker_count(0, 2000));
}

// The other tasks take 1 ms each, so that the other thread cannot run through all of them in
// the microseconds that throwing the exception takes: were they empty, it sometimes could, and
// the check that it stops would fail by chance.
TEST(ParallelFor, RethrowsTheFirstException) {
  std::atomic<int> started{0};
  EXPECT_THROW(parallel_for(1000, 2,
                            [&](std::size_t i) {
                              ++started;
                              if (i == 3) throw std::runtime_error("task 3 failed");
                              std::this_thread::sleep_for(std::chrono::milliseconds(1));
                            }),
               std::runtime_error);
  EXPECT_LT(started.load(), 1000);  // the others stop taking new tasks
}

}  // namespace
}  // namespace collwrap
