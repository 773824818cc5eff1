#include "master_worker.h"

#include <utility>

#include "catalog.h"

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

std::vector<DataWait> data_waits(const RuleContext& context) {
  DataWaitSink sink(context.trace);
  kLateSender.find(context, sink);
  kLateWaitUntil.find(context, sink);
  return std::move(sink.waits);
}

}  // namespace collwrap
