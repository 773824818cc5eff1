// Writes OTF2 archives laid out the way libcollwrap writes them, from one serial process that
// plays every rank: for the reader's tests and for the analyzer benchmark's generator.
//
//   SyntheticArchive a(dir, {.ranks = 2});
//   auto send = a.region("MPI_Send");
//   auto site = a.call_site("/src/app.c", 42, "main");
//   auto& r0 = a.location(0);
//   r0.enter(100, send, site);
//   r0.send(110, /*receiver in comm*/ 1, a.world(), /*tag*/ 7, /*bytes*/ 8);
//   r0.leave(200, send);
//   a.close();  // writes the definitions; the anchor is a.anchor()
//
// Peers and roots are ranks within the communicator, as in OTF2 records. Times are ticks of
// the archive's timer (Options::timer_resolution per second).
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace collwrap::testing {

// One location's event writer (a thread of a rank).
class LocationStream {
 public:
  LocationStream(OTF2_Archive* archive, std::uint64_t location_id,
                 OTF2_AttributeRef call_site_attribute);
  ~LocationStream();
  LocationStream(const LocationStream&) = delete;
  LocationStream& operator=(const LocationStream&) = delete;

  // call_site: a CallingContext from SyntheticArchive::call_site(), or OTF2_UNDEFINED_UINT32.
  void enter(std::uint64_t t, std::uint32_t region,
             std::uint32_t call_site = OTF2_UNDEFINED_UINT32);
  void leave(std::uint64_t t, std::uint32_t region);
  void send(std::uint64_t t, std::uint32_t receiver, std::uint32_t comm, std::uint32_t tag,
            std::uint64_t bytes);
  void isend(std::uint64_t t, std::uint32_t receiver, std::uint32_t comm, std::uint32_t tag,
             std::uint64_t bytes, std::uint64_t request);
  void isend_complete(std::uint64_t t, std::uint64_t request);
  void irecv_request(std::uint64_t t, std::uint64_t request);
  void recv(std::uint64_t t, std::uint32_t sender, std::uint32_t comm, std::uint32_t tag,
            std::uint64_t bytes);
  void irecv(std::uint64_t t, std::uint32_t sender, std::uint32_t comm, std::uint32_t tag,
             std::uint64_t bytes, std::uint64_t request);
  void request_test(std::uint64_t t, std::uint64_t request);
  void request_cancelled(std::uint64_t t, std::uint64_t request);
  void collective_begin(std::uint64_t t);
  void collective_end(std::uint64_t t, OTF2_CollectiveOp op, std::uint32_t comm, std::uint32_t root,
                      std::uint64_t sent, std::uint64_t received);
  void nbc_request(std::uint64_t t, std::uint64_t request);
  void nbc_complete(std::uint64_t t, OTF2_CollectiveOp op, std::uint32_t comm, std::uint32_t root,
                    std::uint64_t sent, std::uint64_t received, std::uint64_t request);

  // A ClockOffset definition for this location (local definitions file).
  void clock_offset(std::uint64_t t, std::int64_t offset, double stddev);
  // A mapping table for this location (local definitions file): local id i stands for
  // globals[i]. OTF2 stores it sparse when that is smaller (most ids unchanged). The events then
  // give local ids of that kind, the call-site attribute included (its local id set with
  // local_call_site_attribute).
  void mapping_table(OTF2_MappingType type, std::vector<std::uint64_t> globals);
  void local_call_site_attribute(OTF2_AttributeRef local) { call_site_attribute_ = local; }

  std::uint64_t id() const { return id_; }
  std::uint64_t events() const;
  void close();  // writes the clock offsets and closes the writers; idempotent

 private:
  struct Offset {
    std::uint64_t time;
    std::int64_t offset;
    double stddev;
  };
  OTF2_Archive* archive_;
  std::uint64_t id_;
  OTF2_AttributeRef call_site_attribute_;
  OTF2_EvtWriter* writer_ = nullptr;
  OTF2_AttributeList* attributes_ = nullptr;
  std::vector<Offset> offsets_;
  std::vector<std::pair<OTF2_MappingType, std::vector<std::uint64_t>>> mapping_tables_;
  std::uint64_t events_ = 0;
};

class SyntheticArchive {
 public:
  struct Options {
    int ranks = 2;
    int threads_per_rank = 1;
    int nodes = 1;  // ranks are spread over nodes in blocks
    std::uint64_t timer_resolution = 1'000'000'000;
    std::uint64_t global_offset = 0;
    std::uint64_t trace_length = 0;      // ClockProperties' trace length in ticks; 0: not recorded
    std::uint64_t chunk_size = 1 << 20;  // event chunk size in bytes
    std::string description = "synthetic";
  };

  SyntheticArchive(const std::string& directory, Options options);
  ~SyntheticArchive();
  SyntheticArchive(const SyntheticArchive&) = delete;
  SyntheticArchive& operator=(const SyntheticArchive&) = delete;

  std::uint32_t region(const std::string& name);  // an MPI function region
  std::uint32_t call_site(const std::string& file, std::uint32_t line, const std::string& function);
  std::uint32_t comm(const std::vector<std::uint32_t>& world_ranks, const std::string& name);
  std::uint32_t world() const { return 0; }

  LocationStream& location(int rank, int thread = 0);
  static std::uint64_t location_id(int rank, int thread) {
    return (static_cast<std::uint64_t>(thread) << 32) | static_cast<std::uint32_t>(rank);
  }

  // Closes all streams and writes the global definitions. Call once, after all events.
  void close();
  std::string anchor() const { return directory_ + "/traces.otf2"; }

 private:
  struct RegionDef {
    std::uint32_t name;
    OTF2_RegionRole role;
    OTF2_Paradigm paradigm;
  };
  struct CallSiteDef {
    std::uint32_t file;
    std::uint32_t line;
    std::uint32_t function_region;
  };
  struct CommDef {
    std::uint32_t name;
    std::vector<std::uint64_t> members;
  };

  std::uint32_t string(const std::string& s);
  void write_definitions();

  std::string directory_;
  Options options_;
  OTF2_Archive* archive_ = nullptr;
  std::vector<std::string> strings_;
  std::vector<RegionDef> regions_;
  std::vector<CallSiteDef> call_sites_;
  std::vector<CommDef> comms_;
  std::vector<std::unique_ptr<LocationStream>> streams_;  // rank-major, thread-minor
  bool closed_ = false;
};

}  // namespace collwrap::testing
