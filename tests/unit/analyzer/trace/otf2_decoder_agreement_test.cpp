// The analyzer's own OTF2 decoder against libotf2's reader, on archives libotf2's writer
// wrote: with mapping tables, clock offsets, several chunks and every record the analyzer
// reads, the trace read both ways must be the same, column by column.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "otf2_event_decoder.h"
#include "otf2_local_definitions.h"
#include "scratch_directory.h"
#include "synthetic_archive.h"
#include "trace_reader.h"

namespace collwrap {
namespace {

using testing::LocationStream;
using testing::ScratchDirectory;
using testing::SyntheticArchive;

constexpr std::uint64_t kChunk = 256 * 1024;
constexpr int kRanks = 3;
constexpr std::uint64_t kIterations = 12000;

// Local ids in reverse order of the global ones: a mapping that gets any id wrong shows.
std::vector<std::uint64_t> reversed(const std::vector<std::uint32_t>& globals) {
  return {globals.rbegin(), globals.rend()};
}
std::uint32_t local(const std::vector<std::uint32_t>& globals, std::uint32_t global) {
  for (std::size_t i = 0; i < globals.size(); ++i)
    if (globals[i] == global) return static_cast<std::uint32_t>(globals.size() - 1 - i);
  throw std::logic_error("not a global id of the table");
}

struct Archive {
  std::string anchor;
  std::vector<std::uint64_t> events;  // per location, as written
};

// Every rank writes a mix of every MPI record the analyzer reads, with sizes, tags and
// requests that take every width of OTF2's compressed integers, under three clock offsets.
Archive write_archive(const std::string& directory) {
  SyntheticArchive a(directory, {.ranks = kRanks, .chunk_size = kChunk});
  const std::vector<std::uint32_t> regions = {a.region("MPI_Send"),     a.region("MPI_Irecv"),
                                              a.region("MPI_Wait"),     a.region("MPI_Allreduce"),
                                              a.region("MPI_Ibarrier"), a.region("MPI_Test")};
  const std::vector<std::uint32_t> sites = {a.call_site("/src/a.c", 10, "main"),
                                            a.call_site("/src/a.c", 20, "main"),
                                            a.call_site("/src/b.c", 5, "step")};
  const std::vector<std::uint32_t> comms = {a.world(), a.comm({0, 1}, "pair")};
  Archive archive;
  for (int r = 0; r < kRanks; ++r) {
    LocationStream& s = a.location(r);
    s.mapping_table(OTF2_MAPPING_REGION, reversed(regions));
    s.mapping_table(OTF2_MAPPING_CALLING_CONTEXT, reversed(sites));
    // Mostly unchanged ids: OTF2 keeps this one sparse.
    std::vector<std::uint64_t> comm_ids(40);
    for (std::size_t i = 0; i < comm_ids.size(); ++i) comm_ids[i] = i;
    std::swap(comm_ids[comms[0]], comm_ids[comms[1]]);
    s.mapping_table(OTF2_MAPPING_COMM, comm_ids);
    s.mapping_table(OTF2_MAPPING_ATTRIBUTE, {9, 9, 9, 0});  // the call site is local 3
    s.local_call_site_attribute(3);
    const std::uint64_t start = 1'000'000;
    s.clock_offset(start, 1000 + r, 0.5);
    s.clock_offset(start + kIterations * 3000, -20'000 - 7 * r, 1.5);
    s.clock_offset(start + kIterations * 6000, 5'000'000'000LL, 2.0);

    const auto R = [&](std::size_t i) { return local(regions, regions[i]); };
    const auto site = [&](std::uint64_t i) { return local(sites, sites[i % sites.size()]); };
    const std::uint32_t peer = static_cast<std::uint32_t>((r + 1) % kRanks);
    const std::uint32_t world = static_cast<std::uint32_t>(comms[1]);  // local id of comms[0]
    std::uint64_t t = start;
    for (std::uint64_t i = 0; i < kIterations; ++i) {
      t += 900 + (i * 37) % 500;
      const std::uint64_t bytes = i % 11 == 0 ? (std::uint64_t{1} << 33) + i : i * 97;
      s.enter(t, R(0), site(i));
      s.send(t + 10, peer, world, static_cast<std::uint32_t>(i % 300), bytes);
      s.leave(t + 20, R(0));
      const std::uint64_t request = i % 5 == 0 ? ~std::uint64_t{0} - i : i + 1;
      s.enter(t + 30, R(1), site(i + 1));
      s.irecv_request(t + 31, request);
      s.leave(t + 40, R(1));
      s.enter(t + 50, R(2));  // no attribute: the call site carries over
      s.irecv(t + 60, peer, world, 7, bytes, request);
      s.leave(t + 70, R(2));
      if (i % 16 == 0) {
        s.enter(t + 80, R(3), site(i));
        s.collective_begin(t + 81);
        s.collective_end(t + 90, OTF2_COLLECTIVE_OP_ALLREDUCE, world, OTF2_UNDEFINED_UINT32, 8, 8);
        s.leave(t + 95, R(3));
      }
      if (i % 50 == 0) {
        s.enter(t + 100, R(4), site(i + 2));
        s.nbc_request(t + 101, i + 7);
        s.leave(t + 102, R(4));
        s.enter(t + 103, R(5));
        s.request_test(t + 104, i + 7);
        s.nbc_complete(t + 105, OTF2_COLLECTIVE_OP_BARRIER, world, 0, 0, 0, i + 7);
        s.isend(t + 106, peer, world, 3, 16, i + 9);
        s.isend_complete(t + 107, i + 9);
        s.request_cancelled(t + 108, i + 11);
        s.leave(t + 109, R(5));
      }
    }
    archive.events.push_back(s.events());
  }
  a.close();
  archive.anchor = a.anchor();
  return archive;
}

template <class T>
void expect_same(const std::vector<T>& own, const std::vector<T>& libotf2, const char* column) {
  ASSERT_EQ(own.size(), libotf2.size()) << column;
  for (std::size_t i = 0; i < own.size(); ++i)
    ASSERT_TRUE(own[i] == libotf2[i]) << column << " differs at " << i;
}

TEST(Otf2DecoderAgreement, TheOwnDecoderReadsLibotf2sFilesToTheEnd) {
  ScratchDirectory dir;
  const Archive archive = write_archive(dir / "archive");
  const std::vector<WantedAttribute> wanted = {{0, OTF2_TYPE_CALLING_CONTEXT}};
  for (int r = 0; r < kRanks; ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    const std::string base = dir / ("archive/traces/" + std::to_string(r));
    const auto defs = read_local_definitions_file(base + ".def", 4 * 1024 * 1024);
    ASSERT_TRUE(defs.has_value());
    EXPECT_EQ(defs->clock_offsets, 3u);
    EventFileDecoder decoder(base + ".evt", kChunk, *defs, wanted);
    EventRecord record;
    std::uint64_t records = 0;
    EventFileDecoder::Step step;
    while ((step = decoder.next(record)) == EventFileDecoder::Step::Record) ++records;
    EXPECT_EQ(step, EventFileDecoder::Step::End);
    EXPECT_GE(records, archive.events[r]) << "libotf2 adds its BufferFlush records";
    EXPECT_GT(std::filesystem::file_size(base + ".evt"), 3 * kChunk) << "several chunks";
  }
}

TEST(Otf2DecoderAgreement, TheTraceIsTheSameReadEitherWay) {
  ScratchDirectory dir;
  const Archive archive = write_archive(dir / "archive");
  const Trace own = read_trace(archive.anchor, {.threads = 2});
  const Trace libotf2 = read_trace(archive.anchor, {.threads = 2, .own_decoder = false});
  EXPECT_EQ(own.event_count, libotf2.event_count);
  EXPECT_EQ(own.warnings.messages, libotf2.warnings.messages);
  EXPECT_TRUE(own.warnings.messages.empty());
  EXPECT_EQ(own.clock.offsets_per_location_min, 3u);
  EXPECT_EQ(own.clock.max_offset_stddev_s, libotf2.clock.max_offset_stddev_s);
  ASSERT_EQ(own.locations.size(), libotf2.locations.size());
  for (std::size_t l = 0; l < own.locations.size(); ++l) {
    SCOPED_TRACE("location " + std::to_string(l));
    const Location& a = own.locations[l];
    const Location& b = libotf2.locations[l];
    EXPECT_GT(a.calls(), kIterations * 3);
    expect_same(a.call_enter, b.call_enter, "call_enter");
    expect_same(a.call_leave, b.call_leave, "call_leave");
    expect_same(a.call_region, b.call_region, "call_region");
    expect_same(a.call_callsite, b.call_callsite, "call_callsite");
    expect_same(a.call_first_op, b.call_first_op, "call_first_op");
    expect_same(a.op_kind, b.op_kind, "op_kind");
    expect_same(a.op_coll, b.op_coll, "op_coll");
    expect_same(a.op_time_offset, b.op_time_offset, "op_time_offset");
    expect_same(a.op_call, b.op_call, "op_call");
    expect_same(a.op_peer, b.op_peer, "op_peer");
    expect_same(a.op_comm, b.op_comm, "op_comm");
    expect_same(a.op_tag, b.op_tag, "op_tag");
    expect_same(a.op_bytes_sent, b.op_bytes_sent, "op_bytes_sent");
    expect_same(a.op_request, b.op_request, "op_request");
    expect_same(a.op_wide_bytes_sent.values, b.op_wide_bytes_sent.values, "wide bytes");
    expect_same(a.op_bytes_received.values, b.op_bytes_received.values, "bytes received");
    expect_same(a.op_wide_time.values, b.op_wide_time.values, "wide times");
  }
}

}  // namespace
}  // namespace collwrap
