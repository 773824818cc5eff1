// The words of the reports: durations, rank lists, finding comments and recommendations.
#include <gtest/gtest.h>

#include "catalog.h"
#include "finding_text.h"
#include "text_format.h"

namespace collwrap::testing {
namespace {

TEST(FormatDuration, PicksAFittingUnit) {
  EXPECT_EQ(format_duration(0), "0 s");
  EXPECT_EQ(format_duration(1.234), "1.23 s");
  EXPECT_EQ(format_duration(123.4), "123 s");
  EXPECT_EQ(format_duration(0.0456), "45.6 ms");
  EXPECT_EQ(format_duration(12e-6), "12.0 µs");
  EXPECT_EQ(format_duration(850e-9), "850 ns");
  EXPECT_EQ(format_duration(0.99997), "1.00 s");  // rounds up into the next unit
  EXPECT_EQ(format_duration(0.9994), "999 ms");
}

TEST(FormatRanks, ReadsLikeASentence) {
  EXPECT_EQ(format_ranks(std::vector<std::int32_t>{3}), "rank 3");
  EXPECT_EQ(format_ranks(std::vector<std::int32_t>{1, 2}), "ranks 1 and 2");
  EXPECT_EQ(format_ranks(std::vector<std::int32_t>{1, 2, 5}), "ranks 1, 2 and 5");
  EXPECT_EQ(format_ranks(std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}),
            "ranks 0, 1, 2, 3, 4, 5, 6, 7 and 2 more");
}

TEST(FormatPeers, NamesThreadsOtherThanTheMainOne) {
  const std::vector<std::int32_t> ranks{0, 1};
  EXPECT_EQ(format_peers(ranks, PeerThreads{{2}, {0, 1}}),
            "ranks 0 (thread 2) and 1 (threads 0 and 1)");
  EXPECT_EQ(format_peers(ranks, PeerThreads{{0}, {}}), "ranks 0 and 1");  // main or unknown
  EXPECT_EQ(format_peers(ranks, PeerThreads{{3}, {}}), "ranks 0 (thread 3) and 1");
  EXPECT_EQ(format_peers(ranks, PeerThreads{}), "ranks 0 and 1");  // a report before 1.7
}

TEST(FormatPlace, FileAndLine) {
  EXPECT_EQ(format_place("/src/a.c", 42), "/src/a.c:42");
  EXPECT_EQ(format_place("/src/a.c", 0), "/src/a.c");
  EXPECT_EQ(format_place("", 0), "unknown location");
}

Finding late_sender_finding() {
  Finding f;
  f.pattern = "late_sender";
  f.rank = 0;
  f.file = "/src/app.c";
  f.line = 42;
  f.mpi_function = "MPI_Recv";
  f.peers = {1, 3};
  f.occurrences = 5;
  f.wait_time_s = 1.02;
  f.max_wait_s = 0.3;
  f.top_instances = {{1.5, 0.3, {3}, {{0}}}, {0.5, 0.25, {1}, {{0}}}};
  f.details.send_modes = {{"standard", 4}, {"synchronous", 1}};
  return f;
}

TEST(FindingComment, SaysWhoWaitedWhereForWhom) {
  const std::string c = finding_comment(late_sender_finding(), kLateSender);
  EXPECT_NE(c.find("Rank 0 idled 1.02 s in 5 calls to MPI_Recv at app.c:42."), std::string::npos)
      << c;
  EXPECT_NE(c.find("Peers (late sender): ranks 1 and 3."), std::string::npos) << c;
  EXPECT_NE(c.find("Worst: 300 ms at t=1.50 s (rank 3); 250 ms at t=500 ms (rank 1)."),
            std::string::npos)
      << c;
  EXPECT_NE(c.find("Send modes: standard (4), synchronous (1)."), std::string::npos) << c;
  EXPECT_NE(c.find(std::string(kLateSender.description)), std::string::npos) << c;
}

TEST(FindingComment, NamesTheRelatedCallAndMessageOrder) {
  Finding f = late_sender_finding();
  f.details.same_source = 2;
  f.details.different_source = 3;
  EXPECT_NE(finding_comment(f, kWrongOrder)
                .find("same sender in 2 of these waits and from "
                      "another rank in 3"),
            std::string::npos);
  f.details.related_call = SourceLocation{"MPI_Irecv", "/src/app.c", 40};
  EXPECT_NE(finding_comment(f, kEarlyWait).find("Request started by MPI_Irecv at app.c:40."),
            std::string::npos);
  EXPECT_EQ(finding_comment(f, kLateSender).find("at app.c:40"), std::string::npos);
}

TEST(FindingRecommendation, EarlyWaitGivesTheWorkToMove) {
  Finding f = late_sender_finding();
  f.details.related_call = SourceLocation{"MPI_Irecv", "/src/app.c", 40};
  f.details.optimal_distance_s = 0.2;
  f.details.current_distance_s = 0.001;
  const std::string r = finding_recommendation(f, kEarlyWait);
  EXPECT_TRUE(r.starts_with(std::string(kEarlyWait.recommendation)));
  EXPECT_NE(r.find("starts on average 1.00 ms after MPI_Irecv"), std::string::npos) << r;
  EXPECT_NE(r.find("optimal distance is 200 ms, so about 199 ms"), std::string::npos) << r;
  EXPECT_EQ(finding_recommendation(late_sender_finding(), kLateSender),
            std::string(kLateSender.recommendation));
}

}  // namespace
}  // namespace collwrap::testing
