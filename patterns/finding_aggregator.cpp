#include "finding_aggregator.h"

#include <algorithm>
#include <functional>

#include "time_sum.h"

namespace collwrap {

std::size_t FindingAggregator::KeyHash::operator()(const Key& k) const {
  std::size_t h = std::hash<const void*>()(k.pattern);
  for (const std::uint32_t v : {k.loc, k.callsite, k.region})
    h = h * 1000003u ^ std::hash<std::uint32_t>()(v);
  return h;
}

void FindingAggregator::add(const Instance& instance) {
  const Location& l = trace_.locations[instance.loc];
  const Key key{instance.pattern, instance.loc, l.call_callsite[instance.call],
                l.call_region[instance.call]};
  const auto [it, inserted] = index_.try_emplace(key, findings_.size());
  if (inserted) {
    FindingStats fresh;
    fresh.pattern = key.pattern;
    fresh.loc = key.loc;
    fresh.callsite = key.callsite;
    fresh.region = key.region;
    findings_.push_back(std::move(fresh));
  }
  FindingStats& stats = findings_[it->second];
  ++instances_;
  ++stats.occurrences;
  stats.total = add_saturating(stats.total, instance.idle);
  if (instance.idle > stats.max) {
    stats.max = instance.idle;
    stats.related_call = instance.detail.related_call;
  }
  for (const Peer& peer : instance.peers) {
    const auto pos = std::lower_bound(stats.peers.begin(), stats.peers.end(), peer);
    if (pos == stats.peers.end() || *pos != peer) stats.peers.insert(pos, peer);
  }
  const InstanceDetail& d = instance.detail;
  if (d.send_mode != SendMode::None) ++stats.send_modes[static_cast<std::size_t>(d.send_mode)];
  if (d.order == MessageOrder::SameSource) ++stats.same_source;
  if (d.order == MessageOrder::DifferentSource) ++stats.different_source;
  if (d.optimal_distance >= 0 && d.actual_distance >= 0) {
    stats.optimal_distance_sum = add_saturating(stats.optimal_distance_sum, d.optimal_distance);
    stats.actual_distance_sum = add_saturating(stats.actual_distance_sum, d.actual_distance);
    ++stats.distances;
  }
  stats.transfers += d.transfers;
  stats.transfer_bytes += d.transfer_bytes;
  stats.mean_pair_bytes = std::max(stats.mean_pair_bytes, d.mean_pair_bytes);
  keep_if_among_worst(stats, instance);
}

void FindingAggregator::keep_if_among_worst(FindingStats& stats, const Instance& instance) const {
  if (top_instances_ == 0) return;
  if (stats.top.size() == top_instances_ && instance.idle <= stats.top.back().idle) return;
  const auto pos =
      std::find_if(stats.top.begin(), stats.top.end(),
                   [&](const FindingStats::Sample& s) { return s.idle < instance.idle; });
  stats.top.insert(pos,
                   {instance.call, instance.idle, {instance.peers.begin(), instance.peers.end()}});
  if (stats.top.size() > top_instances_) stats.top.pop_back();
}

}  // namespace collwrap
