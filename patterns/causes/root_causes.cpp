#include "root_causes.h"

#include <algorithm>
#include <array>
#include <limits>

#include "critical_path_share.h"
#include "delay_costs.h"
#include "flat_map.h"
#include "memory_reuse.h"
#include "parallel_for.h"
#include "pop_efficiency.h"
#include "result_units.h"

namespace collwrap {
namespace {

// The compute segments of one location that end at the same call site (whatever call started
// them: the first iteration of a loop starts after another call than the next ones), with
// their delay costs.
struct Candidate {
  std::uint32_t loc = 0;      // with across_ranks: the location that spends the most time in it
  std::uint32_t end = 0;      // index into CauseFinder::end_of_type_'s values
  std::uint32_t type = 0;     // the first segment type seen, to describe them
  bool across_ranks = false;  // an imbalance: the same code on every location that runs it
  std::uint64_t occurrences = 0;
  TimeNs time = 0;
  double short_term = 0, long_term = 0;  // ns
  double largest_charges = 0;            // ns, DelayCosts::largest_charge summed
  double cost() const { return short_term + long_term; }
};

// The buffers of one pass of what-if replays (replay_ends); each thread that replays has its
// own.
struct ScaledReplay {
  // Each lane's question's segments whose factor is not 1, by call.
  std::array<std::vector<ScaledSegment>, kReplayLanes> changed;
  std::array<std::vector<TimeNs>, kReplayLanes> enter;  // the replays' Enters, by lane
};

}  // namespace

class CauseFinder {
 public:
  CauseFinder(const Trace& trace, const Matching& matching, const CauseOptions& options,
              unsigned threads)
      : trace_(trace),
        options_(options),
        threads_(threads),
        graph_(build_replay_graph(trace, matching)),
        types_(segment_types(trace, graph_)) {}

  CauseAnalysis run() {
    CauseAnalysis result;
    // Steps that need only what is known at their start run side by side (with two threads or
    // more), so that the chain replay as recorded → delay costs → what-if replays is about all
    // that is serial. The ideal-network replay runs beside the one as recorded and is freed
    // before the delay costs' working tables are made, so that the two never add up.
    ReplayTimes ideal;
    parallel_for(2, threads_, [&](std::size_t task) {
      if (task == 0)
        recorded_ = replay_trace(graph_);
      else
        replay_into(graph_, {NetworkModel::Ideal, {}}, ideal);
    });
    result.replay_runtime_s = seconds(recorded_.end - trace_.begin);
    result.broken_dependencies = recorded_.broken_gates;
    result.pop = pop_efficiencies(trace_, graph_, recorded_, ideal);
    ideal = {};

    DelayCosts costs;
    parallel_for(2, threads_, [&](std::size_t task) {
      if (task == 0) {
        costs = delay_costs(trace_, graph_, types_, recorded_);
        return;
      }
      CriticalPathTally tally(trace_, types_);
      CriticalPathPieces pieces(graph_, recorded_);
      const bool draw = options_.critical_path_pieces;
      const CriticalPathTotals totals =
          walk_critical_path(graph_, recorded_, [&](const CriticalPathStep& step) {
            tally.add(step, types_.type_of_call[step.call], types_);
            if (draw) pieces.add(step);
          });
      result.critical_path = tally.summary(trace_, types_, segment_time_per_type(graph_, types_),
                                           totals, options_.top_segments);
      if (draw) result.critical_path_pieces = pieces.finish();
      type_totals();
    });
    result.delay.waits = costs.waits;
    result.delay.total_wait_s = seconds(static_cast<TimeNs>(costs.total_wait));
    result.delay.residual_s = costs.residual * 1e-9;
    result.delay.attributed_s = (costs.total_wait - costs.residual) * 1e-9;

    const std::vector<Candidate> per_location = collect(costs);
    // The per-call costs are summed into the candidates now: their memory goes to the what-if
    // replays below.
    std::vector<double>().swap(costs.short_term);
    std::vector<double>().swap(costs.long_term);
    std::vector<Candidate> chosen = most_costly(per_location);
    const std::size_t single_location = chosen.size();
    for (const Candidate& c : most_costly(imbalances(per_location))) chosen.push_back(c);

    // Each root cause and what-if question is answered by a replay with some segments
    // changed. Each replay holds a table of Enters (8 bytes per call); kReplayLanes tables are
    // held per kReplayLanes threads, the memory of the tables freed before. Replays in one
    // pass share the work of finding the next call, so on one thread they run kReplayLanes to
    // a pass; on more, the same tables serve as many passes of one replay side by side, which
    // take more CPU time but end sooner (3-12 % of the whole analysis's wall time on the
    // recorded archives of tests/perf/analyzer, with two threads).
    const std::size_t causes = chosen.size(), questions = causes + options_.what_ifs.size();
    result.root_causes.resize(causes);
    result.what_ifs.resize(options_.what_ifs.size());
    const unsigned cores = worker_count(threads_, std::numeric_limits<std::size_t>::max());
    const unsigned tables = kReplayLanes * std::max<unsigned>(1, cores / kReplayLanes);
    const unsigned side_by_side = std::min(tables, worker_count(threads_, questions));
    const std::size_t lanes_per_pass = std::min<std::size_t>(kReplayLanes, tables / side_by_side);
    const std::size_t passes = (questions + lanes_per_pass - 1) / lanes_per_pass;
    // Question q's result, from the end of its replay.
    const auto finish = [&](std::size_t q, TimeNs end) {
      if (q < causes)
        set_gain(result.root_causes[q], end);
      else
        answer(result.what_ifs[q - causes], end);
    };
    replays_.resize(worker_count(side_by_side, passes));
    parallel_for(passes, side_by_side, [&](std::size_t pass, unsigned worker) {
      ScaledReplay& replay = replays_[worker];
      std::array<std::size_t, kReplayLanes> asked{};  // the question of each lane
      std::size_t lanes = 0;
      const std::size_t last = std::min(questions, (pass + 1) * lanes_per_pass);
      for (std::size_t q = pass * lanes_per_pass; q < last; ++q) {
        std::vector<ScaledSegment>& changed = replay.changed[lanes];
        changed.clear();
        bool replayed;
        if (q < causes) {
          RootCause& cause = result.root_causes[q];
          cause = described(chosen[q]);
          replayed = q < single_location ? fix(chosen[q], costs, cause, changed)
                                         : balanced_fix(chosen[q], cause, changed);
          cause.caused_waits = caused_waits(chosen[q], costs.charges);
        } else {
          replayed = true;
          question_changes(options_.what_ifs[q - causes], result.what_ifs[q - causes], changed);
        }
        if (!replayed) continue;
        if (changed.empty()) {
          // Nothing changes: the replay would be the one as recorded.
          finish(q, recorded_.end);
        } else {
          asked[lanes++] = q;
        }
      }
      std::array<std::span<const ScaledSegment>, kReplayLanes> scaled;
      std::copy(replay.changed.begin(), replay.changed.end(), scaled.begin());
      std::array<TimeNs, kReplayLanes> ends{};
      replay_ends(graph_, std::span(scaled.data(), lanes), std::span(ends.data(), lanes),
                  replay.enter);
      for (std::size_t lane = 0; lane < lanes; ++lane) finish(asked[lane], ends[lane]);
    });
    std::stable_sort(result.root_causes.begin(), result.root_causes.end(),
                     [](const RootCause& a, const RootCause& b) {
                       const double ga = a.gain_s.value_or(-1), gb = b.gain_s.value_or(-1);
                       if (ga != gb) return ga > gb;
                       return a.short_term_cost_s + a.long_term_cost_s >
                              b.short_term_cost_s + b.long_term_cost_s;
                     });
    return result;
  }

 private:
  // Segment types grouped by the call site that ends them; the total length of each group over
  // all locations, and on how many locations it runs.
  void type_totals() {
    FlatMap<std::uint64_t, U64Hash> index(64);
    end_of_type_.resize(types_.types());
    std::uint32_t ends = 0;
    for (std::uint32_t t = 0; t < types_.types(); ++t) {
      end_of_type_[t] = index.insert(types_.finish[t], ends);
      if (end_of_type_[t] == ends) ++ends;
    }
    type_time_.assign(ends, 0);
    type_locations_.assign(ends, 0);
    std::vector<std::uint32_t> last_loc(ends, kNone);
    for (std::uint32_t g = 0; g < graph_.calls(); ++g) {
      const std::uint32_t t = end_of_type_[types_.type_of_call[g]];
      type_time_[t] += graph_.segment(g);
      if (last_loc[t] != graph_.call_loc[g]) {
        last_loc[t] = graph_.call_loc[g];
        ++type_locations_[t];
      }
    }
  }

  // Segment types per location, with their delay costs.
  std::vector<Candidate> collect(const DelayCosts& costs) {
    std::vector<Candidate> all;
    std::vector<std::uint32_t> slot(type_time_.size(), kNone);
    for (std::uint32_t loc = 0; loc < trace_.locations.size(); ++loc) {
      const std::size_t first_candidate = all.size();
      for (std::uint32_t g = graph_.loc_first_call[loc]; g < graph_.loc_first_call[loc + 1]; ++g) {
        const std::uint32_t t = types_.type_of_call[g], end = end_of_type_[t];
        if (slot[end] == kNone) {
          slot[end] = static_cast<std::uint32_t>(all.size());
          all.push_back({.loc = loc, .end = end, .type = t});
        }
        Candidate& c = all[slot[end]];
        ++c.occurrences;
        c.time += graph_.segment(g);
        c.short_term += costs.short_term[g];
        c.long_term += costs.long_term[g];
        c.largest_charges += costs.largest_charge[g];
      }
      for (std::size_t i = first_candidate; i < all.size(); ++i) slot[all[i].end] = kNone;
    }
    return all;
  }

  // The candidates with a delay cost, largest first, the first estimated_causes of them.
  std::vector<Candidate> most_costly(std::vector<Candidate> all) const {
    std::erase_if(all, [](const Candidate& c) { return c.cost() < 1.0; });
    std::sort(all.begin(), all.end(),
              [](const Candidate& a, const Candidate& b) { return a.cost() > b.cost(); });
    if (all.size() > options_.estimated_causes) all.resize(options_.estimated_causes);
    return all;
  }

  // Code run on several locations whose cost no one location dominates: the slow rank changes
  // from one instance to the next (a load that moves, as in adaptive codes), so that cutting
  // any one rank's segments would gain little. One cause per ending call site, across ranks.
  std::vector<Candidate> imbalances(const std::vector<Candidate>& per_location) const {
    constexpr double kDominant = 0.75;  // of the site's cost: then that location is the cause
    std::vector<Candidate> by_end(type_time_.size());
    std::vector<double> largest(type_time_.size(), 0);
    std::vector<std::uint32_t> locations(type_time_.size(), 0);
    for (const Candidate& c : per_location) {
      Candidate& g = by_end[c.end];
      if (locations[c.end]++ == 0 || c.time > g.time)
        g.loc = c.loc, g.type = c.type, g.time = c.time;
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

  // What every cause reports before its gain is estimated.
  RootCause described(const Candidate& c) const {
    const Location& l = trace_.locations[c.loc];
    RootCause cause;
    cause.segment = describe_segment(trace_, types_, c.type);
    cause.rank = l.rank;
    cause.thread = l.thread;
    cause.occurrences = c.occurrences;
    cause.segment_time_s = seconds(c.time);
    cause.short_term_cost_s = c.short_term * 1e-9;
    cause.long_term_cost_s = c.long_term * 1e-9;
    return cause;
  }

  // The gain of a replay that ended at `end`.
  void set_gain(RootCause& cause, TimeNs end) const {
    cause.gain_s = seconds(recorded_.end - end);
    cause.gain_percent =
        100.0 * *cause.gain_s / std::max(1e-12, seconds(recorded_.end - trace_.begin));
  }

  // The segments a per-location cause's fix changes, in `changed`; false when its gain is not
  // estimated.
  bool fix(const Candidate& c, const DelayCosts& costs, RootCause& cause,
           std::vector<ScaledSegment>& changed) const {
    if (c.time <= 0) return false;
    // Its segments are on its location alone.
    const std::uint32_t first = graph_.loc_first_call[c.loc],
                        last = graph_.loc_first_call[c.loc + 1];
    const auto is_candidate = [&](std::uint32_t g) {
      return end_of_type_[types_.type_of_call[g]] == c.end;
    };
    if (const std::uint32_t others = type_locations_[c.end] - 1; others > 0) {
      // Cut to the mean of the ranks that run the same code.
      const double others_mean =
          static_cast<double>(type_time_[c.end] - c.time) / static_cast<double>(others);
      cause.others_mean_time_s = others_mean * 1e-9;
      cause.target_time_s = std::min(c.time * 1e-9, cause.others_mean_time_s);
      const auto factor =
          static_cast<float>(std::min(1.0, others_mean / static_cast<double>(c.time)));
      scaled_segments(changed, first, last,
                      [&](std::uint32_t g) { return is_candidate(g) ? factor : 1.0f; });
      return true;
    }
    if (c.largest_charges > 0) {
      // Only this rank runs it (a late sender's work, a master's extra step): cut each
      // instance by the largest wait it caused, so that the ranks need not wait for it.
      cause.gain_basis = GainBasis::LargestWait;
      cause.target_time_s = std::max(0.0, static_cast<double>(c.time) - c.largest_charges) * 1e-9;
      scaled_segments(changed, first, last, [&](std::uint32_t g) {
        if (!is_candidate(g)) return 1.0f;
        const auto length = static_cast<float>(graph_.segment(g));
        return length > 0 ? std::clamp(1.0f - costs.largest_charge[g] / length, 0.0f, 1.0f) : 1.0f;
      });
      return true;
    }
    return false;
  }

  // An imbalance across ranks, estimated by balancing it: every instance of the segments on
  // every location set to the mean of all locations' same instance (the k-th on each, as the
  // ranks run their loops in step), so that the ranks' total work stays about the same. The
  // segments that changes go to `changed`.
  bool balanced_fix(const Candidate& c, RootCause& cause,
                    std::vector<ScaledSegment>& changed) const {
    std::vector<TimeNs> sum;
    std::vector<std::uint32_t> count;
    std::uint32_t loc = kNone, k = 0;
    // Calls by global id run location by location: k counts the instances on the current one.
    const auto instance = [&](std::uint32_t g) {
      if (graph_.call_loc[g] != loc) loc = graph_.call_loc[g], k = 0;
      return k++;
    };
    const auto in_group = [&](std::uint32_t g) {
      return end_of_type_[types_.type_of_call[g]] == c.end;
    };
    for (std::uint32_t g = 0; g < graph_.calls(); ++g) {
      if (!in_group(g)) continue;
      const std::uint32_t i = instance(g);
      if (i >= sum.size()) sum.resize(i + 1, 0), count.resize(i + 1, 0);
      sum[i] += graph_.segment(g);
      ++count[i];
    }
    const auto mean = [&](std::uint32_t i) {
      return static_cast<double>(sum[i]) / static_cast<double>(count[i]);
    };
    cause.others_mean_time_s =
        (seconds(type_time_[c.end]) - cause.segment_time_s) / (type_locations_[c.end] - 1);
    cause.gain_basis = GainBasis::RanksMean;
    double target = 0;
    loc = kNone;
    scaled_segments(changed, 0, static_cast<std::uint32_t>(graph_.calls()), [&](std::uint32_t g) {
      if (!in_group(g)) return 1.0f;
      const std::uint32_t i = instance(g);
      if (graph_.call_loc[g] == c.loc) target += mean(i);
      const TimeNs length = graph_.segment(g);
      return length > 0 ? static_cast<float>(mean(i) / static_cast<double>(length)) : 1.0f;
    });
    cause.target_time_s = target * 1e-9;
    return true;
  }

  // The wait sites a candidate was charged for, merged over its segment types (and, for an
  // imbalance, over the locations).
  std::vector<CausedWait> caused_waits(const Candidate& c,
                                       const std::vector<WaitCharge>& charges) const {
    constexpr std::size_t kListed = 5;
    std::vector<WaitCharge> merged;
    for (const WaitCharge& w : charges) {
      if ((!c.across_ranks && w.segment_loc != c.loc) || end_of_type_[w.segment_type] != c.end)
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
      const Location& l = trace_.locations[w.wait_loc];
      CausedWait cw{l.rank, l.thread, {}, 0, {}, w.short_term * 1e-9, w.long_term * 1e-9};
      if (w.wait_site != kNone) {
        const CallSite& site = trace_.callsites[w.wait_site];
        cw.file = site.file, cw.line = site.line, cw.function = site.function;
      }
      waits.push_back(std::move(cw));
    }
    return waits;
  }

  // A what-if question's segments, in `changed`, and what its answer says before the replay.
  void question_changes(const WhatIfSpec& spec, WhatIfResult& r,
                        std::vector<ScaledSegment>& changed) const {
    r.spec = spec.text;
    r.rank = spec.rank;
    r.file = spec.file;
    r.line = spec.line;
    r.scale = spec.scale;
    r.segments_changed = what_if_changes(trace_, graph_.loc_first_call, spec, changed);
  }

  // A what-if question's answer, from the end of its replay.
  void answer(WhatIfResult& r, TimeNs end) const {
    r.runtime_s = seconds(end - trace_.begin);
    r.gain_s = seconds(recorded_.end - end);
    r.gain_percent = 100.0 * r.gain_s / std::max(1e-12, seconds(recorded_.end - trace_.begin));
  }

  // The segments before the calls g of [first, last) whose factor_of(g) is not 1, appended to
  // `changed`; factor_of is asked for every call of the range in the order of global ids.
  template <typename FactorOf>
  static void scaled_segments(std::vector<ScaledSegment>& changed, std::uint32_t first,
                              std::uint32_t last, FactorOf&& factor_of) {
    for (std::uint32_t g = first; g < last; ++g)
      if (const float factor = factor_of(g); factor != 1.0f) changed.push_back({g, factor});
  }

  const Trace& trace_;
  const CauseOptions options_;  // a copy: the analysis may outlive its caller's options
  const unsigned threads_;
  const ReplayGraph graph_;
  const SegmentTypes types_;
  ReplayTimes recorded_;                       // the replay as recorded, set first by run()
  std::vector<ScaledReplay> replays_;          // one per pass run side by side
  std::vector<std::uint32_t> end_of_type_;     // segment type → its group by ending call site
  std::vector<TimeNs> type_time_;              // by group
  std::vector<std::uint32_t> type_locations_;  // by group
};

RootCauseAnalysis::RootCauseAnalysis(const Trace& trace, const Matching& matching,
                                     const CauseOptions& options, unsigned threads)
    : finder_(std::make_unique<CauseFinder>(trace, matching, options, threads)) {}
RootCauseAnalysis::RootCauseAnalysis(RootCauseAnalysis&&) noexcept = default;
RootCauseAnalysis& RootCauseAnalysis::operator=(RootCauseAnalysis&&) noexcept = default;
RootCauseAnalysis::~RootCauseAnalysis() = default;

CauseAnalysis RootCauseAnalysis::run() {
  return finder_->run();
}

void release_details_for_root_causes(Trace& trace, Matching& matching, RootCauseStage stage) {
  if (stage == RootCauseStage::BeforePreparing) {
    trace.release_op_details(/*keep_op_call=*/true);
    std::vector<std::vector<std::uint32_t>>().swap(matching.message_of_op);
  } else {
    trace.release_op_details();
    matching = {};
  }
  give_back_freed_memory();
}

CauseAnalysis find_root_causes(const Trace& trace, const Matching& matching,
                               const CauseOptions& options, unsigned threads) {
  return RootCauseAnalysis(trace, matching, options, threads).run();
}

}  // namespace collwrap
