#include "timeline_writer.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <tuple>
#include <vector>

#include "trace_access.h"

namespace collwrap {
namespace {

using Json = nlohmann::ordered_json;

// Trace-event timestamps are microseconds.
double micros(TimeNs ns) {
  return static_cast<double>(ns) / 1e3;
}

// Events are streamed one by one: a whole document as one Json value would need about a
// kilobyte per event.
class EventStream {
 public:
  explicit EventStream(std::ostream& out) : out_(out) { out_ << "{\"traceEvents\":[\n"; }
  void add(const Json& event) {
    out_ << (first_ ? "" : ",\n") << event.dump(-1, ' ', false, Json::error_handler_t::replace);
    first_ = false;
  }
  void finish(const Json& other_data) {
    out_ << "\n],\"displayTimeUnit\":\"ms\",\"otherData\":"
         << other_data.dump(-1, ' ', false, Json::error_handler_t::replace) << "}\n";
  }

 private:
  std::ostream& out_;
  bool first_ = true;
};

void write_track_names(const Trace& trace, EventStream& events) {
  for (const Location& l : trace.locations) {
    if (l.thread == 0) {
      std::string name = "rank " + std::to_string(l.rank);
      if (l.node < trace.nodes.size()) name += " (" + trace.nodes[l.node] + ")";
      events.add(
          {{"name", "process_name"}, {"ph", "M"}, {"pid", l.rank}, {"args", {{"name", name}}}});
      events.add({{"name", "process_sort_index"},
                  {"ph", "M"},
                  {"pid", l.rank},
                  {"args", {{"sort_index", l.rank}}}});
    }
    events.add({{"name", "thread_name"},
                {"ph", "M"},
                {"pid", l.rank},
                {"tid", l.thread},
                {"args", {{"name", "thread " + std::to_string(l.thread)}}}});
  }
}

// The name of a one-sided transfer's mark, or nullptr for ops that are none.
const char* rma_transfer_name(OpKind kind) {
  switch (kind) {
    case OpKind::RmaPut:
      return "put";
    case OpKind::RmaGet:
      return "get";
    case OpKind::RmaAtomic:
      return "atomic";
    default:
      return nullptr;
  }
}

// One-sided transfers (puts, gets, atomics) as instant marks on the origin's track, at the time
// the transfer was issued, inside the call that issued it: the target takes no part in them
// (no call of its to end an arrow at), so it is named in the mark instead.
std::size_t write_rma_transfers(const Trace& trace, const TimelineSelection& selection,
                                EventStream& events) {
  std::size_t marks = 0;
  for (const TimelineCall& ref : selection.calls) {
    const Location& l = trace.locations[ref.loc];
    for (const std::uint32_t op : ops_of_call(trace, ref.loc, ref.call)) {
      const char* name = rma_transfer_name(l.op_kind[op]);
      if (name == nullptr) continue;
      const std::int32_t target = l.op_peer[op];
      Json args = {{"bytes_sent", l.bytes_sent(op)}, {"bytes_received", l.bytes_received(op)}};
      if (target != kNoWorldRank) args["target"] = target;
      events.add({{"name", target == kNoWorldRank
                               ? std::string(name)
                               : std::string(name) + " → rank " + std::to_string(target)},
                  {"cat", "rma"},
                  {"ph", "i"},
                  {"s", "t"},
                  {"ts", micros(l.op_time(op))},
                  {"pid", l.rank},
                  {"tid", l.thread},
                  {"args", args}});
      ++marks;
    }
  }
  return marks;
}

}  // namespace

std::string call_site_text(const Trace& trace, std::uint32_t site) {
  if (site == kNone) return "";
  const CallSite& s = trace.callsites[site];
  std::string text = s.file;
  if (s.line > 0) text.append(":").append(std::to_string(s.line));
  return text;
}

bool instance_in_window(const InstanceSample& instance, const TimelineOptions& options) {
  const TimeNs at = static_cast<TimeNs>(instance.time_s * 1e9);
  return at <= options.end && at + static_cast<TimeNs>(instance.wait_s * 1e9) >= options.start;
}

TimelineSelection select_timeline(const Trace& trace, const Matching& matching,
                                  const TimelineOptions& options) {
  TimelineSelection selection;
  std::vector<TimelineCall>& calls = selection.calls;
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    for (std::uint32_t c = 0; c < l.calls(); ++c)
      if (l.call_leave[c] >= options.start && l.call_enter[c] <= options.end)
        calls.push_back({l.call_enter[c], loc, c});
  }
  const auto order = [](const TimelineCall& a, const TimelineCall& b) {
    return std::tie(a.enter, a.loc, a.call) < std::tie(b.enter, b.loc, b.call);
  };
  std::sort(calls.begin(), calls.end(), order);
  selection.calls_dropped = calls.size() > options.max_calls ? calls.size() - options.max_calls : 0;
  calls.resize(calls.size() - selection.calls_dropped);

  // The position of a call in `calls`, if it is there: a bit per call of the trace says
  // whether, a binary search (calls are sorted) says where.
  std::vector<std::vector<bool>> selected(trace.locations.size());
  for (std::size_t loc = 0; loc < trace.locations.size(); ++loc)
    selected[loc].resize(trace.locations[loc].calls());
  for (const TimelineCall& c : calls) selected[c.loc][c.call] = true;
  const auto position = [&](std::uint32_t loc, std::uint32_t call) {
    const TimelineCall key{trace.locations[loc].call_enter[call], loc, call};
    return static_cast<std::size_t>(std::lower_bound(calls.begin(), calls.end(), key, order) -
                                    calls.begin());
  };
  for (std::size_t i = 0; i < matching.messages.size(); ++i) {
    const Message& m = matching.messages[i];
    if (!m.send.valid() || !m.recv.valid()) continue;
    const std::uint32_t sc = trace.locations[m.send.loc].op_call[m.send.op];
    const std::uint32_t rc = trace.locations[m.recv.loc].op_call[m.recv.op];
    if (sc == kNone || rc == kNone || !selected[m.send.loc][sc] || !selected[m.recv.loc][rc])
      continue;
    selection.messages.push_back({i, position(m.send.loc, sc), position(m.recv.loc, rc)});
  }
  return selection;
}

TimelineCounts write_timeline(const Trace& trace, const Matching& matching,
                              const AnalysisResult& result, const TimelineOptions& options,
                              std::ostream& out) {
  TimelineCounts counts;
  EventStream events(out);
  write_track_names(trace, events);

  const TimelineSelection selection = select_timeline(trace, matching, options);
  counts.calls_dropped = selection.calls_dropped;
  for (const TimelineCall& ref : selection.calls) {
    const Location& l = trace.locations[ref.loc];
    Json args = Json::object();
    if (const std::string site = call_site_text(trace, l.call_callsite[ref.call]); !site.empty())
      args["site"] = site;
    events.add({{"name", trace.regions[l.call_region[ref.call]].name},
                {"cat", "mpi"},
                {"ph", "X"},
                {"ts", micros(l.call_enter[ref.call])},
                {"dur", micros(l.call_leave[ref.call] - l.call_enter[ref.call])},
                {"pid", l.rank},
                {"tid", l.thread},
                {"args", args}});
  }
  counts.calls = selection.calls.size();

  // A flow starts at the send's call and ends at the call that completed the receive; "bp":"e"
  // binds the end to that enclosing slice rather than to the next one.
  for (const TimelineMessage& tm : selection.messages) {
    const Message& m = matching.messages[tm.message];
    const TimelineCall& send = selection.calls[tm.from];
    const TimelineCall& recv = selection.calls[tm.to];
    const Location& sl = trace.locations[send.loc];
    const Location& rl = trace.locations[recv.loc];
    const Json common = {{"name", "message"}, {"cat", "message"}, {"id", tm.message}};
    Json start = common, finish = common;
    start.update({{"ph", "s"},
                  {"ts", micros(sl.call_enter[send.call])},
                  {"pid", sl.rank},
                  {"tid", sl.thread}});
    finish.update({{"ph", "f"},
                   {"bp", "e"},
                   {"ts", micros(rl.call_leave[recv.call])},
                   {"pid", rl.rank},
                   {"tid", rl.thread},
                   {"args", {{"bytes", sl.bytes_sent(m.send.op)}, {"tag", sl.op_tag[m.send.op]}}}});
    events.add(start);
    events.add(finish);
    ++counts.messages;
  }

  counts.rma_transfers = write_rma_transfers(trace, selection, events);

  // The worst instances of each finding: the wait at the start of the call that lost it.
  for (const Finding& f : result.findings)
    for (const InstanceSample& s : f.top_instances) {
      if (!instance_in_window(s, options)) continue;
      events.add({{"name", f.pattern},
                  {"cat", "pattern"},
                  {"ph", "X"},
                  {"ts", s.time_s * 1e6},
                  {"dur", s.wait_s * 1e6},
                  {"pid", f.rank},
                  {"tid", f.thread},
                  {"args",
                   {{"wait_s", s.wait_s},
                    {"peers", s.peers},
                    {"peer_threads", s.peer_threads},
                    {"comment", f.comment}}}});
    }

  Json other = {{"trace", result.trace.path}, {"calls_dropped", counts.calls_dropped}};
  if (counts.calls_dropped > 0)
    other["note"] = "more MPI calls than --timeline-max-events: only the earliest are shown";
  events.finish(other);
  return counts;
}

}  // namespace collwrap
