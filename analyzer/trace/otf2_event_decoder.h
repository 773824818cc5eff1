// Decodes a location's OTF2 event file (traces/<location>.evt) without libotf2, about twice as
// fast, giving the records libotf2 3.x's event reader gives: the same positions, the same
// clock-corrected times (otf2_local_definitions.h), the same mapped ids and attributes.
//
// It reads OTF2's POSIX layout without compression (otf2_buffer_format.h), one chunk at a
// time, and never past the file's data. It stops with Irregular where a record cannot be
// decoded from the file's bytes as libotf2 3.x decodes it (damage, a cut), and with
// Unsupported where libotf2 would give the loader something else than the record (a calling
// context's Enter becomes an Enter) or report an error that the loader takes as damage (an
// attribute asked for in another type). The caller reads the location through libotf2 then,
// except after Irregular in the file's last chunk: libotf2 would read the rest of that chunk
// from memory that is not the file's (otf2_events.h).
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "otf2_chunked_file.h"
#include "otf2_event_record.h"
#include "otf2_local_definitions.h"

namespace collwrap {

// An attribute the loader reads, in the type it reads it as. Asked for in another type,
// libotf2 reports an error: a record that has it in another type is Unsupported.
struct WantedAttribute {
  OTF2_AttributeRef id;
  OTF2_Type type;
};

class EventFileDecoder {
 public:
  enum class Step { Record, End, Irregular, Unsupported };

  // `definitions` and `wanted` must outlive the decoder.
  EventFileDecoder(const std::string& path, std::uint64_t chunk_size,
                   const LocalDefinitions& definitions, std::span<const WantedAttribute> wanted);

  // The next event record; its attributes stay valid until the next call.
  Step next(EventRecord& record);

  // After Irregular: whether it came in the file's last chunk, and how many records came
  // before it. In a file that was cut short, that is where the cut is.
  bool in_last_chunk() const { return file_.is_open() && file_.is_last_chunk(); }
  std::uint64_t records() const { return position_; }

 private:
  bool next_chunk();
  bool read_attribute_list();
  bool decode(std::uint8_t type, EventRecord& record);
  bool decode_singleton(std::uint8_t type, EventRecord& record);
  bool decode_other(std::uint8_t type, const std::uint8_t* fields, const std::uint8_t* end);
  Step stopped() const { return unsupported_ ? Step::Unsupported : Step::Irregular; }

  ChunkedFile file_;
  const LocalDefinitions& defs_;
  std::span<const WantedAttribute> wanted_;
  std::uint64_t chunk_ = 0;
  const std::uint8_t* p_ = nullptr;    // the next byte to decode
  const std::uint8_t* end_ = nullptr;  // the end of the chunk's bytes
  bool big_endian_ = false;
  bool opened_ = false;
  // The time of the last timestamp record: every record after it has it.
  std::uint64_t ticks_ = 0;
  std::size_t interval_ = 0;  // see ClockCorrection
  // ticks_ corrected, while the interval it was corrected in has not moved: the records that
  // share a timestamp get the same time without the arithmetic again.
  std::uint64_t corrected_ = 0;
  bool corrected_valid_ = false;
  std::uint64_t position_ = 0;
  std::vector<DecodedAttribute> attributes_;  // for the next event record
  bool unsupported_ = false;                  // why the last decode failed: see Step::Unsupported
};

}  // namespace collwrap
