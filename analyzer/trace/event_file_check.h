// How much of a location's event file can be read safely.
//
// OTF2 reads an event file chunk by chunk into a reused buffer. When the file was cut short
// (a rank killed while writing, a copy interrupted), OTF2 does not notice: it decodes the end
// of the buffer left over from the previous chunk and can go on delivering stale or garbage
// records forever. So before reading, the file's framing is checked: a complete file ends with
// OTF2's end-of-file and end-of-buffer markers; in a cut one, libotf2 is trusted only with the
// records of the chunks before the last (incomplete) chunk, as numbered in that chunk's
// header. The analyzer's own decoder, which never reads past the file's data, reads a cut
// file up to the cut.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>

namespace collwrap {

struct EventFileExtent {
  bool exists = false;
  std::uint64_t bytes = 0;
  bool complete = false;  // ends as OTF2 ends a file
  // Records 1..last_trusted_record can be read. For a complete file, the file size (every
  // record takes at least a byte), which still stops a decoder that loops on damaged data.
  std::uint64_t last_trusted_record = 0;
};

// Checks an uncompressed event file written through OTF2's POSIX substrate with the given
// event chunk size.
EventFileExtent check_event_file(const std::string& path, std::uint64_t chunk_size);

// The chunk sizes of an archive in OTF2's POSIX layout without compression.
struct ChunkSizes {
  std::uint64_t events = 0;
  std::uint64_t definitions = 0;
};

// What the event loader (otf2_events.h) needs to know about a location's stream.
struct StreamLimits {
  std::uint64_t expected_events = 0;  // sizes the columns up front; a hint, not a limit
  std::uint64_t last_record = std::numeric_limits<std::uint64_t>::max();  // read no further
  std::string cut_reason;  // the warning when the read stops at last_record
  // Set when the analyzer's own decoder may read the location (otf2_event_decoder.h): the
  // archive has the layout it knows.
  std::optional<ChunkSizes> decodable;
  // The file does not end as OTF2 ends one: it was cut short. The own decoder keeps every
  // record before the cut; libotf2 is stopped at last_record.
  bool cut = false;
};

// The limits of every location of one archive. The check knows OTF2's POSIX layout without
// compression, the layout libcollwrap writes; other archives are read as they come.
class EventFiles {
 public:
  EventFiles(OTF2_Reader* reader, const std::string& anchor);

  // `declared` is the Location definition's event count. Nullopt when the file is missing.
  std::optional<StreamLimits> limits(std::uint64_t location_id, std::uint64_t declared) const;
  // The archive's chunk sizes, when it has the layout the check knows.
  const std::optional<ChunkSizes>& chunk_sizes() const { return chunks_; }

 private:
  std::filesystem::path directory_;
  std::optional<ChunkSizes> chunks_;  // set when the layout is one the check knows
};

}  // namespace collwrap
