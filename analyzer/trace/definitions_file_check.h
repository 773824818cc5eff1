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
#include <string>

namespace collwrap {

// An empty string when the framing is sound (or the file cannot be opened: libotf2 says why);
// otherwise what is wrong, with the byte offset.
std::string check_definitions_file(const std::string& path, std::uint64_t chunk_size);

}  // namespace collwrap
