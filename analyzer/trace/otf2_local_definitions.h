// A location's local definitions file (traces/<location>.def), read without libotf2: the id
// mapping tables and the clock offsets that apply to the location's events.
//
// The reading follows libotf2 3.x exactly where a file is intact, and refuses (nullopt) where
// libotf2 would differ or report an error (an unknown record, a second table of one kind,
// offsets out of order, anything malformed): the caller then reads the location through
// libotf2, which names the damage.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace collwrap {

// OTF2_MappingType values of the tables the analyzer applies.
enum class IdMapKind : std::uint8_t {
  Attribute = 1,
  Region = 3,
  Group = 4,
  Comm = 6,
  RmaWin = 8,
  CallingContext = 10,
};

// Local id → global id. Ids the table does not hold, and every id without a table, are
// already global.
class IdMap {
 public:
  IdMap() = default;
  static IdMap dense(std::vector<std::uint64_t> globals);  // local id = index
  static IdMap sparse(std::vector<std::pair<std::uint64_t, std::uint64_t>> local_global);

  std::uint64_t operator()(std::uint64_t local) const {
    if (!sparse_) return local < dense_.size() ? dense_[local] : local;
    return sparse_lookup(local);
  }

 private:
  std::uint64_t sparse_lookup(std::uint64_t local) const;
  bool sparse_ = false;
  std::vector<std::uint64_t> dense_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pairs_;  // sorted by local id
};

// The linear interpolation between a location's ClockOffset records that libotf2 adds to
// each timestamp, in its arithmetic to the bit: between offsets i-1 and i a timestamp T gets
// offset[i-1] + rint(slope × (T - time[i-1])), before the first offset and after the last the
// nearest interval extrapolated. Fewer than two offsets: no correction.
class ClockCorrection {
 public:
  // False when `time` is not after the previous offset's (libotf2 refuses the file).
  bool add_offset(std::uint64_t time, std::int64_t offset);
  bool applies() const { return !intervals_.empty(); }

  // `interval` is the reader's position among the intervals, which only moves forward as
  // libotf2's does: a time earlier than its interval's begin is extrapolated backwards from
  // it. Start at 0.
  std::uint64_t operator()(std::uint64_t ticks, std::size_t& interval) const;

 private:
  struct Interval {
    std::uint64_t begin, end;
    std::int64_t offset;
    double slope;
  };
  std::vector<Interval> intervals_;
  std::optional<std::pair<std::uint64_t, std::int64_t>> last_;  // the previous offset
};

struct LocalDefinitions {
  IdMap attribute, region, group, comm, window, calling_context;
  ClockCorrection clock;
  std::uint32_t clock_offsets = 0;  // ClockOffset records
  double max_offset_stddev = 0;     // in ticks
};

std::optional<LocalDefinitions> read_local_definitions_file(const std::string& path,
                                                            std::uint64_t chunk_size);

}  // namespace collwrap
