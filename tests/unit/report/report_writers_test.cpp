// The table of report writers: every row is complete, because --help, the man page and main()
// take everything about a format from its row.
#include "report_writers.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace collwrap {
namespace {

TEST(ReportWriters, EveryRowHasOptionHelpManualNameAndOneWayToWrite) {
  ASSERT_FALSE(report_writers().empty());
  std::set<std::string_view> options;
  for (const ReportWriter& writer : report_writers()) {
    SCOPED_TRACE(std::string(writer.option));
    EXPECT_TRUE(writer.option.starts_with("--"));
    EXPECT_TRUE(options.insert(writer.option).second) << "option listed twice";
    EXPECT_FALSE(writer.help.empty());
    EXPECT_FALSE(writer.name.empty());
    // The man page entry is roff text of at least a sentence, and does not start a new entry
    // or section itself (the generator writes the .TP and the tag line).
    EXPECT_GT(writer.manual.size(), 40u);
    EXPECT_EQ(writer.manual.find(".TP"), std::string_view::npos);
    EXPECT_EQ(writer.manual.find(".SH"), std::string_view::npos);
    EXPECT_NE(writer.stream == nullptr, writer.to_path == nullptr) << "exactly one writer";
    EXPECT_FALSE(writer.standard_output && writer.stream == nullptr);
  }
}

TEST(ReportWriters, FindsEachRowByItsOptionAndNothingElse) {
  for (const ReportWriter& writer : report_writers())
    EXPECT_EQ(find_report_writer(writer.option), &writer);
  EXPECT_EQ(find_report_writer("--no-such-report"), nullptr);
  EXPECT_EQ(find_report_writer("json"), nullptr);
}

}  // namespace
}  // namespace collwrap
