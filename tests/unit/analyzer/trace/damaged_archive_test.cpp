// Bad input: wrong paths, damaged or partial archives, random corruption. The reader must
// say what is wrong (TraceUsageError / TraceReadError) or read what it can and warn; it must
// never crash or hang, and the matcher must cope with whatever it returns.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "example_archive.h"
#include "matching.h"
#include "scratch_directory.h"
#include "trace_reader.h"

namespace collwrap {
namespace {

namespace fs = std::filesystem;
using testing::ExampleArchive;
using testing::ScratchDirectory;

void write_file(const fs::path& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

bool mentions(const std::vector<std::string>& messages, const std::string& text) {
  return std::any_of(messages.begin(), messages.end(),
                     [&](const std::string& m) { return m.find(text) != std::string::npos; });
}

template <class Error>
std::string error_of(const std::string& path) {
  try {
    read_trace(path);
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for " << path;
  return {};
}

TEST(BadInput, PathsThatAreNotArchivesAreUsageErrors) {
  ScratchDirectory dir;
  EXPECT_NE(error_of<TraceUsageError>("").find("no trace given"), std::string::npos);
  EXPECT_NE(error_of<TraceUsageError>(dir / "nowhere").find("no such file"), std::string::npos);
  EXPECT_NE(error_of<TraceUsageError>(dir.path().string()).find("has no traces.otf2"),
            std::string::npos);
  write_file(dir / "notes.txt", "hello");
  EXPECT_NE(error_of<TraceUsageError>(dir / "notes.txt").find("not an OTF2 anchor"),
            std::string::npos);
  write_file(dir / "traces.otf2", "this is not an anchor file\n");
  const std::string garbage = error_of<TraceUsageError>(dir / "traces.otf2");
  EXPECT_NE(garbage.find("cannot be opened as an OTF2 archive"), std::string::npos) << garbage;
  // Every message says what to give instead.
  EXPECT_NE(garbage.find("give"), std::string::npos);
}

class DamagedArchive : public ::testing::Test {
 protected:
  void SetUp() override { anchor = example.write(dir / "archive"); }
  fs::path archive() const { return dir.path() / "archive"; }
  fs::path events_of(int rank) const {
    return archive() / "traces" / (std::to_string(rank) + ".evt");
  }

  ScratchDirectory dir;
  ExampleArchive example{.iterations = 3};
  std::string anchor;
};

TEST_F(DamagedArchive, MissingGlobalDefinitionsAreAReadError) {
  fs::remove(archive() / "traces.def");
  EXPECT_NE(error_of<TraceReadError>(anchor).find("global definitions"), std::string::npos);
}

TEST_F(DamagedArchive, GarbageGlobalDefinitionsAreAReadError) {
  write_file(archive() / "traces.def", std::string(4096, '\x5a'));
  error_of<TraceReadError>(anchor);
}

TEST_F(DamagedArchive, AMissingEventFileLeavesTheOtherRanks) {
  fs::remove(events_of(1));
  const Trace t = read_trace(anchor);
  ASSERT_EQ(t.locations.size(), 3u);
  EXPECT_EQ(t.locations[1].calls(), 0u);
  EXPECT_GT(t.locations[0].calls(), 0u);
  EXPECT_GT(t.locations[2].calls(), 0u);
  EXPECT_EQ(t.warnings.missing_locations, 1u);
  EXPECT_TRUE(mentions(t.warnings.messages, "rank 1 thread 0")) << t.warnings.messages.size();

  const Matching m = match_trace(t);
  EXPECT_EQ(m.counts.messages, 0u);
  EXPECT_EQ(m.counts.unmatched_sends, 6u);  // 3 iterations × 2 sends to rank 1
  EXPECT_EQ(m.counts.incomplete_collectives, 3u);
}

TEST_F(DamagedArchive, MissingLocalDefinitionsOnlyLoseTheClockOffsets) {
  fs::remove(archive() / "traces" / "1.def");
  const Trace t = read_trace(anchor);
  EXPECT_EQ(t.warnings.missing_locations, 0u);
  EXPECT_EQ(t.clock.offsets_per_location_min, 0u);
  EXPECT_GT(t.locations[1].calls(), 0u);
}

// Timestamps that cannot be real end a location's stream, with a warning naming the location,
// its event file and the record; what came before stays.
TEST(ImplausibleTimestamps, AnIntactArchiveIsReadWithinItsClockProperties) {
  ScratchDirectory dir;
  const ExampleArchive example{.iterations = 3, .record_trace_length = true};
  const Trace t = read_trace(example.write(dir / "archive"));
  EXPECT_TRUE(t.warnings.messages.empty()) << ::testing::PrintToString(t.warnings.messages);
  EXPECT_EQ(t.end, static_cast<TimeNs>(example.end_ticks() - ExampleArchive::kInitEnter));
}

TEST(ImplausibleTimestamps, ALocationOutsideTheTraceIsLeftOut) {
  ScratchDirectory dir;
  // Rank 1's clock offsets (damaged) move all its events 1000 s past the trace's end.
  const ExampleArchive example{.iterations = 3,
                               .record_trace_length = true,
                               .rank1_offset_at_start = 1'000'000'000'000,
                               .rank1_offset_at_end = 1'000'000'000'000};
  const Trace t = read_trace(example.write(dir / "archive"));
  EXPECT_TRUE(mentions(t.warnings.messages, "rank 1 thread 0 (traces/1.evt): record #1 is damaged"))
      << ::testing::PrintToString(t.warnings.messages);
  EXPECT_TRUE(mentions(t.warnings.messages, "outside the trace's clock range"));
  EXPECT_EQ(t.locations[1].calls(), 0u);
  EXPECT_EQ(t.warnings.missing_locations, 1u);
  EXPECT_GT(t.locations[0].calls(), 0u);
  EXPECT_LT(t.end, TimeNs{1'000'000});  // the trace keeps its own span
}

TEST(ImplausibleTimestamps, ABigStepBackEndsTheStream) {
  ScratchDirectory dir;
  // Rank 1's offset falls by 20 s over the trace's 12 µs: its clock runs backwards.
  const ExampleArchive example{.iterations = 3,
                               .rank1_offset_at_start = 30'000'000'000,
                               .rank1_offset_at_end = 10'000'000'000};
  const Trace t = read_trace(example.write(dir / "archive"));
  EXPECT_TRUE(mentions(t.warnings.messages, "rank 1 thread 0 (traces/1.evt): record #2 is damaged"))
      << ::testing::PrintToString(t.warnings.messages);
  EXPECT_TRUE(mentions(t.warnings.messages, "earlier than the previous record's"));
  EXPECT_EQ(t.locations[1].calls(), 1u);  // MPI_Init's Enter came first
  EXPECT_GT(t.locations[2].calls(), 0u);
}

// A cut event file keeps every record before the cut: the calls read are the whole file's,
// the last one perhaps without its Leave. libotf2, which would read the cut chunk's missing
// bytes from memory that is not the file's, is stopped at the last whole chunk instead.
TEST(TruncatedArchive, KeepsEveryRecordBeforeTheCut) {
  ScratchDirectory dir;
  // Enough iterations for rank 1's events to fill several 256 KiB chunks.
  const ExampleArchive example{.iterations = 30000};
  const std::string anchor = example.write(dir / "archive");
  const fs::path events = dir.path() / "archive" / "traces" / "1.evt";
  const std::string original = read_file(events);
  ASSERT_GT(original.size(), 3 * example.chunk_size);
  const Trace whole = read_trace(anchor);
  const Location& all = whole.locations[1];

  for (std::size_t length :
       {std::size_t{0}, std::size_t{1}, std::size_t{100}, example.chunk_size / 2,
        example.chunk_size + 4000, 2 * example.chunk_size, original.size() - 2000}) {
    SCOPED_TRACE("truncated to " + std::to_string(length) + " bytes");
    write_file(events, original.substr(0, length));
    const Trace t = read_trace(anchor);
    const Location& cut = t.locations[1];
    EXPECT_TRUE(mentions(t.warnings.messages,
                         "rank 1 thread 0 (traces/1.evt): the event file is truncated"));
    EXPECT_EQ(t.locations[0].calls(), whole.locations[0].calls());
    ASSERT_LT(cut.calls(), all.calls());
    for (std::size_t i = 0; i < cut.calls(); ++i) {
      ASSERT_EQ(cut.call_enter[i], all.call_enter[i]) << "call " << i;
      if (i + 1 < cut.calls()) {
        ASSERT_EQ(cut.call_leave[i], all.call_leave[i]) << "call " << i;
      }
    }
    const Trace whole_chunks = read_trace(anchor, {.own_decoder = false});
    EXPECT_GE(cut.calls(), whole_chunks.locations[1].calls());
    if (length % example.chunk_size > 1000) {
      EXPECT_GT(cut.calls(), whole_chunks.locations[1].calls()) << "the cut chunk's records";
    }
    if (length > example.chunk_size / 4) {
      EXPECT_GT(cut.calls(), 0u);
      EXPECT_EQ(t.warnings.missing_locations, 0u);
    }
    EXPECT_GT(match_trace(t).counts.unmatched_sends, 0u);
  }

  SCOPED_TRACE("only the end-of-buffer byte missing: every record is there");
  write_file(events, original.substr(0, original.size() - 1));
  EXPECT_EQ(read_trace(anchor).locations[1].calls(), all.calls());
}

// Damage in a complete file's last chunk, where libotf2 would read on past the file's data
// into memory that is not the file's: the analyzer's decoder ends the stream at the damaged
// record, the same way on every read.
TEST(DamagedLastChunk, EndsTheStreamAtTheRecordThatCannotBeDecoded) {
  ScratchDirectory dir;
  const ExampleArchive example{.iterations = 50};
  const std::string anchor = example.write(dir / "archive");
  const Trace whole = read_trace(anchor);
  const fs::path events = dir.path() / "archive" / "traces" / "1.evt";
  std::string data = read_file(events);
  ASSERT_LT(data.size(), example.chunk_size) << "one chunk, the last";
  // The file ends with MPI_Finalize's Leave (type 13, a one-byte region), END_OF_FILE and
  // END_OF_BUFFER. The Leave becomes a record of type 14 (MpiSend) whose length, 240, runs
  // past the file's end.
  const std::size_t leave = data.size() - 5;
  ASSERT_EQ(data[leave], '\x0d');
  ASSERT_EQ(data[leave + 1], '\x01');
  data[leave] = '\x0e';
  data[leave + 1] = '\xf0';
  write_file(events, data);

  const Trace t = read_trace(anchor);
  EXPECT_TRUE(mentions(t.warnings.messages, "rank 1 thread 0 (traces/1.evt): record #"))
      << ::testing::PrintToString(t.warnings.messages);
  EXPECT_TRUE(mentions(t.warnings.messages, "cannot be decoded from the file's data"));
  EXPECT_TRUE(mentions(t.warnings.messages, "the stream ends inside MPI_Finalize"));
  EXPECT_EQ(t.locations[1].calls(), whole.locations[1].calls());
  EXPECT_EQ(t.locations[1].call_enter, whole.locations[1].call_enter);
  EXPECT_EQ(read_trace(anchor).warnings.messages, t.warnings.messages) << "the same every time";
}

// Random damage to each file of the archive: overwritten bytes, or a cut at a random place.
// COLLWRAP_FUZZ_ITERATIONS sets the number of damaged copies per file (default 60).
TEST(CorruptedArchive, RandomDamageIsReportedNeverFatal) {
  ScratchDirectory dir;
  const ExampleArchive example{.iterations = 50};
  example.write(dir / "original");
  const char* env = std::getenv("COLLWRAP_FUZZ_ITERATIONS");
  const int iterations = env ? std::atoi(env) : 60;
  std::mt19937_64 rng(20240611);
  std::uint64_t reads = 0, errors = 0, with_warnings = 0;
  for (const char* file :
       {"traces.otf2", "traces.def", "traces/0.evt", "traces/1.def", "traces/2.evt"}) {
    const std::string original = read_file(dir.path() / "original" / file);
    ASSERT_FALSE(original.empty()) << file;
    for (int i = 0; i < iterations; ++i) {
      const fs::path copy = dir.path() / "copy";
      fs::remove_all(copy);
      fs::copy(dir.path() / "original", copy, fs::copy_options::recursive);
      std::string damaged = original;
      if (rng() % 4 == 0) {
        damaged.resize(rng() % damaged.size());
      } else {
        for (std::uint64_t n = 1 + rng() % 8; n > 0; --n)
          damaged[rng() % damaged.size()] = static_cast<char>(rng());
      }
      write_file(copy / file, damaged);
      SCOPED_TRACE(std::string(file) + " damage #" + std::to_string(i));
      try {
        const Trace t = read_trace((copy / "traces.otf2").string());
        const Matching m = match_trace(t);
        ++reads;
        with_warnings += !t.warnings.messages.empty();
        EXPECT_LE(m.counts.messages, 150u);
      } catch (const TraceUsageError&) {
        ++errors;
      } catch (const TraceReadError&) {
        ++errors;
      }
    }
  }
  // Both outcomes occur: the test damages files for real.
  EXPECT_GT(reads, 0u);
  EXPECT_GT(errors + with_warnings, 0u);
}

}  // namespace
}  // namespace collwrap
