// read_trace() on archives written by the test itself.
#include "trace_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "example_archive.h"
#include "matching.h"
#include "scratch_directory.h"
#include "synthetic_archive.h"

namespace collwrap {
namespace {

using testing::ExampleArchive;
using testing::LocationStream;
using testing::ScratchDirectory;
using testing::SyntheticArchive;

std::uint32_t region_index(const Trace& t, const std::string& name) {
  for (std::uint32_t i = 0; i < t.regions.size(); ++i)
    if (t.regions[i].name == name) return i;
  return kNone;
}

std::uint32_t comm_index(const Trace& t, const std::string& name) {
  for (std::uint32_t i = 0; i < t.comms.size(); ++i)
    if (t.comms[i].name == name) return i;
  return kNone;
}

class ExampleTrace : public ::testing::Test {
 protected:
  ScratchDirectory dir;
  ExampleArchive example;
  Trace read(const ReadOptions& options = {}) {
    return read_trace(example.write(dir / "archive"), options);
  }
};

TEST_F(ExampleTrace, DefinitionsBecomeTheTraceTables) {
  const Trace t = read();
  EXPECT_EQ(t.program, "example");
  EXPECT_EQ(t.world_size, 3);
  ASSERT_EQ(t.locations.size(), 3u);
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(t.locations[r].rank, r);
    EXPECT_EQ(t.locations[r].thread, 0);
    EXPECT_EQ(t.locations[r].otf2_id, static_cast<std::uint64_t>(r));
    EXPECT_EQ(t.rank_main_location[r], static_cast<std::uint32_t>(r));
  }
  ASSERT_EQ(t.nodes.size(), 2u);
  EXPECT_EQ(t.nodes[t.locations[0].node], "node0");
  EXPECT_EQ(t.nodes[t.locations[1].node], "node0");
  EXPECT_EQ(t.nodes[t.locations[2].node], "node1");

  const std::uint32_t send = region_index(t, "MPI_Send");
  ASSERT_NE(send, kNone);
  EXPECT_EQ(t.regions[send].cls, RegionClass::BlockingSend);
  EXPECT_EQ(t.regions[send].mode, SendMode::Standard);

  const std::uint32_t pair = comm_index(t, "pair");
  ASSERT_NE(pair, kNone);
  EXPECT_EQ(t.comms[pair].world_ranks, (std::vector<std::int32_t>{2, 1}));
  EXPECT_TRUE(t.warnings.messages.empty()) << t.warnings.messages.front();
}

TEST_F(ExampleTrace, EventsBecomeCallsAndOps) {
  const Trace t = read();
  const Location& r0 = t.locations[0];
  ASSERT_EQ(r0.calls(), 4u);  // Init, Send, Barrier, Finalize
  EXPECT_EQ(t.regions[r0.call_region[0]].cls, RegionClass::Init);
  EXPECT_EQ(t.regions[r0.call_region[1]].name, "MPI_Send");
  ASSERT_EQ(r0.ops(), 2u);  // MpiSend, MpiCollectiveEnd (MpiCollectiveBegin is not stored)
  EXPECT_EQ(r0.op_kind[0], OpKind::Send);
  EXPECT_EQ(r0.op_call[0], 1u);
  EXPECT_EQ(r0.op_peer[0], 1);
  EXPECT_EQ(r0.op_tag[0], 5);
  EXPECT_EQ(r0.bytes_sent(0), 8u);
  EXPECT_EQ(r0.op_kind[1], OpKind::CollectiveEnd);
  EXPECT_EQ(r0.op_coll[1], CollOp::Barrier);
  EXPECT_EQ(r0.op_peer[1], kNoWorldRank);
  EXPECT_EQ(r0.call_first_op, (std::vector<std::uint32_t>{0, 0, 1, 2, 2}));

  const CallSite& site = t.callsites.at(r0.call_callsite[1]);
  EXPECT_EQ(site.file, "/src/app.c");
  EXPECT_EQ(site.line, 20u);
  EXPECT_EQ(site.function, "exchange");

  // Rank 1's second receive is on "pair": its sender, rank 0 there, is world rank 2.
  const Location& r1 = t.locations[1];
  ASSERT_GE(r1.ops(), 2u);
  EXPECT_EQ(r1.op_kind[1], OpKind::Recv);
  EXPECT_EQ(r1.op_comm[1], comm_index(t, "pair"));
  EXPECT_EQ(r1.op_peer[1], 2);

  // 3 ranks × (Init 2 + Barrier 4 + Finalize 2) + send 3 + 2 receives 6 + send 3
  EXPECT_EQ(t.event_count, 3u * 8 + 12);
}

TEST_F(ExampleTrace, TimesAreNanosecondsFromTheFirstEvent) {
  const Trace t = read();
  EXPECT_EQ(t.begin, 0);
  const Location& r0 = t.locations[0];
  EXPECT_EQ(r0.call_enter[0], 0);  // MPI_Init: the trace's first event
  EXPECT_EQ(r0.call_enter[1], 10100 - 1000);
  EXPECT_EQ(r0.op_time(0), 10110 - 1000);
  EXPECT_EQ(t.end, static_cast<TimeNs>(example.end_ticks() - 1000));
}

TEST_F(ExampleTrace, TimerTicksAreConvertedToNanoseconds) {
  example.timer_resolution = 1'000'000;  // microsecond ticks
  const Trace t = read();
  EXPECT_EQ(t.locations[0].call_enter[1], (10100 - 1000) * 1000);
}

TEST_F(ExampleTrace, ClockOffsetsAreAppliedAndInterpolated) {
  example.rank1_offset_at_start = 500;
  example.rank1_offset_at_end = 500 + static_cast<std::int64_t>(example.end_ticks());  // drift 1
  const Trace t = read();
  // Rank 1's MPI_Recv enters at local tick 10050: offset 500 + 10050 (linear between the two
  // measurements), so 10050 + 10550 on the global clock.
  EXPECT_EQ(t.locations[1].call_enter[1], 10050 + 10550 - 1000);
  EXPECT_EQ(t.locations[0].call_enter[1], 10100 - 1000);  // rank 0 has no offset
}

TEST_F(ExampleTrace, ClockQualityFigures) {
  const Trace t = read();
  EXPECT_EQ(t.clock.offsets_per_location_min, 2u);
  EXPECT_DOUBLE_EQ(t.clock.max_offset_stddev_s, 4.0 / 1e9);  // ticks → seconds
}

TEST_F(ExampleTrace, ReadTraceThenMatch) {
  example.iterations = 5;
  const Trace t = read();
  const Matching m = match_trace(t);
  EXPECT_EQ(m.counts.messages, 10u);
  EXPECT_EQ(m.collectives.size(), 5u);
  EXPECT_EQ(m.counts.incomplete_collectives, 0u);
  EXPECT_EQ(m.counts.unmatched_sends + m.counts.unmatched_receives + m.counts.invalid_ops, 0u);
  EXPECT_EQ(m.counts.clock_violations, 0u);
}

// Every column of a location as bytes (for_each_call_column, for_each_op_column), so that a
// column added to the model is compared too.
std::vector<std::string> column_bytes(const Location& l) {
  std::vector<std::string> columns;
  const auto add = [&](const auto& column) {
    columns.emplace_back(reinterpret_cast<const char*>(column.data()),
                         column.size() * sizeof(column[0]));
  };
  for_each_call_column(l, add);
  for_each_op_column(l, add);
  return columns;
}

bool same_events(const Location& a, const Location& b) {
  return a.rank == b.rank && a.thread == b.thread && column_bytes(a) == column_bytes(b);
}

TEST_F(ExampleTrace, ThreadCountDoesNotChangeTheResult) {
  example.iterations = 2000;
  const std::string anchor = example.write(dir / "archive");
  const Trace serial = read_trace(anchor, {.threads = 1});
  for (unsigned threads : {2u, 3u, 8u}) {
    const Trace parallel = read_trace(anchor, {.threads = threads});
    ASSERT_EQ(parallel.locations.size(), serial.locations.size());
    for (std::size_t i = 0; i < serial.locations.size(); ++i)
      EXPECT_TRUE(same_events(serial.locations[i], parallel.locations[i]))
          << "location " << i << " with " << threads << " threads";
    EXPECT_EQ(parallel.event_count, serial.event_count);
  }
}

TEST_F(ExampleTrace, TheArchiveDirectoryWorksAsWellAsTheAnchor) {
  example.write(dir / "archive");
  EXPECT_EQ(read_trace(dir / "archive").locations.size(), 3u);
}

TEST(TraceReader, ThreadsOfARankAreNumberedFromTheMainThread) {
  ScratchDirectory dir;
  SyntheticArchive a(dir / "archive", {.ranks = 2, .threads_per_rank = 3});
  const auto barrier = a.region("MPI_Barrier");
  for (int r = 0; r < 2; ++r) {
    for (int th = 0; th < 3; ++th) {
      a.location(r, th).enter(100 * th, barrier);
      a.location(r, th).leave(100 * th + 50, barrier);
    }
  }
  a.close();
  const Trace t = read_trace(a.anchor());
  ASSERT_EQ(t.locations.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(t.locations[i].rank, static_cast<std::int32_t>(i / 3));
    EXPECT_EQ(t.locations[i].thread, static_cast<std::int32_t>(i % 3));
    EXPECT_EQ(t.locations[i].otf2_id, SyntheticArchive::location_id(i / 3, i % 3));
    EXPECT_EQ(t.locations[i].call_enter.at(0), static_cast<TimeNs>(100 * (i % 3)));
  }
  EXPECT_EQ(t.rank_main_location, (std::vector<std::uint32_t>{0, 3}));
}

TEST(TraceReader, OnlyTheOutermostMpiRegionIsACall) {
  ScratchDirectory dir;
  SyntheticArchive a(dir / "archive", {.ranks = 1});
  const auto waitall = a.region("MPI_Waitall");
  const auto wait = a.region("MPI_Wait");
  auto& s = a.location(0);
  s.enter(0, waitall);
  s.enter(10, wait);  // a tool that also records the calls MPI makes internally
  s.isend_complete(15, 1);
  s.leave(20, wait);
  s.irecv_request(25, 2);
  s.leave(30, waitall);
  a.close();
  const Trace t = read_trace(a.anchor());
  const Location& l = t.locations[0];
  ASSERT_EQ(l.calls(), 1u);
  EXPECT_EQ(l.call_leave[0], 30);
  EXPECT_EQ(l.op_call, (std::vector<std::uint32_t>{0, 0}));
  EXPECT_TRUE(t.warnings.messages.empty());
}

// The tracer writes an Enter's CallSite attribute only when the region's call site changes.
TEST(TraceReader, AnEnterWithoutCallSiteHasThePreviousCallSiteOfItsRegion) {
  ScratchDirectory dir;
  SyntheticArchive a(dir / "archive", {.ranks = 2});
  const auto send = a.region("MPI_Send");
  const auto recv = a.region("MPI_Recv");
  const auto line10 = a.call_site("/src/app.c", 10, "main");
  const auto line20 = a.call_site("/src/app.c", 20, "main");
  auto call = [](LocationStream& s, std::uint64_t t, std::uint32_t region,
                 std::uint32_t site = OTF2_UNDEFINED_UINT32) {
    s.enter(t, region, site);
    s.leave(t + 5, region);
  };
  auto& r0 = a.location(0);
  call(r0, 0, send, line10);
  call(r0, 10, send);  // line 10 again
  call(r0, 20, recv);  // no Recv before it: no call site
  call(r0, 30, send, line20);
  call(r0, 40, send);  // line 20 now
  call(r0, 50, recv, line10);
  call(r0, 60, recv);
  call(a.location(1), 0, send);  // another location starts without call sites
  a.close();
  const Trace t = read_trace(a.anchor());
  auto lines = [&](const Location& l) {
    std::vector<std::uint32_t> out;
    for (std::uint32_t site : l.call_callsite)
      out.push_back(site == kNone ? 0 : t.callsites[site].line);
    return out;
  };
  EXPECT_EQ(lines(t.locations[0]), (std::vector<std::uint32_t>{10, 10, 0, 20, 20, 10, 10}));
  EXPECT_EQ(lines(t.locations[1]), (std::vector<std::uint32_t>{0}));
}

TEST(TraceReader, UnclosedCallsAndOpsOutsideCallsAreReported) {
  ScratchDirectory dir;
  SyntheticArchive a(dir / "archive", {.ranks = 2});
  const auto recv = a.region("MPI_Recv");
  a.location(0).send(5, 1, a.world(), 0, 8);  // outside any call
  a.location(0).enter(10, recv);
  a.location(0).collective_begin(20);  // the last timestamp
  a.location(1).enter(10, recv);
  a.location(1).leave(90, recv);
  a.close();
  const Trace t = read_trace(a.anchor());
  EXPECT_EQ(t.warnings.unclosed_calls, 1u);
  EXPECT_EQ(t.warnings.orphan_ops, 1u);
  EXPECT_EQ(t.locations[0].ops(), 0u);
  ASSERT_EQ(t.locations[0].calls(), 1u);
  EXPECT_EQ(t.locations[0].call_leave[0], t.locations[0].call_enter[0] + 10);  // last timestamp
  const auto& msgs = t.warnings.messages;
  EXPECT_TRUE(std::any_of(msgs.begin(), msgs.end(), [](const std::string& m) {
    return m.find("rank 0 thread 0") != std::string::npos &&
           m.find("ends inside MPI_Recv") != std::string::npos;
  }));
}

// A tracer on MPI's profiling interface records no MPI call inside another: a stream that ends
// inside an MPI call holding others lost that call's Leave. The call ends where the next
// begins, rather than holding every later call of the stream.
TEST(TraceReader, AnMpiCallThatNeverEndsAroundOthersLostItsLeave) {
  ScratchDirectory dir;
  SyntheticArchive a(dir / "archive", {.ranks = 2});
  const auto init = a.region("MPI_Init");
  const auto barrier = a.region("MPI_Barrier");
  LocationStream& r0 = a.location(0);
  r0.enter(10, init);  // its Leave lost
  for (std::uint64_t t = 100; t < 400; t += 100) {
    r0.enter(t, barrier);
    r0.collective_begin(t);
    r0.collective_end(t + 50, OTF2_COLLECTIVE_OP_BARRIER, a.world(), OTF2_UNDEFINED_UINT32, 0, 0);
    r0.leave(t + 50, barrier);
  }
  r0.enter(500, barrier);  // the stream ends inside this one
  a.location(1).enter(10, init);
  a.location(1).leave(20, init);
  a.close();
  const Trace t = read_trace(a.anchor());
  const Location& l = t.locations[0];
  ASSERT_EQ(l.calls(), 5u);
  EXPECT_EQ(l.call_leave[0] - l.call_enter[0], 90) << "MPI_Init ends at the next Enter";
  for (std::uint32_t c = 1; c < 4; ++c) {
    EXPECT_EQ(l.call_leave[c] - l.call_enter[c], 50);
    ASSERT_EQ(l.call_first_op[c + 1] - l.call_first_op[c], 1u) << "each barrier its own op";
    EXPECT_EQ(l.op_call[l.call_first_op[c]], c);
    EXPECT_EQ(l.op_time(l.call_first_op[c]), l.call_enter[c] + 50);
  }
  EXPECT_EQ(l.call_leave[4], l.call_enter[4]) << "closed at the last timestamp";
  EXPECT_EQ(t.warnings.unclosed_calls, 1u);
  const auto mentions = [&](const std::string& text) {
    return std::any_of(t.warnings.messages.begin(), t.warnings.messages.end(),
                       [&](const std::string& m) { return m.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(mentions("rank 0 thread 0: MPI_Init has no Leave"));
  EXPECT_TRUE(mentions("the 4 calls after it are calls of their own"));
  EXPECT_TRUE(mentions("ends inside MPI_Barrier"));
}

}  // namespace
}  // namespace collwrap
