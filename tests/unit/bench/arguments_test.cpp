#include "arguments.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace collwrap::bench {
namespace {

// Owns argv storage for one parse.
struct Argv {
  explicit Argv(std::vector<std::string> words) : words_(std::move(words)) {
    for (std::string& w : words_) pointers_.push_back(w.data());
  }
  int argc() const { return int(pointers_.size()); }
  char** argv() { return pointers_.data(); }
  std::vector<std::string> words_;
  std::vector<char*> pointers_;
};

Arguments parse(std::vector<std::string> words) {
  words.insert(words.begin(), "coll");
  Argv a(std::move(words));
  return Arguments(a.argc(), a.argv());
}

TEST(BenchArguments, ValuesWithSpaceOrEqualsAndFlags) {
  Arguments a = parse({"--min", "8", "--max=1024", "--json", "out.json", "--per-rank"});
  EXPECT_EQ(a.integer("min", 0, 0, 1 << 30), 8);
  EXPECT_EQ(a.integer("max", 0, 0, 1 << 30), 1024);
  EXPECT_EQ(a.text("json"), "out.json");
  EXPECT_TRUE(a.flag("per-rank"));
  EXPECT_FALSE(a.flag("csv"));
  EXPECT_EQ(a.number("confidence", 0.95, 0.5, 0.999), 0.95);
  EXPECT_NO_THROW(a.finish());
}

TEST(BenchArguments, RejectsUnknownOutOfRangeAndRepeatedOptions) {
  Arguments unknown = parse({"--sizes", "8"});
  EXPECT_THROW(unknown.finish(), UsageError);
  Arguments range = parse({"--repeat", "0"});
  EXPECT_THROW(range.integer("repeat", 10, 1, 100), UsageError);
  Arguments word = parse({"--repeat", "ten"});
  EXPECT_THROW(word.integer("repeat", 10, 1, 100), UsageError);
  EXPECT_THROW(parse({"--repeat", "1", "--repeat", "2"}), UsageError);
  EXPECT_THROW(parse({"stray"}), UsageError);
  Arguments method = parse({"--method", "fast"});
  EXPECT_THROW(method.choice("method", "window", {"window", "barrier", "naive"}), UsageError);
  Arguments flag_with_value = parse({"--per-rank=yes"});
  EXPECT_THROW(flag_with_value.flag("per-rank"), UsageError);
}

TEST(BenchArguments, HelpIsRecognized) {
  EXPECT_TRUE(parse({"--help"}).help());
  EXPECT_TRUE(parse({"-h"}).help());
  EXPECT_FALSE(parse({}).help());
}

TEST(BenchSizes, GeometricSeriesInclusiveOfMax) {
  EXPECT_EQ(size_series(1, 16, 2), (std::vector<std::size_t>{1, 2, 4, 8, 16}));
  EXPECT_EQ(size_series(0, 8, 4), (std::vector<std::size_t>{0, 1, 4}));
  EXPECT_EQ(size_series(3, 20, 3), (std::vector<std::size_t>{3, 9}));
  EXPECT_EQ(size_series(5, 5, 2), (std::vector<std::size_t>{5}));
  EXPECT_THROW(size_series(8, 4, 2), UsageError);
  EXPECT_THROW(size_series(1, 4, 1), UsageError);
}

}  // namespace
}  // namespace collwrap::bench
