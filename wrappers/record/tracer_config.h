// The tracer's settings, read from COLLWRAP_* environment variables (documented in
// the README's settings table). Settings that all ranks must agree on are taken from rank 0 and
// broadcast, so a rank with a different environment cannot make the others deadlock.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "record/byte_stream.h"

namespace collwrap::tracer {

enum class TimerKind : std::uint8_t { Auto, Tsc, Monotonic, MpiWtime };
enum class ClockSyncKind : std::uint8_t { Auto, Linear, Ring, Tree, Off };

struct TracerConfig {
  std::string trace_dir;              // COLLWRAP_TRACE_DIR; empty: collwrap-<program>-<date>-<time>
  TimerKind timer = TimerKind::Auto;  // COLLWRAP_TIMER
  std::uint32_t callsite_depth = 1;   // COLLWRAP_CALLSITE_DEPTH; 0 records no call sites
  ClockSyncKind clocksync = ClockSyncKind::Auto;  // COLLWRAP_CLOCKSYNC
  std::uint32_t clocksync_rounds = 30;  // COLLWRAP_CLOCKSYNC_ROUNDS: patience d of the min-RTT rule
  // COLLWRAP_CLOCKSYNC_INTERVAL (seconds, decimals allowed): time between re-measurements at
  // MPI_COMM_WORLD barriers; 0 measures only at MPI_Init and MPI_Finalize.
  std::uint32_t clocksync_interval_ms = 0;
  bool verbose = false;           // COLLWRAP_VERBOSE
  std::uint32_t buffer_mib = 32;  // COLLWRAP_BUFFER_MB: event memory per thread before a flush

  static constexpr std::uint32_t kMaxCallsiteDepth = 16;

  void serialize(ByteWriter& out) const;
  static TracerConfig deserialize(ByteReader& in);
};

// Reads the configuration through `get` (getenv in production). An invalid value keeps the
// default and adds one human-readable line to `problems`.
using EnvLookup = const char* (*)(const char* name);
TracerConfig read_config(EnvLookup get, std::vector<std::string>& problems);

const char* timer_kind_name(TimerKind kind);
const char* clocksync_kind_name(ClockSyncKind kind);
// The inverse of clocksync_kind_name (for COLLWRAP_CLOCKSYNC and collwrap-timercheck --sync).
std::optional<ClockSyncKind> parse_clocksync_kind(std::string_view name);

}  // namespace collwrap::tracer
