#include "location_shares.h"

#include <algorithm>

#include "parallel_for.h"
#include "trace_model.h"

namespace collwrap {

std::vector<LocationRange> split_locations(const std::vector<std::uint64_t>& declared_events,
                                           unsigned processes) {
  const std::size_t n = declared_events.size();
  std::vector<LocationRange> shares(std::max(processes, 1u));
  const std::size_t k = shares.size();
  if (n <= k) {  // one location each, while they last
    for (std::size_t p = 0; p < k; ++p) shares[p] = {std::min(p, n), std::min(p + 1, n)};
    return shares;
  }
  // prefix[i]: the events of locations [0, i).
  std::vector<double> prefix(n + 1, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    prefix[i + 1] = prefix[i] + static_cast<double>(std::max<std::uint64_t>(declared_events[i], 1));
  std::size_t begin = 0;
  for (std::size_t p = 0; p < k; ++p) {
    std::size_t end = n;
    if (p + 1 < k) {
      // The location boundary nearest to this process's fair part of the events, kept so
      // that this process and every later one get a location.
      const double target = prefix[n] * static_cast<double>(p + 1) / static_cast<double>(k);
      end = static_cast<std::size_t>(std::lower_bound(prefix.begin(), prefix.end(), target) -
                                     prefix.begin());
      if (end > begin + 1 && target - prefix[end - 1] < prefix[end] - target) --end;
      end = std::clamp(end, begin + 1, n - (k - p - 1));
    }
    shares[p] = {begin, end};
    begin = end;
  }
  return shares;
}

std::vector<LocationRange> split_calls(const Trace& trace, unsigned threads) {
  std::vector<std::uint64_t> calls;
  calls.reserve(trace.locations.size());
  for (const Location& l : trace.locations) calls.push_back(l.calls());
  return split_locations(calls, worker_count(threads, trace.locations.size()));
}

}  // namespace collwrap
