// The bytes ops receive of their own, kept only for the ops that have any.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "trace_builder.h"

namespace collwrap::testing {
namespace {

TEST(ReceivedBytes, KeepsOnlyNonzeroFiguresAndFindsThemByOp) {
  ReceivedBytes r;
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
TEST(ReceivedBytes, FindsEveryOpWhereverTheKeptOnesCluster) {
  std::mt19937 random(7);
  for (const double density : {0.001, 0.1, 0.5, 0.9, 0.999, 1.0}) {
    for (const bool clustered : {false, true}) {
      const std::uint32_t all = 5000;
      ReceivedBytes r;
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
  EXPECT_EQ(t.locations[1].op_bytes[received], 128u);
}

}  // namespace
}  // namespace collwrap::testing
