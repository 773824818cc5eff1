// From a matched trace to the analysis result: findings, totals, ranks, warnings.
#include "analyze.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <sstream>

#include "catalog.h"
#include "every_pattern_trace.h"
#include "json_report.h"
#include "run_patterns.h"
#include "trace_builder.h"

namespace collwrap::testing {
namespace {

AnalysisResult analyze_all(const Trace& trace, RuleOptions rules = {}) {
  return analyze_trace(trace, match_trace(trace), {rules, select_patterns("all")});
}

const Finding* find_finding(const AnalysisResult& r, std::string_view pattern, int rank,
                            std::uint32_t line) {
  for (const Finding& f : r.findings)
    if (f.pattern == pattern && f.rank == rank && f.line == line) return &f;
  return nullptr;
}

TEST(Analyze, FindsEveryPatternAtItsLine) {
  const AnalysisResult r = analyze_all(every_pattern_trace());
  for (const ExpectedFinding& e : every_pattern_expected()) {
    const Finding* f = find_finding(r, e.pattern, e.rank, e.line);
    ASSERT_NE(f, nullptr) << e.pattern;
    EXPECT_NEAR(f->wait_time_s, e.wait_s, 1e-9) << e.pattern;
    EXPECT_EQ(f->file, kAppFile);
    EXPECT_EQ(f->function, "main");
    EXPECT_EQ(f->node, "node0");
    EXPECT_FALSE(f->comment.empty());
    EXPECT_FALSE(f->recommendation.empty());
  }
}

TEST(Analyze, FindingFieldsOfALateSender) {
  const AnalysisResult r = analyze_all(every_pattern_trace());
  const Finding* f = find_finding(r, "late_sender", 0, 10);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->mpi_function, "MPI_Recv");
  EXPECT_EQ(f->thread, 0);
  EXPECT_EQ(f->peers, std::vector<std::int32_t>{1});
  EXPECT_EQ(f->occurrences, 1u);
  EXPECT_DOUBLE_EQ(f->max_wait_s, f->wait_time_s);
  ASSERT_EQ(f->details.send_modes.size(), 1u);
  EXPECT_EQ(f->details.send_modes[0].first, "standard");
  ASSERT_EQ(f->top_instances.size(), 1u);
  EXPECT_NEAR(f->top_instances[0].time_s, 0.002, 1e-12);  // Enter of the receive
}

TEST(Analyze, FindingNamesThePeerThreadItWaitedFor) {
  // Rank 0 receives twice from rank 1 at line 7: once from its thread 1 (late by 400 ns), once
  // from its thread 0 (late by 100 ns). The finding names both threads of rank 1; the worst
  // instance names thread 1 alone.
  TraceBuilder b(2, 2);
  b.recv(b.call(0, "MPI_Recv", 100, 600, "/src/app.c", 7), 1, 1, 8);
  b.send(b.call(1, "MPI_Send", 500, 510, "/src/app.c", 20, /*thread*/ 1), 0, 1, 8);
  b.recv(b.call(0, "MPI_Recv", 700, 900, "/src/app.c", 7), 1, 0, 8);
  b.send(b.call(1, "MPI_Send", 800, 810, "/src/app.c", 21), 0, 0, 8);
  RuleOptions every_wait;
  every_wait.min_wait = 0;
  const AnalysisResult r = analyze_all(b.finish(), every_wait);
  const Finding* f = find_finding(r, "late_sender", 0, 7);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->peers, std::vector<std::int32_t>{1});
  EXPECT_EQ(f->peer_threads, (PeerThreads{{0, 1}}));
  ASSERT_EQ(f->top_instances.size(), 2u);
  EXPECT_EQ(f->top_instances[0].peer_threads, (PeerThreads{{1}}));
  EXPECT_EQ(f->top_instances[1].peer_threads, (PeerThreads{{0}}));
  EXPECT_NE(f->comment.find("Peer (late sender): rank 1 (threads 0 and 1)."), std::string::npos)
      << f->comment;
}

TEST(Analyze, EarlyWaitCarriesDistancesAndTheNonblockingCall) {
  const AnalysisResult r = analyze_all(every_pattern_trace());
  const Finding* f = find_finding(r, "early_wait", 2, 31);
  ASSERT_NE(f, nullptr);
  ASSERT_TRUE(f->details.related_call.has_value());
  EXPECT_EQ(f->details.related_call->function, "MPI_Irecv");
  EXPECT_EQ(f->details.related_call->line, 30u);
  ASSERT_TRUE(f->details.optimal_distance_s.has_value());
  // Peer started 5.9 ms after the Irecv, which took 10 µs; transfer 100 µs (14.9 → 15 ms).
  EXPECT_NEAR(*f->details.optimal_distance_s, 0.0059 + 0.00001 + 0.0001, 1e-9);
  EXPECT_NEAR(*f->details.current_distance_s, 0.00002, 1e-9);
  EXPECT_NE(f->recommendation.find("optimal distance"), std::string::npos);
}

TEST(Analyze, FindingsComeWorstFirst) {
  const AnalysisResult r = analyze_all(every_pattern_trace());
  ASSERT_FALSE(r.findings.empty());
  EXPECT_TRUE(std::is_sorted(
      r.findings.begin(), r.findings.end(),
      [](const Finding& a, const Finding& b) { return a.wait_time_s > b.wait_time_s; }));
}

TEST(Analyze, PatternTotalsAddUpTheFindings) {
  const AnalysisResult r = analyze_all(every_pattern_trace());
  ASSERT_EQ(r.summary.patterns.size(), pattern_catalog().size());
  std::uint64_t findings = 0;
  for (const PatternTotal& p : r.summary.patterns) {
    double wait = 0;
    for (const Finding& f : r.findings)
      if (f.pattern == p.pattern) wait += f.wait_time_s;
    EXPECT_NEAR(p.wait_time_s, wait, 1e-12) << p.pattern;
    EXPECT_NEAR(p.percent_of_total_time, 100 * wait / r.summary.total_time_s, 1e-9);
    findings += p.findings;
  }
  EXPECT_EQ(findings, r.findings.size());
  EXPECT_EQ(r.summary.findings, r.findings.size());
}

TEST(Analyze, InstancesBelowMinWaitAreHiddenAndCounted) {
  const Trace t = every_pattern_trace();
  const AnalysisResult r = analyze_all(t);
  // Rank 1's 1 MiB send waits 9 µs for rank 0's receive: below the default 10 µs.
  EXPECT_EQ(find_finding(r, "late_receiver", 1, 93), nullptr);
  EXPECT_GE(r.summary.instances_below_min_wait, 1u);
  RuleOptions keep_all;
  keep_all.min_wait = 0;
  const Finding* f = find_finding(analyze_all(t, keep_all), "late_receiver", 1, 93);
  ASSERT_NE(f, nullptr);
  EXPECT_NEAR(f->wait_time_s, 9e-6, 1e-12);
}

TEST(Analyze, RankTimesAndTraceMetadata) {
  const Trace t = every_pattern_trace();
  const AnalysisResult r = analyze_all(t);
  ASSERT_EQ(r.ranks.size(), 4u);
  EXPECT_EQ(r.ranks[2].rank, 2);
  EXPECT_EQ(r.ranks[2].threads, 1u);
  EXPECT_EQ(r.ranks[2].node, "node0");
  // Rank 2: Ssend 7 ms + Irecv 10 µs + Wait 5.98 ms + six collectives + shmem_set_lock and
  // shmem_clear_lock + two fences, window creation and free, MPI_Win_start, MPI_Put and
  // MPI_Win_complete + three UPC collectives and upc_all_alloc.
  const double collectives =
      (25.1 - 20) + (33.1 - 33) + (40.1 - 38) + (42.01 - 42) + (50.1 - 48) + (57.1 - 57);
  const double lock = (75.02 - 71) + (75.11 - 75.1);
  const double window = (88.1 - 85) + (91.1 - 90) + (93.1 - 93) + 0.01 + 0.1 + 0.1;
  const double upc = (101.1 - 100) + (103.1 - 103) + (104.2 - 104) + (107.1 - 106);
  EXPECT_NEAR(r.ranks[2].mpi_time_s, (7 + 0.01 + 5.98 + collectives + lock + window + upc) * 1e-3,
              1e-9);
  EXPECT_NEAR(r.ranks[2].time_s, (107.1 - 1) * 1e-3, 1e-9);
  EXPECT_EQ(r.trace.world_size, 4);
  EXPECT_EQ(r.trace.locations, 4u);
  EXPECT_EQ(r.trace.path, "synthetic");
  EXPECT_EQ(r.schema_version, kReportSchemaVersion);
  EXPECT_FALSE(r.tool_version.empty());
  EXPECT_EQ(r.summary.options.patterns.size(), pattern_catalog().size());
  EXPECT_FALSE(r.summary.options.eager_threshold_bytes.has_value());
  EXPECT_DOUBLE_EQ(r.summary.options.min_wait_s, 1e-5);
}

TEST(Analyze, UnmatchedDataIsReportedNotGuessed) {
  TraceBuilder b(2);
  b.recv(b.call(0, "MPI_Recv", 0, 1'000'000), 1, 0, 8);  // its send is missing
  b.collective(b.call(0, "MPI_Barrier", 2'000'000, 9'000'000), CollOp::Barrier);
  const AnalysisResult r = analyze_all(b.finish());
  EXPECT_TRUE(r.findings.empty());
  EXPECT_EQ(r.summary.matching.unmatched_receives, 1u);
  EXPECT_EQ(r.summary.matching.incomplete_collectives, 1u);
  EXPECT_EQ(r.summary.warnings.size(), 2u);
}

TEST(Analyze, EmptyTraceGivesAnEmptyResult) {
  const Trace empty = TraceBuilder(2).finish();
  const AnalysisResult r = analyze_all(empty);
  EXPECT_TRUE(r.findings.empty());
  EXPECT_EQ(r.ranks.size(), 2u);
  EXPECT_EQ(r.summary.total_time_s, 0);
  for (const PatternTotal& p : r.summary.patterns) EXPECT_EQ(p.percent_of_total_time, 0);
}

TEST(Analyze, OnlySelectedPatternsAreTotalled) {
  const Trace t = every_pattern_trace();
  const AnalysisResult r =
      analyze_trace(t, match_trace(t), {{}, select_patterns("early_scan,late_sender")});
  ASSERT_EQ(r.summary.patterns.size(), 2u);
  for (const Finding& f : r.findings)
    EXPECT_TRUE(f.pattern == "late_sender" || f.pattern == "early_scan");
}

// The owner of a trace may free its op details and the matching once only the root-cause
// analysis is left (as the analyzer does unless a report draws the trace): the report is the
// same without them.
TEST(Analyze, ReleasingTheOpDetailsBeforeTheRootCausesChangesNothing) {
  const AnalysisSettings settings{{}, select_patterns("all")};
  const Trace original = every_pattern_trace();
  std::ostringstream expected;
  write_json_report(analyze_trace(original, match_trace(original), settings), expected);

  Trace trace = original;
  Matching matching = match_trace(trace);
  std::vector<RootCauseStage> releases;
  const AnalysisResult r = analyze_trace(trace, matching, settings, [&](RootCauseStage stage) {
    releases.push_back(stage);
    release_details_for_root_causes(trace, matching, stage);
    if (stage != RootCauseStage::BeforePreparing) return;
    // What preparing reads is still there.
    EXPECT_TRUE(trace.locations[0].op_time_offset.empty());
    EXPECT_EQ(trace.locations[0].op_call, original.locations[0].op_call);
    EXPECT_TRUE(matching.message_of_op.empty());
    EXPECT_FALSE(matching.messages.empty());
  });
  EXPECT_EQ(releases, (std::vector<RootCauseStage>{RootCauseStage::BeforePreparing,
                                                   RootCauseStage::AfterPreparing}));
  EXPECT_TRUE(trace.locations[0].op_call.empty());
  EXPECT_TRUE(matching.messages.empty());
  EXPECT_EQ(trace.locations[0].op_kind, original.locations[0].op_kind);
  ASSERT_TRUE(r.causes.has_value());
  EXPECT_GT(r.causes->critical_path.length_s, 0);
  EXPECT_GT(r.causes->delay.waits, 0u);
  std::ostringstream released;
  write_json_report(r, released);
  EXPECT_EQ(released.str(), expected.str());
}

// Counts what a rule finds.
struct CountingSink : InstanceSink {
  std::size_t found = 0;
  void add(const Instance&) override { ++found; }
};

std::size_t instances_found(const Trace& trace, const Pattern& p,
                            OpKindSet present = OpKindSet::all()) {
  const Matching m = match_trace(trace);
  const RuleOptions options;
  CountingSink sink;
  const Pattern* const patterns[] = {&p};
  run_patterns({trace, m, options, nullptr, present}, patterns, sink);
  return sink.found;
}

TEST(OpKinds, OfATraceAreTheKindsOfItsOps) {
  const Trace t = every_pattern_trace();
  const OpKindSet present = op_kinds_in(t);
  EXPECT_TRUE(present.intersects({OpKind::Send}));
  EXPECT_TRUE(present.intersects({OpKind::RmaGroupSync}));
  Trace only_first = t;
  for (Location& l : only_first.locations) l.op_kind.assign(l.op_kind.size(), OpKind::Recv);
  EXPECT_EQ(op_kinds_in(only_first), OpKindSet({OpKind::Recv}));
  EXPECT_FALSE(op_kinds_in(only_first).intersects({OpKind::Send, OpKind::RmaSync}));
  EXPECT_TRUE(OpKindSet{}.empty());
  EXPECT_TRUE(OpKindSet::all().intersects({OpKind::RmaGroupSync}));
}

// A rule that declares the op kinds it needs is skipped on traces without them: declared
// right, it finds nothing there anyway. Each such rule finds its instance in the
// every-pattern trace, and nothing once every op of the kinds it needs is turned into a
// failed lock attempt (a kind none of them reads); the run_patterns gate skips it when the
// kinds present lack its needs, and runs it when they have them.
TEST(OpKinds, ARuleFindsNothingWithoutTheOpKindsItNeeds) {
  const Trace t = every_pattern_trace();
  std::size_t gated = 0;
  for (const Pattern* p : pattern_catalog()) {
    if (p->needs.empty()) continue;
    ++gated;
    EXPECT_GT(instances_found(t, *p), 0u) << p->id;
    EXPECT_GT(instances_found(t, *p, op_kinds_in(t)), 0u) << p->id;
    EXPECT_EQ(instances_found(t, *p, OpKindSet{OpKind::Send, OpKind::Recv}), 0u) << p->id;
    Trace without = t;
    for (Location& l : without.locations)
      for (OpKind& k : l.op_kind)
        if (p->needs.intersects({k})) k = OpKind::RmaLockTry;
    EXPECT_FALSE(op_kinds_in(without).intersects(p->needs)) << p->id;
    EXPECT_EQ(instances_found(without, *p), 0u) << p->id;
  }
  // The one-sided rules of OpenSHMEM, UPC and MPI windows: a two-sided trace skips them.
  EXPECT_EQ(gated, 7u);
  EXPECT_FALSE(kLateSender.needs.intersects(OpKindSet::all()));
}

}  // namespace
}  // namespace collwrap::testing
