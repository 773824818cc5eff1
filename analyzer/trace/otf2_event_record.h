// One OTF2 event record as the event loader (otf2_events.h) takes it, whichever decoder read
// it: libotf2's event reader, or the analyzer's own (otf2_event_decoder.h). References are
// global ids (the location's mapping tables applied), times are ticks with the location's
// clock offsets applied.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <span>

namespace collwrap {

// The records the analyzer uses, by their type byte in an event file; Other for the rest.
enum class Otf2Record : std::uint8_t {
  Other = 0,
  Enter = 12,
  Leave = 13,
  MpiSend = 14,
  MpiIsend = 15,
  MpiIsendComplete = 16,
  MpiIrecvRequest = 17,
  MpiRecv = 18,
  MpiIrecv = 19,
  MpiRequestTest = 20,
  MpiRequestCancelled = 21,
  MpiCollectiveBegin = 22,
  MpiCollectiveEnd = 23,
  RmaCollectiveBegin = 37,
  RmaCollectiveEnd = 38,
  RmaGroupSync = 39,
  RmaRequestLock = 40,
  RmaAcquireLock = 41,
  RmaTryLock = 42,
  RmaReleaseLock = 43,
  RmaSync = 44,
  RmaWaitChange = 45,
  RmaPut = 46,
  RmaGet = 47,
  RmaAtomic = 48,
  NbcRequest = 85,
  NbcComplete = 86,
};

// An attribute as the analyzer's decoder reads it: its global id, OTF2_Type and value bits.
struct DecodedAttribute {
  std::uint32_t id;
  std::uint8_t type;
  std::uint64_t value;
};

// A record's attributes: libotf2's list, or the analyzer's decoder's.
class RecordAttributes {
 public:
  RecordAttributes() = default;
  explicit RecordAttributes(OTF2_AttributeList* list) : list_(list) {}
  explicit RecordAttributes(std::span<const DecodedAttribute> decoded) : decoded_(decoded) {}

  // The value of attribute `id` when the record has it with this type.
  bool calling_context(OTF2_AttributeRef id, std::uint32_t& value) const;
  bool int32(OTF2_AttributeRef id, std::int32_t& value) const;
  bool uint32(OTF2_AttributeRef id, std::uint32_t& value) const;

 private:
  const DecodedAttribute* find(OTF2_AttributeRef id, OTF2_Type type) const;
  OTF2_AttributeList* list_ = nullptr;
  std::span<const DecodedAttribute> decoded_;
};

// The fields are the union of the used records' fields, each named for its most common use.
struct EventRecord {
  Otf2Record type = Otf2Record::Other;
  OTF2_TimeStamp time = 0;
  std::uint64_t position = 0;  // in the event file, from 1; every event record counts
  // Region (Enter, Leave), communicator (Mpi…, Nbc…) or window (Rma…).
  std::uint32_t ref = 0;
  // Receiver, sender, root or remote: a rank within the communicator (or window).
  std::uint32_t rank = 0;
  std::uint32_t tag = 0;  // message tag; the group of an RmaGroupSync
  // OTF2_CollectiveOp of a collective's end; OTF2_LockType of a lock request.
  std::uint8_t code = 0;
  // Message length; bytes sent by a collective or atomic; bytes moved by RmaPut or RmaGet.
  std::uint64_t bytes = 0;
  std::uint64_t bytes_received = 0;  // by a collective or atomic
  std::uint64_t id = 0;              // request id; lock id
  RecordAttributes attributes{};
};

}  // namespace collwrap
