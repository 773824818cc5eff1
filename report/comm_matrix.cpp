#include "comm_matrix.h"

#include <algorithm>
#include <map>
#include <utility>

#include "result_units.h"
#include "sample_stats.h"

namespace collwrap {
namespace {

struct PairTimes {
  std::uint64_t bytes = 0;
  std::vector<double> transfer_s;
};

// Recv completion (Leave of the completing call) − send start (Enter of the sending call).
// Residual clock error can make it negative; a transfer cannot take negative time, so clamp.
double transfer_time_s(const Trace& trace, const Message& m) {
  const Location& sender = trace.locations[m.send.loc];
  const Location& receiver = trace.locations[m.recv.loc];
  const TimeNs start = sender.call_enter[sender.op_call[m.send.op]];
  const TimeNs done = receiver.call_leave[receiver.op_call[m.recv.op]];
  return seconds(std::max<TimeNs>(0, done - start));
}

CommPair cell_of(std::int32_t sender, std::int32_t receiver, const PairTimes& times) {
  const SampleSummary t = summarize(times.transfer_s);
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
  std::map<std::pair<std::int32_t, std::int32_t>, PairTimes> pairs;
  for (const Message& m : matching.messages) {
    // The reader drops ops outside any call, so a matched op always has one; stay safe anyway.
    if (!m.send.valid() || !m.recv.valid()) continue;
    const Location& sender = trace.locations[m.send.loc];
    const Location& receiver = trace.locations[m.recv.loc];
    if (sender.op_call[m.send.op] == kNone || receiver.op_call[m.recv.op] == kNone) continue;
    PairTimes& p = pairs[{sender.rank, receiver.rank}];
    p.bytes += sender.op_bytes[m.send.op];
    p.transfer_s.push_back(transfer_time_s(trace, m));
  }
  std::vector<CommPair> cells;
  cells.reserve(pairs.size());
  for (auto& [key, times] : pairs) cells.push_back(cell_of(key.first, key.second, times));
  return cells;
}

}  // namespace collwrap
