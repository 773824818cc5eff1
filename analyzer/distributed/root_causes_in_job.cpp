#include "root_causes_in_job.h"

#include <mpi.h>

#include <algorithm>
#include <limits>

#include "byte_exchange.h"
#include "byte_fields.h"
#include "cause_candidates.h"
#include "result_units.h"
#include "sliced_delay_in_job.h"
#include "sliced_replay.h"
#include "sliced_replay_in_job.h"

namespace collwrap {
namespace {

// The calls of this process's locations, from its rows: visit(loc, global call).
template <typename Visit>
void for_own_calls(const JobSlice& slice, const LocationRange& held, Visit&& visit) {
  const std::vector<std::uint32_t>& first = slice.facts.loc_first_call;
  for (std::size_t loc = held.first; loc < std::min(held.end, first.size() - 1); ++loc)
    for (std::uint32_t g = first[loc]; g < first[loc + 1]; ++g)
      visit(static_cast<std::uint32_t>(loc), g);
}

// The calls of locations [first_loc, end_loc) whose segments this process's delay slice owns,
// with their costs: visit(loc, global call, row of the window).
template <typename Visit>
void for_costed_calls(const JobSlice& slice, const JobDelayCosts& delay, std::uint32_t first_loc,
                      std::uint32_t end_loc, Visit&& visit) {
  const SliceIndex index(slice.facts, delay.cuts);
  const DelayWindow& window = delay.slice->window();
  const auto self = static_cast<std::uint32_t>(this_process());
  end_loc = std::min(end_loc, static_cast<std::uint32_t>(window.first.size()));
  std::uint32_t row = 0;  // the window's first row of the location
  for (std::uint32_t loc = 0; loc < first_loc; ++loc) row += window.end[loc] - window.first[loc];
  for (std::uint32_t loc = first_loc; loc < end_loc; ++loc) {
    const auto [first, end] = index.entered_calls(self, loc);
    for (std::uint32_t g = std::max(first, window.first[loc]); g < std::min(end, window.end[loc]);
         ++g)
      visit(loc, g, row + (g - window.first[loc]));
    row += window.end[loc] - window.first[loc];
  }
}
template <typename Visit>
void for_costed_calls(const JobSlice& slice, const JobDelayCosts& delay, Visit&& visit) {
  for_costed_calls(slice, delay, 0, std::numeric_limits<std::uint32_t>::max(), visit);
}

// The segment groups with their totals over every process's locations.
SegmentGroups groups_in_job(const JobSlice& slice, const LocationRange& held) {
  SegmentGroups groups = group_segment_types(slice.types);
  add_group_times(groups, slice.type_time);
  std::vector<std::uint32_t> last_loc(groups.groups(), kNone);
  const GraphRows& own = slice.own_rows;
  for_own_calls(slice, held, [&](std::uint32_t loc, std::uint32_t g) {
    const std::uint32_t group = groups.of_type[own.segment_type[g - own.first_call]];
    if (last_loc[group] != loc) {
      last_loc[group] = loc;
      ++groups.locations[group];
    }
  });
  allreduce(groups.locations, MPI_UINT32_T, MPI_SUM);
  return groups;
}

// Every location's candidates, alike on every process: summed along the delay slices, each
// process going on from the sums of the processes before, so that each location's calls are
// added in call order, as alone. The locations go in groups, each handed on as soon as it is
// summed, so that a process sums a group while the one after it sums the group before (with
// the whole at once, the second of two processes waited 0.1 s of 0.24 at 10^8 events).
std::vector<Candidate> candidates_in_job(const JobSlice& slice, const JobDelayCosts& delay,
                                         const SegmentGroups& groups) {
  constexpr std::uint32_t kLocationGroups = 8;
  const int self = this_process(), processes = process_count();
  const auto locations = static_cast<std::uint32_t>(slice.cuts.locations);
  const std::uint32_t per_group = (locations + kLocationGroups - 1) / kLocationGroups;
  CandidateSums sums(locations, groups.groups());
  const DelayCosts& costs = delay.slice->costs();
  const DelayWindow& window = delay.slice->window();
  const int last = processes - 1;
  std::vector<Candidate> all;
  for (std::uint32_t first = 0; first < locations; first += per_group) {
    const std::uint32_t end = std::min(locations, first + per_group);
    if (self > 0) {
      std::vector<Candidate> earlier;
      In(receive_bytes(self - 1), "the candidate root causes so far").vector(earlier);
      sums.take_over(earlier);
    }
    for_costed_calls(slice, delay, first, end,
                     [&](std::uint32_t loc, std::uint32_t, std::uint32_t r) {
                       sums.at_location(loc);
                       const std::uint32_t type = window.type[r];
                       sums.add(type, groups.of_type[type], delay.slice->segment(r),
                                costs.short_term[r], costs.long_term[r], costs.largest_charge[r]);
                     });
    if (self < last) {
      std::vector<char> bytes;
      Out(bytes).vector(sums.of_locations(first, end));
      send_bytes(bytes.data(), bytes.size(), self + 1);
    }
  }
  std::vector<char> bytes;
  if (self == last) Out(bytes).vector(sums.all());
  if (self == last && self > 0) send_bytes(bytes.data(), bytes.size(), 0);
  if (self == 0 && last > 0) bytes = receive_bytes(last);
  broadcast_bytes(bytes);
  all.clear();
  In(bytes, "the candidate root causes").vector(all);
  return all;
}

// A balanced fix's per-instance means over every location, and the sum of the means of the
// cause's location's instances (its target), alike on every process. `changed` gets this
// process's locations' changed segments.
double balanced_fix_in_job(const JobSlice& slice, const LocationRange& held,
                           const SegmentGroups& groups, const Candidate& c,
                           std::vector<ScaledSegment>& changed) {
  const GraphRows& own = slice.own_rows;
  const auto in_group = [&](std::uint32_t g) {
    return groups.of_type[own.segment_type[g - own.first_call]] == c.end;
  };
  // k counts the instances on the current location.
  std::uint32_t current = kNone, k = 0;
  const auto instance = [&](std::uint32_t loc) {
    if (loc != current) current = loc, k = 0;
    return k++;
  };
  InstanceMeans means;
  for_own_calls(slice, held, [&](std::uint32_t loc, std::uint32_t g) {
    if (in_group(g)) means.add(instance(loc), own.segment(g));
  });
  std::vector<std::uint64_t> size{means.sum.size()};
  allreduce(size, MPI_UINT64_T, MPI_MAX);
  means.sum.resize(size[0], 0);
  means.count.resize(size[0], 0);
  allreduce(means.sum, MPI_INT64_T, MPI_SUM);
  allreduce(means.count, MPI_UINT32_T, MPI_SUM);
  std::vector<double> target{0};
  current = kNone;
  for_own_calls(slice, held, [&](std::uint32_t loc, std::uint32_t g) {
    if (!in_group(g)) return;
    const std::uint32_t i = instance(loc);
    if (loc == c.loc) target[0] += means.mean(i);
    if (const float factor = means.factor(i, own.segment(g)); factor != 1.0f)
      changed.push_back({g, factor});
  });
  // Only the holder of the cause's location adds to it: the others add zeros.
  allreduce(target, MPI_DOUBLE, MPI_SUM);
  return target[0];
}

// A per-location fix's changed segments among this process's calls: of its locations' (to the
// others' mean) or of its delay slice's (by the largest wait each caused).
void location_fix_in_job(const JobSlice& slice, const LocationRange& held,
                         const JobDelayCosts& delay, const SegmentGroups& groups,
                         const Candidate& c, const LocationFix& plan,
                         std::vector<ScaledSegment>& changed) {
  if (plan.kind == LocationFix::Kind::OthersMean) {
    if (!held.contains(c.loc)) return;
    const GraphRows& own = slice.own_rows;
    const std::vector<std::uint32_t>& first = slice.facts.loc_first_call;
    for (std::uint32_t g = first[c.loc]; g < first[c.loc + 1]; ++g)
      if (groups.of_type[own.segment_type[g - own.first_call]] == c.end)
        if (const float factor = plan.factor_of(own.segment(g), 0); factor != 1.0f)
          changed.push_back({g, factor});
    return;
  }
  const DelayCosts& costs = delay.slice->costs();
  const DelayWindow& window = delay.slice->window();
  for_costed_calls(slice, delay, [&](std::uint32_t loc, std::uint32_t g, std::uint32_t r) {
    if (loc != c.loc || groups.of_type[window.type[r]] != c.end) return;
    if (const float factor = plan.factor_of(delay.slice->segment(r), costs.largest_charge[r]);
        factor != 1.0f)
      changed.push_back({g, factor});
  });
}

}  // namespace

JobCauses root_causes_in_job(const MpiJob& job, HeldShare& held, const CauseOptions& options,
                             unsigned threads) {
  JobCauses out;
  const Trace& trace = held.part.trace;
  const LocationRange& own = held.part.held;
  JobSlice slice = slice_in_job(job, held, threads);
  out.refused = slice.refused;
  if (out.refused) return out;
  const TimeNs begin = slice.facts.begin;

  // The delay costs and the critical path read the replay as recorded.
  const RecordedReplay recorded = replay_recorded_in_job(slice);
  const TimeNs recorded_end = recorded.end;
  CauseAnalysis result;
  result.replay_runtime_s = seconds(recorded_end - begin);
  result.broken_dependencies = recorded.broken_gates;
  std::optional<CriticalPathSummary> path =
      critical_path_in_job(slice, trace, options.top_segments);
  if (path) result.critical_path = std::move(*path);
  std::vector<std::uint32_t>().swap(slice.replay->part.segment_type);  // read by the path only
  // The replay on an ideal network, which only the POP efficiencies read, in the time each
  // process waits for the others' delay attribution: before the replays as recorded, it made
  // their step take twice as long.
  PopTimes ideal;
  PendingSend ideal_handed_on;
  JobDelayCosts delay = delay_costs_in_job(
      slice, held, {}, [&] { ideal = replay_ideal_in_job(slice, ideal_handed_on); });
  ideal_handed_on.wait();
  ideal.share();
  result.pop = pop_efficiencies(slice.pop, begin, recorded.pop, ideal);
  result.delay.waits = delay.totals.waits;
  result.delay.total_wait_s = seconds(static_cast<TimeNs>(delay.totals.total_wait));
  result.delay.residual_s = delay.totals.residual * 1e-9;
  result.delay.attributed_s = (delay.totals.total_wait - delay.totals.residual) * 1e-9;

  // The candidates, and what each chosen one's fix changes, as alone.
  const SegmentGroups groups = groups_in_job(slice, own);
  const std::vector<Candidate> per_location = candidates_in_job(slice, delay, groups);
  std::vector<Candidate> chosen = most_costly(per_location, options.estimated_causes);
  const std::size_t single_location = chosen.size();
  for (const Candidate& c :
       most_costly(imbalances(per_location, groups.groups()), options.estimated_causes))
    chosen.push_back(c);
  const std::size_t causes = chosen.size();
  result.root_causes.resize(causes);
  std::vector<std::vector<ScaledSegment>> changes(causes + options.what_ifs.size());
  std::vector<bool> replayed(changes.size(), true);
  for (std::size_t q = 0; q < causes; ++q) {
    RootCause& cause = result.root_causes[q];
    cause = describe_cause(trace, slice.types, chosen[q]);
    if (q < single_location) {
      const LocationFix plan = plan_fix(chosen[q], groups, cause);
      replayed[q] = plan.kind != LocationFix::Kind::None;
      if (replayed[q]) location_fix_in_job(slice, own, delay, groups, chosen[q], plan, changes[q]);
    } else {
      const double target = balanced_fix_in_job(slice, own, groups, chosen[q], changes[q]);
      describe_balanced_fix(chosen[q], groups, target, cause);
    }
    cause.caused_waits = caused_waits(trace, groups, chosen[q], delay.totals.charges);
  }
  result.what_ifs.resize(options.what_ifs.size());
  std::vector<std::uint64_t> changed(options.what_ifs.size());
  for (std::size_t w = 0; w < options.what_ifs.size(); ++w) {
    result.what_ifs[w] = what_if_asked(options.what_ifs[w]);
    changed[w] = what_if_changes(trace, slice.facts.loc_first_call, options.what_ifs[w],
                                 changes[causes + w], own);
  }
  allreduce(changed, MPI_UINT64_T, MPI_SUM);
  for (std::size_t w = 0; w < options.what_ifs.size(); ++w)
    result.what_ifs[w].segments_changed = changed[w];

  delay.slice.reset();  // what the fixes read of it is in `changes` now
  // The replays of the questions that change something, pipelined through the processes.
  std::vector<std::uint64_t> counts(changes.size());
  for (std::size_t q = 0; q < changes.size(); ++q) counts[q] = changes[q].size();
  allreduce(counts, MPI_UINT64_T, MPI_SUM);
  std::vector<std::size_t> asked;
  std::vector<std::vector<ScaledSegment>> asked_changes;
  for (std::size_t q = 0; q < changes.size(); ++q)
    if (replayed[q] && counts[q] > 0) {
      asked.push_back(q);
      asked_changes.push_back(std::move(changes[q]));
    }
  std::vector<TimeNs> ends(changes.size(), recorded_end);
  const std::vector<TimeNs> replayed_ends = replay_questions_in_job(slice, asked_changes);
  for (std::size_t i = 0; i < asked.size(); ++i) ends[asked[i]] = replayed_ends[i];
  if (!job.leads()) return out;
  for (std::size_t q = 0; q < causes; ++q)
    if (replayed[q]) set_gain(result.root_causes[q], recorded_end, ends[q], begin);
  for (std::size_t w = 0; w < options.what_ifs.size(); ++w)
    answer_what_if(result.what_ifs[w], recorded_end, ends[causes + w], begin);
  sort_by_gain(result.root_causes);
  out.analysis = std::move(result);
  return out;
}

}  // namespace collwrap
