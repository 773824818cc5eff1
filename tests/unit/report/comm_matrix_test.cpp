// The communication matrix counts matched messages per sender × receiver and their transfer
// times (receive completion − send start, never negative); the CSV carries the same numbers.
#include "comm_matrix.h"

#include <gtest/gtest.h>

#include <sstream>

#include "matrix_csv.h"
#include "trace_builder.h"

namespace collwrap::testing {
namespace {

// Rank 1 sends three messages to rank 0 (transfers 400, 100 and 1000 ns; the second receive
// ends before its send starts, as a clock error would make it, and counts as 0) and one to
// rank 2 through MPI_Isend … MPI_Wait / MPI_Irecv … MPI_Wait.
Trace three_rank_trace() {
  TraceBuilder b(3);
  b.send(b.call(1, "MPI_Send", 100, 200), 0, 0, 8);
  b.recv(b.call(0, "MPI_Recv", 50, 500), 1, 0, 8);
  b.send(b.call(1, "MPI_Send", 1000, 1100), 0, 0, 16);
  b.recv(b.call(0, "MPI_Recv", 600, 900), 1, 0, 16);
  b.send(b.call(1, "MPI_Send", 2000, 2100), 0, 0, 32);
  b.recv(b.call(0, "MPI_Recv", 1000, 3000), 1, 0, 32);
  b.isend(b.call(1, "MPI_Isend", 3000, 3010), 2, 5, 1024, 77);
  b.isend_complete(b.call(1, "MPI_Wait", 3020, 3100), 77);
  b.irecv_request(b.call(2, "MPI_Irecv", 2900, 2910), 88);
  b.irecv(b.call(2, "MPI_Wait", 2920, 3500), 1, 5, 1024, 88);
  return b.finish();
}

TEST(CommMatrix, CountsBytesAndTransferTimesPerPair) {
  const Trace t = three_rank_trace();
  const std::vector<CommPair> m = communication_matrix(t, match_trace(t));
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].sender, 1);
  EXPECT_EQ(m[0].receiver, 0);
  EXPECT_EQ(m[0].messages, 3u);
  EXPECT_EQ(m[0].bytes, 56u);
  // Transfers 400 ns, max(0, 900 − 1000) = 0 ns, 1000 ns.
  EXPECT_DOUBLE_EQ(m[0].transfer_min_s, 0);
  EXPECT_DOUBLE_EQ(m[0].transfer_median_s, 400e-9);
  EXPECT_DOUBLE_EQ(m[0].transfer_max_s, 1000e-9);
  EXPECT_NEAR(m[0].transfer_mean_s, 1400e-9 / 3, 1e-15);
  EXPECT_NEAR(m[0].transfer_stddev_s, 410.960933531265e-9, 1e-15);

  // Isend enter 3000 → Wait completing the Irecv leaves at 3500.
  EXPECT_EQ(m[1].sender, 1);
  EXPECT_EQ(m[1].receiver, 2);
  EXPECT_EQ(m[1].messages, 1u);
  EXPECT_EQ(m[1].bytes, 1024u);
  EXPECT_DOUBLE_EQ(m[1].transfer_median_s, 500e-9);
  EXPECT_DOUBLE_EQ(m[1].transfer_stddev_s, 0);
}

TEST(CommMatrix, EvenCountMedianIsTheMeanOfTheMiddleTwo) {
  TraceBuilder b(2);
  b.send(b.call(0, "MPI_Send", 0, 10), 1, 0, 1);
  b.recv(b.call(1, "MPI_Recv", 0, 100), 0, 0, 1);
  b.send(b.call(0, "MPI_Send", 200, 210), 1, 0, 1);
  b.recv(b.call(1, "MPI_Recv", 150, 500), 0, 0, 1);
  const Trace t = b.finish();
  const std::vector<CommPair> m = communication_matrix(t, match_trace(t));
  ASSERT_EQ(m.size(), 1u);
  EXPECT_DOUBLE_EQ(m[0].transfer_median_s, 200e-9);  // (100 + 300) / 2
}

TEST(MatrixCsv, HeaderAndOneRowPerPair) {
  const Trace t = three_rank_trace();
  AnalysisResult r;
  r.communication = communication_matrix(t, match_trace(t));
  std::ostringstream out;
  write_matrix_csv(r, out);
  EXPECT_EQ(out.str(),
            "sender,receiver,messages,bytes,transfer_min_s,transfer_median_s,transfer_mean_s,"
            "transfer_max_s,transfer_stddev_s\n"
            "1,0,3,56,0,4e-07,4.66666666667e-07,1e-06,4.10960933531e-07\n"
            "1,2,1,1024,5e-07,5e-07,5e-07,5e-07,0\n");
}

}  // namespace
}  // namespace collwrap::testing

namespace collwrap::testing {
namespace {

// One-sided transfers count in the direction the data moved, with their call's duration.
TEST(CommMatrix, OneSidedTransfersInTheirDataDirection) {
  TraceBuilder b(3);
  b.put(b.call(0, "shmem_putmem", 100, 300), 1, 1024);
  b.put(b.call(0, "shmem_long_p", 400, 410), 1, 8);
  b.get(b.call(2, "shmem_getmem", 500, 900), 1, 64);                        // PE 1 → PE 2
  b.atomic(b.call(2, "shmem_long_atomic_fetch_add", 1000, 1050), 0, 8, 8);  // both ways
  const Trace t = b.finish();
  const std::vector<CommPair> m = communication_matrix(t, match_trace(t));
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(std::make_pair(m[0].sender, m[0].receiver), std::make_pair(0, 1));
  EXPECT_EQ(m[0].messages, 2u);
  EXPECT_EQ(m[0].bytes, 1032u);
  EXPECT_DOUBLE_EQ(m[0].transfer_max_s, 200e-9);
  EXPECT_EQ(std::make_pair(m[1].sender, m[1].receiver), std::make_pair(0, 2));  // atomic result
  EXPECT_EQ(m[1].bytes, 8u);
  EXPECT_EQ(std::make_pair(m[2].sender, m[2].receiver), std::make_pair(1, 2));  // the get
  EXPECT_EQ(m[2].bytes, 64u);
  EXPECT_DOUBLE_EQ(m[2].transfer_min_s, 400e-9);
  EXPECT_EQ(std::make_pair(m[3].sender, m[3].receiver), std::make_pair(2, 0));  // atomic operand
  EXPECT_EQ(m[3].bytes, 8u);
}

}  // namespace
}  // namespace collwrap::testing

namespace collwrap::testing {
namespace {

// A hybrid program: a message and a put from rank 0 to rank 1 fill one cell.
TEST(CommMatrix, MessagesAndOneSidedTransfersShareTheirPairsCell) {
  TraceBuilder b(2);
  b.send(b.call(0, "MPI_Send", 0, 10), 1, 0, 100);
  b.recv(b.call(1, "MPI_Recv", 0, 300), 0, 0, 100);
  b.put(b.call(0, "shmem_putmem", 400, 500), 1, 1000);
  const Trace t = b.finish();
  const std::vector<CommPair> m = communication_matrix(t, match_trace(t));
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].messages, 2u);
  EXPECT_EQ(m[0].bytes, 1100u);
  EXPECT_DOUBLE_EQ(m[0].transfer_min_s, 100e-9);  // the put's call
  EXPECT_DOUBLE_EQ(m[0].transfer_max_s, 300e-9);  // Enter(send) → Leave(recv)
}

}  // namespace
}  // namespace collwrap::testing
