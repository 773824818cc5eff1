// The analyzer's own OTF2 decoder on files built byte by byte: the integer encodings, the
// clock correction's arithmetic, the id maps, the records and the cases it leaves to libotf2.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "otf2_buffer_format.h"
#include "otf2_event_decoder.h"
#include "otf2_local_definitions.h"
#include "scratch_directory.h"

namespace collwrap {
namespace {

using testing::ScratchDirectory;
using Bytes = std::vector<std::uint8_t>;
constexpr std::uint64_t kChunk = 256 * 1024;  // OTF2's smallest chunk

// --- building files -------------------------------------------------------------------------

void append(Bytes& b, std::initializer_list<std::uint8_t> bytes) {
  b.insert(b.end(), bytes);
}

void full(Bytes& b, std::uint64_t v, unsigned n, bool big) {
  for (unsigned i = 0; i < n; ++i) {
    const unsigned shift = 8 * (big ? n - 1 - i : i);
    b.push_back(static_cast<std::uint8_t>(v >> shift));
  }
}

// The shortest compressed form, as libotf2's writer makes it.
void compressed(Bytes& b, std::uint64_t v, bool big) {
  unsigned n = 0;
  while (n < 8 && (v >> (8 * n)) != 0) ++n;
  b.push_back(static_cast<std::uint8_t>(n));
  full(b, v, n, big);
}

// One chunk: header, then `content`; padded with END_OF_CHUNK's zeros unless it is the last.
struct Chunk {
  bool big = false;
  Bytes content;
  void timestamp(std::uint64_t t) {
    content.push_back(otf2_format::kTimestamp);
    full(content, t, 8, big);
  }
  // A length-framed record of `type` with these field bytes.
  void record(std::uint8_t type, const Bytes& fields, bool long_length = false) {
    content.push_back(type);
    if (long_length) {
      content.push_back(otf2_format::kLongLength);
      full(content, fields.size(), 8, big);
    } else {
      content.push_back(static_cast<std::uint8_t>(fields.size()));
    }
    content.insert(content.end(), fields.begin(), fields.end());
  }
};

std::string write_file(const ScratchDirectory& dir, const std::string& name,
                       const std::vector<Chunk>& chunks, bool finished = true) {
  Bytes file;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const Chunk& c = chunks[i];
    const std::size_t start = file.size();
    file.push_back(otf2_format::kChunkHeader);
    file.push_back(c.big ? otf2_format::kBigEndian : otf2_format::kLittleEndian);
    full(file, 1, 8, c.big);
    full(file, 0, 8, c.big);
    file.insert(file.end(), c.content.begin(), c.content.end());
    if (i + 1 < chunks.size()) {
      file.push_back(otf2_format::kEndOfChunk);
      file.resize(start + kChunk, 0);
    } else if (finished) {
      append(file, {otf2_format::kEndOfFile, otf2_format::kEndOfBuffer});
    }
  }
  const std::string path = dir / name;
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(file.data()), static_cast<std::streamsize>(file.size()));
  return path;
}

struct Decoded {
  std::vector<EventRecord> records;
  EventFileDecoder::Step end;
};

constexpr OTF2_AttributeRef kCallSite = 0;  // the global id of the call-site attribute
const std::vector<WantedAttribute> kWanted = {{kCallSite, OTF2_TYPE_CALLING_CONTEXT}};

Decoded decode(const std::string& path, const LocalDefinitions& defs) {
  EventFileDecoder decoder(path, kChunk, defs, kWanted);
  Decoded d;
  EventRecord r;
  while ((d.end = decoder.next(r)) == EventFileDecoder::Step::Record) {
    r.attributes = {};  // valid only until the next record
    d.records.push_back(r);
  }
  return d;
}

// --- integers -------------------------------------------------------------------------------

std::uint64_t read(const Bytes& b, bool big, unsigned max_bytes, bool& ok) {
  const std::uint8_t* p = b.data();
  std::uint64_t v = 0;
  ok = otf2_format::read_compressed(p, b.data() + b.size(), big, max_bytes, v);
  if (ok) {
    EXPECT_EQ(p, b.data() + b.size()) << "the whole integer is consumed";
  }
  return v;
}

TEST(Otf2Integers, CompressedFormsInBothByteOrders) {
  bool ok = false;
  EXPECT_EQ(read({0x00}, false, 4, ok), 0u);
  EXPECT_TRUE(ok);
  EXPECT_EQ(read({0xFF}, false, 4, ok), 0xFFFFFFFFu) << "OTF2_UNDEFINED_UINT32";
  EXPECT_EQ(read({0xFF}, true, 8, ok), ~std::uint64_t{0}) << "OTF2_UNDEFINED_UINT64";
  EXPECT_EQ(read({0x02, 0x34, 0x12}, false, 4, ok), 0x1234u);
  EXPECT_EQ(read({0x02, 0x12, 0x34}, true, 4, ok), 0x1234u);
  EXPECT_EQ(read({0x08, 1, 2, 3, 4, 5, 6, 7, 8}, false, 8, ok), 0x0807060504030201u);
  EXPECT_EQ(read({0x08, 1, 2, 3, 4, 5, 6, 7, 8}, true, 8, ok), 0x0102030405060708u);
  EXPECT_TRUE(ok);
  read({0x05, 1, 2, 3, 4, 5}, false, 4, ok);
  EXPECT_FALSE(ok) << "a 32-bit field has at most 4 bytes";
  read({0x09, 1, 2, 3, 4, 5, 6, 7, 8, 9}, false, 8, ok);
  EXPECT_FALSE(ok);
  read({0x03, 1, 2}, false, 4, ok);
  EXPECT_FALSE(ok) << "the bytes run out";
}

// --- clock correction and id maps -----------------------------------------------------------

TEST(Otf2ClockCorrection, InterpolatesBetweenOffsetsAndExtrapolatesOutside) {
  ClockCorrection clock;
  ASSERT_TRUE(clock.add_offset(1000, 10));
  EXPECT_FALSE(clock.applies()) << "one offset corrects nothing";
  ASSERT_TRUE(clock.add_offset(2000, 110));  // slope 0.1
  ASSERT_TRUE(clock.add_offset(3000, 110));  // slope 0
  EXPECT_FALSE(ClockCorrection(clock).add_offset(3000, 0)) << "times must grow";
  std::size_t at = 0;
  EXPECT_EQ(clock(500, at), 500u + 10 - 50) << "before the first: the first interval backwards";
  EXPECT_EQ(clock(1500, at), 1500u + 10 + 50);
  EXPECT_EQ(clock(2000, at), 2000u + 10 + 100) << "an interval's end belongs to it";
  EXPECT_EQ(clock(2500, at), 2500u + 110);
  EXPECT_EQ(clock(9000, at), 9000u + 110) << "after the last: the last interval";
  EXPECT_EQ(clock(1500, at), 1500u + 110)
      << "the interval only moves forward, as libotf2's reader's does";
}

TEST(Otf2ClockCorrection, RoundsHalfToEvenAndWrapsNegativeOffsets) {
  ClockCorrection clock;
  ASSERT_TRUE(clock.add_offset(0, -100));
  ASSERT_TRUE(clock.add_offset(2, -99));  // slope 0.5
  std::size_t at = 0;
  EXPECT_EQ(clock(1000, at), 1000u - 100 + 500);
  std::size_t from_start = 0;
  EXPECT_EQ(clock(1, from_start), std::uint64_t{1} - 100 + 0) << "0.5 rounds to 0";
  from_start = 0;
  EXPECT_EQ(clock(3, from_start), std::uint64_t{3} - 100 + 2) << "1.5 rounds to 2";

  ClockCorrection later;
  ASSERT_TRUE(later.add_offset(10, 0));
  ASSERT_TRUE(later.add_offset(12, 1));  // slope 0.5, extrapolated backwards below
  from_start = 0;
  EXPECT_EQ(later(9, from_start), 9u) << "-0.5 rounds to 0";
  EXPECT_EQ(later(7, from_start), 5u) << "-1.5 rounds to -2";
  EXPECT_EQ(later(4, from_start), 1u) << "-3 stays";
  // 2^62 - 10 ticks after the interval's begin is 2^62 as a double: half of it is whole.
  EXPECT_EQ(later(std::uint64_t{1} << 62, from_start),
            (std::uint64_t{1} << 62) + (std::uint64_t{1} << 61));
}

TEST(Otf2IdMap, DenseSparseAndUnmappedIds) {
  const IdMap dense = IdMap::dense({5, 6, 7});
  EXPECT_EQ(dense(0), 5u);
  EXPECT_EQ(dense(2), 7u);
  EXPECT_EQ(dense(3), 3u) << "ids past the table are global already";
  const IdMap sparse = IdMap::sparse({{10, 1}, {4, 2}, {10, 3}});
  EXPECT_EQ(sparse(10), 3u) << "a local id given twice keeps its last global id";
  EXPECT_EQ(sparse(4), 2u);
  EXPECT_EQ(sparse(5), 5u);
  EXPECT_EQ(IdMap()(42), 42u);
}

// --- event records --------------------------------------------------------------------------

LocalDefinitions mapped_definitions() {
  LocalDefinitions defs;
  defs.attribute = IdMap::dense({9, kCallSite});  // local attribute 1 is the call site
  defs.calling_context = IdMap::dense({3, 2, 1, 0});
  defs.region = IdMap::dense({5, 4});
  return defs;
}

TEST(Otf2EventDecoder, RecordsAcrossChunksAndByteOrders) {
  ScratchDirectory dir;
  Chunk first;
  first.timestamp(100);
  Bytes attributes;
  compressed(attributes, 1, false);  // one attribute
  compressed(attributes, 1, false);  // local id 1: the call site
  attributes.push_back(OTF2_TYPE_CALLING_CONTEXT);
  compressed(attributes, 1, false);  // local context 1 → global 2
  first.record(otf2_format::kAttributeList, attributes);
  append(first.content, {12, 0x01, 0x00});  // Enter, region local 0 → 5 (no length byte)
  Bytes send;
  compressed(send, 3, false);  // receiver
  compressed(send, 0, false);  // communicator
  send.push_back(0xFF);        // tag: all ones
  compressed(send, std::uint64_t{1} << 40, false);
  append(send, {0xAA, 0xBB});  // bytes of a newer format: skipped
  first.record(14, send, /*long_length=*/true);
  first.record(0x70, {1, 2, 3});  // a type libotf2 does not know either
  first.timestamp(200);
  Bytes flush;
  full(flush, 150, 8, false);
  first.record(10, flush);  // BufferFlush
  Chunk second;
  second.big = true;
  second.timestamp(300);
  append(second.content, {13, 0x01, 0x01});  // Leave, region local 1 → 4
  Bytes isend;
  compressed(isend, 1, true);
  compressed(isend, 0, true);
  compressed(isend, 7, true);
  compressed(isend, 0x1234, true);
  compressed(isend, 0x0102, true);  // request
  second.record(15, isend);
  const std::string path = write_file(dir, "0.evt", {first, second});

  LocalDefinitions defs = mapped_definitions();
  EventFileDecoder decoder(path, kChunk, defs, kWanted);
  EventRecord r;
  ASSERT_EQ(decoder.next(r), EventFileDecoder::Step::Record);
  EXPECT_EQ(r.type, Otf2Record::Enter);
  EXPECT_EQ(r.position, 1u);
  EXPECT_EQ(r.time, 100u);
  EXPECT_EQ(r.ref, 5u);
  std::uint32_t context = 0;
  EXPECT_TRUE(r.attributes.calling_context(kCallSite, context));
  EXPECT_EQ(context, 2u) << "mapped through the CALLING_CONTEXT table";

  ASSERT_EQ(decoder.next(r), EventFileDecoder::Step::Record);
  EXPECT_EQ(r.type, Otf2Record::MpiSend);
  EXPECT_EQ(r.position, 2u);
  EXPECT_EQ(r.time, 100u) << "a record without a timestamp has the previous time";
  EXPECT_EQ(r.rank, 3u);
  EXPECT_EQ(r.tag, 0xFFFFFFFFu);
  EXPECT_EQ(r.bytes, std::uint64_t{1} << 40);
  EXPECT_FALSE(r.attributes.calling_context(kCallSite, context)) << "attributes go with one record";

  ASSERT_EQ(decoder.next(r), EventFileDecoder::Step::Record);
  EXPECT_EQ(r.type, Otf2Record::Other);
  EXPECT_EQ(r.position, 3u) << "unknown records count";
  ASSERT_EQ(decoder.next(r), EventFileDecoder::Step::Record);
  EXPECT_EQ(r.type, Otf2Record::Other);
  EXPECT_EQ(r.time, 200u);

  ASSERT_EQ(decoder.next(r), EventFileDecoder::Step::Record);
  EXPECT_EQ(r.type, Otf2Record::Leave);
  EXPECT_EQ(r.position, 5u);
  EXPECT_EQ(r.time, 300u);
  EXPECT_EQ(r.ref, 4u);
  ASSERT_EQ(decoder.next(r), EventFileDecoder::Step::Record);
  EXPECT_EQ(r.type, Otf2Record::MpiIsend);
  EXPECT_EQ(r.tag, 7u);
  EXPECT_EQ(r.bytes, 0x1234u);
  EXPECT_EQ(r.id, 0x0102u);
  EXPECT_EQ(decoder.next(r), EventFileDecoder::Step::End);
}

TEST(Otf2EventDecoder, CorrectsEveryTimeInFileOrder) {
  ScratchDirectory dir;
  Chunk c;
  for (std::uint64_t t : {1500u, 2500u, 1500u}) {
    c.timestamp(t);
    append(c.content, {12, 0x00});
  }
  LocalDefinitions defs;
  ASSERT_TRUE(defs.clock.add_offset(1000, 10));
  ASSERT_TRUE(defs.clock.add_offset(2000, 110));
  ASSERT_TRUE(defs.clock.add_offset(3000, 110));
  const Decoded d = decode(write_file(dir, "0.evt", {c}), defs);
  ASSERT_EQ(d.end, EventFileDecoder::Step::End);
  ASSERT_EQ(d.records.size(), 3u);
  EXPECT_EQ(d.records[0].time, 1560u);
  EXPECT_EQ(d.records[1].time, 2610u);
  EXPECT_EQ(d.records[2].time, 1610u) << "the reader's interval does not move back";
}

// Each file stops after its first record: at damage (Irregular), or at what libotf2 would
// hand the loader otherwise (Unsupported).
TEST(Otf2EventDecoder, StopsWhereLibotf2WouldJudgeOrDiffer) {
  ScratchDirectory dir;
  const LocalDefinitions defs = mapped_definitions();
  const auto with_first = [](auto&& damage) {
    Chunk c;
    c.timestamp(100);
    append(c.content, {12, 0x00});
    damage(c);
    return c;
  };
  std::vector<std::pair<std::string, std::vector<Chunk>>> cases;
  cases.push_back({"a record longer than the chunk", {with_first([](Chunk& c) {
                     append(c.content, {14, 200, 1, 1});
                   })}});
  cases.push_back({"fields past the record's length", {with_first([](Chunk& c) {
                     c.record(14, {0x01, 0x03});  // receiver's bytes cut off by the length
                   })}});
  cases.push_back({"an invalid compressed size", {with_first([](Chunk& c) {
                     append(c.content, {13, 0x05, 1, 2, 3, 4, 5});
                   })}});
  cases.push_back({"one attribute given twice", {with_first([](Chunk& c) {
                     // Twice: count 1, local id 1 (the call site), its type, context 0.
                     for (int i = 0; i < 2; ++i)
                       c.record(otf2_format::kAttributeList,
                                {0x01, 0x01, 0x01, 0x01, OTF2_TYPE_CALLING_CONTEXT, 0x00});
                     append(c.content, {12, 0x00});
                   })}});
  cases.push_back({"an inconsistent attribute list", {with_first([](Chunk& c) {
                     Bytes list(30, 0);
                     list[0] = list[1] = 0x01;  // one attribute cannot take 30 bytes
                     c.record(otf2_format::kAttributeList, list);
                   })}});
  cases.push_back({"a record at the very end of a chunk",
                   {with_first([](Chunk& c) { c.content.push_back(12); })}});
  for (auto& [what, chunks] : cases) {
    SCOPED_TRACE(what);
    const Decoded d = decode(write_file(dir, "0.evt", chunks), defs);
    EXPECT_EQ(d.end, EventFileDecoder::Step::Irregular);
    EXPECT_EQ(d.records.size(), 1u);
  }
  cases.clear();
  cases.push_back(
      {"the call site attribute in another type", {with_first([](Chunk& c) {
         c.record(otf2_format::kAttributeList, {0x01, 0x01, 0x01, 0x01, OTF2_TYPE_UINT32, 0x00});
         append(c.content, {12, 0x00});
       })}});
  cases.push_back(
      {"a calling context's Enter, which libotf2 turns into an Enter", {with_first([](Chunk& c) {
         c.record(66, {0x01, 0x01, 0x00});
       })}});
  for (auto& [what, chunks] : cases) {
    SCOPED_TRACE(what);
    const Decoded d = decode(write_file(dir, "0.evt", chunks), defs);
    EXPECT_EQ(d.end, EventFileDecoder::Step::Unsupported);
    EXPECT_EQ(d.records.size(), 1u);
  }

  Chunk only;
  only.timestamp(100);
  append(only.content, {12, 0x00});
  SCOPED_TRACE("the file ends without END_OF_FILE");
  EXPECT_EQ(decode(write_file(dir, "1.evt", {only}, /*finished=*/false), defs).end,
            EventFileDecoder::Step::Irregular);
  SCOPED_TRACE("END_OF_CHUNK in the last chunk");
  Chunk ends_chunk = only;
  ends_chunk.content.push_back(otf2_format::kEndOfChunk);
  EXPECT_EQ(decode(write_file(dir, "2.evt", {ends_chunk}, /*finished=*/false), defs).end,
            EventFileDecoder::Step::Irregular);
  SCOPED_TRACE("a chunk size outside OTF2's bounds");
  EventFileDecoder small(write_file(dir, "3.evt", {only}), 1024, defs, kWanted);
  EventRecord r;
  EXPECT_EQ(small.next(r), EventFileDecoder::Step::Irregular);
}

// --- local definitions ----------------------------------------------------------------------

Bytes mapping_table(std::uint8_t kind, const std::vector<std::uint64_t>& globals) {
  Bytes b{kind};
  compressed(b, globals.size(), false);
  b.push_back(0);  // dense
  for (std::uint64_t g : globals) compressed(b, g, false);
  return b;
}

Bytes clock_offset(std::uint64_t time, std::int64_t offset, double stddev) {
  Bytes b;
  full(b, time, 8, false);
  compressed(b, static_cast<std::uint64_t>(offset), false);
  std::uint64_t bits = 0;
  std::memcpy(&bits, &stddev, 8);
  full(b, bits, 8, false);
  return b;
}

TEST(Otf2LocalDefinitions, MappingTablesAndClockOffsets) {
  ScratchDirectory dir;
  Chunk c;
  c.record(5, mapping_table(3, {7, 8}));  // REGION
  c.record(5, mapping_table(2, {1}));     // LOCATION: read, not needed
  c.record(6, clock_offset(1000, -5, 2.5));
  c.record(6, clock_offset(2000, 5, 0.5));
  const auto defs = read_local_definitions_file(write_file(dir, "0.def", {c}), kChunk);
  ASSERT_TRUE(defs.has_value());
  EXPECT_EQ(defs->region(1), 8u);
  EXPECT_EQ(defs->comm(1), 1u) << "no table";
  EXPECT_EQ(defs->clock_offsets, 2u);
  EXPECT_EQ(defs->max_offset_stddev, 2.5);
  std::size_t at = 0;
  EXPECT_EQ(defs->clock(1500, at), 1500u);  // -5 + rint(0.01 × 500)

  Chunk twice = c;
  twice.record(5, mapping_table(3, {1}));
  EXPECT_FALSE(read_local_definitions_file(write_file(dir, "1.def", {twice}), kChunk))
      << "libotf2 refuses a second table of one kind";
  Chunk backwards;
  backwards.record(6, clock_offset(2000, 0, 0));
  backwards.record(6, clock_offset(1000, 0, 0));
  EXPECT_FALSE(read_local_definitions_file(write_file(dir, "2.def", {backwards}), kChunk));
  Chunk other;
  other.record(7, {1, 2});
  EXPECT_FALSE(read_local_definitions_file(write_file(dir, "3.def", {other}), kChunk))
      << "records libotf2 reads with rules of its own";
  EXPECT_FALSE(read_local_definitions_file(dir / "missing.def", kChunk));
}

}  // namespace
}  // namespace collwrap
