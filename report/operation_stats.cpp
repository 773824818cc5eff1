#include "operation_stats.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <map>
#include <tuple>

#include "result_units.h"
#include "time_sum.h"

namespace collwrap {
namespace {

std::uint64_t call_bytes(const Location& l, std::size_t call) {
  std::uint64_t bytes = 0;
  for (std::uint32_t op = l.call_first_op[call]; op < l.call_first_op[call + 1]; ++op)
    bytes += l.bytes_sent(op) + l.bytes_received(op);
  return bytes;
}

}  // namespace

std::pair<std::uint64_t, std::uint64_t> size_bucket(std::uint64_t bytes) {
  if (bytes == 0) return {0, 0};
  // Powers of 4 start at even bit positions: round the highest set bit down to one.
  const int shift = (std::bit_width(bytes) - 1) & ~1;
  const std::uint64_t low = std::uint64_t{1} << shift;
  const std::uint64_t high =
      shift >= 62 ? std::numeric_limits<std::uint64_t>::max() : (low << 2) - 1;
  return {low, high};
}

OperationTallies tally_operations(const Trace& trace, const LocationRange& at) {
  OperationTallies tallies;
  for (std::size_t li = 0; li < trace.locations.size(); ++li) {
    if (!at.contains(li)) continue;
    const Location& l = trace.locations[li];
    for (std::size_t c = 0; c < l.calls(); ++c) {
      const TimeNs d = l.call_leave[c] - l.call_enter[c];
      OperationTally& a = tallies.groups[{l.call_region[c], size_bucket(call_bytes(l, c)).first}];
      ++a.count;
      a.total = add_saturating(a.total, d);
      a.min = std::min(a.min, d);
      a.max = std::max(a.max, d);
      tallies.all_mpi = add_saturating(tallies.all_mpi, d);
    }
  }
  return tallies;
}

void merge_tallies(OperationTallies& into, const OperationTallies& from) {
  for (const auto& [key, b] : from.groups) {
    OperationTally& a = into.groups[key];
    a.count += b.count;
    a.total = add_saturating(a.total, b.total);
    a.min = std::min(a.min, b.min);
    a.max = std::max(a.max, b.max);
  }
  into.all_mpi = add_saturating(into.all_mpi, from.all_mpi);
}

std::vector<OperationStats> operation_stats(const Trace& trace, const OperationTallies& tallies) {
  const TimeNs all_mpi = tallies.all_mpi;
  std::vector<OperationStats> stats;
  stats.reserve(tallies.groups.size());
  for (const auto& [key, a] : tallies.groups) {
    OperationStats s;
    s.function = trace.regions[key.first].name;
    std::tie(s.bytes_min, s.bytes_max) = size_bucket(key.second);
    s.count = a.count;
    s.total_s = seconds(a.total);
    s.mean_s = s.total_s / static_cast<double>(a.count);
    s.min_s = seconds(a.min);
    s.max_s = seconds(a.max);
    s.percent_of_mpi_time =
        all_mpi > 0 ? 100.0 * static_cast<double>(a.total) / static_cast<double>(all_mpi) : 0.0;
    stats.push_back(std::move(s));
  }
  std::stable_sort(stats.begin(), stats.end(),
                   [](const auto& a, const auto& b) { return a.total_s > b.total_s; });
  return stats;
}

std::vector<OperationStats> operation_stats(const Trace& trace) {
  return operation_stats(trace, tally_operations(trace));
}

}  // namespace collwrap
