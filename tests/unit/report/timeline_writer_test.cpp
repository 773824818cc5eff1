// The timeline is valid trace-event JSON: one slice per MPI call on its rank's and thread's
// track, one flow per message, a mark per one-sided transfer, a slice per worst instance; the
// window and the cap bound it.
#include "timeline_writer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "analyze.h"
#include "catalog.h"
#include "trace_builder.h"

namespace collwrap::testing {
namespace {

// Rank 1 sends twice to rank 0, each time after rank 0 has posted its receive (late sender).
Trace two_messages() {
  TraceBuilder b(2);
  b.recv(b.call(0, "MPI_Recv", 0, 1'000'000, "/src/we \"quote\".c", 7), 1, 0, 8);
  b.send(b.call(1, "MPI_Send", 600'000, 700'000, "/src/b.c", 9), 0, 0, 8);
  b.recv(b.call(0, "MPI_Recv", 2'000'000, 3'000'000, "/src/we \"quote\".c", 7), 1, 0, 8);
  b.send(b.call(1, "MPI_Send", 2'500'000, 2'600'000, "/src/b.c", 9), 0, 0, 8);
  return b.finish();
}

struct Written {
  nlohmann::json doc;
  TimelineCounts counts;
};

Written timeline_of(const TimelineOptions& options) {
  const Trace t = two_messages();
  const Matching m = match_trace(t);
  const AnalysisResult r = analyze_trace(t, m, {{}, select_patterns("late_sender")});
  std::ostringstream out;
  const TimelineCounts counts = write_timeline(t, m, r, options, out);
  return {nlohmann::json::parse(out.str()), counts};  // throws unless valid JSON
}

std::size_t count(const nlohmann::json& doc, const std::string& cat, const std::string& ph) {
  std::size_t n = 0;
  for (const auto& e : doc["traceEvents"])
    if (e["ph"] == ph && (cat.empty() || e.value("cat", "") == cat)) ++n;
  return n;
}

TEST(Timeline, SlicesFlowsAndPatternInstances) {
  const Written w = timeline_of({});
  EXPECT_EQ(count(w.doc, "mpi", "X"), 4u);
  EXPECT_EQ(count(w.doc, "message", "s"), 2u);
  EXPECT_EQ(count(w.doc, "message", "f"), 2u);
  EXPECT_EQ(count(w.doc, "pattern", "X"), 2u);  // two late_sender waits at one call site
  EXPECT_EQ(w.counts.calls, 4u);
  EXPECT_EQ(w.counts.messages, 2u);
  for (const auto& e : w.doc["traceEvents"]) {
    if (e.value("cat", "") != "mpi") continue;
    if (e["pid"] == 0) {
      EXPECT_EQ(e["name"], "MPI_Recv");
      EXPECT_EQ(e["args"]["site"], "/src/we \"quote\".c:7");  // escaped, and read back
    }
    EXPECT_EQ(e["tid"], 0);
  }
  const auto first = std::find_if(w.doc["traceEvents"].begin(), w.doc["traceEvents"].end(),
                                  [](const auto& e) { return e.value("cat", "") == "pattern"; });
  EXPECT_EQ((*first)["name"], "late_sender");
  EXPECT_DOUBLE_EQ((*first)["dur"].get<double>(), 600.0);  // 600 µs from Enter to the send
}

TEST(Timeline, WindowKeepsOnlyOverlappingCalls) {
  TimelineOptions window;
  window.start = 1'500'000;
  window.end = 4'000'000;
  const Written w = timeline_of(window);
  EXPECT_EQ(count(w.doc, "mpi", "X"), 2u);
  EXPECT_EQ(count(w.doc, "message", "s"), 1u);
  EXPECT_EQ(count(w.doc, "pattern", "X"), 1u);
}

TEST(Timeline, CapKeepsTheEarliestCallsAndSaysSo) {
  TimelineOptions capped;
  capped.max_calls = 3;
  const Written w = timeline_of(capped);
  EXPECT_EQ(count(w.doc, "mpi", "X"), 3u);
  EXPECT_EQ(w.counts.calls_dropped, 1u);
  EXPECT_EQ(w.doc["otherData"]["calls_dropped"], 1);
  EXPECT_EQ(count(w.doc, "message", "s"), 1u);  // the second message lost its send slice
}

TEST(Timeline, OneSidedTransfersAreMarksOnTheOrigin) {
  // Rank 0 puts 64 bytes to rank 1 and gets 8 bytes from it, each inside its own call; the
  // target has no call of its own for them, so no arrow, and names it in the mark.
  TraceBuilder b(2, 2);
  b.put(b.call(0, "MPI_Put", 100'000, 110'000, "/src/rma.c", 5, /*thread*/ 1), 1, 64);
  b.get(b.call(0, "MPI_Get", 200'000, 210'000, "/src/rma.c", 6), 1, 8);
  const Trace t = b.finish();
  const Matching m = match_trace(t);
  const AnalysisResult r = analyze_trace(t, m, {{}, select_patterns("late_sender")});
  std::ostringstream out;
  const TimelineCounts counts = write_timeline(t, m, r, {}, out);
  const nlohmann::json doc = nlohmann::json::parse(out.str());
  EXPECT_EQ(counts.rma_transfers, 2u);
  ASSERT_EQ(count(doc, "rma", "i"), 2u);
  std::vector<nlohmann::json> marks;
  for (const auto& e : doc["traceEvents"])
    if (e.value("cat", "") == "rma") marks.push_back(e);
  EXPECT_EQ(marks[0]["name"], "put → rank 1");
  EXPECT_EQ(marks[0]["pid"], 0);
  EXPECT_EQ(marks[0]["tid"], 1);
  EXPECT_DOUBLE_EQ(marks[0]["ts"].get<double>(), 100.0);
  EXPECT_EQ(marks[0]["args"]["target"], 1);
  EXPECT_EQ(marks[0]["args"]["bytes_sent"], 64);
  EXPECT_EQ(marks[1]["name"], "get → rank 1");
  EXPECT_EQ(marks[1]["tid"], 0);
  EXPECT_EQ(marks[1]["args"]["bytes_received"], 8);

  TimelineOptions after;  // outside the window: neither call, nor its transfer
  after.start = 150'000;
  std::ostringstream windowed;
  EXPECT_EQ(write_timeline(t, m, r, after, windowed).rma_transfers, 1u);
}

}  // namespace
}  // namespace collwrap::testing
