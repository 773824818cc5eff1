// Runs independent tasks 0..n-1 on a few threads: the reader loads locations this way, the
// matcher links requests, and the root-cause analysis runs its what-if replays.
#pragma once

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace collwrap {

// The cores this process may run on: its CPU affinity, which a launcher sets when it binds
// processes (mpirun gives each analyzer process of a job its own cores), else every core.
inline unsigned available_cores() {
  static const unsigned cores = [] {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
      return static_cast<unsigned>(CPU_COUNT(&set));
    return std::max(1u, std::thread::hardware_concurrency());
  }();
  return cores;
}

// The thread count for `threads` (0: one per available core), capped at the number of tasks.
inline unsigned worker_count(unsigned threads, std::size_t tasks) {
  const unsigned wanted = threads ? threads : available_cores();
  return static_cast<unsigned>(std::min<std::size_t>(wanted, std::max<std::size_t>(tasks, 1)));
}

// Indexes are handed out one at a time, so that one large task does not leave the other
// threads idle behind it. The calling thread works too. A task is called as task(i), or as
// task(i, worker) with worker < worker_count(threads, n) when it keeps scratch space per
// thread. The first exception a task throws is rethrown here after all threads have stopped.
template <class Task>
void parallel_for(std::size_t n, unsigned threads, Task&& task) {
  const unsigned workers = worker_count(threads, n);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&](unsigned worker) {
    for (std::size_t i; !failed && (i = next.fetch_add(1)) < n;) {
      try {
        if constexpr (std::is_invocable_v<Task&, std::size_t, unsigned>)
          task(i, worker);
        else
          task(i);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::jthread> helpers;
  for (unsigned w = 1; w < workers; ++w) helpers.emplace_back(work, w);
  work(0);
  helpers.clear();  // joins
  if (error) std::rethrow_exception(error);
}

// The indexes 0..n-1 in ranges of `per_range` (the last may be shorter), side by side:
// task(range, first, end) for each range [first, end), range_count(n, per_range) of them. For
// work too small per index to hand out one index at a time.
inline std::size_t range_count(std::size_t n, std::size_t per_range) {
  return (n + per_range - 1) / per_range;
}
template <class Task>
void parallel_for_ranges(std::size_t n, std::size_t per_range, unsigned threads, Task&& task) {
  parallel_for(range_count(n, per_range), threads, [&](std::size_t range) {
    const std::size_t first = range * per_range;
    task(range, first, std::min(n, first + per_range));
  });
}

}  // namespace collwrap
