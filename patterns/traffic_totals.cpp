#include "traffic_totals.h"

#include <algorithm>
#include <limits>
#include <set>

#include "master_worker.h"
#include "transfers.h"

namespace collwrap {
namespace {

template <class T>
void append_sorted(std::vector<T>& into, const std::vector<T>& part) {
  into.insert(into.end(), part.begin(), part.end());
  std::sort(into.begin(), into.end());
}

}  // namespace

PairTraffics pair_traffic(const Trace& trace, const Matching& matching, const LocationRange& at) {
  PairTraffics pairs;
  for_each_transfer(
      trace, matching,
      [&](const Transfer& t) {
        if (t.from == kNoWorldRank || t.to == kNoWorldRank || t.from == t.to) return;
        PairTraffic& p = pairs[{t.from, t.to}];
        p.bytes += t.bytes;
        ++p.transfers;
        const Location& l = trace.locations[t.issued.loc];
        p.time += std::max<TimeNs>(0, l.call_leave[t.call] - l.call_enter[t.call]);
        SiteTraffic& site = p.sites[{t.issued.loc, l.call_callsite[t.call]}];
        site.first_call = std::min(site.first_call, t.call);
        site.bytes += t.bytes;
      },
      at);
  return pairs;
}

void merge_pair_traffic(PairTraffics& into, const PairTraffics& part) {
  for (const auto& [key, p] : part) {
    PairTraffic& sum = into[key];
    sum.bytes += p.bytes;
    sum.transfers += p.transfers;
    sum.time += p.time;
    for (const auto& [where, site] : p.sites) {
      SiteTraffic& s = sum.sites[where];
      s.first_call = std::min(s.first_call, site.first_call);
      s.bytes += site.bytes;
    }
  }
}

std::int32_t master_of(const PairTraffics& pairs, std::int32_t world_size) {
  if (world_size < 3) return kNoWorldRank;
  std::set<std::pair<std::int32_t, std::int32_t>> linked;  // (lower rank, higher rank)
  for (const auto& [key, traffic] : pairs)
    if (key.first >= 0 && key.second >= 0 && key.first < world_size && key.second < world_size)
      linked.insert(std::minmax(key.first, key.second));
  if (linked.size() != static_cast<std::size_t>(world_size - 1)) return kNoWorldRank;
  // n − 1 pairs that all share one process: a star around it.
  const auto [a, b] = *linked.begin();
  for (const std::int32_t center : {a, b})
    if (std::all_of(linked.begin(), linked.end(),
                    [&](const auto& p) { return p.first == center || p.second == center; }))
      return center;
  return kNoWorldRank;
}

TimeNs MasterTraffic::round_start(std::int32_t worker, TimeNs t) const {
  const auto it = handouts.find(worker);
  if (it == handouts.end()) return std::numeric_limits<TimeNs>::min();
  const std::vector<TimeNs>& starts = it->second;
  const auto after = std::lower_bound(starts.begin(), starts.end(), t);
  return after == starts.begin() ? std::numeric_limits<TimeNs>::min() : *(after - 1);
}

std::optional<TimeNs> MasterTraffic::first_other_result(std::int32_t worker, TimeNs from,
                                                        TimeNs until) const {
  auto it = std::upper_bound(results.begin(), results.end(), from,
                             [](TimeNs v, const Result& r) { return v < r.done; });
  for (; it != results.end() && it->done < until; ++it)
    if (it->from != worker) return it->done;
  return std::nullopt;
}

MasterTraffic master_traffic(const RuleContext& context, std::int32_t master,
                             const LocationRange& at) {
  MasterTraffic traffic;
  traffic.master = master;
  for_each_transfer(
      context.trace, context.matching,
      [&](const Transfer& t) {
        if (t.from == master && t.to != master) traffic.handouts[t.to].push_back(t.start);
        if (t.to == master && t.from != master) traffic.results.push_back({t.done, t.from});
      },
      at);
  for (const DataWait& w : data_waits(context))
    if (w.rank == master && at.contains(w.loc)) traffic.waits.push_back({w.enter, w.released});
  for (auto& [worker, starts] : traffic.handouts) std::sort(starts.begin(), starts.end());
  std::sort(traffic.results.begin(), traffic.results.end());
  std::sort(traffic.waits.begin(), traffic.waits.end());
  return traffic;
}

void merge_master_traffic(MasterTraffic& into, const MasterTraffic& part) {
  for (const auto& [worker, starts] : part.handouts) append_sorted(into.handouts[worker], starts);
  append_sorted(into.results, part.results);
  append_sorted(into.waits, part.waits);
}

TrafficTotals traffic_totals(const RuleContext& context) {
  TrafficTotals totals;
  totals.pairs = pair_traffic(context.trace, context.matching);
  const std::int32_t master = master_of(totals.pairs, context.trace.world_size);
  if (master != kNoWorldRank) totals.master = master_traffic(context, master);
  return totals;
}

bool reads_totals(std::span<const Pattern* const> patterns) {
  return std::any_of(patterns.begin(), patterns.end(),
                     [](const Pattern* p) { return p->reach == RuleReach::Totals; });
}

const TrafficTotals& totals_for(const RuleContext& context, std::optional<TrafficTotals>& own) {
  return context.totals != nullptr ? *context.totals : own.emplace(traffic_totals(context));
}

}  // namespace collwrap
