#include "otf2_event_decoder.h"

#include <array>

#include "otf2_buffer_format.h"

namespace collwrap {
namespace {

using namespace otf2_format;

// The fields of the event records the analyzer does not use, read only to check them as
// libotf2 reads them: '1' one byte, '4' a compressed 32-bit and '8' a compressed 64-bit
// integer, 'T' a full-width timestamp (clock-corrected). "s4"/"s8": a record without a length,
// one compressed integer. "M": Metric, "P": ProgramBegin, with their arrays. Null: a type
// libotf2 3.x does not know either, read as a length and skipped.
constexpr std::array<const char*, 89> other_record_fields() {
  std::array<const char*, 89> f{};
  f[10] = "T";                   // BufferFlush
  f[11] = "1";                   // MeasurementOnOff
  f[24] = "s4";                  // OmpFork
  f[25] = "";                    // OmpJoin
  f[26] = f[27] = "44";          // OmpAcquireLock, OmpReleaseLock
  f[28] = f[29] = f[30] = "s8";  // OmpTaskCreate, …Switch, …Complete
  f[31] = "M";
  f[32] = "44";                                // ParameterString
  f[33] = f[34] = "48";                        // ParameterInt, ParameterUnsignedInt
  f[35] = f[36] = "4";                         // RmaWinCreate, RmaWinDestroy
  for (int t = 49; t <= 52; ++t) f[t] = "48";  // RmaOpComplete…, RmaOpTest
  f[53] = "14";                                // ThreadFork
  f[54] = "1";                                 // ThreadJoin
  f[55] = f[56] = "4";                         // ThreadTeamBegin, ThreadTeamEnd
  f[57] = f[58] = "144";                       // ThreadAcquireLock, ThreadReleaseLock
  f[59] = f[60] = f[61] = "444";               // ThreadTask…
  for (int t = 62; t <= 65; ++t) f[t] = "48";  // ThreadCreate, …Begin, …Wait, …End
  f[66] = "44";                                // CallingContextEnter
  f[67] = "4";                                 // CallingContextLeave
  f[68] = "444";                               // CallingContextSample
  f[69] = "4144";                              // IoCreateHandle
  f[70] = "4";                                 // IoDestroyHandle
  f[71] = "444";                               // IoDuplicateHandle
  f[72] = "4818";                              // IoSeek
  f[73] = "44";                                // IoChangeStatusFlags
  f[74] = "14";                                // IoDeleteFile
  f[75] = "41488";                             // IoOperationBegin
  f[76] = f[77] = "48";                        // IoOperationTest, IoOperationIssued
  f[78] = "488";                               // IoOperationComplete
  f[79] = "48";                                // IoOperationCancelled
  f[80] = f[81] = f[82] = "41";                // IoAcquireLock, IoReleaseLock, IoTryLock
  f[83] = "P";
  f[84] = "8";          // ProgramEnd
  f[87] = f[88] = "4";  // CommCreate, CommDestroy
  return f;
}
constexpr std::array<const char*, 89> kOtherRecordFields = other_record_fields();

bool is_singleton(std::uint8_t type) {
  switch (static_cast<Otf2Record>(type)) {
    case Otf2Record::Enter:
    case Otf2Record::Leave:
    case Otf2Record::MpiIsendComplete:
    case Otf2Record::MpiIrecvRequest:
    case Otf2Record::MpiRequestTest:
    case Otf2Record::MpiRequestCancelled:
      return true;
    default:
      break;
  }
  const char* f = type < kOtherRecordFields.size() ? kOtherRecordFields[type] : nullptr;
  return f && f[0] == 's';
}

// A 32-bit reference read and mapped: libotf2 keeps the low 32 bits of the global id.
bool reference(FieldReader& f, const IdMap& map, std::uint32_t& ref) {
  std::uint64_t local = 0;
  if (!f.compressed32(local)) return false;
  ref = static_cast<std::uint32_t>(map(local));
  return true;
}

bool rank32(FieldReader& f, std::uint32_t& v) {
  std::uint64_t wide = 0;
  if (!f.compressed32(wide)) return false;
  v = static_cast<std::uint32_t>(wide);
  return true;
}

}  // namespace

EventFileDecoder::EventFileDecoder(const std::string& path, std::uint64_t chunk_size,
                                   const LocalDefinitions& definitions,
                                   std::span<const WantedAttribute> wanted)
    : file_(path, chunk_size), defs_(definitions), wanted_(wanted) {
  opened_ = file_.load(0);
  if (opened_) {
    p_ = file_.begin() + kChunkHeaderBytes;
    end_ = file_.end();
    big_endian_ = file_.big_endian();
  }
}

bool EventFileDecoder::next_chunk() {
  if (!file_.load(++chunk_)) return false;
  p_ = file_.begin() + kChunkHeaderBytes;
  end_ = file_.end();
  big_endian_ = file_.big_endian();
  return true;
}

EventFileDecoder::Step EventFileDecoder::next(EventRecord& record) {
  if (!opened_) return Step::Irregular;
  attributes_.clear();
  for (;;) {
    if (p_ >= end_) return Step::Irregular;
    if (*p_ == kTimestamp) {
      if (end_ - p_ < 10) return Step::Irregular;  // the time, then a record's type byte
      ticks_ = load_uint(p_ + 1, 8, big_endian_);
      corrected_valid_ = false;
      p_ += 9;
    }
    if (p_ >= end_) return Step::Irregular;
    const std::uint8_t type = *p_++;
    if (type == kEndOfChunk) {
      if (!next_chunk()) return Step::Irregular;
      continue;
    }
    if (type == kEndOfFile) return Step::End;
    if (type == kAttributeList) {
      if (!read_attribute_list()) return stopped();
      continue;
    }
    record = EventRecord{};
    if (!corrected_valid_) {
      corrected_ = defs_.clock(ticks_, interval_);
      corrected_valid_ = true;
    }
    record.time = corrected_;
    if (!decode(type, record)) return stopped();
    record.position = ++position_;
    record.attributes = RecordAttributes(std::span<const DecodedAttribute>(attributes_));
    return Step::Record;
  }
}

bool EventFileDecoder::decode_singleton(std::uint8_t type, EventRecord& r) {
  // libotf2's check: the value, and at least one byte after it, before the chunk's end.
  if (end_ - p_ <= 1) return false;
  const unsigned size = *p_ == kAllOnes ? 0 : *p_;
  if (size > 8 || end_ - p_ <= static_cast<std::ptrdiff_t>(size) + 1) return false;
  FieldReader f{p_, end_, big_endian_};
  std::uint64_t value = 0;
  switch (static_cast<Otf2Record>(type)) {
    case Otf2Record::Enter:
    case Otf2Record::Leave:
      if (!reference(f, defs_.region, r.ref)) return false;
      r.type = static_cast<Otf2Record>(type);
      break;
    case Otf2Record::MpiIsendComplete:
    case Otf2Record::MpiIrecvRequest:
    case Otf2Record::MpiRequestTest:
    case Otf2Record::MpiRequestCancelled:
      if (!f.compressed64(r.id)) return false;
      r.type = static_cast<Otf2Record>(type);
      break;
    default:  // OmpFork, OmpTask…
      if (!(kOtherRecordFields[type][1] == '4' ? f.compressed32(value) : f.compressed64(value)))
        return false;
  }
  p_ = f.p;
  return true;
}

bool EventFileDecoder::decode(std::uint8_t type, EventRecord& r) {
  if (is_singleton(type)) return decode_singleton(type, r);
  std::uint64_t length = 0;
  if (!read_record_length(p_, end_, big_endian_, length)) return false;
  FieldReader f{p_, p_ + length, big_endian_};
  p_ += length;  // fields past the ones read are skipped, as libotf2 skips them
  std::uint8_t byte = 0;
  std::uint64_t ignored = 0;
  const auto tagged = static_cast<Otf2Record>(type);
  switch (tagged) {
    case Otf2Record::MpiSend:
    case Otf2Record::MpiRecv:
    case Otf2Record::MpiIsend:
    case Otf2Record::MpiIrecv:
      if (!rank32(f, r.rank) || !reference(f, defs_.comm, r.ref) || !rank32(f, r.tag) ||
          !f.compressed64(r.bytes))
        return false;
      if ((tagged == Otf2Record::MpiIsend || tagged == Otf2Record::MpiIrecv) &&
          !f.compressed64(r.id))
        return false;
      break;
    case Otf2Record::MpiCollectiveBegin:
    case Otf2Record::RmaCollectiveBegin:
      break;
    case Otf2Record::MpiCollectiveEnd:
    case Otf2Record::NbcComplete:
      if (!f.byte(r.code) || !reference(f, defs_.comm, r.ref) || !rank32(f, r.rank) ||
          !f.compressed64(r.bytes) || !f.compressed64(r.bytes_received))
        return false;
      if (tagged == Otf2Record::NbcComplete && !f.compressed64(r.id)) return false;
      break;
    case Otf2Record::NbcRequest:
      if (!f.compressed64(r.id)) return false;
      break;
    case Otf2Record::RmaCollectiveEnd:
      if (!f.byte(r.code) || !f.compressed32(ignored) || !reference(f, defs_.window, r.ref) ||
          !rank32(f, r.rank) || !f.compressed64(r.bytes) || !f.compressed64(r.bytes_received))
        return false;
      break;
    case Otf2Record::RmaGroupSync:
      if (!f.compressed32(ignored) || !reference(f, defs_.window, r.ref) ||
          !reference(f, defs_.group, r.tag))
        return false;
      break;
    case Otf2Record::RmaRequestLock:
    case Otf2Record::RmaAcquireLock:
    case Otf2Record::RmaTryLock:
      if (!reference(f, defs_.window, r.ref) || !rank32(f, r.rank) || !f.compressed64(r.id) ||
          !f.byte(r.code))
        return false;
      break;
    case Otf2Record::RmaReleaseLock:
      if (!reference(f, defs_.window, r.ref) || !rank32(f, r.rank) || !f.compressed64(r.id))
        return false;
      break;
    case Otf2Record::RmaSync:
      if (!reference(f, defs_.window, r.ref) || !rank32(f, r.rank) || !f.byte(byte)) return false;
      break;
    case Otf2Record::RmaWaitChange:
      if (!reference(f, defs_.window, r.ref)) return false;
      break;
    case Otf2Record::RmaPut:
    case Otf2Record::RmaGet:
      if (!reference(f, defs_.window, r.ref) || !rank32(f, r.rank) || !f.compressed64(r.bytes) ||
          !f.compressed64(ignored))
        return false;
      break;
    case Otf2Record::RmaAtomic:
      if (!reference(f, defs_.window, r.ref) || !rank32(f, r.rank) || !f.byte(byte) ||
          !f.compressed64(r.bytes) || !f.compressed64(r.bytes_received) || !f.compressed64(ignored))
        return false;
      break;
    default:
      return decode_other(type, f.p, f.end);
  }
  r.type = tagged;
  return true;
}

bool EventFileDecoder::decode_other(std::uint8_t type, const std::uint8_t* fields,
                                    const std::uint8_t* end) {
  const char* layout = type < kOtherRecordFields.size() ? kOtherRecordFields[type] : nullptr;
  if (!layout) return true;  // unknown to libotf2 as well: skipped by its length
  // libotf2 delivers these to the Enter and Leave callbacks when, as the loader's, its own are
  // not set, with the region of the calling context's global definition: left to it.
  if (type == 66 || type == 67) {
    unsupported_ = true;
    return false;
  }
  FieldReader f{fields, end, big_endian_};
  std::uint64_t v = 0, count = 0;
  std::uint8_t byte = 0, value_type = 0;
  switch (layout[0]) {
    case 'M':  // Metric: metric, count, then count × (type byte, value)
      if (!f.compressed32(v) || !f.byte(byte)) return false;
      for (unsigned i = 0; i < byte; ++i)
        if (!f.byte(value_type) || !f.compressed64(v)) return false;
      return true;
    case 'P':  // ProgramBegin: name, count, then count × argument
      if (!f.compressed32(v) || !f.compressed32(count)) return false;
      for (std::uint64_t i = 0; i < count; ++i)
        if (!f.compressed32(v)) return false;
      return true;
  }
  for (const char* c = layout; *c; ++c) {
    const bool ok = *c == '1'   ? f.byte(byte)
                    : *c == '4' ? f.compressed32(v)
                    : *c == '8' ? f.compressed64(v)
                                : f.full(8, v);
    if (!ok) return false;
    if (*c == 'T') {  // BufferFlush's stop time is corrected too, which may move the interval
      defs_.clock(v, interval_);
      corrected_valid_ = false;
    }
  }
  return true;
}

bool EventFileDecoder::read_attribute_list() {
  std::uint64_t length = 0;
  if (!read_record_length(p_, end_, big_endian_, length)) return false;
  FieldReader f{p_, p_ + length, big_endian_};
  p_ += length;
  std::uint64_t count = 0;
  if (!f.compressed32(count)) return false;
  // libotf2's consistency check, in its 32-bit arithmetic.
  if (length > static_cast<std::uint32_t>(static_cast<std::uint32_t>(count) * 15u + 5u))
    return false;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t local = 0, value = 0;
    std::uint8_t type = 0;
    if (!f.compressed32(local) || !f.byte(type)) return false;
    const auto id = static_cast<std::uint32_t>(defs_.attribute(local));
    bool ok = false;
    switch (type) {
      case OTF2_TYPE_UINT8:
      case OTF2_TYPE_INT8:
        ok = f.full(1, value);
        break;
      case OTF2_TYPE_UINT16:
      case OTF2_TYPE_INT16:
        ok = f.full(2, value);
        break;
      case OTF2_TYPE_FLOAT:
        ok = f.full(4, value);
        break;
      case OTF2_TYPE_DOUBLE:
        ok = f.full(8, value);
        break;
      case OTF2_TYPE_UINT32:
      case OTF2_TYPE_INT32:
        ok = f.compressed32(value);
        break;
      case OTF2_TYPE_CALLING_CONTEXT:
        ok = f.compressed32(value);
        value = static_cast<std::uint32_t>(defs_.calling_context(value));
        break;
      default:
        // The other reference types are compressed 32-bit ids (LOCATION 64-bit), NONE and
        // types libotf2 does not know compressed 64-bit. Their values are not used, so their
        // mapping tables are not applied.
        ok = type >= OTF2_TYPE_STRING && type <= OTF2_TYPE_LOCATION_GROUP &&
                     type != OTF2_TYPE_LOCATION
                 ? f.compressed32(value)
                 : f.compressed64(value);
    }
    if (!ok) return false;
    for (const DecodedAttribute& a : attributes_)
      if (a.id == id) return false;  // libotf2 refuses a second value of one attribute
    for (const WantedAttribute& w : wanted_)
      if (w.id == id && w.type != type) {
        unsupported_ = true;
        return false;
      }
    attributes_.push_back({id, type, value});
  }
  return true;
}

}  // namespace collwrap
