#include "run_patterns.h"

namespace collwrap {
namespace {

class MinWaitFilter : public InstanceSink {
 public:
  MinWaitFilter(TimeNs min_wait, InstanceSink& next) : min_wait_(min_wait), next_(next) {}

  void add(const Instance& instance) override {
    if (instance.idle >= min_wait_ && instance.idle > 0)
      next_.add(instance);
    else
      ++dropped_;
  }

  std::uint64_t dropped() const { return dropped_; }

 private:
  TimeNs min_wait_;
  InstanceSink& next_;
  std::uint64_t dropped_ = 0;
};

}  // namespace

std::uint64_t run_patterns(const Trace& trace, const Matching& matching, const RuleOptions& options,
                           std::span<const Pattern* const> patterns, InstanceSink& sink) {
  const RuleContext context{trace, matching, options};
  MinWaitFilter filter(options.min_wait, sink);
  for (const Pattern* p : patterns) p->find(context, filter);
  return filter.dropped();
}

}  // namespace collwrap
