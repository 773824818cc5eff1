// The per-thread event log: what a traced call writes on its hot path.
//
// OTF2's per-record API costs about 100 to 190 instructions per record (buffer and chunk
// checks, attribute-list handling, compressed integers, record lengths), two to four times
// what the call's two timestamps cost. So a ThreadRecorder method only appends a fixed-layout
// record of 64-bit words to this log (a bounds check and a few stores), and
// write_event_log (event_log_writer.h) turns the records into OTF2 records when the log is
// full and when the location closes. The archive stays standard OTF2; the log is never
// written anywhere itself.
//
// A record is a header word, the timestamp, and up to kMaxLogPayload words whose layout
// depends on the kind (see the ThreadRecorder methods in thread_recorder.cpp, which write
// them, and event_log_writer.cpp, which reads them). Header: bits 0-7 the kind, bits 8-15
// and 16-23 two small fields (an operation, a type, a flag), bits 32-63 the record's first
// 32-bit argument (a region, a peer, a window).
#pragma once

#include <cstddef>
#include <cstdint>

namespace collwrap::tracer {

enum class LogKind : std::uint8_t {
  Enter,          // a = region; small1 = 1: word 2 is the call site (the CallSite attribute)
  EnterLevel,     // a = region; small1 = 1: word 2 low half is the call site; high half level
  Leave,          // a = region
  MpiSend,        // a = receiver; comm | tag << 32, bytes
  MpiIsend,       // a = receiver; comm | tag << 32, bytes, request
  MpiIsendComplete,    // request
  MpiIrecvRequest,     // request
  MpiRecv,        // a = sender; comm | tag << 32, bytes
  MpiIrecv,       // a = sender; comm | tag << 32, bytes, request
  MpiRequestTest,      // request
  MpiRequestCancelled,  // request
  MpiCollectiveBegin,
  MpiCollectiveEnd,  // a = comm, small1 = op; root, sent, received
  NbcRequest,        // request
  NbcComplete,       // a = comm, small1 = op; root, sent, received, request
  RmaWinCreate,      // a = window
  RmaWinDestroy,     // a = window
  RmaPut,            // a = window; remote, bytes, match
  RmaGet,            // a = window; remote, bytes, match
  RmaAtomic,         // a = window, small1 = type; remote, sent, received, match
  RmaOpCompleteBlocking,     // a = window; match
  RmaOpCompleteNonBlocking,  // a = window; match
  RmaOpCompleteRemote,       // a = window; match
  RmaCollectiveBegin,
  RmaCollectiveEnd,  // a = window, small1 = op, small2 = level; root | upc_sync << 32, sent, received
  RmaGroupSync,      // a = window, small1 = level; group
  RmaRequestLock,    // a = window, small1 = lock type; remote, lock
  RmaAcquireLock,    // a = window, small1 = lock type; remote, lock
  RmaTryLock,        // a = window, small1 = lock type; remote, lock
  RmaReleaseLock,    // a = window; remote, lock
  RmaSync,           // a = window, small1 = sync type; remote
  RmaWaitChange,     // a = window
};

inline constexpr std::size_t kMaxLogPayload = 4;                 // words after the timestamp
inline constexpr std::size_t kMaxLogRecord = 2 + kMaxLogPayload;  // words of the longest record

constexpr std::uint64_t log_header(LogKind kind, std::uint32_t a = 0, std::uint8_t small1 = 0,
                                   std::uint8_t small2 = 0) noexcept {
  return std::uint64_t(kind) | std::uint64_t(small1) << 8 | std::uint64_t(small2) << 16 |
         std::uint64_t(a) << 32;
}
constexpr LogKind log_kind(std::uint64_t header) noexcept { return LogKind(header & 0xFF); }
constexpr std::uint8_t log_small1(std::uint64_t header) noexcept { return (header >> 8) & 0xFF; }
constexpr std::uint8_t log_small2(std::uint64_t header) noexcept { return (header >> 16) & 0xFF; }
constexpr std::uint32_t log_a(std::uint64_t header) noexcept { return std::uint32_t(header >> 32); }
constexpr std::uint64_t log_pair(std::uint32_t low, std::uint32_t high) noexcept {
  return std::uint64_t(low) | std::uint64_t(high) << 32;
}

// A thread's log: records from `begin` up to `next`; `limit` leaves room for the longest
// record at the end, so that the hot path's one comparison (next < limit) guarantees space.
// All null when the location has no log (closed, or never opened): every append then takes the
// slow path, which finds nothing to write to.
struct EventLog {
  std::uint64_t* next = nullptr;
  std::uint64_t* limit = nullptr;
  std::uint64_t* begin = nullptr;
};

// The memory of a log: anonymous pages, all mapped when the thread makes its first traced call.
// release() gives the pages back but keeps the range mapped, so a thread that still writes a
// record there while its location is being closed touches a fresh zero page, not freed memory.
class LogStorage {
 public:
  LogStorage() = default;
  ~LogStorage();
  LogStorage(const LogStorage&) = delete;
  LogStorage& operator=(const LogStorage&) = delete;

  // Maps `words` 64-bit words; false when the system has no room.
  bool allocate(std::size_t words) noexcept;
  void release() noexcept;
  std::uint64_t* data() const noexcept { return data_; }
  std::size_t words() const noexcept { return words_; }

 private:
  std::uint64_t* data_ = nullptr;
  std::size_t words_ = 0;
};

}  // namespace collwrap::tracer
