// How analyzer processes divide an archive's locations (split_locations), and reading it in
// shares: the shares read apart and put together finish into the trace read_trace() gives.
#include "location_shares.h"

#include <gtest/gtest.h>

#include <vector>

#include "scratch_directory.h"
#include "synthetic_archive.h"
#include "trace_reader.h"

namespace collwrap::testing {
namespace {

std::vector<LocationRange> split(std::vector<std::uint64_t> events, unsigned processes) {
  return split_locations(events, processes);
}

TEST(LocationShares, OneProcessTakesEverything) {
  EXPECT_EQ(split({5, 7, 9}, 1), (std::vector<LocationRange>{{0, 3}}));
}

TEST(LocationShares, EqualLocationsSplitEvenly) {
  EXPECT_EQ(split({10, 10, 10, 10}, 2), (std::vector<LocationRange>{{0, 2}, {2, 4}}));
  EXPECT_EQ(split({10, 10, 10, 10}, 4),
            (std::vector<LocationRange>{{0, 1}, {1, 2}, {2, 3}, {3, 4}}));
  EXPECT_EQ(split(std::vector<std::uint64_t>(64, 100), 3),
            (std::vector<LocationRange>{{0, 21}, {21, 43}, {43, 64}}));
}

TEST(LocationShares, BalancedByDeclaredEvents) {
  // 100 of 130 events on the first location: it is a share of its own.
  EXPECT_EQ(split({100, 10, 10, 10}, 2), (std::vector<LocationRange>{{0, 1}, {1, 4}}));
  // The heavy location last: the first process takes the three light ones.
  EXPECT_EQ(split({10, 10, 10, 100}, 2), (std::vector<LocationRange>{{0, 3}, {3, 4}}));
}

TEST(LocationShares, EveryProcessGetsALocationWhileThereAreEnough) {
  // The events alone would give the first process everything.
  EXPECT_EQ(split({1000, 1, 1}, 3), (std::vector<LocationRange>{{0, 1}, {1, 2}, {2, 3}}));
}

TEST(LocationShares, UndeclaredEventsCountAsOne) {
  EXPECT_EQ(split({0, 0, 0, 0}, 2), (std::vector<LocationRange>{{0, 2}, {2, 4}}));
}

TEST(LocationShares, MoreProcessesThanLocationsLeaveTheLastEmpty) {
  const std::vector<LocationRange> shares = split({4, 4}, 4);
  EXPECT_EQ(shares, (std::vector<LocationRange>{{0, 1}, {1, 2}, {2, 2}, {2, 2}}));
  EXPECT_EQ(shares[3].size(), 0u);
  EXPECT_EQ(split({}, 2), (std::vector<LocationRange>{{0, 0}, {0, 0}}));
}

// Rank r has r + 1 barrier calls.
std::string write_archive(const ScratchDirectory& dir, std::int32_t ranks) {
  SyntheticArchive a(dir / "archive", {.ranks = ranks});
  const std::uint32_t barrier = a.region("MPI_Barrier");
  for (std::int32_t r = 0; r < ranks; ++r)
    for (std::int32_t c = 0; c <= r; ++c) {
      a.location(r).enter(1000 + 100 * c + r, barrier);
      a.location(r).leave(1050 + 100 * c + r, barrier);
    }
  a.close();
  return a.anchor();
}

TEST(ReadingInShares, TheSharesPutTogetherGiveTheTraceReadWhole) {
  const ScratchDirectory dir;
  const std::string anchor = write_archive(dir, 5);
  const Trace whole = read_trace(anchor);
  for (const unsigned processes : {2u, 3u, 7u}) {
    LocationsRead gathered = read_locations(anchor, {.threads = 1, .processes = processes});
    ASSERT_EQ(gathered.shares.size(), processes);
    for (unsigned p = 1; p < processes; ++p) {
      LocationsRead share =
          read_locations(anchor, {.threads = 1, .process = p, .processes = processes});
      for (std::size_t i = 0; i < share.trace.locations.size(); ++i) {
        if (!share.shares[p].contains(i)) {
          EXPECT_EQ(share.trace.locations[i].calls(), 0u) << "read outside its share";
          continue;
        }
        gathered.trace.locations[i] = std::move(share.trace.locations[i]);
        gathered.reports[i] = std::move(share.reports[i]);
      }
    }
    const Trace trace = finish_trace(std::move(gathered), 1);
    EXPECT_EQ(trace.event_count, whole.event_count) << processes;
    EXPECT_EQ(trace.end, whole.end) << processes;
    ASSERT_EQ(trace.locations.size(), whole.locations.size());
    for (std::size_t i = 0; i < whole.locations.size(); ++i) {
      EXPECT_EQ(trace.locations[i].call_enter, whole.locations[i].call_enter) << i;
      EXPECT_EQ(trace.locations[i].call_leave, whole.locations[i].call_leave) << i;
    }
  }
}

}  // namespace
}  // namespace collwrap::testing
