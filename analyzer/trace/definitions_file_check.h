// Checks the framing of an archive's definitions files (the global traces.def, a location's
// traces/<location>.def) before libotf2 reads them.
//
// libotf2 reads each chunk into a buffer of the chunk size and trusts the record lengths it
// finds: a damaged length, or a file cut short, makes it read that buffer beyond the file's
// data, memory left over from earlier allocations, so the definitions it returns would vary
// from run to run. So the records are walked here first, by their lengths only: each must end
// within the file's data, and the file must end as libotf2 ends one.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "otf2_buffer_format.h"
#include "otf2_chunked_file.h"

namespace collwrap {

// One definition record: its type, and its fields within its length. False: not understood.
using DefinitionRecordVisitor =
    std::function<bool(std::uint8_t type, otf2_format::FieldReader fields)>;

// Walks the records of an open definitions file by their lengths, from its first chunk, and
// hands each to `visit`. Empty when it reached the END_OF_FILE record, with `end_of_file` set
// to it; otherwise what stopped it, with the byte: a chunk missing or damaged, a record that
// runs past the file's data, a record `visit` did not understand. Also how the analyzer reads
// a location's definitions itself (otf2_local_definitions.h).
std::string walk_definition_records(ChunkedFile& file, const DefinitionRecordVisitor& visit,
                                    const std::uint8_t*& end_of_file);

// An empty string when the framing is sound (or the file cannot be opened: libotf2 says why);
// otherwise what is wrong, with the byte offset.
std::string check_definitions_file(const std::string& path, std::uint64_t chunk_size);

}  // namespace collwrap
