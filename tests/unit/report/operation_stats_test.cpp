// MPI time per function and size bucket: buckets are powers of 4, each call counted once, the
// shares add up to the MPI time; the summary lists the largest first.
#include "operation_stats.h"

#include <gtest/gtest.h>

#include <sstream>

#include "terminal_summary.h"
#include "trace_builder.h"

namespace collwrap::testing {
namespace {

TEST(SizeBucket, PowersOfFour) {
  EXPECT_EQ(size_bucket(0), std::make_pair(std::uint64_t{0}, std::uint64_t{0}));
  EXPECT_EQ(size_bucket(1), std::make_pair(std::uint64_t{1}, std::uint64_t{3}));
  EXPECT_EQ(size_bucket(3), std::make_pair(std::uint64_t{1}, std::uint64_t{3}));
  EXPECT_EQ(size_bucket(4), std::make_pair(std::uint64_t{4}, std::uint64_t{15}));
  EXPECT_EQ(size_bucket(15), std::make_pair(std::uint64_t{4}, std::uint64_t{15}));
  EXPECT_EQ(size_bucket(16), std::make_pair(std::uint64_t{16}, std::uint64_t{63}));
  EXPECT_EQ(size_bucket(1000), std::make_pair(std::uint64_t{256}, std::uint64_t{1023}));
  EXPECT_EQ(size_bucket(1024), std::make_pair(std::uint64_t{1024}, std::uint64_t{4095}));
}

Trace sends_and_barrier() {
  TraceBuilder b(2);
  b.send(b.call(0, "MPI_Send", 0, 100), 1, 0, 8);       // 4-15 B, 100 ns
  b.send(b.call(0, "MPI_Send", 200, 500), 1, 0, 12);    // 4-15 B, 300 ns
  b.send(b.call(0, "MPI_Send", 600, 650), 1, 0, 4096);  // 4096-16383 B, 50 ns
  b.recv(b.call(1, "MPI_Recv", 0, 150), 0, 0, 8);
  b.recv(b.call(1, "MPI_Recv", 160, 520), 0, 0, 12);
  b.recv(b.call(1, "MPI_Recv", 530, 700), 0, 0, 4096);
  b.collective(b.call(0, "MPI_Barrier", 1000, 2000), CollOp::Barrier);  // no data, 1000 ns
  b.collective(b.call(1, "MPI_Barrier", 1900, 2000), CollOp::Barrier);  // no data, 100 ns
  return b.finish();
}

TEST(OperationStats, PerFunctionAndBucketLargestFirst) {
  const std::vector<OperationStats> s = operation_stats(sends_and_barrier());
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[0].function, "MPI_Barrier");
  EXPECT_EQ(s[0].bytes_max, 0u);
  EXPECT_EQ(s[0].count, 2u);
  EXPECT_DOUBLE_EQ(s[0].total_s, 1100e-9);
  EXPECT_DOUBLE_EQ(s[0].mean_s, 550e-9);
  EXPECT_DOUBLE_EQ(s[0].min_s, 100e-9);
  EXPECT_DOUBLE_EQ(s[0].max_s, 1000e-9);
  EXPECT_EQ(s[1].function, "MPI_Recv");  // 150 + 360 ns in 4-15 B
  EXPECT_EQ(s[1].bytes_min, 4u);
  EXPECT_EQ(s[1].count, 2u);
  EXPECT_EQ(s[2].function, "MPI_Send");  // 100 + 300 ns in 4-15 B
  EXPECT_EQ(s[2].bytes_max, 15u);
  EXPECT_DOUBLE_EQ(s[2].total_s, 400e-9);
  double percent = 0;
  for (const OperationStats& o : s) percent += o.percent_of_mpi_time;
  EXPECT_NEAR(percent, 100, 1e-9);
  EXPECT_NEAR(s[0].percent_of_mpi_time, 100.0 * 1100 / 2230, 1e-9);
}

TEST(OperationStats, SummaryListsTheTopOperations) {
  AnalysisResult r;
  r.operations = operation_stats(sends_and_barrier());
  std::ostringstream out;
  write_terminal_summary(r, {.top = 2}, out);
  const std::string s = out.str();
  EXPECT_NE(s.find("MPI time per operation and message size (top 2)"), std::string::npos) << s;
  EXPECT_NE(s.find("MPI_Barrier"), std::string::npos);
  EXPECT_NE(s.find("4-15 B"), std::string::npos);
  EXPECT_EQ(s.find("4096-16383 B"), std::string::npos);  // third or later: not listed
}

// Calls of 2^62 ns on 4 ranks: their sum does not fit a TimeNs. It saturates instead of
// wrapping around to a negative total (and UndefinedBehaviorSanitizer stopping the analyzer).
TEST(OperationStats, HugeDurationsDoNotOverflowTheTotals) {
  constexpr TimeNs kHuge = TimeNs{1} << 62;
  TraceBuilder b(4);
  for (int rank = 0; rank < 4; ++rank)
    b.collective(b.call(rank, "MPI_Barrier", 0, kHuge), CollOp::Barrier);
  const std::vector<OperationStats> s = operation_stats(b.finish());
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].count, 4u);
  EXPECT_GT(s[0].total_s, 0);
  EXPECT_GE(s[0].max_s, 4.6e9);
  EXPECT_DOUBLE_EQ(s[0].percent_of_mpi_time, 100.0);
}

}  // namespace
}  // namespace collwrap::testing
