#include "record/tracer_config.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

namespace collwrap::tracer {
namespace {

std::optional<std::uint32_t> parse_uint(std::string_view text, std::uint32_t lo, std::uint32_t hi) {
  std::uint32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < lo || value > hi) {
    return std::nullopt;
  }
  return value;
}

// Seconds with up to three decimals ("2", "0.25") as milliseconds within [0, hi_s] seconds.
std::optional<std::uint32_t> parse_seconds_as_ms(std::string_view text, std::uint32_t hi_s) {
  double seconds = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (ec != std::errc() || end != text.data() + text.size() || !(seconds >= 0) || seconds > hi_s) {
    return std::nullopt;
  }
  return std::uint32_t(std::llround(seconds * 1000));
}

std::optional<bool> parse_bool(std::string_view text) {
  for (std::string_view yes : {"1", "yes", "true", "on"})
    if (text == yes) return true;
  for (std::string_view no : {"0", "no", "false", "off", ""})
    if (text == no) return false;
  return std::nullopt;
}

void invalid(std::vector<std::string>& problems, const char* name, const char* value,
             const char* expected) {
  problems.push_back(std::string(name) + "='" + value + "' is not valid (expected " + expected +
                     "); using the default");
}

}  // namespace

const char* timer_kind_name(TimerKind kind) {
  switch (kind) {
    case TimerKind::Auto:
      return "auto";
    case TimerKind::Tsc:
      return "tsc";
    case TimerKind::Monotonic:
      return "monotonic";
    case TimerKind::MpiWtime:
      return "mpi_wtime";
  }
  return "?";
}

const char* clocksync_kind_name(ClockSyncKind kind) {
  switch (kind) {
    case ClockSyncKind::Auto:
      return "auto";
    case ClockSyncKind::Linear:
      return "linear";
    case ClockSyncKind::Ring:
      return "ring";
    case ClockSyncKind::Tree:
      return "tree";
    case ClockSyncKind::Off:
      return "off";
  }
  return "?";
}

std::optional<ClockSyncKind> parse_clocksync_kind(std::string_view name) {
  for (ClockSyncKind kind : {ClockSyncKind::Auto, ClockSyncKind::Linear, ClockSyncKind::Ring,
                             ClockSyncKind::Tree, ClockSyncKind::Off}) {
    if (name == clocksync_kind_name(kind)) return kind;
  }
  return std::nullopt;
}

TracerConfig read_config(EnvLookup get, std::vector<std::string>& problems) {
  TracerConfig config;
  if (const char* v = get("COLLWRAP_TRACE_DIR"); v && *v) config.trace_dir = v;

  if (const char* v = get("COLLWRAP_TIMER"); v && *v) {
    std::string_view s = v;
    if (s == "auto")
      config.timer = TimerKind::Auto;
    else if (s == "tsc")
      config.timer = TimerKind::Tsc;
    else if (s == "monotonic")
      config.timer = TimerKind::Monotonic;
    else if (s == "mpi_wtime")
      config.timer = TimerKind::MpiWtime;
    else
      invalid(problems, "COLLWRAP_TIMER", v, "auto, tsc, monotonic or mpi_wtime");
  }

  if (const char* v = get("COLLWRAP_CALLSITE_DEPTH"); v && *v) {
    if (auto n = parse_uint(v, 0, TracerConfig::kMaxCallsiteDepth))
      config.callsite_depth = *n;
    else
      invalid(problems, "COLLWRAP_CALLSITE_DEPTH", v, "0..16");
  }

  if (const char* v = get("COLLWRAP_CLOCKSYNC"); v && *v) {
    std::string_view s = v;
    if (auto kind = parse_clocksync_kind(s))
      config.clocksync = *kind;
    else
      invalid(problems, "COLLWRAP_CLOCKSYNC", v, "auto, linear, ring, tree or off");
  }

  if (const char* v = get("COLLWRAP_CLOCKSYNC_ROUNDS"); v && *v) {
    if (auto n = parse_uint(v, 1, 100000))
      config.clocksync_rounds = *n;
    else
      invalid(problems, "COLLWRAP_CLOCKSYNC_ROUNDS", v, "1..100000");
  }

  if (const char* v = get("COLLWRAP_CLOCKSYNC_INTERVAL"); v && *v) {
    if (auto ms = parse_seconds_as_ms(v, 86400))
      config.clocksync_interval_ms = *ms;
    else
      invalid(problems, "COLLWRAP_CLOCKSYNC_INTERVAL", v, "seconds, 0 to 86400 (0: off)");
  }

  if (const char* v = get("COLLWRAP_VERBOSE")) {
    if (auto b = parse_bool(v))
      config.verbose = *b;
    else
      invalid(problems, "COLLWRAP_VERBOSE", v, "0 or 1");
  }

  if (const char* v = get("COLLWRAP_BUFFER_MB"); v && *v) {
    if (auto n = parse_uint(v, 1, 1u << 20))
      config.buffer_mib = *n;
    else
      invalid(problems, "COLLWRAP_BUFFER_MB", v, "a size in MiB, at least 1");
  }
  return config;
}

void TracerConfig::serialize(ByteWriter& out) const {
  out.str(trace_dir);
  out.u8(std::uint8_t(timer));
  out.u32(callsite_depth);
  out.u8(std::uint8_t(clocksync));
  out.u32(clocksync_rounds);
  out.u32(clocksync_interval_ms);
  out.u8(verbose);
  out.u32(buffer_mib);
}

TracerConfig TracerConfig::deserialize(ByteReader& in) {
  TracerConfig c;
  c.trace_dir = in.str();
  c.timer = TimerKind(in.u8());
  c.callsite_depth = in.u32();
  c.clocksync = ClockSyncKind(in.u8());
  c.clocksync_rounds = in.u32();
  c.clocksync_interval_ms = in.u32();
  c.verbose = in.u8() != 0;
  c.buffer_mib = in.u32();
  return c;
}

}  // namespace collwrap::tracer
