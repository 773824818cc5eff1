#include "record/otf2_archive.h"

#include <otf2/OTF2_Pthread_Locks.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <vector>

#include "record/diagnostics.h"
#include "record/trace_directory.h"

namespace collwrap::tracer {
namespace {

OTF2_FlushType flush_when_full(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}

// Memory for OTF2's chunks, limited per event buffer: when a location's buffer reaches the
// limit the allocation fails, OTF2 flushes the buffer to disk, releases its chunks and continues.
// The events wait in the thread's event log (event_log.h) until it is full, so OTF2's buffer is
// only where they pass through on their way to disk: a few chunks are enough.
// Released chunks are kept for reuse, so a long run does not pay for fresh pages after every
// flush.
constexpr std::uint64_t kEventStagingChunks = 4;

struct ChunkBudget {
  std::uint64_t max_event_bytes;
};

struct BufferChunks {
  std::vector<void*> in_use;
  std::vector<void*> spare;
  std::uint64_t bytes = 0;  // in use and spare
};

void* allocate_chunk(void* user_data, OTF2_FileType type, OTF2_LocationRef, void** per_buffer,
                     std::uint64_t chunk_size) {
  const auto* budget = static_cast<const ChunkBudget*>(user_data);
  auto* buffer = static_cast<BufferChunks*>(*per_buffer);
  if (buffer == nullptr) {
    buffer = new (std::nothrow) BufferChunks;
    if (buffer == nullptr) return nullptr;
    *per_buffer = buffer;
  }
  try {
    buffer->in_use.reserve(buffer->in_use.size() + 1);
  } catch (...) {
    return nullptr;
  }
  void* chunk = nullptr;
  if (!buffer->spare.empty()) {
    chunk = buffer->spare.back();
    buffer->spare.pop_back();
  } else {
    if (type == OTF2_FILETYPE_EVENTS && buffer->bytes + chunk_size > budget->max_event_bytes) {
      return nullptr;
    }
    chunk = std::malloc(chunk_size);
    if (chunk == nullptr) return nullptr;
    buffer->bytes += chunk_size;
  }
  buffer->in_use.push_back(chunk);
  return chunk;
}

void free_chunks(void*, OTF2_FileType, OTF2_LocationRef, void** per_buffer, bool final) {
  auto* buffer = static_cast<BufferChunks*>(*per_buffer);
  if (buffer == nullptr) return;
  if (!final) {
    try {
      buffer->spare.insert(buffer->spare.end(), buffer->in_use.begin(), buffer->in_use.end());
      buffer->in_use.clear();
      return;
    } catch (...) {
      // No room to keep them: release the chunks below instead.
    }
  }
  for (void* chunk : buffer->in_use) std::free(chunk);
  for (void* chunk : buffer->spare) std::free(chunk);
  buffer->in_use.clear();
  buffer->spare.clear();
  buffer->bytes = 0;
  if (final) {
    delete buffer;
    *per_buffer = nullptr;
  }
}

OTF2_ErrorCode report_otf2_error(void*, const char*, std::uint64_t, const char*,
                                 OTF2_ErrorCode code, const char* format, va_list args) {
  char message[256];
  std::vsnprintf(message, sizeof message, format ? format : "", args);
  report_problem_once("OTF2: %s: %s", OTF2_Error_GetName(code), message);
  return code;
}

}  // namespace

OTF2_Archive* create_archive(const ArchiveIdentity& identity, std::string& problem) {
  // The budget must outlive the archive, which lives until finalize; one archive per process.
  static ChunkBudget budget{kEventStagingChunks * OTF2_CHUNK_SIZE_EVENTS_DEFAULT};

  OTF2_Archive* archive = OTF2_Archive_Open(
      identity.directory.c_str(), kArchiveName, OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_EVENTS_DEFAULT,
      OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (archive == nullptr) {
    problem = "OTF2 cannot open an archive in " + identity.directory;
    return nullptr;
  }
  // No post-flush callback: OTF2 then writes no BufferFlush record of its own. Its flushes
  // happen while a log is written out, between records of the past; the event log records the
  // BufferFlush of that whole write instead (ThreadRecorder::State::make_room).
  static const OTF2_FlushCallbacks flush{flush_when_full, nullptr};
  static const OTF2_MemoryCallbacks memory{allocate_chunk, free_chunks};
  OTF2_ErrorCode status = OTF2_Archive_SetFlushCallbacks(archive, &flush, nullptr);
  if (status == OTF2_SUCCESS) status = OTF2_Archive_SetMemoryCallbacks(archive, &memory, &budget);
  if (status == OTF2_SUCCESS) status = OTF2_Pthread_Archive_SetLockingCallbacks(archive, nullptr);
  if (status == OTF2_SUCCESS)
    status = OTF2_Archive_SetCreator(archive, "collwrap " COLLWRAP_VERSION);
  if (status == OTF2_SUCCESS)
    status = OTF2_Archive_SetDescription(archive, identity.program.c_str());
  if (status == OTF2_SUCCESS)
    status = OTF2_Archive_SetMachineName(archive, identity.machine.c_str());
  if (status != OTF2_SUCCESS) {
    problem = std::string("OTF2 archive setup failed: ") + OTF2_Error_GetDescription(status);
    return nullptr;  // the half-configured archive is left alone: closing it needs collectives
  }
  return archive;
}

void route_otf2_errors() noexcept {
  OTF2_Error_RegisterCallback(report_otf2_error, nullptr);
}

}  // namespace collwrap::tracer
