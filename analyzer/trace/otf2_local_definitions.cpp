#include "otf2_local_definitions.h"

#include <algorithm>
#include <cstring>

#include "definitions_file_check.h"

namespace collwrap {

IdMap IdMap::dense(std::vector<std::uint64_t> globals) {
  IdMap map;
  map.dense_ = std::move(globals);
  return map;
}

IdMap IdMap::sparse(std::vector<std::pair<std::uint64_t, std::uint64_t>> local_global) {
  IdMap map;
  map.sparse_ = true;
  // A local id given twice keeps its last global id, as libotf2 keeps it.
  std::stable_sort(local_global.begin(), local_global.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& entry : local_global) {
    if (!map.pairs_.empty() && map.pairs_.back().first == entry.first)
      map.pairs_.back() = entry;
    else
      map.pairs_.push_back(entry);
  }
  return map;
}

std::uint64_t IdMap::sparse_lookup(std::uint64_t local) const {
  const auto it =
      std::lower_bound(pairs_.begin(), pairs_.end(), local,
                       [](const auto& entry, std::uint64_t id) { return entry.first < id; });
  return it != pairs_.end() && it->first == local ? it->second : local;
}

bool ClockCorrection::add_offset(std::uint64_t time, std::int64_t offset) {
  if (last_) {
    const auto [begin, begin_offset] = *last_;
    if (begin >= time) return false;
    // libotf2's slope: a wrapping signed difference over an unsigned one, both as doubles.
    const auto rise = static_cast<std::int64_t>(static_cast<std::uint64_t>(offset) -
                                                static_cast<std::uint64_t>(begin_offset));
    intervals_.push_back(
        {begin, time, begin_offset, static_cast<double>(rise) / static_cast<double>(time - begin)});
  }
  last_ = {time, offset};
  return true;
}

namespace {

using namespace otf2_format;

constexpr std::uint8_t kMappingTable = 5;  // local definition record types
constexpr std::uint8_t kClockOffset = 6;

IdMap* table_of(LocalDefinitions& defs, std::uint8_t kind) {
  switch (static_cast<IdMapKind>(kind)) {
    case IdMapKind::Attribute:
      return &defs.attribute;
    case IdMapKind::Region:
      return &defs.region;
    case IdMapKind::Group:
      return &defs.group;
    case IdMapKind::Comm:
      return &defs.comm;
    case IdMapKind::RmaWin:
      return &defs.window;
    case IdMapKind::CallingContext:
      return &defs.calling_context;
  }
  return nullptr;  // a table the analyzer does not need
}

bool read_mapping_table(FieldReader f, LocalDefinitions& defs, std::uint16_t& kinds_seen) {
  std::uint8_t kind = 0, mode = 0;
  std::uint64_t count = 0;
  constexpr std::uint8_t kMappingTypes = 15, kDense = 0, kSparse = 1;
  if (!f.byte(kind) || !f.compressed64(count) || !f.byte(mode) || kind >= kMappingTypes ||
      count == 0 || (mode != kDense && mode != kSparse) ||
      count > static_cast<std::uint64_t>(f.end - f.p))  // every entry takes a byte at least
    return false;
  if (kinds_seen & (1u << kind)) return false;  // libotf2 reports a duplicate table
  kinds_seen |= static_cast<std::uint16_t>(1u << kind);
  if (mode == kDense) {
    std::vector<std::uint64_t> globals(count);
    for (std::uint64_t& g : globals)
      if (!f.compressed64(g)) return false;
    if (IdMap* table = table_of(defs, kind)) *table = IdMap::dense(std::move(globals));
  } else {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> pairs(count);
    for (auto& [local, global] : pairs)
      if (!f.compressed64(local) || !f.compressed64(global)) return false;
    if (IdMap* table = table_of(defs, kind)) *table = IdMap::sparse(std::move(pairs));
  }
  return true;
}

bool read_clock_offset(FieldReader f, LocalDefinitions& defs) {
  std::uint64_t time = 0, offset = 0, stddev_bits = 0;
  if (!f.full(8, time) || !f.compressed64(offset) || !f.full(8, stddev_bits)) return false;
  double stddev = 0;
  std::memcpy(&stddev, &stddev_bits, sizeof stddev);
  ++defs.clock_offsets;
  defs.max_offset_stddev = std::max(defs.max_offset_stddev, stddev);
  return defs.clock.add_offset(time, static_cast<std::int64_t>(offset));
}

}  // namespace

std::optional<LocalDefinitions> read_local_definitions_file(const std::string& path,
                                                            std::uint64_t chunk_size) {
  ChunkedFile file(path, chunk_size);
  LocalDefinitions defs;
  std::uint16_t kinds_seen = 0;
  const std::uint8_t* end_of_file = nullptr;
  const auto read = [&](std::uint8_t type, FieldReader fields) {
    if (type == kMappingTable) return read_mapping_table(fields, defs, kinds_seen);
    if (type == kClockOffset) return read_clock_offset(fields, defs);
    return false;  // a record libotf2 would read with its own rules
  };
  if (!file.is_open() || !walk_definition_records(file, read, end_of_file).empty())
    return std::nullopt;
  return defs;
}

}  // namespace collwrap
