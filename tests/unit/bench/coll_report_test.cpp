#include "coll_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace collwrap::bench {
namespace {

CollRow bcast_row(std::size_t size) {
  CollRow row{&*std::find_if(all_collectives().begin(), all_collectives().end(),
                             [](const Collective& c) { return std::string(c.name) == "bcast"; }),
              size,
              {}};
  row.measurement.statistics = summarize_runs(10, std::vector<double>{2, 3, 4, 5}, 0.25, 0.95);
  row.measurement.per_rank_us = {1.5, 3.5};
  row.measurement.window_us = 12;
  return row;
}

TEST(CollReport, CsvHasOneLinePerRowAndTheWindowOnlyForTheWindowMethod) {
  CollRunInfo info{"window", 2, 0, "tsc", "linear", 0.95, true};
  const std::vector<CollRow> rows = {bcast_row(1), bcast_row(64)};
  const std::string csv = coll_csv(info, rows);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "operation,method,ranks,root,size,avg_latency_us,runs,correct,failed,used,mean_us,rse,"
            "se_us,min_us,max_us,ci_low_us,ci_high_us,window_us,rank0_us,rank1_us");
  EXPECT_NE(csv.find("\nMPI_Bcast,window,2,0,64,3.500,10,4,6,2,3.500,"), std::string::npos);
  EXPECT_NE(csv.find(",12.000,1.500,3.500\n"), std::string::npos);

  info.method = "naive";
  info.per_rank = false;
  const std::string naive = coll_csv(info, rows);
  EXPECT_EQ(naive.substr(0, naive.find('\n')).find("rank0_us"), std::string::npos);
  // The window field stays, empty, so that every line has the same columns.
  EXPECT_NE(naive.find(",\nMPI_Bcast,naive"), std::string::npos);
}

TEST(CollReport, JsonCarriesTheRunAndEveryRow) {
  const CollRunInfo info{"window", 2, 1, "tsc", "ring", 0.99, true};
  const nlohmann::ordered_json j = coll_json(info, {bcast_row(8)});
  EXPECT_EQ(j["method"], "window");
  EXPECT_EQ(j["root"], 1);
  EXPECT_EQ(j["confidence"], 0.99);
  ASSERT_EQ(j["results"].size(), 1u);
  const auto& r = j["results"][0];
  EXPECT_EQ(r["operation"], "MPI_Bcast");
  EXPECT_EQ(r["size"], 8);
  EXPECT_EQ(r["runs"], 10);
  EXPECT_EQ(r["correct"], 4);
  EXPECT_EQ(r["used"], 2);
  EXPECT_DOUBLE_EQ(r["avg_latency_us"].get<double>(), 3.5);
  EXPECT_EQ(r["window_us"], 12.0);
  EXPECT_EQ(r["per_rank_us"].size(), 2u);
}

}  // namespace
}  // namespace collwrap::bench
