#include "record/local_definitions.h"

namespace collwrap::tracer {
namespace {

constexpr std::uint32_t kDefinitionsMagic = 0x33444c43;  // "CLD3"
constexpr std::uint32_t kMappingMagic = 0x324d4c43;      // "CLM2"

void write_frame(ByteWriter& out, const ResolvedFrame& f) {
  out.str(f.function);
  out.str(f.linkage_name);
  out.str(f.function_file);
  out.u32(f.function_line);
  out.str(f.file);
  out.u32(f.line);
}

ResolvedFrame read_frame(ByteReader& in) {
  ResolvedFrame f;
  f.function = in.str();
  f.linkage_name = in.str();
  f.function_file = in.str();
  f.function_line = in.u32();
  f.file = in.str();
  f.line = in.u32();
  return f;
}

void write_pairs(ByteWriter& out, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& v) {
  out.u32(std::uint32_t(v.size()));
  for (auto [local, global] : v) {
    out.u32(local);
    out.u32(global);
  }
}

template <typename T>
void write_values(ByteWriter& out, const std::vector<T>& values) {
  out.u32(std::uint32_t(values.size()));
  for (const T v : values) out.u32(std::uint32_t(v));
}

template <typename T>
std::vector<T> read_values(ByteReader& in) {
  std::vector<T> values(in.count(4));
  for (T& v : values) v = T(in.u32());
  return values;
}

void write_topology(ByteWriter& out, const GroupTopology& t) {
  out.u8(std::uint8_t(t.kind));
  if (t.kind == GroupTopology::Kind::None) return;
  write_values(out, t.dims);
  write_values(out, t.periodic);
  write_values(out, t.coords);
  write_values(out, t.in_neighbors);
  write_values(out, t.out_neighbors);
}

GroupTopology read_topology(ByteReader& in) {
  GroupTopology t;
  t.kind = GroupTopology::Kind(in.u8());
  if (t.kind == GroupTopology::Kind::None) return t;
  t.dims = read_values<std::uint32_t>(in);
  t.periodic = read_values<std::uint8_t>(in);
  t.coords = read_values<std::uint32_t>(in);
  t.in_neighbors = read_values<std::int32_t>(in);
  t.out_neighbors = read_values<std::int32_t>(in);
  return t;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> read_pairs(ByteReader& in) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> v(in.count(8));
  for (auto& [local, global] : v) {
    local = in.u32();
    global = in.u32();
  }
  return v;
}

}  // namespace

void LocalDefinitions::serialize(ByteWriter& out) const {
  out.u32(kDefinitionsMagic);
  out.u32(world_rank);
  out.u32(world_size);
  out.str(host);
  out.str(program);
  out.str(process_label);
  out.f64(timer_resolution);
  out.i64(calibration_span_ns);
  out.u64(first_time);
  out.u64(last_time);
  out.u64(realtime_anchor_ticks);
  out.i64(realtime_anchor_ns);
  out.u32(std::uint32_t(offsets.size()));
  for (const ClockOffsetSample& o : offsets) {
    out.u64(o.local_time);
    out.i64(o.offset);
    out.f64(o.stddev_ticks);
  }
  out.u32(std::uint32_t(locations.size()));
  for (const LocalLocation& l : locations) {
    out.u32(l.thread_index);
    out.u64(l.events);
  }
  out.u32(std::uint32_t(groups.size()));
  for (const GroupInfo& g : groups) {
    out.u32(g.id);
    out.u8(std::uint8_t(g.paradigm));
    out.u64(g.key);
    out.str(g.name);
    write_values(out, g.members);
    write_topology(out, g.topology);
  }
  out.u32(std::uint32_t(windows.size()));
  for (const WindowInfo& w : windows) {
    out.u32(w.id);
    out.u64(w.key);
    out.str(w.name);
    out.u32(w.group);
  }
  out.u32(std::uint32_t(callsites.size()));
  for (const LocalCallSite& s : callsites) {
    out.u32(s.id);
    out.u32(std::uint32_t(s.frames.size()));
    for (const ResolvedFrame& f : s.frames) write_frame(out, f);
  }
}

std::optional<LocalDefinitions> LocalDefinitions::deserialize(std::span<const std::uint8_t> bytes) {
  ByteReader in(bytes);
  if (in.u32() != kDefinitionsMagic) return std::nullopt;
  LocalDefinitions d;
  d.world_rank = in.u32();
  d.world_size = in.u32();
  d.host = in.str();
  d.program = in.str();
  d.process_label = in.str();
  d.timer_resolution = in.f64();
  d.calibration_span_ns = in.i64();
  d.first_time = in.u64();
  d.last_time = in.u64();
  d.realtime_anchor_ticks = in.u64();
  d.realtime_anchor_ns = in.i64();
  d.offsets.resize(in.count(24));
  for (ClockOffsetSample& o : d.offsets) {
    o.local_time = in.u64();
    o.offset = in.i64();
    o.stddev_ticks = in.f64();
  }
  d.locations.resize(in.count(12));
  for (LocalLocation& l : d.locations) {
    l.thread_index = in.u32();
    l.events = in.u64();
  }
  d.groups.resize(in.count(22));
  for (GroupInfo& g : d.groups) {
    g.id = in.u32();
    g.paradigm = Paradigm(in.u8());
    g.key = in.u64();
    g.name = in.str();
    g.members = read_values<std::int32_t>(in);
    g.topology = read_topology(in);
  }
  d.windows.resize(in.count(20));
  for (WindowInfo& w : d.windows) {
    w.id = in.u32();
    w.key = in.u64();
    w.name = in.str();
    w.group = in.u32();
  }
  d.callsites.resize(in.count(8));
  for (LocalCallSite& s : d.callsites) {
    s.id = in.u32();
    s.frames.resize(in.count(16));
    for (ResolvedFrame& f : s.frames) f = read_frame(in);
  }
  if (in.failed() || !in.at_end()) return std::nullopt;
  return d;
}

void RankMapping::serialize(ByteWriter& out) const {
  out.u32(kMappingMagic);
  write_pairs(out, comms);
  write_pairs(out, callsites);
  write_pairs(out, windows);
  write_pairs(out, groups);
}

std::optional<RankMapping> RankMapping::deserialize(std::span<const std::uint8_t> bytes) {
  ByteReader in(bytes);
  if (in.u32() != kMappingMagic) return std::nullopt;
  RankMapping m;
  m.comms = read_pairs(in);
  m.callsites = read_pairs(in);
  m.windows = read_pairs(in);
  m.groups = read_pairs(in);
  if (in.failed() || !in.at_end()) return std::nullopt;
  return m;
}

}  // namespace collwrap::tracer
