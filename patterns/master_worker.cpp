#include "master_worker.h"

#include <algorithm>
#include <set>
#include <utility>

#include "catalog.h"
#include "transfers.h"

namespace collwrap {
namespace {

class DataWaitSink : public InstanceSink {
 public:
  explicit DataWaitSink(const Trace& trace) : trace_(trace) {}
  void add(const Instance& i) override {
    if (i.peers.size() != 1) return;  // late_sender and late_wait_until name one peer
    const Location& l = trace_.locations[i.loc];
    const TimeNs enter = l.call_enter[i.call];
    waits.push_back({i.loc, i.call, l.rank, i.peers[0], enter, enter + i.idle});
  }
  std::vector<DataWait> waits;

 private:
  const Trace& trace_;
};

}  // namespace

std::int32_t master_of(const Trace& trace, const Matching& matching) {
  const std::int32_t n = trace.world_size;
  if (n < 3) return kNoWorldRank;
  std::set<std::pair<std::int32_t, std::int32_t>> pairs;  // (lower rank, higher rank)
  for_each_transfer(trace, matching, [&](const Transfer& t) {
    if (t.from != t.to && t.from >= 0 && t.to >= 0 && t.from < n && t.to < n)
      pairs.insert(std::minmax(t.from, t.to));
  });
  if (pairs.size() != static_cast<std::size_t>(n - 1)) return kNoWorldRank;
  // n − 1 pairs that all share one process: a star around it.
  const auto [a, b] = *pairs.begin();
  for (const std::int32_t center : {a, b})
    if (std::all_of(pairs.begin(), pairs.end(),
                    [&](const auto& p) { return p.first == center || p.second == center; }))
      return center;
  return kNoWorldRank;
}

std::vector<DataWait> data_waits(const RuleContext& context) {
  DataWaitSink sink(context.trace);
  kLateSender.find(context, sink);
  kLateWaitUntil.find(context, sink);
  return std::move(sink.waits);
}

}  // namespace collwrap
