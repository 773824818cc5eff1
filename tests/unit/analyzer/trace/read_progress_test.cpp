// The trace reader's progress callback (the analyzer's "reading" percentage): after every batch
// of records and once per location, rising to 1, weighted by the events each location declares.
#include <gtest/gtest.h>

#include <vector>

#include "scratch_directory.h"
#include "synthetic_archive.h"
#include "trace_reader.h"

namespace collwrap::testing {
namespace {

// Rank 0 has 1 call (2 events), rank 1 has 3 calls (6 events), rank 2 none.
std::string write_archive(const ScratchDirectory& dir) {
  SyntheticArchive a(dir / "archive", {.ranks = 3});
  const std::uint32_t barrier = a.region("MPI_Barrier");
  a.location(0).enter(100, barrier);
  a.location(0).leave(200, barrier);
  for (std::uint64_t t = 100; t < 400; t += 100) {
    a.location(1).enter(t, barrier);
    a.location(1).leave(t + 50, barrier);
  }
  a.location(2);
  a.close();
  return a.anchor();
}

TEST(ReadProgress, EveryLocationWeightedByEvents) {
  const ScratchDirectory dir;
  const std::string anchor = write_archive(dir);
  for (const unsigned threads : {1u, 3u}) {
    std::vector<double> calls;
    read_trace(anchor, {.threads = threads}, [&](double f) { calls.push_back(f); });
    ASSERT_GE(calls.size(), 3u) << threads << " threads";
    for (std::size_t i = 1; i < calls.size(); ++i) EXPECT_GE(calls[i], calls[i - 1]);
    EXPECT_DOUBLE_EQ(calls.back(), 1.0);
    if (threads == 1) {  // locations in order: 2 of 8 events, then 8 of 8
      EXPECT_DOUBLE_EQ(calls[0], 0.25);
    }
  }
  EXPECT_NO_THROW(read_trace(anchor));  // no callback: nothing is called
}

TEST(ReadProgress, ALongLocationReportsWhileItIsRead) {
  // 80 000 events on one location: the first batch of 65 536 records is reported before the
  // location is done.
  const ScratchDirectory dir;
  SyntheticArchive a(dir / "archive", {.ranks = 1});
  const std::uint32_t barrier = a.region("MPI_Barrier");
  for (std::uint64_t t = 0; t < 40'000; ++t) {
    a.location(0).enter(10 * t + 1, barrier);
    a.location(0).leave(10 * t + 5, barrier);
  }
  a.close();
  std::vector<double> calls;
  read_trace(a.anchor(), {.threads = 1}, [&](double f) { calls.push_back(f); });
  ASSERT_GE(calls.size(), 2u);
  EXPECT_NEAR(calls.front(), 65536.0 / 80000.0, 1e-3);
  EXPECT_DOUBLE_EQ(calls.back(), 1.0);
}

}  // namespace
}  // namespace collwrap::testing
