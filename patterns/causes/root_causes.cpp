#include "root_causes.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <limits>

#include "cause_candidates.h"
#include "critical_path_share.h"
#include "delay_costs.h"
#include "location_shares.h"
#include "memory_reuse.h"
#include "parallel_for.h"
#include "pop_efficiency.h"
#include "result_units.h"

namespace collwrap {
namespace {

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
        graph_(build_replay_graph(trace, matching, threads)) {}

  CauseAnalysis run() {
    CauseAnalysis result;
    // The ideal-network replay runs beside the one as recorded, on one thread in the same
    // pass, which shares the work of finding the next call: as fast as the two side by side
    // on two threads at 10^8 events (0.73 s against 0.71), faster on the recorded
    // collective-heavy archive (0.027 against 0.034 s). Any other threads meanwhile find the
    // compute segments' types. The ideal replay is freed before the delay costs' working
    // tables are made, so that the two never add up. The delay costs take every thread.
    ReplayTimes ideal;
    const unsigned cores = worker_count(threads_, std::numeric_limits<std::size_t>::max());
    parallel_for(2, std::min(cores, 2u), [&](std::size_t task) {
      if (task == 0)
        replay_recorded_and_ideal(graph_, recorded_, ideal);
      else
        types_ = segment_types(trace_, graph_, std::max(1u, cores - 1));
    });
    result.replay_runtime_s = seconds(recorded_.end - trace_.begin);
    result.broken_dependencies = recorded_.broken_gates;
    result.pop = pop_efficiencies(trace_, graph_, recorded_, ideal);
    ideal = {};

    {
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
    }
    DelayCosts costs = delay_costs(trace_, graph_, types_, recorded_, {}, threads_);
    result.delay.waits = costs.waits;
    result.delay.total_wait_s = seconds(static_cast<TimeNs>(costs.total_wait));
    result.delay.residual_s = costs.residual * 1e-9;
    result.delay.attributed_s = (costs.total_wait - costs.residual) * 1e-9;

    const std::vector<Candidate> per_location = collect(costs);
    // The per-call costs are summed into the candidates now: their memory goes to the what-if
    // replays below.
    std::vector<double>().swap(costs.short_term);
    std::vector<double>().swap(costs.long_term);
    std::vector<Candidate> chosen = most_costly(per_location, options_.estimated_causes);
    const std::size_t single_location = chosen.size();
    for (const Candidate& c :
         most_costly(imbalances(per_location, groups_.groups()), options_.estimated_causes))
      chosen.push_back(c);

    // Each root cause and what-if question is answered by a replay with some segments
    // changed. Each replay holds a table of Enters (8 bytes per call). Replays in one pass
    // share the work of finding the next call, so that two in a pass take little more than
    // one; passes side by side on more threads take more CPU time but end sooner. The tables:
    // one per thread that replays, in the memory the delay costs' tables freed, and one more
    // in the memory of the replay as recorded, freed now (only its end is read after this).
    // So the first thread runs two lanes to a pass and any others one, and the peak stays
    // where it was (on the recorded archives of tests/perf/analyzer, with one and two threads).
    static_assert(kReplayLanes >= 2);
    std::vector<TimeNs>().swap(recorded_.enter);
    std::vector<std::uint32_t>().swap(recorded_.waited_for);
    const std::size_t causes = chosen.size(), questions = causes + options_.what_ifs.size();
    result.root_causes.resize(causes);
    result.what_ifs.resize(options_.what_ifs.size());
    const auto side_by_side = static_cast<unsigned>(
        std::min<std::size_t>(kReplayLanes * std::max<std::size_t>(1, cores / kReplayLanes),
                              worker_count(threads_, questions)));
    const auto lanes_of = [](unsigned worker) -> std::size_t { return worker == 0 ? 2 : 1; };
    // Question q's result, from the end of its replay.
    const auto finish = [&](std::size_t q, TimeNs end) {
      if (q < causes)
        set_gain(result.root_causes[q], recorded_.end, end, trace_.begin);
      else
        answer_what_if(result.what_ifs[q - causes], recorded_.end, end, trace_.begin);
    };
    // Each thread fills the lanes of its passes with the next questions that change
    // something: one whose gain is not estimated, or whose fix changes nothing, takes no lane
    // (a fifth to a half of the questions on the recorded archives), and each lane's replay
    // is its own, whatever shares its pass.
    std::atomic<std::size_t> next_question{0};
    replays_.resize(side_by_side);
    parallel_for(side_by_side, side_by_side, [&](std::size_t, unsigned worker) {
      ScaledReplay& replay = replays_[worker];
      for (;;) {
        std::array<std::size_t, kReplayLanes> asked{};  // the question of each lane
        std::size_t lanes = 0;
        for (std::size_t q; lanes < lanes_of(worker) && (q = next_question++) < questions;) {
          std::vector<ScaledSegment>& changed = replay.changed[lanes];
          changed.clear();
          bool replayed;
          if (q < causes) {
            RootCause& cause = result.root_causes[q];
            cause = describe_cause(trace_, types_, chosen[q]);
            replayed = q < single_location ? fix(chosen[q], costs, cause, changed)
                                           : balanced_fix(chosen[q], cause, changed);
            cause.caused_waits = caused_waits(trace_, groups_, chosen[q], costs.charges);
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
        if (lanes == 0) return;
        std::array<std::span<const ScaledSegment>, kReplayLanes> scaled;
        std::copy(replay.changed.begin(), replay.changed.end(), scaled.begin());
        std::array<TimeNs, kReplayLanes> ends{};
        replay_ends(graph_, std::span(scaled.data(), lanes), std::span(ends.data(), lanes),
                    replay.enter);
        for (std::size_t lane = 0; lane < lanes; ++lane) finish(asked[lane], ends[lane]);
      }
    });
    sort_by_gain(result.root_causes);
    return result;
  }

 private:
  // The segment groups and their totals, summed over shares of the locations side by side.
  void type_totals() {
    groups_ = group_segment_types(types_);
    const std::vector<LocationRange> shares = split_calls(trace_, threads_);
    std::vector<std::vector<TimeNs>> time(shares.size());
    std::vector<std::vector<std::uint32_t>> locations(shares.size());
    parallel_for(shares.size(), threads_, [&](std::size_t p) {
      time[p].assign(groups_.groups(), 0);
      locations[p].assign(groups_.groups(), 0);
      std::vector<std::uint32_t> last_loc(groups_.groups(), kNone);
      for (std::uint32_t g = first_call(shares[p]); g < end_call(shares[p]); ++g) {
        const std::uint32_t group = groups_.of_type[types_.type_of_call[g]];
        time[p][group] += graph_.segment(g);
        if (last_loc[group] != graph_.call_loc[g]) {
          last_loc[group] = graph_.call_loc[g];
          ++locations[p][group];
        }
      }
    });
    for (std::size_t p = 0; p < shares.size(); ++p)
      for (std::size_t group = 0; group < groups_.groups(); ++group) {
        groups_.time[group] += time[p][group];
        groups_.locations[group] += locations[p][group];
      }
  }

  // Segment types per location, with their delay costs: shares of the locations summed side
  // by side, then taken over location by location, in the order one thread sums them.
  std::vector<Candidate> collect(const DelayCosts& costs) const {
    const std::vector<LocationRange> shares = split_calls(trace_, threads_);
    std::vector<std::vector<Candidate>> found(shares.size());
    parallel_for(shares.size(), threads_, [&](std::size_t p) {
      CandidateSums sums(trace_.locations.size(), groups_.groups());
      const std::size_t end = std::min(shares[p].end, trace_.locations.size());
      for (auto loc = static_cast<std::uint32_t>(shares[p].first); loc < end; ++loc) {
        sums.at_location(loc);
        for (std::uint32_t g = graph_.loc_first_call[loc]; g < graph_.loc_first_call[loc + 1];
             ++g) {
          const std::uint32_t t = types_.type_of_call[g];
          sums.add(t, groups_.of_type[t], graph_.segment(g), costs.short_term[g],
                   costs.long_term[g], costs.largest_charge[g]);
        }
      }
      found[p] = sums.all();
    });
    CandidateSums all(trace_.locations.size(), groups_.groups());
    for (const std::vector<Candidate>& part : found) all.take_over(part);
    return all.all();
  }

  // The first call of a share of the locations, and the one after its last.
  std::uint32_t first_call(const LocationRange& share) const {
    return graph_.loc_first_call[std::min(share.first, trace_.locations.size())];
  }
  std::uint32_t end_call(const LocationRange& share) const {
    return graph_.loc_first_call[std::min(share.end, trace_.locations.size())];
  }

  bool in_group(std::uint32_t g, const Candidate& c) const {
    return groups_.of_type[types_.type_of_call[g]] == c.end;
  }

  // The segments a per-location cause's fix changes, in `changed`; false when its gain is not
  // estimated.
  bool fix(const Candidate& c, const DelayCosts& costs, RootCause& cause,
           std::vector<ScaledSegment>& changed) const {
    const LocationFix plan = plan_fix(c, groups_, cause);
    if (plan.kind == LocationFix::Kind::None) return false;
    // Its segments are on its location alone.
    scaled_segments(
        changed, graph_.loc_first_call[c.loc], graph_.loc_first_call[c.loc + 1],
        [&](std::uint32_t g) {
          return in_group(g, c) ? plan.factor_of(graph_.segment(g), costs.largest_charge[g]) : 1.0f;
        });
    return true;
  }

  // An imbalance across ranks, estimated by balancing it: every instance of the segments on
  // every location set to the mean of all locations' same instance (the k-th on each, as the
  // ranks run their loops in step), so that the ranks' total work stays about the same. The
  // segments that changes go to `changed`.
  bool balanced_fix(const Candidate& c, RootCause& cause,
                    std::vector<ScaledSegment>& changed) const {
    InstanceMeans means;
    std::uint32_t loc = kNone, k = 0;
    // Calls by global id run location by location: k counts the instances on the current one.
    const auto instance = [&](std::uint32_t g) {
      if (graph_.call_loc[g] != loc) loc = graph_.call_loc[g], k = 0;
      return k++;
    };
    for (std::uint32_t g = 0; g < graph_.calls(); ++g)
      if (in_group(g, c)) means.add(instance(g), graph_.segment(g));
    double target = 0;
    loc = kNone;
    scaled_segments(changed, 0, static_cast<std::uint32_t>(graph_.calls()), [&](std::uint32_t g) {
      if (!in_group(g, c)) return 1.0f;
      const std::uint32_t i = instance(g);
      if (graph_.call_loc[g] == c.loc) target += means.mean(i);
      return means.factor(i, graph_.segment(g));
    });
    describe_balanced_fix(c, groups_, target, cause);
    return true;
  }

  // A what-if question's segments, in `changed`, and what its answer says before the replay.
  void question_changes(const WhatIfSpec& spec, WhatIfResult& r,
                        std::vector<ScaledSegment>& changed) const {
    r = what_if_asked(spec);
    r.segments_changed = what_if_changes(trace_, graph_.loc_first_call, spec, changed);
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
  SegmentTypes types_;  // found beside the first replays
  // The replay as recorded, set first by run(); after the delay costs only its end is kept.
  ReplayTimes recorded_;
  std::vector<ScaledReplay> replays_;  // one per thread that replays
  SegmentGroups groups_;
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
  pass_freed_memory_to_next_stage();
}

CauseAnalysis find_root_causes(const Trace& trace, const Matching& matching,
                               const CauseOptions& options, unsigned threads) {
  return RootCauseAnalysis(trace, matching, options, threads).run();
}

}  // namespace collwrap
