#include "record/trace_directory.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace collwrap::tracer {
namespace {
namespace fs = std::filesystem;

std::tm sample_time() {
  std::tm t{};
  t.tm_year = 2024 - 1900;
  t.tm_mon = 2;  // March
  t.tm_mday = 7;
  t.tm_hour = 9;
  t.tm_min = 5;
  t.tm_sec = 3;
  return t;
}

TEST(DefaultArchiveName, ProgramDateAndTime) {
  EXPECT_EQ(default_archive_dirname("jacobi", sample_time()), "collwrap-jacobi-20240307-090503");
}

TEST(DefaultArchiveName, UnsafeCharactersBecomeUnderscores) {
  EXPECT_EQ(default_archive_dirname("my app/v2", sample_time()),
            "collwrap-my_app_v2-20240307-090503");
  EXPECT_EQ(default_archive_dirname("", sample_time()), "collwrap-program-20240307-090503");
}

TEST(FirstUnusedName, AppendsACounterWhenTaken) {
  std::set<std::string> taken{"a", "a-1"};
  auto exists = [&](const std::string& p) { return taken.count(p) > 0; };
  EXPECT_EQ(first_unused_name("b", exists), "b");
  EXPECT_EQ(first_unused_name("a", exists), "a-2");
}

class PrepareDirectory : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ =
        fs::temp_directory_path() /
        ("collwrap-dir-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(PrepareDirectory, CreatesMissingParents) {
  PreparedDirectory d = prepare_trace_directory((root_ / "a" / "b").string());
  ASSERT_TRUE(d.ok) << d.problem;
  EXPECT_TRUE(fs::is_directory(root_ / "a" / "b"));
  EXPECT_TRUE(fs::path(d.path).is_absolute());
  EXPECT_TRUE(fs::is_empty(root_ / "a" / "b"));  // the write probe is removed
}

TEST_F(PrepareDirectory, RemovesOnlyAPreviousArchive) {
  fs::path dir = root_ / "trace";
  fs::create_directories(dir / "traces");
  fs::create_directories(dir / "traces.unrecovered");
  for (fs::path p :
       {dir / "traces.otf2", dir / "traces.def", dir / "traces" / "0.evt",
        dir / "traces.unrecovered" / "1.evt", dir / "collwrap-rank-3.sidecar", dir / "notes.txt"}) {
    std::ofstream(p) << "x";
  }
  PreparedDirectory d = prepare_trace_directory(dir.string());
  ASSERT_TRUE(d.ok) << d.problem;
  EXPECT_FALSE(fs::exists(dir / "traces.otf2"));
  EXPECT_FALSE(fs::exists(dir / "traces.def"));
  EXPECT_FALSE(fs::exists(dir / "traces"));
  EXPECT_FALSE(fs::exists(dir / "traces.unrecovered"));
  EXPECT_FALSE(fs::exists(dir / "collwrap-rank-3.sidecar"));
  EXPECT_TRUE(fs::exists(dir / "notes.txt"));
}

TEST_F(PrepareDirectory, FailsWhenThePathIsAFile) {
  std::ofstream(root_ / "file") << "x";
  PreparedDirectory d = prepare_trace_directory((root_ / "file").string());
  EXPECT_FALSE(d.ok);
  EXPECT_NE(d.problem.find("not a directory"), std::string::npos);
}

TEST_F(PrepareDirectory, FailsWhenTheParentCannotBeCreated) {
  std::ofstream(root_ / "file") << "x";
  PreparedDirectory d = prepare_trace_directory((root_ / "file" / "sub").string());
  EXPECT_FALSE(d.ok);
  EXPECT_NE(d.problem.find("cannot create"), std::string::npos);
}

}  // namespace
}  // namespace collwrap::tracer
