#include "synthetic_archive.h"

#include <filesystem>
#include <stdexcept>

namespace collwrap::testing {
namespace {

void check(OTF2_ErrorCode code, const char* what) {
  if (code != OTF2_SUCCESS)
    throw std::runtime_error(std::string("SyntheticArchive: ") + what + ": " +
                             OTF2_Error_GetDescription(code));
}

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) {
  return 0;
}
constexpr OTF2_FlushCallbacks kFlushCallbacks = {pre_flush, post_flush};

constexpr OTF2_StringRef kEmpty = 0;  // strings_[0] is ""

}  // namespace

LocationStream::LocationStream(OTF2_Archive* archive, std::uint64_t location_id,
                               OTF2_AttributeRef call_site_attribute)
    : archive_(archive), id_(location_id), call_site_attribute_(call_site_attribute) {
  writer_ = OTF2_Archive_GetEvtWriter(archive, location_id);
  attributes_ = OTF2_AttributeList_New();
  if (!writer_ || !attributes_) throw std::runtime_error("SyntheticArchive: no event writer");
}

LocationStream::~LocationStream() {
  if (attributes_) OTF2_AttributeList_Delete(attributes_);
}

std::uint64_t LocationStream::events() const {
  return events_;
}

void LocationStream::enter(std::uint64_t t, std::uint32_t region, std::uint32_t call_site) {
  OTF2_AttributeList* attributes = nullptr;
  if (call_site != OTF2_UNDEFINED_UINT32) {
    check(OTF2_AttributeList_AddCallingContextRef(attributes_, call_site_attribute_, call_site),
          "attribute");
    attributes = attributes_;
  }
  check(OTF2_EvtWriter_Enter(writer_, attributes, t, region), "Enter");
  ++events_;
}

void LocationStream::leave(std::uint64_t t, std::uint32_t region) {
  check(OTF2_EvtWriter_Leave(writer_, nullptr, t, region), "Leave");
  ++events_;
}

void LocationStream::send(std::uint64_t t, std::uint32_t receiver, std::uint32_t comm,
                          std::uint32_t tag, std::uint64_t bytes) {
  check(OTF2_EvtWriter_MpiSend(writer_, nullptr, t, receiver, comm, tag, bytes), "MpiSend");
  ++events_;
}

void LocationStream::isend(std::uint64_t t, std::uint32_t receiver, std::uint32_t comm,
                           std::uint32_t tag, std::uint64_t bytes, std::uint64_t request) {
  check(OTF2_EvtWriter_MpiIsend(writer_, nullptr, t, receiver, comm, tag, bytes, request),
        "MpiIsend");
  ++events_;
}

void LocationStream::isend_complete(std::uint64_t t, std::uint64_t request) {
  check(OTF2_EvtWriter_MpiIsendComplete(writer_, nullptr, t, request), "MpiIsendComplete");
  ++events_;
}

void LocationStream::irecv_request(std::uint64_t t, std::uint64_t request) {
  check(OTF2_EvtWriter_MpiIrecvRequest(writer_, nullptr, t, request), "MpiIrecvRequest");
  ++events_;
}

void LocationStream::recv(std::uint64_t t, std::uint32_t sender, std::uint32_t comm,
                          std::uint32_t tag, std::uint64_t bytes) {
  check(OTF2_EvtWriter_MpiRecv(writer_, nullptr, t, sender, comm, tag, bytes), "MpiRecv");
  ++events_;
}

void LocationStream::irecv(std::uint64_t t, std::uint32_t sender, std::uint32_t comm,
                           std::uint32_t tag, std::uint64_t bytes, std::uint64_t request) {
  check(OTF2_EvtWriter_MpiIrecv(writer_, nullptr, t, sender, comm, tag, bytes, request),
        "MpiIrecv");
  ++events_;
}

void LocationStream::request_test(std::uint64_t t, std::uint64_t request) {
  check(OTF2_EvtWriter_MpiRequestTest(writer_, nullptr, t, request), "MpiRequestTest");
  ++events_;
}

void LocationStream::request_cancelled(std::uint64_t t, std::uint64_t request) {
  check(OTF2_EvtWriter_MpiRequestCancelled(writer_, nullptr, t, request), "MpiRequestCancelled");
  ++events_;
}

void LocationStream::collective_begin(std::uint64_t t) {
  check(OTF2_EvtWriter_MpiCollectiveBegin(writer_, nullptr, t), "MpiCollectiveBegin");
  ++events_;
}

void LocationStream::collective_end(std::uint64_t t, OTF2_CollectiveOp op, std::uint32_t comm,
                                    std::uint32_t root, std::uint64_t sent,
                                    std::uint64_t received) {
  check(OTF2_EvtWriter_MpiCollectiveEnd(writer_, nullptr, t, op, comm, root, sent, received),
        "MpiCollectiveEnd");
  ++events_;
}

void LocationStream::nbc_request(std::uint64_t t, std::uint64_t request) {
  check(OTF2_EvtWriter_NonBlockingCollectiveRequest(writer_, nullptr, t, request),
        "NonBlockingCollectiveRequest");
  ++events_;
}

void LocationStream::nbc_complete(std::uint64_t t, OTF2_CollectiveOp op, std::uint32_t comm,
                                  std::uint32_t root, std::uint64_t sent, std::uint64_t received,
                                  std::uint64_t request) {
  check(OTF2_EvtWriter_NonBlockingCollectiveComplete(writer_, nullptr, t, op, comm, root, sent,
                                                     received, request),
        "NonBlockingCollectiveComplete");
  ++events_;
}

void LocationStream::clock_offset(std::uint64_t t, std::int64_t offset, double stddev) {
  offsets_.push_back({t, offset, stddev});
}

void LocationStream::mapping_table(OTF2_MappingType type, std::vector<std::uint64_t> globals) {
  mapping_tables_.emplace_back(type, std::move(globals));
}

void LocationStream::close() {
  if (!writer_) return;
  check(OTF2_Archive_CloseEvtWriter(archive_, writer_), "close event writer");
  writer_ = nullptr;
  OTF2_DefWriter* defs = OTF2_Archive_GetDefWriter(archive_, id_);
  if (!defs) throw std::runtime_error("SyntheticArchive: no local definition writer");
  for (const auto& [type, globals] : mapping_tables_) {
    OTF2_IdMap* map = OTF2_IdMap_CreateFromUint64Array(globals.size(), globals.data(), true);
    if (!map) throw std::runtime_error("SyntheticArchive: no id map");
    const OTF2_ErrorCode status = OTF2_DefWriter_WriteMappingTable(defs, type, map);
    OTF2_IdMap_Free(map);
    check(status, "MappingTable");
  }
  for (const Offset& o : offsets_)
    check(OTF2_DefWriter_WriteClockOffset(defs, o.time, o.offset, o.stddev), "ClockOffset");
  check(OTF2_Archive_CloseDefWriter(archive_, defs), "close definition writer");
}

SyntheticArchive::SyntheticArchive(const std::string& directory, Options options)
    : directory_(directory), options_(std::move(options)) {
  std::filesystem::remove_all(directory_);
  archive_ =
      OTF2_Archive_Open(directory_.c_str(), "traces", OTF2_FILEMODE_WRITE, options_.chunk_size,
                        4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!archive_) throw std::runtime_error("SyntheticArchive: cannot create " + directory_);
  check(OTF2_Archive_SetFlushCallbacks(archive_, &kFlushCallbacks, nullptr), "flush callbacks");
  check(OTF2_Archive_SetSerialCollectiveCallbacks(archive_), "collective callbacks");
  check(OTF2_Archive_SetDescription(archive_, options_.description.c_str()), "description");
  check(OTF2_Archive_OpenEvtFiles(archive_), "open event files");
  check(OTF2_Archive_OpenDefFiles(archive_), "open definition files");

  string("");
  std::vector<std::uint32_t> everyone;
  for (int r = 0; r < options_.ranks; ++r) everyone.push_back(static_cast<std::uint32_t>(r));
  comm(everyone, "MPI_COMM_WORLD");

  constexpr OTF2_AttributeRef kCallSiteAttribute = 0;
  for (int r = 0; r < options_.ranks; ++r)
    for (int t = 0; t < options_.threads_per_rank; ++t)
      streams_.push_back(
          std::make_unique<LocationStream>(archive_, location_id(r, t), kCallSiteAttribute));
}

SyntheticArchive::~SyntheticArchive() {
  if (!closed_ && archive_) OTF2_Archive_Close(archive_);
}

std::uint32_t SyntheticArchive::string(const std::string& s) {
  for (std::uint32_t i = 0; i < strings_.size(); ++i)
    if (strings_[i] == s) return i;
  strings_.push_back(s);
  return static_cast<std::uint32_t>(strings_.size() - 1);
}

std::uint32_t SyntheticArchive::region(const std::string& name) {
  const std::uint32_t n = string(name);
  for (std::uint32_t i = 0; i < regions_.size(); ++i)
    if (regions_[i].name == n && regions_[i].paradigm == OTF2_PARADIGM_MPI) return i;
  const bool collective =
      name.find("barrier") != std::string::npos || name.find("Barrier") != std::string::npos;
  regions_.push_back(
      {n, collective ? OTF2_REGION_ROLE_BARRIER : OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI});
  return static_cast<std::uint32_t>(regions_.size() - 1);
}

std::uint32_t SyntheticArchive::call_site(const std::string& file, std::uint32_t line,
                                          const std::string& function) {
  const std::uint32_t f = string(function);
  std::uint32_t function_region = OTF2_UNDEFINED_UINT32;
  for (std::uint32_t i = 0; i < regions_.size(); ++i)
    if (regions_[i].name == f && regions_[i].paradigm == OTF2_PARADIGM_USER) function_region = i;
  if (function_region == OTF2_UNDEFINED_UINT32) {
    regions_.push_back({f, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER});
    function_region = static_cast<std::uint32_t>(regions_.size() - 1);
  }
  call_sites_.push_back({string(file), line, function_region});
  return static_cast<std::uint32_t>(call_sites_.size() - 1);
}

std::uint32_t SyntheticArchive::comm(const std::vector<std::uint32_t>& world_ranks,
                                     const std::string& name) {
  comms_.push_back({string(name), {world_ranks.begin(), world_ranks.end()}});
  return static_cast<std::uint32_t>(comms_.size() - 1);
}

LocationStream& SyntheticArchive::location(int rank, int thread) {
  if (rank < 0 || rank >= options_.ranks || thread < 0 || thread >= options_.threads_per_rank)
    throw std::out_of_range("SyntheticArchive: no such location");
  return *streams_[static_cast<std::size_t>(rank * options_.threads_per_rank + thread)];
}

void SyntheticArchive::close() {
  if (closed_) return;
  for (auto& s : streams_) s->close();
  check(OTF2_Archive_CloseEvtFiles(archive_), "close event files");
  check(OTF2_Archive_CloseDefFiles(archive_), "close definition files");
  write_definitions();
  check(OTF2_Archive_Close(archive_), "close archive");
  closed_ = true;
}

void SyntheticArchive::write_definitions() {
  OTF2_GlobalDefWriter* w = OTF2_Archive_GetGlobalDefWriter(archive_);
  if (!w) throw std::runtime_error("SyntheticArchive: no global definition writer");

  check(OTF2_GlobalDefWriter_WriteClockProperties(w, options_.timer_resolution,
                                                  options_.global_offset, options_.trace_length, 0),
        "ClockProperties");

  // Strings that the definitions below need, then every string at once.
  const std::uint32_t machine = string("machine");
  const std::uint32_t node_class = string("node");
  const std::uint32_t machine_class = string("machine");
  std::vector<std::uint32_t> node_names, rank_names, thread_names;
  for (int n = 0; n < options_.nodes; ++n) node_names.push_back(string("node" + std::to_string(n)));
  for (int r = 0; r < options_.ranks; ++r)
    rank_names.push_back(string("MPI Rank " + std::to_string(r)));
  for (int t = 0; t < options_.threads_per_rank; ++t)
    thread_names.push_back(string("Thread " + std::to_string(t)));
  const std::uint32_t mpi_file = string("MPI");
  const std::uint32_t call_site_name = string("CallSite");
  const std::uint32_t locations_name = string("MPI_COMM_WORLD locations");
  for (std::uint32_t i = 0; i < strings_.size(); ++i)
    check(OTF2_GlobalDefWriter_WriteString(w, i, strings_[i].c_str()), "String");

  check(
      OTF2_GlobalDefWriter_WriteAttribute(w, 0, call_site_name, kEmpty, OTF2_TYPE_CALLING_CONTEXT),
      "Attribute");

  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, machine, machine_class,
                                                 OTF2_UNDEFINED_SYSTEM_TREE_NODE),
        "SystemTreeNode");
  for (int n = 0; n < options_.nodes; ++n)
    check(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, static_cast<std::uint32_t>(n + 1),
                                                   node_names[n], node_class, 0),
          "SystemTreeNode");
  const int ranks_per_node = (options_.ranks + options_.nodes - 1) / options_.nodes;
  for (int r = 0; r < options_.ranks; ++r)
    check(OTF2_GlobalDefWriter_WriteLocationGroup(
              w, static_cast<std::uint32_t>(r), rank_names[r], OTF2_LOCATION_GROUP_TYPE_PROCESS,
              static_cast<std::uint32_t>(r / ranks_per_node + 1), OTF2_UNDEFINED_LOCATION_GROUP),
          "LocationGroup");
  for (int r = 0; r < options_.ranks; ++r)
    for (int t = 0; t < options_.threads_per_rank; ++t)
      check(OTF2_GlobalDefWriter_WriteLocation(
                w, location_id(r, t), thread_names[t], OTF2_LOCATION_TYPE_CPU_THREAD,
                location(r, t).events(), static_cast<std::uint32_t>(r)),
            "Location");

  for (std::uint32_t i = 0; i < regions_.size(); ++i) {
    const RegionDef& d = regions_[i];
    check(OTF2_GlobalDefWriter_WriteRegion(
              w, i, d.name, d.name, kEmpty, d.role, d.paradigm, OTF2_REGION_FLAG_NONE,
              d.paradigm == OTF2_PARADIGM_MPI ? mpi_file : kEmpty, 0, 0),
          "Region");
  }
  for (std::uint32_t i = 0; i < call_sites_.size(); ++i) {
    const CallSiteDef& c = call_sites_[i];
    check(OTF2_GlobalDefWriter_WriteSourceCodeLocation(w, i, c.file, c.line), "SourceCodeLocation");
    check(OTF2_GlobalDefWriter_WriteCallingContext(w, i, c.function_region, i,
                                                   OTF2_UNDEFINED_CALLING_CONTEXT),
          "CallingContext");
  }

  // Group 0 lists the locations of world ranks 0..n-1; each communicator's group lists its
  // members as indexes into group 0 (= world ranks).
  std::vector<std::uint64_t> rank_locations;
  for (int r = 0; r < options_.ranks; ++r) rank_locations.push_back(location_id(r, 0));
  check(OTF2_GlobalDefWriter_WriteGroup(w, 0, locations_name, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                        static_cast<std::uint32_t>(rank_locations.size()),
                                        rank_locations.data()),
        "Group");
  for (std::uint32_t c = 0; c < comms_.size(); ++c) {
    check(OTF2_GlobalDefWriter_WriteGroup(w, c + 1, comms_[c].name, OTF2_GROUP_TYPE_COMM_GROUP,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                          static_cast<std::uint32_t>(comms_[c].members.size()),
                                          comms_[c].members.data()),
          "Group");
    check(OTF2_GlobalDefWriter_WriteComm(w, c, comms_[c].name, c + 1,
                                         c == 0 ? OTF2_UNDEFINED_COMM : 0, OTF2_COMM_FLAG_NONE),
          "Comm");
  }
  check(OTF2_Archive_CloseGlobalDefWriter(archive_, w), "close global definition writer");
}

}  // namespace collwrap::testing
