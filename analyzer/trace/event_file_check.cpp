#include "event_file_check.h"

#include <algorithm>
#include <array>
#include <fstream>

#include "otf2_buffer_format.h"

namespace collwrap {
namespace {

using namespace otf2_format;

bool read_at(std::ifstream& in, std::uint64_t offset, char* out, std::size_t n) {
  in.clear();
  in.seekg(static_cast<std::streamoff>(offset));
  return static_cast<bool>(in.read(out, static_cast<std::streamsize>(n)));
}

// The last record number in the header of the chunk at `offset`, or 0 if it is no header.
std::uint64_t last_record_of_chunk(std::ifstream& in, std::uint64_t offset) {
  std::array<unsigned char, kChunkHeaderBytes> h{};
  if (!read_at(in, offset, reinterpret_cast<char*>(h.data()), h.size())) return 0;
  if (h[0] != kChunkHeader || (h[1] != kLittleEndian && h[1] != kBigEndian)) return 0;
  return load_uint(h.data() + 10, 8, h[1] == kBigEndian);
}

}  // namespace

EventFileExtent check_event_file(const std::string& path, std::uint64_t chunk_size) {
  EventFileExtent extent;
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return extent;
  extent.exists = true;
  extent.bytes = static_cast<std::uint64_t>(in.tellg());
  std::array<unsigned char, 2> tail{};
  extent.complete =
      extent.bytes >= kChunkHeaderBytes + tail.size() &&
      read_at(in, extent.bytes - tail.size(), reinterpret_cast<char*>(tail.data()), tail.size()) &&
      tail[0] == kEndOfFile && tail[1] == kEndOfBuffer;
  if (extent.complete) {
    extent.last_trusted_record = extent.bytes;
  } else if (const std::uint64_t whole_chunks = chunk_size ? extent.bytes / chunk_size : 0;
             whole_chunks > 0) {
    extent.last_trusted_record = last_record_of_chunk(in, (whole_chunks - 1) * chunk_size);
  }
  return extent;
}

EventFiles::EventFiles(OTF2_Reader* reader, const std::string& anchor) {
  const std::filesystem::path a(anchor);
  directory_ = a.parent_path() / a.stem();  // OTF2 keeps traces.otf2's files in traces/
  OTF2_FileSubstrate substrate = OTF2_SUBSTRATE_UNDEFINED;
  OTF2_Compression compression = OTF2_COMPRESSION_UNDEFINED;
  ChunkSizes chunks;
  if (OTF2_Reader_GetFileSubstrate(reader, &substrate) == OTF2_SUCCESS &&
      substrate == OTF2_SUBSTRATE_POSIX &&
      OTF2_Reader_GetCompression(reader, &compression) == OTF2_SUCCESS &&
      compression == OTF2_COMPRESSION_NONE &&
      OTF2_Reader_GetChunkSize(reader, &chunks.events, &chunks.definitions) == OTF2_SUCCESS)
    chunks_ = chunks;
}

std::optional<StreamLimits> EventFiles::limits(std::uint64_t location_id,
                                               std::uint64_t declared) const {
  if (!chunks_) return StreamLimits{};
  const std::string path = (directory_ / (std::to_string(location_id) + ".evt")).string();
  const EventFileExtent extent = check_event_file(path, chunks_->events);
  if (!extent.exists) return std::nullopt;
  StreamLimits limits;
  // A damaged count must not make the reader reserve gigabytes: a record takes >= 2 bytes.
  limits.expected_events = std::min(declared, extent.bytes / 2);
  limits.last_record = extent.last_trusted_record;
  limits.decodable = chunks_;
  limits.cut = !extent.complete;
  limits.cut_reason =
      extent.complete
          ? "the event file holds more records than its size allows; it is damaged and the "
            "records past its size are ignored"
          : "the event file is truncated; records after #" +
                std::to_string(extent.last_trusted_record) +
                " (the end of its last complete chunk) are ignored";
  return limits;
}

}  // namespace collwrap
