#include "comm_matrix.h"

#include <algorithm>
#include <map>
#include <utility>

#include "result_units.h"
#include "sample_stats.h"
#include "transfers.h"

namespace collwrap {
namespace {

// One pair's cell from all of its times, sorted in place and then freed.
CommPair pair_cell(std::int32_t sender, std::int32_t receiver, PairTimes& times) {
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

PairTransfers collect_transfers(const Trace& trace, const Matching& matching,
                                const LocationRange& at) {
  // The pairs' times are counted first, so that each pair's table is made once at its size:
  // grown by doubling, the tables would take up to twice the room, and a copy at each growth.
  std::map<std::pair<std::int32_t, std::int32_t>, std::size_t> counts;
  for_each_transfer(
      trace, matching,
      [&](const Transfer& t) {
        ++counts[{t.from, t.to}];
      },
      at);
  PairTransfers pairs;
  for (const auto& [key, n] : counts) pairs[key].transfer_s.reserve(n);
  // A transfer cannot take negative time: clamp what residual clock error inverted.
  for_each_transfer(
      trace, matching,
      [&](const Transfer& t) {
        PairTimes& p = pairs.find({t.from, t.to})->second;
        p.bytes += t.bytes;
        p.transfer_s.push_back(seconds(std::max<TimeNs>(0, t.done - t.start)));
      },
      at);
  return pairs;
}

void merge_transfers(PairTransfers& into, PairTransfers&& from) {
  for (auto& [key, times] : from) {
    PairTimes& p = into[key];
    p.bytes += times.bytes;
    p.transfer_s.insert(p.transfer_s.end(), times.transfer_s.begin(), times.transfer_s.end());
    std::vector<double>().swap(times.transfer_s);
  }
}

std::vector<CommPair> take_unshared_cells(PairTransfers& pairs, const PairHolders& holders) {
  std::vector<CommPair> cells;
  for (auto pair = pairs.begin(); pair != pairs.end();) {
    const auto holder = holders.find(pair->first);
    if (holder == holders.end() || holder->second != 1) {
      ++pair;
      continue;
    }
    cells.push_back(pair_cell(pair->first.first, pair->first.second, pair->second));
    pair = pairs.erase(pair);
  }
  return cells;
}

std::vector<CommPair> communication_matrix(PairTransfers pairs, std::vector<CommPair> made) {
  std::vector<CommPair> cells = std::move(made);
  cells.reserve(cells.size() + pairs.size());
  for (auto& [key, times] : pairs) cells.push_back(pair_cell(key.first, key.second, times));
  std::sort(cells.begin(), cells.end(), [](const CommPair& a, const CommPair& b) {
    return std::pair(a.sender, a.receiver) < std::pair(b.sender, b.receiver);
  });
  return cells;
}

std::vector<CommPair> communication_matrix(const Trace& trace, const Matching& matching) {
  return communication_matrix(collect_transfers(trace, matching));
}

}  // namespace collwrap
