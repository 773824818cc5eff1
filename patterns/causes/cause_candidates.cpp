#include "cause_candidates.h"

#include <algorithm>

#include "critical_path_share.h"
#include "flat_map.h"
#include "result_units.h"

namespace collwrap {

SegmentGroups group_segment_types(const SegmentTypes& types) {
  SegmentGroups groups;
  FlatMap<std::uint64_t, U64Hash> index(64);
  groups.of_type.resize(types.types());
  std::uint32_t count = 0;
  for (std::uint32_t t = 0; t < types.types(); ++t) {
    groups.of_type[t] = index.insert(types.finish[t], count);
    if (groups.of_type[t] == count) ++count;
  }
  groups.time.assign(count, 0);
  groups.locations.assign(count, 0);
  return groups;
}

void add_group_times(SegmentGroups& groups, const std::vector<TimeNs>& type_time) {
  for (std::uint32_t t = 0; t < type_time.size(); ++t)
    groups.time[groups.of_type[t]] += type_time[t];
}

void CandidateSums::at_location(std::uint32_t loc) {
  if (loc == loc_) return;
  if (loc_ != kNone)
    for (const Candidate& c : by_location_[loc_]) slot_[c.end] = kNone;
  loc_ = loc;
  const std::vector<Candidate>& mine = by_location_[loc];
  for (std::uint32_t i = 0; i < mine.size(); ++i) slot_[mine[i].end] = i;
}

std::vector<Candidate> CandidateSums::all() const {
  return of_locations(0, by_location_.size());
}

std::vector<Candidate> CandidateSums::of_locations(std::size_t first, std::size_t end) const {
  std::vector<Candidate> out;
  for (std::size_t loc = first; loc < std::min(end, by_location_.size()); ++loc)
    out.insert(out.end(), by_location_[loc].begin(), by_location_[loc].end());
  return out;
}

void CandidateSums::take_over(const std::vector<Candidate>& earlier) {
  for (const Candidate& c : earlier) by_location_.at(c.loc).push_back(c);
}

std::vector<Candidate> most_costly(std::vector<Candidate> all, std::size_t count) {
  std::erase_if(all, [](const Candidate& c) { return c.cost() < 1.0; });
  std::sort(all.begin(), all.end(),
            [](const Candidate& a, const Candidate& b) { return a.cost() > b.cost(); });
  if (all.size() > count) all.resize(count);
  return all;
}

std::vector<Candidate> imbalances(const std::vector<Candidate>& per_location, std::size_t groups) {
  constexpr double kDominant = 0.75;  // of the site's cost: then that location is the cause
  std::vector<Candidate> by_end(groups);
  std::vector<double> largest(groups, 0);
  std::vector<std::uint32_t> locations(groups, 0);
  for (const Candidate& c : per_location) {
    Candidate& g = by_end[c.end];
    if (locations[c.end]++ == 0 || c.time > g.time) g.loc = c.loc, g.type = c.type, g.time = c.time;
    g.end = c.end;
    g.across_ranks = true;
    g.occurrences += c.occurrences;
    g.short_term += c.short_term;
    g.long_term += c.long_term;
    largest[c.end] = std::max(largest[c.end], c.cost());
  }
  std::vector<Candidate> spread;
  for (std::uint32_t end = 0; end < by_end.size(); ++end)
    if (locations[end] > 1 && largest[end] < kDominant * by_end[end].cost())
      spread.push_back(by_end[end]);
  return spread;
}

RootCause describe_cause(const Trace& trace, const SegmentTypes& types, const Candidate& c) {
  const Location& l = trace.locations[c.loc];
  RootCause cause;
  cause.segment = describe_segment(trace, types, c.type);
  cause.rank = l.rank;
  cause.thread = l.thread;
  cause.occurrences = c.occurrences;
  cause.segment_time_s = seconds(c.time);
  cause.short_term_cost_s = c.short_term * 1e-9;
  cause.long_term_cost_s = c.long_term * 1e-9;
  return cause;
}

float LocationFix::factor_of(TimeNs length, float largest_charge) const {
  if (kind == Kind::OthersMean) return factor;
  if (kind == Kind::None) return 1.0f;
  const auto l = static_cast<float>(length);
  return l > 0 ? std::clamp(1.0f - largest_charge / l, 0.0f, 1.0f) : 1.0f;
}

LocationFix plan_fix(const Candidate& c, const SegmentGroups& groups, RootCause& cause) {
  if (c.time <= 0) return {};
  if (const std::uint32_t others = groups.locations[c.end] - 1; others > 0) {
    // Cut to the mean of the ranks that run the same code.
    const double others_mean =
        static_cast<double>(groups.time[c.end] - c.time) / static_cast<double>(others);
    cause.others_mean_time_s = others_mean * 1e-9;
    cause.target_time_s = std::min(c.time * 1e-9, cause.others_mean_time_s);
    return {LocationFix::Kind::OthersMean,
            static_cast<float>(std::min(1.0, others_mean / static_cast<double>(c.time)))};
  }
  if (c.largest_charges > 0) {
    // Only this rank runs it (a late sender's work, a master's extra step): cut each instance
    // by the largest wait it caused, so that the ranks need not wait for it.
    cause.gain_basis = GainBasis::LargestWait;
    cause.target_time_s = std::max(0.0, static_cast<double>(c.time) - c.largest_charges) * 1e-9;
    return {LocationFix::Kind::LargestWait};
  }
  return {};
}

void describe_balanced_fix(const Candidate& c, const SegmentGroups& groups, double target,
                           RootCause& cause) {
  cause.others_mean_time_s =
      (seconds(groups.time[c.end]) - cause.segment_time_s) / (groups.locations[c.end] - 1);
  cause.gain_basis = GainBasis::RanksMean;
  cause.target_time_s = target * 1e-9;
}

std::vector<CausedWait> caused_waits(const Trace& trace, const SegmentGroups& groups,
                                     const Candidate& c, const std::vector<WaitCharge>& charges) {
  constexpr std::size_t kListed = 5;
  std::vector<WaitCharge> merged;
  for (const WaitCharge& w : charges) {
    if ((!c.across_ranks && w.segment_loc != c.loc) || groups.of_type[w.segment_type] != c.end)
      continue;
    const auto same = std::find_if(merged.begin(), merged.end(), [&](const WaitCharge& m) {
      return m.wait_loc == w.wait_loc && m.wait_site == w.wait_site;
    });
    if (same == merged.end()) {
      merged.push_back(w);
    } else {
      same->short_term += w.short_term;
      same->long_term += w.long_term;
    }
  }
  const auto cost = [](const WaitCharge& w) { return w.short_term + w.long_term; };
  std::sort(merged.begin(), merged.end(),
            [&](const WaitCharge& a, const WaitCharge& b) { return cost(a) > cost(b); });
  std::vector<CausedWait> waits;
  for (const WaitCharge& w : merged) {
    if (waits.size() == kListed || cost(w) < 1.0) break;
    const Location& l = trace.locations[w.wait_loc];
    CausedWait cw{l.rank, l.thread, {}, 0, {}, w.short_term * 1e-9, w.long_term * 1e-9};
    if (w.wait_site != kNone) {
      const CallSite& site = trace.callsites[w.wait_site];
      cw.file = site.file, cw.line = site.line, cw.function = site.function;
    }
    waits.push_back(std::move(cw));
  }
  return waits;
}

void set_gain(RootCause& cause, TimeNs recorded_end, TimeNs end, TimeNs begin) {
  cause.gain_s = seconds(recorded_end - end);
  cause.gain_percent = 100.0 * *cause.gain_s / std::max(1e-12, seconds(recorded_end - begin));
}

WhatIfResult what_if_asked(const WhatIfSpec& spec) {
  WhatIfResult r;
  r.spec = spec.text;
  r.rank = spec.rank;
  r.file = spec.file;
  r.line = spec.line;
  r.scale = spec.scale;
  return r;
}

void answer_what_if(WhatIfResult& r, TimeNs recorded_end, TimeNs end, TimeNs begin) {
  r.runtime_s = seconds(end - begin);
  r.gain_s = seconds(recorded_end - end);
  r.gain_percent = 100.0 * r.gain_s / std::max(1e-12, seconds(recorded_end - begin));
}

void sort_by_gain(std::vector<RootCause>& causes) {
  std::stable_sort(causes.begin(), causes.end(), [](const RootCause& a, const RootCause& b) {
    const double ga = a.gain_s.value_or(-1), gb = b.gain_s.value_or(-1);
    if (ga != gb) return ga > gb;
    return a.short_term_cost_s + a.long_term_cost_s > b.short_term_cost_s + b.long_term_cost_s;
  });
}

}  // namespace collwrap
