// Work in chunks that must be used in order but can be prepared side by side: the delay
// analysis attributes its waits one after another (each passes waiting on to earlier ones),
// while what it reads of each wait's synchronization intervals can be found on any thread.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "parallel_for.h"

namespace collwrap {

// Chunk k goes through three stages:
// - produce(k, slot) makes it, in order of k, one chunk at a time; it returns false when there
//   is no chunk k, and none after it;
// - prepare(k, slot, worker) works on it, on any thread, several chunks side by side;
// - finish(k, slot) uses what was prepared, in order of k, one chunk at a time.
// At most `slots` chunks are between produce and finish: slot = k % slots names the buffers
// chunk k is in. Each thread prepares before it produces, so that one thread goes through the
// stages chunk by chunk, while what it produced is still in its cache; worker < the worker
// count indexes scratch space. The first exception a stage throws is rethrown here after all
// threads have stopped.
template <class ProduceFn, class PrepareFn, class FinishFn>
void ordered_pipeline(std::size_t slots, unsigned threads, ProduceFn&& produce, PrepareFn&& prepare,
                      FinishFn&& finish) {
  if (slots == 0) slots = 1;
  const unsigned workers = worker_count(threads, slots);
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t produced = 0, prepared_next = 0, finished = 0;
  bool producing = false, finishing = false, no_more = false, failed = false;
  std::vector<char> ready(slots, 0);  // by slot: chunk prepared, to be finished
  std::exception_ptr error;

  auto work = [&](unsigned worker) {
    std::unique_lock lock(mutex);
    for (;;) {
      if (failed || (no_more && finished == produced)) break;
      enum class Stage { None, Finish, Prepare, Produce } stage = Stage::None;
      std::size_t k = 0;
      if (!finishing && finished < produced && ready[finished % slots]) {
        stage = Stage::Finish, k = finished, finishing = true;
      } else if (prepared_next < produced) {
        stage = Stage::Prepare, k = prepared_next++;
      } else if (!producing && !no_more && produced - finished < slots) {
        stage = Stage::Produce, k = produced, producing = true;
      }
      if (stage == Stage::None) {
        changed.wait(lock);
        continue;
      }
      lock.unlock();
      bool made = true;
      try {
        switch (stage) {
          case Stage::Finish:
            finish(k, k % slots);
            break;
          case Stage::Prepare:
            prepare(k, k % slots, worker);
            break;
          default:
            made = produce(k, k % slots);
            break;
        }
      } catch (...) {
        lock.lock();
        if (!error) error = std::current_exception();
        failed = true;
        changed.notify_all();
        break;
      }
      lock.lock();
      switch (stage) {
        case Stage::Finish:
          ready[k % slots] = 0;
          ++finished;
          finishing = false;
          break;
        case Stage::Prepare:
          ready[k % slots] = 1;
          break;
        default:
          producing = false;
          if (made)
            ++produced;
          else
            no_more = true;
          break;
      }
      changed.notify_all();
    }
  };
  std::vector<std::jthread> helpers;
  for (unsigned w = 1; w < workers; ++w) helpers.emplace_back(work, w);
  work(0);
  helpers.clear();  // joins
  if (error) std::rethrow_exception(error);
}

}  // namespace collwrap
