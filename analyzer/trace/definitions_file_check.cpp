#include "definitions_file_check.h"

#include "otf2_buffer_format.h"
#include "otf2_chunked_file.h"

namespace collwrap {

std::string check_definitions_file(const std::string& path, std::uint64_t chunk_size) {
  using namespace otf2_format;
  ChunkedFile file(path, chunk_size);
  if (!file.is_open()) return "";
  std::uint64_t chunk = 0;
  const auto at = [&](const std::uint8_t* p) {
    return "byte " +
           std::to_string(chunk * chunk_size + static_cast<std::uint64_t>(p - file.begin()));
  };
  if (!file.load(chunk)) return "its first chunk has no valid header";
  const std::uint8_t* p = file.begin() + kChunkHeaderBytes;
  for (;;) {
    if (p >= file.end()) return "the file ends at " + at(p) + " without OTF2's end-of-file record";
    const std::uint8_t* record = p;
    const std::uint8_t type = *p++;
    if (type == kEndOfFile) {
      if (p + 1 == file.end() && *p == kEndOfBuffer && file.is_last_chunk()) return "";
      return "the end-of-file record at " + at(record) + " is not at the end of the file";
    }
    if (type == kEndOfChunk) {
      if (!file.load(++chunk)) return "chunk " + std::to_string(chunk) + " is missing or damaged";
      p = file.begin() + kChunkHeaderBytes;
      continue;
    }
    std::uint64_t length = 0;
    if (!read_record_length(p, file.end(), file.big_endian(), length))
      return "the record at " + at(record) + " runs past the file's data";
    p += length;
  }
}

}  // namespace collwrap
