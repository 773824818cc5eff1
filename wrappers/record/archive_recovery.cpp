#include "record/archive_recovery.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "record/definitions_unifier.h"
#include "record/definitions_writer.h"
#include "record/location_id.h"
#include "record/sidecar.h"
#include "record/trace_directory.h"

namespace collwrap::tracer {
namespace fs = std::filesystem;
namespace {

OTF2_FlushType always_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}

std::vector<Sidecar> read_sidecars(const fs::path& dir, RecoveryReport& report) {
  std::vector<Sidecar> sidecars;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (!is_sidecar_file_name(name)) continue;
    if (auto sidecar = read_sidecar(entry.path().string())) {
      sidecars.push_back(std::move(*sidecar));
    } else {
      report.warnings.push_back(name + " is unreadable and was skipped");
    }
  }
  std::sort(sidecars.begin(), sidecars.end(), [](const Sidecar& a, const Sidecar& b) {
    return a.definitions.world_rank < b.definitions.world_rank;
  });
  return sidecars;
}

std::vector<bool> recovered_ranks(const std::vector<Sidecar>& sidecars, std::uint32_t world_size) {
  std::vector<bool> recovered(world_size, false);
  for (const Sidecar& s : sidecars) recovered[s.definitions.world_rank] = true;
  return recovered;
}

// Ranks without a sidecar have a location in the definitions (COMM_LOCATIONS needs one per
// rank) but no usable events: give each an empty event and definition file so readers can
// open them.
OTF2_ErrorCode write_placeholder_files(OTF2_Archive* archive, const std::vector<bool>& recovered,
                                       const GlobalDefinitions& global, OTF2_FileType type) {
  for (const GlobalDefinitions::Location& l : global.locations) {
    if (recovered[l.group]) continue;
    OTF2_ErrorCode status = OTF2_ERROR_FILE_INTERACTION;
    if (type == OTF2_FILETYPE_EVENTS) {
      if (OTF2_EvtWriter* writer = OTF2_Archive_GetEvtWriter(archive, l.id)) {
        status = OTF2_Archive_CloseEvtWriter(archive, writer);
      }
    } else if (OTF2_DefWriter* writer = OTF2_Archive_GetDefWriter(archive, l.id)) {
      status = OTF2_Archive_CloseDefWriter(archive, writer);
    }
    if (status != OTF2_SUCCESS) return status;
  }
  return OTF2_SUCCESS;
}

OTF2_ErrorCode write_archive(const fs::path& dir, const std::vector<Sidecar>& sidecars,
                             const std::vector<bool>& recovered,
                             const UnifiedDefinitions& unified) {
  OTF2_Archive* archive = OTF2_Archive_Open(
      dir.c_str(), kArchiveName, OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_EVENTS_DEFAULT,
      OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (archive == nullptr) return OTF2_ERROR_FILE_INTERACTION;
  static const OTF2_FlushCallbacks flush{always_flush, nullptr};
  OTF2_ErrorCode status = OTF2_Archive_SetFlushCallbacks(archive, &flush, nullptr);
  if (status == OTF2_SUCCESS) status = OTF2_Archive_SetSerialCollectiveCallbacks(archive);
  if (status == OTF2_SUCCESS) {
    OTF2_Archive_SetCreator(archive, "collwrap-recover");
    OTF2_Archive_SetDescription(archive, sidecars.front().definitions.program.c_str());
    status = OTF2_Archive_OpenEvtFiles(archive);
  }
  if (status == OTF2_SUCCESS) {
    status = write_placeholder_files(archive, recovered, unified.global, OTF2_FILETYPE_EVENTS);
  }
  if (status == OTF2_SUCCESS) status = OTF2_Archive_CloseEvtFiles(archive);
  if (status == OTF2_SUCCESS) status = OTF2_Archive_OpenDefFiles(archive);
  if (status == OTF2_SUCCESS) {
    status = write_placeholder_files(archive, recovered, unified.global, OTF2_FILETYPE_LOCAL_DEFS);
  }
  for (std::size_t i = 0; i < sidecars.size() && status == OTF2_SUCCESS; ++i) {
    const LocalDefinitions& d = sidecars[i].definitions;
    for (const LocalLocation& l : d.locations) {
      OTF2_DefWriter* writer =
          OTF2_Archive_GetDefWriter(archive, pack_location_id(l.thread_index, d.world_rank));
      if (writer == nullptr) return OTF2_ERROR_FILE_INTERACTION;
      status = write_local_definitions(writer, unified.mappings[i], d.offsets);
      OTF2_Archive_CloseDefWriter(archive, writer);
      if (status != OTF2_SUCCESS) break;
    }
  }
  if (status == OTF2_SUCCESS) status = OTF2_Archive_CloseDefFiles(archive);
  if (status == OTF2_SUCCESS) {
    OTF2_GlobalDefWriter* writer = OTF2_Archive_GetGlobalDefWriter(archive);
    status =
        writer ? write_global_definitions(writer, unified.global) : OTF2_ERROR_FILE_INTERACTION;
  }
  OTF2_ErrorCode closed = OTF2_Archive_Close(archive);
  return status == OTF2_SUCCESS ? closed : status;
}

}  // namespace

RecoveryReport recover_archive(const std::string& directory) {
  RecoveryReport report;
  fs::path dir(directory);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    report.problem = directory + " is not a directory";
    return report;
  }
  if (fs::exists(dir / (std::string(kArchiveName) + ".otf2"), ec)) {
    report.problem = directory + " already holds a complete archive (traces.otf2)";
    return report;
  }
  std::vector<Sidecar> sidecars = read_sidecars(dir, report);
  if (sidecars.empty()) {
    report.problem = "no collwrap-rank-*.sidecar files in " + directory + ": nothing to recover";
    return report;
  }
  std::vector<LocalDefinitions> ranks;
  for (const Sidecar& s : sidecars) {
    ranks.push_back(s.definitions);
    report.ranks.push_back(s.definitions.world_rank);
    report.world_size = std::max(report.world_size, s.definitions.world_size);
  }
  UnifiedDefinitions unified = unify_definitions(ranks, sidecars.front().region_tables());
  report.warnings.insert(report.warnings.end(), unified.warnings.begin(), unified.warnings.end());
  // OTF2 creates the per-location directory itself and refuses an existing one: move the
  // event files aside while the definitions are written, then put them back.
  fs::path events = dir / kArchiveName;
  fs::path parked = dir / (std::string(kArchiveName) + ".events");
  fs::rename(events, parked, ec);
  if (ec) {
    report.problem = "cannot move " + events.string() + " aside: " + ec.message();
    return report;
  }
  std::vector<bool> recovered = recovered_ranks(sidecars, report.world_size);
  OTF2_ErrorCode status = write_archive(dir, sidecars, recovered, unified);
  // Event files of ranks without a sidecar cannot be interpreted (their local ids have no
  // mapping); they stay in traces.unrecovered/ for inspection.
  fs::create_directories(events, ec);
  for (const auto& entry : fs::directory_iterator(parked, ec)) {
    std::uint64_t location = std::strtoull(entry.path().stem().c_str(), nullptr, 10);
    bool usable = location_rank(location) < recovered.size() && recovered[location_rank(location)];
    fs::path target =
        usable ? events / entry.path().filename()
               : dir / (std::string(kArchiveName) + ".unrecovered") / entry.path().filename();
    if (!usable) fs::create_directories(target.parent_path(), ec);
    fs::rename(entry.path(), target, ec);
  }
  fs::remove(parked, ec);
  if (status != OTF2_SUCCESS) {
    fs::remove(dir / (std::string(kArchiveName) + ".otf2"), ec);
    report.problem =
        std::string("cannot write the definitions: ") + OTF2_Error_GetDescription(status);
    return report;
  }
  report.ok = true;
  return report;
}

}  // namespace collwrap::tracer
