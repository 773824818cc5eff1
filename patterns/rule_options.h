// Settings shared by all pattern rules (the analyzer's --eager-threshold, --min-wait and
// --sendrecv-window options).
#pragma once

#include <cstdint>
#include <optional>

#include "trace_model.h"

namespace collwrap {

// Open MPI 4.1's eager limits: a standard or ready send up to this many bytes completes
// locally, above it the sender waits for the matching receive (rendezvous).
inline constexpr std::uint64_t kSharedMemoryEagerBytes = 4096;  // btl_vader_eager_limit
inline constexpr std::uint64_t kNetworkEagerBytes = 65536;      // btl_tcp_eager_limit

struct RuleOptions {
  // Unset: chosen per message, kSharedMemoryEagerBytes when sender and receiver share a node,
  // else kNetworkEagerBytes.
  std::optional<std::uint64_t> eager_threshold;

  // ε of Akopyan and Andreev (ISP RAS): instances with less idle time count as not occurring. Small
  // enough to keep real waits, large enough to drop the bare cost of an MPI call that did not wait.
  TimeNs min_wait = 10'000;  // 10 µs

  // Δ of the sendrecv_candidate pattern: the longest gap between a blocking send and a
  // blocking receive with the same peer that still counts as "one exchange".
  TimeNs sendrecv_window = 100'000;  // 100 µs

  // large_communication: a put or get of at least this many bytes is large. Akopyan and Andreev
  // (ISP RAS) call a transfer large when its time is governed by its size rather than by its
  // fixed cost; the network eager limit is where Open MPI stops moving data in one go.
  std::uint64_t large_transfer_bytes = kNetworkEagerBytes;

  // unbalanced_communication: a process pair whose bytes reach this multiple of the mean over
  // all pairs that communicated is unbalanced.
  double unbalanced_factor = 2.0;
};

}  // namespace collwrap
