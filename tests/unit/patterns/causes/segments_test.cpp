// Compute segments are identified by the call sites around them, the same on every rank.
#include <gtest/gtest.h>

#include "critical_path_share.h"
#include "synthetic_runs.h"

namespace collwrap::testing {
namespace {

TEST(Segments, SameCallSitesAroundThemGiveTheSameType) {
  const TracedRun run(delay_chain());
  const SegmentTypes types = segment_types(run.trace, run.graph);
  const auto type = [&](std::uint32_t loc, std::uint32_t call) {
    return types.type_of_call[run.graph.global(loc, call)];
  };
  // Before MPI_Init everywhere; Init → Recv on ranks 1 and 2; Init → Send on rank 0 only.
  EXPECT_EQ(type(0, 0), type(1, 0));
  EXPECT_EQ(type(1, 1), type(2, 1));
  EXPECT_NE(type(0, 1), type(1, 1));
  // Recv → Send (rank 1) differs from Init → Send (rank 0): the start counts too.
  EXPECT_NE(type(1, 2), type(0, 1));
  // start→Init, Init→Send, Send→Finalize, Init→Recv, Recv→Send, Recv→Finalize
  EXPECT_EQ(types.types(), 6u);
}

TEST(Segments, AreNamedByTheCallThatEndsThemAndTheOneThatStartsThem) {
  const TracedRun run(delay_chain());
  const SegmentTypes types = segment_types(run.trace, run.graph);
  const SegmentDescription d =
      describe_segment(run.trace, types, types.type_of_call[run.graph.global(0, 1)]);
  EXPECT_EQ(d.file, "sync.c");
  EXPECT_EQ(d.line, 20u);
  EXPECT_EQ(d.mpi_function, "MPI_Send");
  EXPECT_EQ(d.start_line, 1u);
  EXPECT_EQ(d.start_mpi_function, "MPI_Init");
  const SegmentDescription first =
      describe_segment(run.trace, types, types.type_of_call[run.graph.global(0, 0)]);
  EXPECT_EQ(first.start_mpi_function, "start");
}

TEST(Segments, WithoutACallSiteTheMpiFunctionNamesTheEnd) {
  TraceBuilder b(1);
  b.call(0, "MPI_Init", 0, 10, "", 0);
  b.call(0, "MPI_Barrier", 20, 30, "", 0);
  const TracedRun run(b.finish());
  const SegmentTypes types = segment_types(run.trace, run.graph);
  const SegmentDescription d =
      describe_segment(run.trace, types, types.type_of_call[run.graph.global(0, 1)]);
  EXPECT_TRUE(d.file.empty());
  EXPECT_EQ(d.mpi_function, "MPI_Barrier");
  EXPECT_EQ(d.start_mpi_function, "MPI_Init");
}

}  // namespace
}  // namespace collwrap::testing
