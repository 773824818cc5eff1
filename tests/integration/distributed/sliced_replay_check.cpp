// mpirun -np K sliced_replay_check ARCHIVE [--no-clock-repair | --measure]
//
// The processes of the job hold the archive divided (hold_share_in_job), cut the run into one
// slice of time per process and replay it slice after slice, as recorded and on an ideal
// network (sliced_replay_in_job.h); process 0 then gathers every slice's replayed Enters, and
// whom each call waited for, reads the archive alone, replays it whole, and compares them call
// by call, with the run's end and the dependencies ignored. Then, each against the analyzer
// alone's: the delay costs of the replay as recorded, attributed in slices from the last
// process to the first (delay_costs_in_job), call by call, with their sums and charges; the
// critical path, each process walking its stretch (walk_critical_path_in_job), its steps in
// order, and its summary per segment type and call site (critical_path_in_job); the POP
// efficiencies; last, the ends of what-if replays on some call sites, pipelined through the
// processes (replay_questions_in_job). A cut that the clock condition does not allow must be
// refused exactly where the whole graph refuses it.
// With --measure nothing is compared: process 0 prints the time and every process's peak.
// Exit status 0 when they agree ("critical paths equal" and "replays equal", or "refused as
// the whole graph"), 1 when not (the first difference is printed), 2 on a usage error.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "byte_exchange.h"
#include "clock_repair.h"
#include "critical_path_share.h"
#include "delay_costs.h"
#include "pop_efficiency.h"
#include "process_measures.h"
#include "sliced_delay_in_job.h"
#include "sliced_replay.h"
#include "sliced_replay_in_job.h"
#include "trace_reader.h"
#include "what_if.h"

namespace {

using collwrap::testing::peak_mib;
using collwrap::testing::seconds_since;

using collwrap::TimeNs;

// One replayed call as process 0 compares it: global id, Enter, the call it waited for.
struct ReplayedCall {
  std::uint32_t call = 0;
  std::uint32_t waited_for = collwrap::kNone;
  TimeNs enter = 0;
};

std::vector<ReplayedCall> replayed_calls(const collwrap::ReplaySlice& slice) {
  std::vector<ReplayedCall> calls;
  const collwrap::SliceGraph& part = slice.part;
  for (std::size_t loc = 0; loc < part.from.size(); ++loc)
    for (std::uint32_t c = part.from[loc]; c < part.to[loc]; ++c) {
      const std::uint32_t waited = slice.times.waited_for[c];
      calls.push_back({part.global[c], waited == collwrap::kNone ? waited : part.global[waited],
                       slice.times.enter[c]});
    }
  return calls;
}

// One call's delay costs as process 0 compares them: those of the calls the process's delay
// slice enters.
struct CostedCall {
  std::uint32_t call = 0;
  float largest_charge = 0;
  double short_term = 0, long_term = 0;
};

std::vector<CostedCall> costed_calls(const collwrap::JobSlice& slice,
                                     const collwrap::JobDelayCosts& delay) {
  std::vector<CostedCall> calls;
  const collwrap::SliceIndex index(slice.facts, delay.cuts);
  const collwrap::DelayWindow& window = delay.slice->window();
  const collwrap::DelayCosts& costs = delay.slice->costs();
  const auto self = static_cast<std::uint32_t>(collwrap::this_process());
  std::uint32_t r = 0;
  for (std::size_t loc = 0; loc < window.first.size(); ++loc)
    for (std::uint32_t g = window.first[loc]; g < window.end[loc]; ++g, ++r)
      if (index.entered_in(g) == self)
        calls.push_back({g, costs.largest_charge[r], costs.short_term[r], costs.long_term[r]});
  return calls;
}

// Every process's records, on process 0, in process order.
template <class Record>
std::vector<Record> gather_records(const std::vector<Record>& mine, int processes) {
  const int bytes = static_cast<int>(mine.size() * sizeof(Record));
  std::vector<int> counts(static_cast<std::size_t>(processes)), offsets(counts.size(), 0);
  MPI_Gather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (std::size_t p = 1; p < counts.size(); ++p) offsets[p] = offsets[p - 1] + counts[p - 1];
  std::vector<Record> all(static_cast<std::size_t>(offsets.back() + counts.back()) /
                          sizeof(Record));
  MPI_Gatherv(mine.data(), bytes, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, 0,
              MPI_COMM_WORLD);
  return all;
}

struct Whole {
  collwrap::Trace trace;
  collwrap::Matching matching;
  collwrap::ReplayGraph graph;
};

std::unique_ptr<Whole> read_whole(const std::string& archive, bool clock_repair) {
  auto whole = std::make_unique<Whole>();
  whole->trace = collwrap::read_trace(archive, {.threads = 1});
  whole->matching = collwrap::match_trace(whole->trace, 1);
  if (clock_repair) collwrap::repair_clocks(whole->trace, whole->matching, {}, 1);
  whole->graph = collwrap::build_replay_graph(whole->trace, whole->matching);
  return whole;
}

// Process 0: the gathered calls against the whole replay.
int compare(const collwrap::ReplayGraph& graph, const collwrap::ReplayOptions& options,
            std::vector<ReplayedCall> calls, TimeNs end, std::uint64_t broken, const char* what) {
  const collwrap::ReplayTimes whole = collwrap::replay_trace(graph, options);
  if (calls.size() != graph.calls()) {
    std::cout << "FAIL: " << what << ": the slices replayed " << calls.size() << " calls of "
              << graph.calls() << '\n';
    return 1;
  }
  std::sort(calls.begin(), calls.end(),
            [](const ReplayedCall& a, const ReplayedCall& b) { return a.call < b.call; });
  for (const ReplayedCall& c : calls)
    if (c.enter != whole.enter[c.call] || c.waited_for != whole.waited_for[c.call]) {
      std::cout << "FAIL: " << what << ": call " << c.call << " entered at " << c.enter
                << " waiting for " << c.waited_for << ", the whole replay at "
                << whole.enter[c.call] << " waiting for " << whole.waited_for[c.call] << '\n';
      return 1;
    }
  if (end != whole.end || broken != whole.broken_gates) {
    std::cout << "FAIL: " << what << ": the run ends at " << end << " with " << broken
              << " dependencies ignored, the whole replay at " << whole.end << " with "
              << whole.broken_gates << '\n';
    return 1;
  }
  return 0;
}

// Process 0: the steps of the path walked by the processes (the last process's stretch first)
// against the whole walk's.
int compare_paths(const collwrap::ReplayGraph& graph,
                  const std::vector<collwrap::CriticalPathStep>& steps,
                  const collwrap::CriticalPathTotals& totals) {
  const collwrap::ReplayTimes recorded = collwrap::replay_trace(graph);
  std::vector<collwrap::CriticalPathStep> whole;
  const collwrap::CriticalPathTotals expected = collwrap::walk_critical_path(
      graph, recorded, [&](const collwrap::CriticalPathStep& step) { whole.push_back(step); });
  for (std::size_t i = 0; i < std::max(steps.size(), whole.size()); ++i)
    if (i >= steps.size() || i >= whole.size() || steps[i].call != whole[i].call ||
        steps[i].call_time != whole[i].call_time ||
        steps[i].segment_time != whole[i].segment_time) {
      std::cout << "FAIL: the critical path's step " << i << " of " << whole.size()
                << " differs from the whole walk's\n";
      return 1;
    }
  if (totals.length != expected.length || totals.hops != expected.hops) {
    std::cout << "FAIL: the critical path is " << totals.length << " ns with " << totals.hops
              << " changes of location, the whole walk's " << expected.length << " with "
              << expected.hops << '\n';
    return 1;
  }
  return 0;
}

// Process 0: the POP efficiencies from the job's replays against the whole replays'.
int compare_pop(const Whole& whole, const collwrap::PopEfficiencies& pop) {
  const collwrap::PopEfficiencies expected = collwrap::pop_efficiencies(
      whole.trace, whole.graph, collwrap::replay_trace(whole.graph),
      collwrap::replay_trace(whole.graph, {collwrap::NetworkModel::Ideal, {}}));
  bool same = pop.region == expected.region && pop.runtime_s == expected.runtime_s &&
              pop.ideal_runtime_s == expected.ideal_runtime_s &&
              pop.mean_useful_s == expected.mean_useful_s &&
              pop.max_useful_s == expected.max_useful_s &&
              pop.parallel_efficiency == expected.parallel_efficiency &&
              pop.transfer_efficiency == expected.transfer_efficiency &&
              pop.ranks.size() == expected.ranks.size();
  for (std::size_t r = 0; same && r < pop.ranks.size(); ++r)
    same = pop.ranks[r].rank == expected.ranks[r].rank &&
           pop.ranks[r].useful_s == expected.ranks[r].useful_s &&
           pop.ranks[r].mpi_s == expected.ranks[r].mpi_s;
  if (!same) {
    std::cout << "FAIL: the POP efficiencies differ: runtime " << pop.runtime_s << " s, ideal "
              << pop.ideal_runtime_s << " s, PE " << pop.parallel_efficiency
              << "; the whole replays': " << expected.runtime_s << ", " << expected.ideal_runtime_s
              << ", " << expected.parallel_efficiency << '\n';
    return 1;
  }
  std::cout << "POP efficiencies equal: PE " << pop.parallel_efficiency << ", " << pop.ranks.size()
            << " ranks\n";
  return 0;
}

// Process 0: the job's delay costs against the analyzer alone's, call by call, with their sums
// and charges.
int compare_delay_costs(const Whole& whole, std::vector<CostedCall> calls,
                        const collwrap::DelayCosts& totals) {
  const collwrap::SegmentTypes types = collwrap::segment_types(whole.trace, whole.graph);
  const collwrap::DelayCosts expected =
      collwrap::delay_costs(whole.trace, whole.graph, types, collwrap::replay_trace(whole.graph));
  std::sort(calls.begin(), calls.end(),
            [](const CostedCall& a, const CostedCall& b) { return a.call < b.call; });
  if (calls.size() != whole.graph.calls()) {
    std::cout << "FAIL: the delay slices cost " << calls.size() << " calls of "
              << whole.graph.calls() << '\n';
    return 1;
  }
  double attributed = 0;
  for (const CostedCall& c : calls) {
    attributed += c.short_term + c.long_term;
    if (c.short_term != expected.short_term[c.call] || c.long_term != expected.long_term[c.call] ||
        c.largest_charge != expected.largest_charge[c.call]) {
      std::cout << "FAIL: the delay costs of call " << c.call << ": " << c.short_term << " ns "
                << "short-term, " << c.long_term << " long-term; alone "
                << expected.short_term[c.call] << ", " << expected.long_term[c.call] << '\n';
      return 1;
    }
  }
  bool same = totals.waits == expected.waits && totals.total_wait == expected.total_wait &&
              totals.residual == expected.residual &&
              totals.charges.size() == expected.charges.size();
  for (std::size_t i = 0; same && i < expected.charges.size(); ++i) {
    const collwrap::WaitCharge &a = totals.charges[i], &b = expected.charges[i];
    same = a.segment_loc == b.segment_loc && a.segment_type == b.segment_type &&
           a.wait_loc == b.wait_loc && a.wait_site == b.wait_site && a.short_term == b.short_term &&
           a.long_term == b.long_term;
  }
  if (!same || expected.waits == 0) {
    std::cout << "FAIL: the delay costs' sums differ: " << totals.waits << " waits, "
              << totals.total_wait << " ns, residual " << totals.residual << ", "
              << totals.charges.size() << " charges; alone " << expected.waits << ", "
              << expected.total_wait << ", " << expected.residual << ", " << expected.charges.size()
              << '\n';
    return 1;
  }
  std::cout << "delay costs equal: " << expected.waits << " waits, " << attributed * 1e-9
            << " s attributed, " << expected.charges.size() << " charges\n";
  return 0;
}

// Process 0: the critical path's summary from the job against the whole walk's.
int compare_critical_path(const Whole& whole, const collwrap::CriticalPathSummary& summary) {
  const collwrap::SegmentTypes types = collwrap::segment_types(whole.trace, whole.graph);
  collwrap::CriticalPathTally tally(whole.trace, types);
  const collwrap::ReplayTimes recorded = collwrap::replay_trace(whole.graph);
  const collwrap::CriticalPathTotals totals = collwrap::walk_critical_path(
      whole.graph, recorded, [&](const collwrap::CriticalPathStep& step) {
        tally.add(step, types.type_of_call[step.call], types);
      });
  const collwrap::CriticalPathSummary expected = tally.summary(
      whole.trace, types, collwrap::segment_time_per_type(whole.graph, types), totals, 10);
  bool same = summary.length_s == expected.length_s && summary.hops == expected.hops &&
              summary.compute_s == expected.compute_s && summary.mpi_s == expected.mpi_s &&
              summary.segments.size() == expected.segments.size() &&
              summary.call_sites.size() == expected.call_sites.size() && !expected.segments.empty();
  for (std::size_t i = 0; same && i < expected.segments.size(); ++i) {
    const collwrap::CriticalPathSegment &a = summary.segments[i], &b = expected.segments[i];
    same = a.segment.file == b.segment.file && a.segment.line == b.segment.line &&
           a.segment.start_file == b.segment.start_file &&
           a.segment.start_line == b.segment.start_line &&
           a.segment.mpi_function == b.segment.mpi_function &&
           a.segment.start_mpi_function == b.segment.start_mpi_function && a.time_s == b.time_s &&
           a.share == b.share && a.mean_per_rank_s == b.mean_per_rank_s &&
           a.imbalance_s == b.imbalance_s;
  }
  for (std::size_t i = 0; same && i < expected.call_sites.size(); ++i) {
    const collwrap::CriticalPathCallSite &a = summary.call_sites[i], &b = expected.call_sites[i];
    same = a.file == b.file && a.line == b.line && a.mpi_function == b.mpi_function &&
           a.time_s == b.time_s && a.share == b.share;
  }
  if (!same) {
    std::cout << "FAIL: the critical path's summary differs from the whole walk's\n";
    return 1;
  }
  return 0;
}

// What-if questions on the archive's first and last call sites, for every rank and for one.
std::vector<collwrap::WhatIfSpec> questions(const collwrap::Trace& trace) {
  std::vector<collwrap::WhatIfSpec> specs;
  for (std::size_t k : {std::size_t{0}, trace.callsites.size() / 2, trace.callsites.size() - 1})
    if (k < trace.callsites.size() && !trace.callsites[k].file.empty()) {
      const collwrap::CallSite& site = trace.callsites[k];
      specs.push_back({"all ranks", -1, site.file, site.line, 0.5});
      specs.push_back({"rank 0", 0, site.file, site.line, 0});
    }
  return specs;
}

// --measure: the time and every process's peak resident size after holding its share, and
// after slicing, both replays, the critical path and POP; nothing is compared.
int measure(const collwrap::MpiJob& job, const std::string& archive) {
  collwrap::AnalysisSettings settings;
  settings.threads = 1;
  const auto start = std::chrono::steady_clock::now();
  collwrap::HeldShare held =
      collwrap::hold_share_in_job(job, archive, settings, true, {}, [](auto) {});
  const double held_s = seconds_since(start), held_peak = peak_mib();
  collwrap::JobSlice slice = collwrap::slice_in_job(job, held, settings.threads);
  if (slice.refused) {
    if (job.leads()) std::cout << "refused: the cut is across a clock-condition violation\n";
    return 0;
  }
  const collwrap::RecordedReplay recorded = collwrap::replay_recorded_in_job(slice);
  collwrap::PendingSend ideal_handed_on;
  collwrap::PopTimes ideal = collwrap::replay_ideal_in_job(slice, ideal_handed_on);
  ideal_handed_on.wait();
  ideal.share();
  const collwrap::PopEfficiencies pop =
      collwrap::pop_efficiencies(slice.pop, slice.replay->part.graph.begin, recorded.pop, ideal);
  collwrap::critical_path_in_job(slice, held.part.trace, 10);
  const double all_s = seconds_since(start);
  const auto delay_start = std::chrono::steady_clock::now();
  collwrap::delay_costs_in_job(slice, held);
  const double delay_s = seconds_since(delay_start);
  const std::vector<collwrap::WhatIfSpec> specs = questions(held.part.trace);
  std::vector<std::vector<collwrap::ScaledSegment>> changes(specs.size());
  for (std::size_t q = 0; q < specs.size(); ++q)
    collwrap::what_if_changes(held.part.trace, slice.facts.loc_first_call, specs[q], changes[q],
                              held.part.held);
  const auto asked = std::chrono::steady_clock::now();
  collwrap::replay_questions_in_job(slice, changes);
  const double questions_s = seconds_since(asked);
  const std::vector<double> mine{held_peak, peak_mib(),
                                 static_cast<double>(slice.replay->part.global.size())};
  std::vector<double> all(3 * job.size());
  MPI_Gather(mine.data(), 3, MPI_DOUBLE, all.data(), 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (!job.leads()) return 0;
  std::cout << job.size() << " processes: held in " << held_s << " s, replayed (both), critical "
            << "path and POP (PE " << pop.parallel_efficiency << ") by " << all_s << " s; "
            << "delay costs in " << delay_s << " s; " << specs.size() << " what-if questions in "
            << questions_s << " s\n";
  for (std::size_t p = 0; p < job.size(); ++p)
    std::cout << "  process " << p << ": peak " << all[3 * p] << " MiB holding its share, "
              << all[3 * p + 1] << " MiB at the end; its slice's graph " << all[3 * p + 2]
              << " calls\n";
  return 0;
}

// Process 0: the ends of the job's what-if replays against the whole trace's.
int compare_questions(const Whole& whole, const std::vector<collwrap::WhatIfSpec>& specs,
                      const std::vector<TimeNs>& ends) {
  std::uint64_t changed_in_all = 0;
  for (std::size_t q = 0; q < specs.size(); ++q) {
    std::vector<collwrap::ScaledSegment> changed;
    changed_in_all +=
        collwrap::what_if_changes(whole.trace, whole.graph.loc_first_call, specs[q], changed);
    const TimeNs end =
        collwrap::replay_trace(whole.graph, {collwrap::NetworkModel::AsRecorded, changed}).end;
    if (ends.at(q) != end) {
      std::cout << "FAIL: what if " << specs[q].file << ':' << specs[q].line << " on "
                << specs[q].text << " at " << specs[q].scale << ": the job's run ends at "
                << ends[q] << ", the whole replay's at " << end << '\n';
      return 1;
    }
  }
  if (changed_in_all == 0) {
    std::cout << "FAIL: no what-if question changes a segment\n";
    return 1;
  }
  std::cout << "what-if replays equal: " << specs.size() << " questions, " << changed_in_all
            << " segments changed\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::unique_ptr<collwrap::MpiJob> job = collwrap::MpiJob::join_if_launched();
  if (argc < 2 || !job) {
    std::cerr << "usage: mpirun -np K sliced_replay_check ARCHIVE [--no-clock-repair | "
                 "--measure], K > 1\n";
    return 2;
  }
  const std::string archive = argv[1];
  const bool clock_repair = !(argc > 2 && std::strcmp(argv[2], "--no-clock-repair") == 0);
  try {
    if (argc > 2 && std::strcmp(argv[2], "--measure") == 0) return measure(*job, archive);
    collwrap::AnalysisSettings settings;
    settings.threads = 1;
    collwrap::HeldShare held =
        collwrap::hold_share_in_job(*job, archive, settings, clock_repair, {}, [](auto) {});
    collwrap::JobSlice slice = collwrap::slice_in_job(*job, held, settings.threads);
    std::unique_ptr<Whole> whole;
    if (job->leads()) whole = read_whole(archive, clock_repair);
    if (slice.refused) {
      if (!job->leads()) return 0;
      if (collwrap::replays_slice_by_slice(whole->graph, slice.cuts)) {
        std::cout << "FAIL: the job refused a cut that the whole graph replays\n";
        return 1;
      }
      std::cout << "refused as the whole graph: the cut is across a clock-condition violation\n";
      return 0;
    }
    int status = 0;
    std::size_t handed = 0;
    TimeNs recorded_end = 0;
    std::uint64_t recorded_broken = 0;
    for (const collwrap::NetworkModel network :
         {collwrap::NetworkModel::Ideal, collwrap::NetworkModel::AsRecorded}) {
      const collwrap::ReplayOptions options{network, {}};
      std::uint64_t broken = 0;
      const TimeNs end = collwrap::replay_in_job(slice, options, broken);
      recorded_end = end;
      recorded_broken = broken;
      const std::vector<ReplayedCall> calls =
          gather_records(replayed_calls(*slice.replay), static_cast<int>(job->size()));
      handed += slice.handed_on.size();
      if (job->leads() && status == 0)
        status =
            compare(whole->graph, options, calls, end, broken,
                    network == collwrap::NetworkModel::Ideal ? "ideal network" : "as recorded");
    }
    // Both again, as the analyzer replays them: the same run as recorded (each slice replayed
    // at once from its recorded Enters), and the POP efficiencies from the two.
    const collwrap::RecordedReplay recorded = collwrap::replay_recorded_in_job(slice);
    collwrap::PendingSend ideal_handed_on;
    collwrap::PopTimes ideal = collwrap::replay_ideal_in_job(slice, ideal_handed_on);
    ideal_handed_on.wait();
    ideal.share();
    if (job->leads() && status == 0 &&
        (recorded.end != recorded_end || recorded.broken_gates != recorded_broken)) {
      std::cout << "FAIL: the replay as recorded from the recorded Enters ends at " << recorded.end
                << " with " << recorded.broken_gates << " broken dependencies, the replay alone at "
                << recorded_end << " with " << recorded_broken << '\n';
      status = 1;
    }
    // The critical path of the replay as recorded, the last one.
    std::vector<collwrap::CriticalPathStep> steps;
    const collwrap::CriticalPathTotals totals = collwrap::walk_critical_path_in_job(
        slice, [&](const collwrap::CriticalPathStep& step) { steps.push_back(step); });
    // Gathered in process order; the path runs from the last process's stretch to the first's.
    const int processes = static_cast<int>(job->size());
    std::vector<int> counts(static_cast<std::size_t>(processes));
    const int mine = static_cast<int>(steps.size());
    MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    const std::vector<collwrap::CriticalPathStep> gathered = gather_records(steps, processes);
    if (job->leads() && status == 0) {
      std::vector<std::size_t> first(counts.size() + 1, 0);
      for (std::size_t p = 0; p < counts.size(); ++p)
        first[p + 1] = first[p] + static_cast<std::size_t>(counts[p]);
      std::vector<collwrap::CriticalPathStep> path;
      for (std::size_t p = counts.size(); p-- > 0;)
        path.insert(path.end(), gathered.begin() + static_cast<std::ptrdiff_t>(first[p]),
                    gathered.begin() + static_cast<std::ptrdiff_t>(first[p + 1]));
      status = compare_paths(whole->graph, path, totals);
    }
    if (job->leads() && status == 0)
      status = compare_pop(
          *whole, collwrap::pop_efficiencies(slice.pop, whole->graph.begin, recorded.pop, ideal));
    const std::optional<collwrap::CriticalPathSummary> summary =
        collwrap::critical_path_in_job(slice, held.part.trace, 10);
    if (job->leads() && status == 0) status = compare_critical_path(*whole, *summary);
    // The delay costs of the replay as recorded, the last one (whose times they free).
    const collwrap::JobDelayCosts delay = collwrap::delay_costs_in_job(slice, held);
    const std::vector<CostedCall> costed =
        gather_records(costed_calls(slice, delay), static_cast<int>(job->size()));
    if (job->leads() && status == 0) status = compare_delay_costs(*whole, costed, delay.totals);
    // What-if questions, pipelined through the processes.
    const std::vector<collwrap::WhatIfSpec> specs = questions(held.part.trace);
    std::vector<std::vector<collwrap::ScaledSegment>> changes(specs.size());
    for (std::size_t q = 0; q < specs.size(); ++q)
      collwrap::what_if_changes(held.part.trace, slice.facts.loc_first_call, specs[q], changes[q],
                                held.part.held);
    const std::vector<TimeNs> ends = collwrap::replay_questions_in_job(slice, changes);
    if (job->leads() && status == 0) status = compare_questions(*whole, specs, ends);
    if (job->leads() && status == 0)
      std::cout << "critical paths equal: " << totals.hops << " changes of location\n";
    if (job->leads() && status == 0)
      std::cout << "replays equal: " << whole->graph.calls() << " calls in " << job->size()
                << " slices, as recorded and on an ideal network; process 0 hands on " << handed / 2
                << " Enters\n";
    return status;
  } catch (const std::exception& e) {
    std::cout << "FAIL: process " << job->rank() << ": " << e.what() << '\n';
    return 1;
  }
}
