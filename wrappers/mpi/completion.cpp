#include "mpi/completion.h"

#include <algorithm>
#include <functional>
#include <new>
#include <utility>

#include "mpi/comm_registry.h"

namespace collwrap::tracer {

void CompletionScope::look_up_requests() {
  if (pending_) return;
  try {
    pending_.emplace(handles_.size());
    if (pending_->size() != handles_.size()) throw std::bad_alloc();
    // Slots sorted by handle, a handle's slots in call order, so that the k-th slot holding a
    // shared handle takes the handle's k-th oldest request. (std::sort with the slot as
    // tiebreaker rather than std::stable_sort, which allocates.)
    SmallBuffer<std::pair<MPI_Request, int>, kInlineRequests> order(handles_.size());
    if (order.size() != handles_.size()) throw std::bad_alloc();
    std::size_t used = 0;
    for (int i = 0; i < count_; ++i) {
      MPI_Request handle = handles_[static_cast<std::size_t>(i)];
      if (handle != MPI_REQUEST_NULL) order[used++] = {handle, i};
    }
    std::sort(order.data(), order.data() + used, [](const auto& a, const auto& b) {
      if (a.first != b.first) return std::less<MPI_Request>{}(a.first, b.first);
      return a.second < b.second;
    });
    for (std::size_t first = 0, last = 0; first < used; first = last) {
      while (last < used && order[last].first == order[first].first) ++last;
      t_.sem.requests.visit_active(
          order[first].first, last - first, [&](std::size_t k, const TrackedRequest& r) {
            (*pending_)[static_cast<std::size_t>(order[first + k].second)].request = r;
          });
    }
  } catch (...) {
    count_ = 0;  // records of this call are lost; the MPI call itself is unaffected
  }
}

void CompletionScope::record_completion(const TrackedRequest& r, const MPI_Status& status) {
  const Ticks time = t_.left;
  if (r.kind == RequestKind::Collective) {
    t_.rec.nbc_complete(time, r.op, r.comm->ref, r.peer, r.bytes, r.received, r.id);
  } else if (t_.sem.mpi.cancelled(status)) {
    t_.rec.mpi_request_cancelled(time, r.id);
  } else if (r.kind == RequestKind::Send) {
    t_.rec.mpi_isend_complete(time, r.id);
  } else {
    t_.rec.mpi_irecv(time, r.comm->peer_index(status.MPI_SOURCE), r.comm->ref,
                     static_cast<std::uint32_t>(status.MPI_TAG), t_.sem.mpi.received_bytes(status),
                     r.id);
  }
}

void CompletionScope::complete(int index, int status_index) {
  if (count_ == 1 && !pending_) {  // MPI_Wait, MPI_Test and the like: one lookup, no buffers
    if (index != 0 || handles_[0] == MPI_REQUEST_NULL) return;
    t_.sem.requests.complete_oldest_active(handles_[0], [&](const TrackedRequest& r) {
      record_completion(r, statuses_[status_index]);
    });
    return;
  }
  look_up_requests();
  if (index < 0 || index >= count_) return;
  Pending& p = (*pending_)[static_cast<std::size_t>(index)];
  if (!p.request || p.completed) return;
  p.completed = true;
  record_completion(*p.request, statuses_[status_index]);
  t_.sem.requests.finish(handles_[static_cast<std::size_t>(index)], p.request->id);
}

void CompletionScope::record_unsuccessful_tests() {
  if (kind_ != CompletionKind::Test || !pending_) return;
  for (int i = 0; i < count_; ++i) {
    const Pending& p = (*pending_)[static_cast<std::size_t>(i)];
    if (p.request && !p.completed) t_.rec.mpi_request_test(t_.left, p.request->id);
  }
}

void CompletionScope::after_wait(int rc) {
  if (rc == MPI_SUCCESS) complete(0, 0);
}

void CompletionScope::after_test(int rc, const int* flag) {
  if (rc != MPI_SUCCESS || !flag) return;
  if (*flag) complete(0, 0);
}

void CompletionScope::after_waitany(int rc, const int* index) {
  // MPI_UNDEFINED: no active request in the list; complete() ignores it.
  if (rc == MPI_SUCCESS && index) complete(*index, 0);
}

void CompletionScope::after_testany(int rc, const int* index, const int* flag) {
  if (rc != MPI_SUCCESS || !index || !flag) return;
  if (*flag) complete(*index, 0);
}

void CompletionScope::complete_all(int rc) {
  for (int i = 0; i < count_; ++i) {
    if (rc == MPI_SUCCESS || statuses_[i].MPI_ERROR != MPI_ERR_PENDING) complete(i, i);
  }
}

void CompletionScope::after_waitall(int rc) {
  if (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) complete_all(rc);
}

void CompletionScope::after_testall(int rc, const int* flag) {
  if (rc == MPI_ERR_IN_STATUS || (rc == MPI_SUCCESS && flag && *flag)) {
    complete_all(rc);
  }
}

void CompletionScope::after_some(int rc, const int* outcount, const int* indices) {
  if ((rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) || !outcount) return;
  // MPI_UNDEFINED: no active request in the list.
  if (*outcount == MPI_UNDEFINED) return;
  for (int k = 0; k < *outcount && indices; ++k) complete(indices[k], k);
  record_unsuccessful_tests();
}

}  // namespace collwrap::tracer
