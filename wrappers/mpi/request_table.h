// RequestTable: the MPI requests the tracer follows, from post (or MPI_Start) to completion.
//
// Handles are not identities. MPI reuses a handle as soon as its request is freed, and Open MPI
// even hands out one shared, already complete request (ompi_request_empty) for every send it
// completes inline, so several pending requests can have the same handle. Records therefore
// never carry handles: every post and every Start gets a fresh RequestId from a process-wide
// counter, and the table keeps all requests of a handle, oldest first. A completion function
// reads the entries behind its handles before its PMPI call (the k-th slot holding a handle
// takes the handle's k-th oldest request) and afterwards finishes exactly those ids, so a
// handle another thread reuses meanwhile is left alone.
//
// Requests may be posted on one thread and completed on another (MPI_THREAD_MULTIPLE), so the
// table is split into shards, each with its own mutex, to keep concurrent calls apart. Below
// MPI_THREAD_MULTIPLE no two MPI calls run at once, so the mutexes are not taken at all: a lock
// and an unlock cost more than the rest of a request's bookkeeping.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "record/recorder.h"

namespace collwrap::tracer {

struct CommEntry;

enum class RequestKind : std::uint8_t { Send, Recv, Collective };

// What the completion of a request needs for its record, captured when it is posted.
struct TrackedRequest {
  RequestKind kind = RequestKind::Send;
  bool persistent = false;
  bool active = false;  // false: persistent, not started since its last completion
  RequestId id = 0;     // the current communication's id
  const CommEntry* comm = nullptr;
  std::uint32_t peer = kUndefinedRank;      // Send: receiver; Collective: root
  std::uint32_t tag = 0;                    // Send
  std::uint64_t bytes = 0;                  // Send: message size; Collective: bytes sent
  std::uint64_t received = 0;               // Collective: bytes received
  CollectiveOp op = CollectiveOp::Barrier;  // Collective
};

class RequestTable {
 public:
  // Whether calls may come from several threads at once (MPI_THREAD_MULTIPLE); set by the
  // initialization, before any request is posted.
  void set_concurrent(bool concurrent) noexcept {
    concurrent_.store(concurrent, std::memory_order_relaxed);
  }

  // A nonblocking call posted `request` under `handle`: returns its fresh id.
  RequestId post(MPI_Request handle, const TrackedRequest& request);

  // A persistent request was created (MPI_*_init); it becomes active at each start(). Its
  // handle is its own, so entries left behind under the same handle are dropped.
  void add_persistent(MPI_Request handle, TrackedRequest request);

  // MPI_Start(all): gives the persistent request a fresh id. nullopt if not tracked.
  std::optional<TrackedRequest> start(MPI_Request handle);

  // Calls visit(k, request) for the handle's oldest active requests, k = 0 .. n-1 at most.
  template <class Visit>
  void visit_active(MPI_Request handle, std::size_t n, Visit&& visit) const {
    const Shard& shard = shard_of(handle);
    const ShardLock lock(shard, concurrent());
    std::size_t k = 0;
    for (auto it = shard.first_of(handle);
         k < n && it != shard.requests.end() && it->key.first == handle; ++it) {
      if (it->request.active) visit(k++, it->request);
    }
  }

  // The handle's oldest request, active or not.
  std::optional<TrackedRequest> find(MPI_Request handle) const;

  // The communication `id` completed: a persistent request goes inactive, any other is removed.
  void finish(MPI_Request handle, RequestId id);

  // The handle's oldest active request completed: calls completed(request), then finishes it
  // as finish() does. One lookup, and no copy of the request, for the common completion of a
  // single request (MPI_Wait, MPI_Test). Inline: it runs on every such completion.
  template <class Completed>
  void complete_oldest_active(MPI_Request handle, Completed&& completed) {
    Shard& shard = shard_of(handle);
    const ShardLock lock(shard, concurrent());
    for (auto it = shard.lower_bound({handle, 0});
         it != shard.requests.end() && it->key.first == handle; ++it) {
      if (!it->request.active) continue;
      completed(std::as_const(it->request));
      finish_at(shard, it);
      return;
    }
  }

  // MPI_Request_free: the handle's oldest request is gone (a pending communication completes
  // unobserved).
  void forget(MPI_Request handle);

  std::size_t size() const;

 private:
  // Ordered by handle, then id: a handle's requests are adjacent and oldest first. Persistent
  // requests keep id 0 in the key; their current id is in the value.
  using Key = std::pair<MPI_Request, RequestId>;
  static bool key_less(const Key& a, const Key& b) noexcept {
    if (a.first != b.first) return std::less<MPI_Request>{}(a.first, b.first);
    return a.second < b.second;
  }
  struct Entry {
    Key key;
    TrackedRequest request;
  };
  // A sorted vector rather than a tree: a shard holds a handful of pending requests, and every
  // nonblocking call inserts one and every completion erases one, which here costs a short
  // move instead of a node's allocation and release.
  struct alignas(64) Shard {
    mutable std::mutex mutex;
    std::vector<Entry> requests;

    std::vector<Entry>::const_iterator lower_bound(const Key& key) const noexcept {
      return std::lower_bound(requests.begin(), requests.end(), key,
                              [](const Entry& e, const Key& k) { return key_less(e.key, k); });
    }
    std::vector<Entry>::iterator lower_bound(const Key& key) noexcept {
      return std::lower_bound(requests.begin(), requests.end(), key,
                              [](const Entry& e, const Key& k) { return key_less(e.key, k); });
    }
    std::vector<Entry>::const_iterator first_of(MPI_Request handle) const noexcept {
      return lower_bound({handle, 0});
    }
    // The entry with exactly this key, or end().
    std::vector<Entry>::iterator find(const Key& key) noexcept {
      const auto it = lower_bound(key);
      return it != requests.end() && it->key == key ? it : requests.end();
    }
  };

  // Holds the shard's mutex while calls may be concurrent.
  class ShardLock {
   public:
    ShardLock(const Shard& shard, bool concurrent) noexcept
        : mutex_(concurrent ? &shard.mutex : nullptr) {
      if (mutex_) mutex_->lock();
    }
    ~ShardLock() {
      if (mutex_) mutex_->unlock();
    }
    ShardLock(const ShardLock&) = delete;
    ShardLock& operator=(const ShardLock&) = delete;

   private:
    std::mutex* mutex_;
  };

  bool concurrent() const noexcept { return concurrent_.load(std::memory_order_relaxed); }
  Shard& shard_of(MPI_Request handle) const noexcept;
  RequestId next_id() noexcept;
  // Finishes the communication at `it` (see finish()).
  static void finish_at(Shard& shard, std::vector<Entry>::iterator it);

  std::atomic<bool> concurrent_{true};  // until the initialization says otherwise
  std::atomic<RequestId> next_id_{1};
  mutable std::array<Shard, 64> shards_;
};

}  // namespace collwrap::tracer
