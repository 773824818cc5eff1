#include "definitions_file_check.h"

namespace collwrap {

using namespace otf2_format;

std::string walk_definition_records(ChunkedFile& file, const DefinitionRecordVisitor& visit,
                                    const std::uint8_t*& end_of_file) {
  std::uint64_t chunk = 0;
  const auto at = [&](const std::uint8_t* p) {
    return "byte " +
           std::to_string(chunk * file.chunk_size() + static_cast<std::uint64_t>(p - file.begin()));
  };
  if (!file.load(chunk)) return "its first chunk has no valid header";
  const std::uint8_t* p = file.begin() + kChunkHeaderBytes;
  for (;;) {
    if (p >= file.end()) return "the file ends at " + at(p) + " without OTF2's end-of-file record";
    const std::uint8_t* record = p;
    const std::uint8_t type = *p++;
    if (type == kEndOfFile) {
      end_of_file = record;
      return "";
    }
    if (type == kEndOfChunk) {
      if (!file.load(++chunk)) return "chunk " + std::to_string(chunk) + " is missing or damaged";
      p = file.begin() + kChunkHeaderBytes;
      continue;
    }
    std::uint64_t length = 0;
    if (!read_record_length(p, file.end(), file.big_endian(), length))
      return "the record at " + at(record) + " runs past the file's data";
    if (!visit(type, FieldReader{p, p + length, file.big_endian()}))
      return "the record at " + at(record) + " is not understood";
    p += length;
  }
}

std::string check_definitions_file(const std::string& path, std::uint64_t chunk_size) {
  ChunkedFile file(path, chunk_size);
  if (!file.is_open()) return "";
  const std::uint8_t* end_of_file = nullptr;
  const std::string problem = walk_definition_records(
      file, [](std::uint8_t, FieldReader) { return true; }, end_of_file);
  if (!problem.empty()) return problem;
  const std::uint8_t* after = end_of_file + 1;
  if (after + 1 == file.end() && *after == kEndOfBuffer && file.is_last_chunk()) return "";
  return "the end-of-file record at byte " +
         std::to_string((file.chunk() * file.chunk_size()) +
                        static_cast<std::uint64_t>(end_of_file - file.begin())) +
         " is not at the end of the file";
}

}  // namespace collwrap
