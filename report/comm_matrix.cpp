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

using Pairs = std::map<std::pair<std::int32_t, std::int32_t>, PairTimes>;

// Puts, gets and atomics: the data moves origin → target (put, atomic operand) and target →
// origin (get, atomic result) during the call.
void add_one_sided_transfers(const Trace& trace, Pairs& pairs) {
  for (const Location& l : trace.locations) {
    for (std::uint32_t op = 0; op < l.ops(); ++op) {
      const OpKind kind = l.op_kind[op];
      const std::int32_t peer = l.op_peer[op];
      const std::uint32_t call = l.op_call[op];
      if ((kind != OpKind::RmaPut && kind != OpKind::RmaGet && kind != OpKind::RmaAtomic) ||
          peer == kNoWorldRank || call == kNone)
        continue;
      const double duration = seconds(std::max<TimeNs>(0, l.call_leave[call] - l.call_enter[call]));
      if (kind != OpKind::RmaGet) {
        PairTimes& p = pairs[{l.rank, peer}];
        p.bytes += l.op_bytes[op];
        p.transfer_s.push_back(duration);
      }
      if (l.op_bytes_received[op] > 0) {
        PairTimes& p = pairs[{peer, l.rank}];
        p.bytes += l.op_bytes_received[op];
        p.transfer_s.push_back(duration);
      }
    }
  }
}

}  // namespace

std::vector<CommPair> communication_matrix(const Trace& trace, const Matching& matching) {
  Pairs pairs;
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
  add_one_sided_transfers(trace, pairs);
  std::vector<CommPair> cells;
  cells.reserve(pairs.size());
  for (auto& [key, times] : pairs) cells.push_back(cell_of(key.first, key.second, times));
  return cells;
}

}  // namespace collwrap
