#include "run_patterns.h"

namespace collwrap {
namespace {

class InstanceFilter : public InstanceSink {
 public:
  InstanceFilter(const LocationRange& at, TimeNs min_wait, InstanceSink& next)
      : at_(at), min_wait_(min_wait), next_(next) {}

  void add(const Instance& instance) override {
    if (!at_.contains(instance.loc)) return;
    if (instance.idle >= min_wait_ && instance.idle > 0)
      next_.add(instance);
    else
      ++dropped_;
  }

  std::uint64_t dropped() const { return dropped_; }

 private:
  LocationRange at_;
  TimeNs min_wait_;
  InstanceSink& next_;
  std::uint64_t dropped_ = 0;
};

}  // namespace

std::uint64_t run_patterns(const RuleContext& context, std::span<const Pattern* const> patterns,
                           InstanceSink& sink, const LocationRange& at) {
  InstanceFilter filter(at, context.options.min_wait, sink);
  for (const Pattern* p : patterns)
    if (p->may_find_in(context.present)) p->find(context, filter);
  return filter.dropped();
}

}  // namespace collwrap
