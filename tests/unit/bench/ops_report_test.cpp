#include "ops_report.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace collwrap::bench {
namespace {

const std::vector<OpsRow> kRows = {{"TIMING", false, 0, {0.01, 0.01, 0.02}},
                                   {"BROADCAST", true, 100, {2.5, 2.0, 3.0}}};

TEST(OpsReport, TableShowsTheCorrectionAndADashForOperationsWithoutSize) {
  const OpsRunInfo info{4, "tsc", 2, 100, 10000, {0.01, 0.01, 0.02}, {1.25, 1.0, 1.5}};
  const std::string table = ops_table(info, kRows);
  EXPECT_EQ(table.find("# collwrap-bench ops: 4 ranks, timer tsc, repeats 2, iterations 100 "
                       "(short operations 10000)\n"),
            0u);
  EXPECT_NE(table.find("DT (one clock read) 0.0100 us, DB (barrier) 1.250 us"), std::string::npos);
  EXPECT_NE(table.find("\nTIMING                     -         0.010"), std::string::npos);
  EXPECT_NE(
      table.find("\nBROADCAST                100         2.500         2.000         3.000\n"),
      std::string::npos);
}

TEST(OpsReport, CsvAndJsonLeaveTheSizeOfUnsizedOperationsEmpty) {
  EXPECT_EQ(ops_csv(kRows),
            "operation,size_ints,time_us,min_us,max_us\nTIMING,,0.0100,0.0100,0.0200\n"
            "BROADCAST,100,2.5000,2.0000,3.0000\n");
  const nlohmann::ordered_json j = ops_json({2, "monotonic", 1, 10, 10, {}, {}}, kRows);
  EXPECT_TRUE(j["results"][0]["size_ints"].is_null());
  EXPECT_EQ(j["results"][1]["size_ints"], 100);
  EXPECT_EQ(j["results"][1]["mean_us"], 2.5);
}

}  // namespace
}  // namespace collwrap::bench
