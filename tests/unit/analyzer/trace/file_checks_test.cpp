// The checks that keep damaged files away from OTF2's parsers: anchor layout, global
// definitions framing and event file framing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "anchor_file_check.h"
#include "definitions_file_check.h"
#include "event_file_check.h"
#include "example_archive.h"
#include "scratch_directory.h"
#include "trace_reader.h"

namespace collwrap {
namespace {

namespace fs = std::filesystem;
using testing::ExampleArchive;
using testing::ScratchDirectory;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write_file(const fs::path& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

TEST(AnchorFileCheck, AcceptsWhatOtf2WritesAndRejectsDamage) {
  ScratchDirectory dir;
  const std::string anchor = ExampleArchive{}.write(dir / "archive");
  EXPECT_EQ(check_anchor_file(anchor), "");

  const std::string good = read_file(anchor);
  write_file(dir / "cut.otf2", good.substr(0, good.size() / 2));
  EXPECT_EQ(check_anchor_file(dir / "cut.otf2"), "it is cut short");
  write_file(dir / "text.otf2", "hello world, this is no anchor");
  EXPECT_EQ(check_anchor_file(dir / "text.otf2"), "it does not start like an OTF2 file");
  EXPECT_EQ(check_anchor_file(dir / "missing.otf2"), "it cannot be read");
}

TEST(AnchorFileCheck, ADamagedPropertyCountNeverReachesOtf2) {
  // OTF2 3.0 allocates 2 × count pointers in 32 bits and writes past the end when the count
  // is damaged to 2^31: the check must refuse the file before OTF2 parses it.
  ScratchDirectory dir;
  const std::string anchor = ExampleArchive{}.write(dir / "archive");
  std::string bytes = read_file(anchor);
  const std::size_t description = bytes.find(std::string("example") + '\0');
  ASSERT_NE(description, std::string::npos);
  const std::size_t count = description + 8;  // the property count follows the description
  ASSERT_EQ(bytes.substr(count, 4), std::string(4, '\0'));
  bytes[count + 3] = '\x80';
  write_file(anchor, bytes);
  EXPECT_EQ(check_anchor_file(anchor), "its property count is damaged");
  EXPECT_THROW(read_trace(anchor), TraceUsageError);
}

TEST(DefinitionsFileCheck, AcceptsWhatOtf2WritesAndRejectsBrokenFraming) {
  ScratchDirectory dir;
  const std::string anchor = ExampleArchive{}.write(dir / "archive");
  const fs::path defs = dir.path() / "archive" / "traces.def";
  constexpr std::uint64_t kDefinitionChunk = 4 * 1024 * 1024;  // SyntheticArchive's
  const std::string original = read_file(defs);
  EXPECT_EQ(check_definitions_file(defs.string(), kDefinitionChunk), "");

  write_file(defs, original.substr(0, original.size() / 2));
  EXPECT_NE(check_definitions_file(defs.string(), kDefinitionChunk).find("runs past"),
            std::string::npos)
      << "cut inside a record";
  write_file(defs, original.substr(0, original.size() - 2));
  EXPECT_NE(check_definitions_file(defs.string(), kDefinitionChunk), "") << "no end-of-file";
  write_file(defs, original + "garbage");
  EXPECT_NE(check_definitions_file(defs.string(), kDefinitionChunk).find("not at the end"),
            std::string::npos);
  std::string long_record = original;
  // The first record's length, in its long form, past the file's end.
  long_record.replace(19, 9, std::string(9, '\xff'));
  write_file(defs, long_record);
  EXPECT_NE(check_definitions_file(defs.string(), kDefinitionChunk).find("byte 18"),
            std::string::npos);
  // libotf2 would read the chunk's buffer past the file's data: the reader refuses instead.
  try {
    read_trace(anchor);
    ADD_FAILURE() << "a damaged traces.def was read";
  } catch (const TraceReadError& e) {
    EXPECT_NE(std::string(e.what()).find("traces.def"), std::string::npos) << e.what();
  }
}

class EventFileCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    example.write(dir / "archive");
    events = read_file(file());
  }
  fs::path file() const { return dir.path() / "archive" / "traces" / "1.evt"; }
  EventFileExtent cut_to(std::size_t bytes) {
    write_file(file(), events.substr(0, bytes));
    return check_event_file(file().string(), example.chunk_size);
  }

  ScratchDirectory dir;
  const ExampleArchive example{.iterations = 6000};  // rank 1: several 256 KiB chunks
  std::string events;
};

TEST_F(EventFileCheck, ACompleteFileIsTrustedUpToItsSize) {
  ASSERT_GT(events.size(), 2 * example.chunk_size);
  const EventFileExtent e = check_event_file(file().string(), example.chunk_size);
  EXPECT_TRUE(e.exists);
  EXPECT_TRUE(e.complete);
  EXPECT_EQ(e.bytes, events.size());
  EXPECT_EQ(e.last_trusted_record, events.size());
}

TEST_F(EventFileCheck, ACutFileIsTrustedUpToItsLastWholeChunk) {
  const EventFileExtent inside_second = cut_to(example.chunk_size + 1000);
  EXPECT_FALSE(inside_second.complete);
  const EventFileExtent at_boundary = cut_to(2 * example.chunk_size);
  EXPECT_FALSE(at_boundary.complete);
  // Records of the first chunk are trusted in the first case, of two chunks in the second.
  EXPECT_GT(inside_second.last_trusted_record, 0u);
  EXPECT_GT(at_boundary.last_trusted_record, inside_second.last_trusted_record);
  EXPECT_EQ(cut_to(example.chunk_size / 2).last_trusted_record, 0u);
  EXPECT_EQ(cut_to(0).last_trusted_record, 0u);
}

TEST_F(EventFileCheck, ADamagedChunkHeaderTrustsNothingAfterIt) {
  std::string damaged = events.substr(0, example.chunk_size + 1000);
  damaged[0] = '\x7f';  // the first (and only whole) chunk's header
  write_file(file(), damaged);
  EXPECT_EQ(check_event_file(file().string(), example.chunk_size).last_trusted_record, 0u);
}

TEST_F(EventFileCheck, AMissingFileDoesNotExist) {
  fs::remove(file());
  EXPECT_FALSE(check_event_file(file().string(), example.chunk_size).exists);
}

}  // namespace
}  // namespace collwrap
