// Byte counts of ops: the bytes sent in 32 bits with the rare wider counts apart, and the bytes
// received of their own, kept only for the ops that have any.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "scratch_directory.h"
#include "synthetic_archive.h"
#include "trace_builder.h"
#include "trace_reader.h"

namespace collwrap::testing {
namespace {

TEST(SparseOpBytes, KeepsOnlyNonzeroFiguresAndFindsThemByOp) {
  SparseOpBytes r;
  r.append(2, 64);
  r.append(5, 0);  // not kept
  r.append(9, std::uint64_t{1} << 40);
  EXPECT_EQ(r.ops, (std::vector<std::uint32_t>{2, 9}));
  EXPECT_EQ(r.of(2, 12), 64u);
  EXPECT_EQ(r.of(9, 12), std::uint64_t{1} << 40);
  for (const std::uint32_t op : {0u, 1u, 3u, 5u, 8u, 10u, 11u}) EXPECT_EQ(r.of(op, 12), 0u) << op;
}

// The search starts from where an evenly spread list would hold the op; it must find every
// kept op and no other, however the kept ops are spread.
TEST(SparseOpBytes, FindsEveryOpWhereverTheKeptOnesCluster) {
  std::mt19937 random(7);
  for (const double density : {0.001, 0.1, 0.5, 0.9, 0.999, 1.0}) {
    for (const bool clustered : {false, true}) {
      const std::uint32_t all = 5000;
      SparseOpBytes r;
      std::vector<std::uint64_t> expected(all, 0);
      std::bernoulli_distribution kept(density);
      for (std::uint32_t op = 0; op < all; ++op) {
        // Clustered: every kept op in the last fifth, or the first, of the location.
        const bool in_cluster = op < all / 5 || op >= all - all / 5;
        if (kept(random) && (!clustered || in_cluster)) {
          expected[op] = op + 1;
          r.append(op, op + 1);
        }
      }
      for (std::uint32_t op = 0; op < all; ++op)
        ASSERT_EQ(r.of(op, all), expected[op]) << density << " " << clustered << " " << op;
      EXPECT_EQ(r.of(all + 10, all), 0u);
    }
  }
}

TEST(ReceivedBytes, OnlyCollectivesGetsAndAtomicsReceiveBytesOfTheirOwn) {
  TraceBuilder b(2);
  const auto call = b.call(0, "MPI_Allreduce", 100, 200);
  const std::uint32_t coll = b.collective(call, CollOp::Allreduce, 0, kNoWorldRank, 8, 16);
  const auto shmem = b.call(0, "shmem_getmem", 300, 400);
  const std::uint32_t get = b.get(shmem, 1, 32);
  const std::uint32_t put = b.put(shmem, 1, 48);
  const std::uint32_t atomic = b.atomic(shmem, 1, 8, 4);
  const auto recv = b.call(1, "MPI_Recv", 100, 200);
  const std::uint32_t received = b.recv(recv, 0, 0, 128);
  const Trace t = b.finish();
  const Location& l0 = t.locations[0];
  EXPECT_EQ(l0.bytes_received(coll), 16u);
  EXPECT_EQ(l0.bytes_received(get), 32u);
  EXPECT_EQ(l0.bytes_received(put), 0u);
  EXPECT_EQ(l0.bytes_received(atomic), 4u);
  EXPECT_EQ(l0.op_bytes_received.ops.size(), 3u);
  // A point-to-point receive counts its message as the op's bytes, not as bytes received.
  EXPECT_EQ(t.locations[1].bytes_received(received), 0u);
  EXPECT_EQ(t.locations[1].bytes_sent(received), 128u);
}

// A count of 4 GiB or more does not fit the 32-bit column: it is kept apart, exactly.
TEST(SentBytes, CountsOf4GiBAndMoreAreKeptApartExactly) {
  constexpr std::uint64_t kFiveGiB = std::uint64_t{5} << 30;
  const std::vector<std::uint64_t> counts = {8, kWideBytes - 1, kWideBytes, kFiveGiB, 0, 1};
  TraceBuilder b(2);
  for (std::size_t i = 0; i < counts.size(); ++i)
    b.send(b.call(0, "MPI_Send", 100 * static_cast<TimeNs>(i), 100 * static_cast<TimeNs>(i) + 50),
           1, 0, counts[i]);
  const Trace t = b.finish();
  const Location& l = t.locations[0];
  for (std::uint32_t op = 0; op < counts.size(); ++op)
    EXPECT_EQ(l.bytes_sent(op), counts[op]) << op;
  EXPECT_EQ(l.op_wide_bytes_sent.ops, (std::vector<std::uint32_t>{2, 3}));
  EXPECT_EQ(l.op_bytes_sent[1], kWideBytes - 1);
}

TEST(SentBytes, TheReaderKeepsAWideCountExactly) {
  constexpr std::uint64_t kFiveGiB = std::uint64_t{5} << 30;
  ScratchDirectory dir;
  SyntheticArchive a(dir / "archive", {.ranks = 2});
  const auto send = a.region("MPI_Send"), recv = a.region("MPI_Recv");
  a.location(0).enter(0, send);
  a.location(0).send(1, 1, a.world(), 7, kFiveGiB);
  a.location(0).leave(2, send);
  a.location(0).enter(3, send);
  a.location(0).send(4, 1, a.world(), 7, 16);
  a.location(0).leave(5, send);
  for (std::uint64_t t : {0u, 10u}) {
    a.location(1).enter(t, recv);
    a.location(1).recv(t + 6, 0, a.world(), 7, t == 0 ? kFiveGiB : 16);
    a.location(1).leave(t + 7, recv);
  }
  a.close();
  const Trace t = read_trace(a.anchor());
  EXPECT_EQ(t.locations[0].bytes_sent(0), kFiveGiB);
  EXPECT_EQ(t.locations[0].bytes_sent(1), 16u);
  EXPECT_EQ(t.locations[1].bytes_sent(0), kFiveGiB);
  EXPECT_EQ(t.locations[0].op_wide_bytes_sent.ops.size(), 1u);
}

}  // namespace
}  // namespace collwrap::testing
