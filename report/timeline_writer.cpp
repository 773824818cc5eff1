#include "timeline_writer.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <tuple>
#include <vector>

namespace collwrap {
namespace {

using Json = nlohmann::ordered_json;

// Trace-event timestamps are microseconds.
double micros(TimeNs ns) {
  return static_cast<double>(ns) / 1e3;
}

struct WindowCall {
  TimeNs enter;
  std::uint32_t loc;
  std::uint32_t call;
};

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

std::string call_site_text(const Trace& trace, std::uint32_t site) {
  if (site == kNone) return "";
  const CallSite& s = trace.callsites[site];
  return s.file + (s.line > 0 ? ":" + std::to_string(s.line) : "");
}

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

// The calls in the window, earliest first, at most max_calls of them.
std::vector<WindowCall> calls_in_window(const Trace& trace, const TimelineOptions& options,
                                        std::size_t& dropped) {
  std::vector<WindowCall> calls;
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    for (std::uint32_t c = 0; c < l.calls(); ++c)
      if (l.call_leave[c] >= options.start && l.call_enter[c] <= options.end)
        calls.push_back({l.call_enter[c], loc, c});
  }
  std::sort(calls.begin(), calls.end(), [](const WindowCall& a, const WindowCall& b) {
    return std::tie(a.enter, a.loc, a.call) < std::tie(b.enter, b.loc, b.call);
  });
  dropped = calls.size() > options.max_calls ? calls.size() - options.max_calls : 0;
  calls.resize(calls.size() - dropped);
  return calls;
}

}  // namespace

TimelineCounts write_timeline(const Trace& trace, const Matching& matching,
                              const AnalysisResult& result, const TimelineOptions& options,
                              std::ostream& out) {
  TimelineCounts counts;
  EventStream events(out);
  write_track_names(trace, events);

  const std::vector<WindowCall> calls = calls_in_window(trace, options, counts.calls_dropped);
  // written[loc][call]: whether the call's slice is in the file, so arrows only join slices.
  std::vector<std::vector<bool>> written(trace.locations.size());
  for (std::size_t loc = 0; loc < trace.locations.size(); ++loc)
    written[loc].resize(trace.locations[loc].calls());
  for (const WindowCall& ref : calls) {
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
    written[ref.loc][ref.call] = true;
  }
  counts.calls = calls.size();

  // A flow starts at the send's call and ends at the call that completed the receive; "bp":"e"
  // binds the end to that enclosing slice rather than to the next one.
  for (std::size_t i = 0; i < matching.messages.size(); ++i) {
    const Message& m = matching.messages[i];
    if (!m.send.valid() || !m.recv.valid()) continue;
    const Location& sl = trace.locations[m.send.loc];
    const Location& rl = trace.locations[m.recv.loc];
    const std::uint32_t sc = sl.op_call[m.send.op], rc = rl.op_call[m.recv.op];
    if (sc == kNone || rc == kNone || !written[m.send.loc][sc] || !written[m.recv.loc][rc])
      continue;
    const Json common = {{"name", "message"}, {"cat", "message"}, {"id", i}};
    Json start = common, finish = common;
    start.update(
        {{"ph", "s"}, {"ts", micros(sl.call_enter[sc])}, {"pid", sl.rank}, {"tid", sl.thread}});
    finish.update({{"ph", "f"},
                   {"bp", "e"},
                   {"ts", micros(rl.call_leave[rc])},
                   {"pid", rl.rank},
                   {"tid", rl.thread},
                   {"args", {{"bytes", sl.op_bytes[m.send.op]}, {"tag", sl.op_tag[m.send.op]}}}});
    events.add(start);
    events.add(finish);
    ++counts.messages;
  }

  // The worst instances of each finding: the wait at the start of the call that lost it.
  for (const Finding& f : result.findings)
    for (const InstanceSample& s : f.top_instances) {
      const TimeNs at = static_cast<TimeNs>(s.time_s * 1e9);
      if (at > options.end || at + static_cast<TimeNs>(s.wait_s * 1e9) < options.start) continue;
      events.add({{"name", f.pattern},
                  {"cat", "pattern"},
                  {"ph", "X"},
                  {"ts", s.time_s * 1e6},
                  {"dur", s.wait_s * 1e6},
                  {"pid", f.rank},
                  {"tid", f.thread},
                  {"args", {{"wait_s", s.wait_s}, {"peers", s.peers}, {"comment", f.comment}}}});
    }

  Json other = {{"trace", result.trace.path}, {"calls_dropped", counts.calls_dropped}};
  if (counts.calls_dropped > 0)
    other["note"] = "more MPI calls than --timeline-max-events: only the earliest are shown";
  events.finish(other);
  return counts;
}

}  // namespace collwrap
