// CompletionScope: the semantics of MPI_Wait/Test and their any/all/some forms.
//
// A completion wrapper builds one before its PMPI call and reports the outcome after it:
//   before  it reads the tracked requests behind the handles (MPI overwrites the handles of
//           completed requests with MPI_REQUEST_NULL) and provides a status array to pass to
//           PMPI when the caller passed MPI_STATUS(ES)_IGNORE;
//   after   it writes one completion record per completed request (MpiIsendComplete, MpiIrecv
//           with the actual source, tag and size, NonBlockingCollectiveComplete, or
//           MpiRequestCancelled), and for an unsuccessful test one MpiRequestTest per pending
//           request. Untracked handles (MPI_REQUEST_NULL, MPI_PROC_NULL peers, file I/O, RMA,
//           generalized requests) and inactive persistent requests are skipped.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <optional>

#include "mpi/request_table.h"
#include "mpi/semantics.h"
#include "mpi/small_buffer.h"

namespace collwrap::tracer {

enum class CompletionKind : std::uint8_t {
  Wait,  // MPI_Wait*: completes or fails, never records tests
  // MPI_Test*: a test that completed nothing records nothing (its Enter/Leave show the call);
  // MPI_Testsome records MpiRequestTest for the requests it left pending beside completed ones.
  Test,
};

class CompletionScope {
 public:
  // `statuses` is the caller's status argument with room for `status_capacity` entries:
  // 1 for Wait, Test, Waitany and Testany; `count` for the all and some forms.
  // Inline: it runs on every completion call, most of which (failed tests in polling loops)
  // complete nothing, so it only copies the handles; the bookkeeping of each request is built
  // once something completed.
  CompletionScope(const Tracing& t, CompletionKind kind, int count, const MPI_Request* requests,
                  MPI_Status* statuses, int status_capacity) noexcept
      : t_(t),
        kind_(kind),
        handles_(non_negative(count)),
        own_statuses_(ignored(statuses) ? non_negative(status_capacity) : 0),
        statuses_(statuses) {
    const bool have_memory =
        handles_.size() == non_negative(count) &&
        (!ignored(statuses) || own_statuses_.size() == non_negative(status_capacity));
    if (!have_memory || !requests) return;  // the call goes through untracked
    if (ignored(statuses)) statuses_ = own_statuses_.data();
    // Only the handles now (PMPI sets completed ones to MPI_REQUEST_NULL); the request table
    // is read once something completed, so a test that finds nothing never takes its lock.
    std::copy_n(requests, count, handles_.data());
    count_ = count;
  }
  CompletionScope(const CompletionScope&) = delete;
  CompletionScope& operator=(const CompletionScope&) = delete;

  // The status argument to pass to PMPI.
  MPI_Status* statuses() const noexcept { return statuses_; }

  // When the PMPI call returned: the time of the completion records (Tracing::left). The
  // wrapper learns it after it built the scope, so it passes it on before calling after_*().
  void set_left(Ticks left) noexcept { t_.left = left; }

  void after_wait(int rc);                                           // MPI_Wait
  void after_test(int rc, const int* flag);                          // MPI_Test
  void after_waitany(int rc, const int* index);                      // MPI_Waitany
  void after_testany(int rc, const int* index, const int* flag);     // MPI_Testany
  void after_waitall(int rc);                                        // MPI_Waitall
  void after_testall(int rc, const int* flag);                       // MPI_Testall
  void after_some(int rc, const int* outcount, const int* indices);  // MPI_Waitsome/Testsome

 private:
  struct Pending {
    std::optional<TrackedRequest> request;  // set for active tracked requests
    bool completed = false;
  };

  static bool ignored(const MPI_Status* statuses) noexcept {
    return statuses == MPI_STATUS_IGNORE || statuses == MPI_STATUSES_IGNORE;
  }
  static std::size_t non_negative(int n) noexcept {
    return n > 0 ? static_cast<std::size_t>(n) : 0;
  }

  // Request `index` completed; its status is statuses_[status_index].
  void complete(int index, int status_index);
  // The completion record of `r` (MpiIsendComplete, MpiIrecv, NonBlockingCollectiveComplete
  // or MpiRequestCancelled).
  [[gnu::always_inline]] inline void record_completion(const TrackedRequest& r,
                                                       const MPI_Status& status);
  // Waitall/Testall: request i's status is statuses[i]; with MPI_ERR_IN_STATUS, those marked
  // MPI_ERR_PENDING did not complete.
  void complete_all(int rc);
  void record_unsuccessful_tests();
  // Reads the tracked requests of the handles from the request table, once (calls with more
  // than one request; a single request is taken from the table in one step).
  void look_up_requests();

  Tracing t_;  // a copy: two references, and no dangling on a temporary
  const CompletionKind kind_;
  int count_ = 0;  // 0 when tracking is off for this call (no memory for the buffers)
  // Inline room for the common case (a handful of requests); larger calls use the heap.
  static constexpr std::size_t kInlineRequests = 8;
  SmallBuffer<MPI_Request, kInlineRequests> handles_;  // as the caller passed them
  SmallBuffer<MPI_Status, kInlineRequests> own_statuses_;
  MPI_Status* statuses_;
  std::optional<SmallBuffer<Pending, kInlineRequests>> pending_;  // once looked up
};

}  // namespace collwrap::tracer
