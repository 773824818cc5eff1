#include "comm_matrix.h"

#include <algorithm>
#include <map>
#include <utility>

#include "result_units.h"
#include "sample_stats.h"
#include "transfers.h"

namespace collwrap {
namespace {

struct PairTimes {
  std::size_t transfers = 0;  // counted before the times are collected
  std::uint64_t bytes = 0;
  std::vector<double> transfer_s;
};

// Sorts the pair's times in place and gives their memory back once summarized.
CommPair cell_of(std::int32_t sender, std::int32_t receiver, PairTimes& times) {
  sort_ascending(times.transfer_s);
  const SampleSummary t = summarize_sorted(times.transfer_s);
  std::vector<double>().swap(times.transfer_s);
  CommPair cell;
  cell.sender = sender;
  cell.receiver = receiver;
  cell.messages = t.n;
  cell.bytes = times.bytes;
  cell.transfer_min_s = t.min;
  cell.transfer_max_s = t.max;
  cell.transfer_median_s = t.median;
  cell.transfer_mean_s = t.mean;
  cell.transfer_stddev_s = t.population_stddev;  // the messages are all there is
  return cell;
}

}  // namespace

std::vector<CommPair> communication_matrix(const Trace& trace, const Matching& matching) {
  // The pairs' times are counted first, so that each pair's table is made once at its size:
  // grown by doubling, the tables would take up to twice the room, and a copy at each growth.
  std::map<std::pair<std::int32_t, std::int32_t>, PairTimes> pairs;
  for_each_transfer(trace, matching, [&](const Transfer& t) { ++pairs[{t.from, t.to}].transfers; });
  for (auto& [key, times] : pairs) times.transfer_s.reserve(times.transfers);
  // A transfer cannot take negative time: clamp what residual clock error inverted.
  for_each_transfer(trace, matching, [&](const Transfer& t) {
    PairTimes& p = pairs.find({t.from, t.to})->second;
    p.bytes += t.bytes;
    p.transfer_s.push_back(seconds(std::max<TimeNs>(0, t.done - t.start)));
  });
  std::vector<CommPair> cells;
  cells.reserve(pairs.size());
  for (auto& [key, times] : pairs) cells.push_back(cell_of(key.first, key.second, times));
  return cells;
}

}  // namespace collwrap
