// A location's local definitions file (traces/<location>.def), read without libotf2: the id
// mapping tables and the clock offsets that apply to the location's events.
//
// The reading follows libotf2 3.x exactly where a file is intact, and refuses (nullopt) where
// libotf2 would differ or report an error (an unknown record, a second table of one kind,
// offsets out of order, anything malformed): the caller then reads the location through
// libotf2, which names the damage.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
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
  // it. Start at 0. Inline: it runs once per event.
  std::uint64_t operator()(std::uint64_t ticks, std::size_t& interval) const {
    if (intervals_.empty()) return ticks;
    while (interval + 1 < intervals_.size() && ticks > intervals_[interval].end) ++interval;
    const Interval& in = intervals_[interval];
    const double since =
        ticks >= in.begin ? to_double(ticks - in.begin) : -to_double(in.begin - ticks);
    const double shift = round_half_even(in.slope * since);
    // Out of range (or NaN), x86's conversion gives the smallest int64: so does libotf2's.
    constexpr double kLimit = 9223372036854775808.0;  // 2^63
    const std::int64_t whole = shift >= -kLimit && shift < kLimit
                                   ? static_cast<std::int64_t>(shift)
                                   : std::numeric_limits<std::int64_t>::min();
    return ticks + static_cast<std::uint64_t>(in.offset) + static_cast<std::uint64_t>(whole);
  }

 private:
  struct Interval {
    std::uint64_t begin, end;
    std::int64_t offset;
    double slope;
  };
  // The nearest double, as a conversion of the unsigned value rounds it; through the signed
  // conversion, which is one instruction, whenever the value fits.
  static double to_double(std::uint64_t v) {
    return v < (std::uint64_t{1} << 63) ? static_cast<double>(static_cast<std::int64_t>(v))
                                        : static_cast<double>(v);
  }
  // std::rint in the default rounding mode (ties to even), without a library call: below 2^52,
  // adding and taking away 2^52 leaves the nearest integer; above, every double is one.
  static double round_half_even(double x) {
    constexpr double k2p52 = 4503599627370496.0;
    double magnitude = std::fabs(x);
    if (magnitude < k2p52) magnitude = (magnitude + k2p52) - k2p52;
    return std::copysign(magnitude, x);
  }
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
