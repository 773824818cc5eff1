#include "pop_efficiency.h"

#include <algorithm>
#include <limits>

#include "result_units.h"

namespace collwrap {
namespace {

// MPI_Init's Leave to MPI_Finalize's Enter.
PopInterval init_to_finalize(const Trace& trace, std::uint32_t first_call, std::uint32_t loc) {
  const Location& l = trace.locations[loc];
  PopInterval r;
  for (std::uint32_t i = 0; i < l.calls(); ++i) {
    const RegionClass cls = trace.regions[l.call_region[i]].cls;
    if (cls == RegionClass::Init && r.begin_call == kNone) r.begin_call = first_call + i;
    if (cls == RegionClass::Finalize) r.end_call = first_call + i;
  }
  return r;
}

// The MPI_Pcontrol intervals: each from the Leave of a call that switches profiling on
// (level ≠ 0 while off) to the Enter of the next MPI_Pcontrol(0); one still on at the end
// closes at MPI_Finalize's Enter. Repeated calls at the same state change nothing.
std::vector<PopInterval> pcontrol_intervals(const Trace& trace, std::uint32_t first_call,
                                            std::uint32_t loc, const PopInterval& whole_run) {
  const Location& l = trace.locations[loc];
  std::vector<PopInterval> intervals;
  bool on = false;
  for (const PcontrolCall& p : l.pcontrol) {
    if (!on && p.level != 0) intervals.push_back({first_call + p.call, kNone});
    if (on && p.level == 0) intervals.back().end_call = first_call + p.call;
    on = p.level != 0;
  }
  if (on) intervals.back().end_call = whole_run.end_call;
  return intervals;
}

// The compute in an interval of location `loc`, whose calls are [first, last].
void add_useful(PopInterval& r, std::uint32_t first, std::uint32_t last,
                const SegmentLength& segment) {
  const std::uint32_t from = r.begin_call == kNone ? first : r.begin_call + 1;
  const std::uint32_t to = r.end_call == kNone ? last + 1 : r.end_call + 1;
  for (std::uint32_t g = from; g < to; ++g) r.useful += segment(g);
}

bool any_pcontrol(const std::vector<PopLocation>& locations) {
  return std::any_of(locations.begin(), locations.end(),
                     [](const PopLocation& l) { return !l.pcontrol.empty(); });
}

// A rank that never switches profiling on is measured from MPI_Init to MPI_Finalize only when
// no rank calls MPI_Pcontrol; otherwise it has no region of interest (no useful time).
std::vector<PopInterval> counted(const PopLocation& l, bool pcontrol) {
  return pcontrol ? l.pcontrol : std::vector<PopInterval>{l.init_to_finalize};
}

struct Span {
  TimeNs begin = 0, end = 0, useful = 0;
};

// Where interval r of location l begins and ends in a replay: (call, Leave or Enter); a begin
// without a call is the trace's start.
using End = std::pair<std::uint32_t, bool>;
std::pair<End, End> ends_of(const PopLocation& l, const PopInterval& r) {
  return {{r.begin_call, true},
          r.end_call == kNone ? End{l.last_call, true} : End{r.end_call, false}};
}

Span measure(const PopLocation& l, const PopInterval& r, TimeNs trace_begin,
             const ReplayedTime& time) {
  const auto [begin, end] = ends_of(l, r);
  Span s;
  s.begin = begin.first == kNone ? trace_begin : time(begin.first, begin.second);
  s.end = time(end.first, end.second);
  s.useful = r.useful;
  return s;
}

// The k-th interval over all ranks: earliest begin to latest end.
struct GlobalSpan {
  TimeNs begin = std::numeric_limits<TimeNs>::max();
  TimeNs end = std::numeric_limits<TimeNs>::min();
  void add(const Span& s) { begin = std::min(begin, s.begin), end = std::max(end, s.end); }
};

TimeNs total_length(const std::vector<GlobalSpan>& spans) {
  TimeNs sum = 0;
  for (const GlobalSpan& g : spans) sum += g.end - g.begin;
  return sum;
}

double ratio(double a, double b) {
  return b > 0 ? a / b : 1.0;
}

}  // namespace

std::vector<PopLocation> pop_locations(const Trace& trace,
                                       std::span<const std::uint32_t> loc_first_call,
                                       const SegmentLength& segment, const LocationRange& at) {
  std::vector<PopLocation> out;
  for (std::uint32_t loc = static_cast<std::uint32_t>(at.first);
       loc < std::min(at.end, trace.locations.size()); ++loc) {
    const Location& l = trace.locations[loc];
    if (l.thread != 0 || l.calls() == 0) continue;
    const std::uint32_t first = loc_first_call[loc], last = loc_first_call[loc + 1] - 1;
    PopLocation p;
    p.loc = loc;
    p.rank = l.rank;
    p.last_call = last;
    p.init_to_finalize = init_to_finalize(trace, first, loc);
    p.pcontrol = pcontrol_intervals(trace, first, loc, p.init_to_finalize);
    add_useful(p.init_to_finalize, first, last, segment);
    for (PopInterval& r : p.pcontrol) add_useful(r, first, last, segment);
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<std::pair<std::uint32_t, bool>> replayed_ends(
    const std::vector<PopLocation>& locations) {
  const bool pcontrol = any_pcontrol(locations);
  std::vector<End> out;
  for (const PopLocation& l : locations)
    for (const PopInterval& r : counted(l, pcontrol)) {
      const auto [begin, end] = ends_of(l, r);
      if (begin.first != kNone) out.push_back(begin);
      out.push_back(end);
    }
  return out;
}

PopEfficiencies pop_efficiencies(const std::vector<PopLocation>& locations, TimeNs trace_begin,
                                 const ReplayedTime& recorded, const ReplayedTime& ideal) {
  PopEfficiencies pop;
  const bool pcontrol = any_pcontrol(locations);
  pop.region = pcontrol ? "MPI_Pcontrol" : "MPI_Init..MPI_Finalize";
  std::vector<GlobalSpan> spans, ideal_spans;
  double useful_sum = 0;
  for (const PopLocation& l : locations) {
    const std::vector<PopInterval> intervals = counted(l, pcontrol);
    spans.resize(std::max(spans.size(), intervals.size()));
    ideal_spans.resize(spans.size());
    PopRank rank;
    rank.rank = l.rank;
    for (std::size_t k = 0; k < intervals.size(); ++k) {
      const Span s = measure(l, intervals[k], trace_begin, recorded);
      spans[k].add(s);
      ideal_spans[k].add(measure(l, intervals[k], trace_begin, ideal));
      rank.useful_s += seconds(s.useful);
      rank.mpi_s += seconds(s.end - s.begin - s.useful);
    }
    pop.ranks.push_back(rank);
    useful_sum += rank.useful_s;
    pop.max_useful_s = std::max(pop.max_useful_s, rank.useful_s);
  }
  if (pop.ranks.empty()) return pop;
  pop.runtime_s = seconds(total_length(spans));
  pop.ideal_runtime_s = seconds(total_length(ideal_spans));
  pop.mean_useful_s = useful_sum / static_cast<double>(pop.ranks.size());
  pop.load_balance = ratio(pop.mean_useful_s, pop.max_useful_s);
  pop.communication_efficiency = ratio(pop.max_useful_s, pop.runtime_s);
  pop.serialization_efficiency = ratio(pop.max_useful_s, pop.ideal_runtime_s);
  pop.transfer_efficiency = ratio(pop.ideal_runtime_s, pop.runtime_s);
  pop.parallel_efficiency = pop.load_balance * pop.communication_efficiency;
  return pop;
}

PopEfficiencies pop_efficiencies(const Trace& trace, const ReplayGraph& graph,
                                 const ReplayTimes& recorded, const ReplayTimes& ideal) {
  const auto time_in = [](const ReplayTimes& times) {
    return [&times](std::uint32_t call, bool leave) {
      return leave ? times.leave(call) : times.enter[call];
    };
  };
  return pop_efficiencies(pop_locations(trace, graph.loc_first_call,
                                        [&graph](std::uint32_t g) { return graph.segment(g); }),
                          trace.begin, time_in(recorded), time_in(ideal));
}

}  // namespace collwrap
