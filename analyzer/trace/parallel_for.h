// Runs independent tasks 0..n-1 on a few threads: the reader loads locations this way, and
// later passes that work location by location can do the same.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace collwrap {

// Indexes are handed out one at a time, so that one large location does not leave the other
// threads idle behind it. The calling thread works too. The first exception a task throws is
// rethrown here after all threads have stopped.
template <class Task>
void parallel_for(std::size_t n, unsigned threads, Task&& task) {
  const std::size_t workers = std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(n, 1));
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&] {
    for (std::size_t i; !failed && (i = next.fetch_add(1)) < n;) {
      try {
        task(i);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::jthread> helpers;
  for (std::size_t w = 1; w < workers; ++w) helpers.emplace_back(work);
  work();
  helpers.clear();  // joins
  if (error) std::rethrow_exception(error);
}

// The thread count for `threads` = 0 (one per core), capped at the number of tasks.
inline unsigned worker_count(unsigned threads, std::size_t tasks) {
  const unsigned wanted = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::min<std::size_t>(wanted, std::max<std::size_t>(tasks, 1)));
}

}  // namespace collwrap
