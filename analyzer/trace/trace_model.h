// The analyzer's in-memory trace: compact, integer ids, no strings per event.
//
// A trace is a set of locations (rank × thread). Each location holds its MPI calls (one per
// Enter…Leave region instance, in time order) and the communication operations recorded
// inside them (one per OTF2 MPI record). Both are struct-of-arrays so that a pass over one
// field touches only that field, and so that memory stays under 32 bytes per trace event.
//
// All times are global nanoseconds: the reader applies the archive's clock offsets and subtracts
// the trace's earliest timestamp; the clock repair (clock_repair.h), when on, later moves
// events in place.
//
// The reader builds this from OTF2; unit tests build it by hand with TraceBuilder
// (trace_builder.h) so rules can be tested without MPI or files.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

namespace collwrap {

using TimeNs = std::int64_t;
inline constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
// No world rank (a peer or root that is undefined or cannot be translated). The tracer's
// records use OTF2's undefined value instead (the tracer's kUndefinedRank); the reader maps it to
// this.
inline constexpr std::int32_t kNoWorldRank = -1;

// What the analyzer needs to know about an MPI function, from its region name and the tracer's
// spec (wrappers/mpi/wrapper_spec.py, ANALYSIS); its region role tells the rest (RegionRole).
enum class RegionClass : std::uint8_t {
  Other,                  // anything without wait-state semantics (Comm_rank, Type_commit, …)
  Init,                   // MPI_Init, MPI_Init_thread
  Finalize,               // MPI_Finalize
  BlockingSend,           // MPI_Send, Bsend, Ssend, Rsend
  BlockingRecv,           // MPI_Recv, MPI_Mrecv
  Sendrecv,               // MPI_Sendrecv, MPI_Sendrecv_replace
  NonblockingP2P,         // MPI_Isend…, MPI_Irecv, MPI_Imrecv, persistent *_init, MPI_Start(all)
  Wait,                   // MPI_Wait, Waitall, Waitany, Waitsome
  Test,                   // MPI_Test, Testall, Testany, Testsome
  Probe,                  // MPI_Probe, Iprobe, Mprobe, Improbe
  Collective,             // blocking collectives (incl. neighborhood)
  NonblockingCollective,  // MPI_Ibarrier, MPI_Ibcast, … (the posting call)
  // General active target synchronization of MPI windows (their RmaGroupSync records name the
  // epoch's group): the exposure epoch MPI_Win_post … MPI_Win_wait (or a successful
  // MPI_Win_test) of a target, the access epoch MPI_Win_start … MPI_Win_complete of an origin.
  RmaPost,
  RmaStart,
  RmaComplete,
  RmaWait,
};

enum class SendMode : std::uint8_t { None, Standard, Buffered, Synchronous, Ready };

// Values of OTF2_RegionRole the analyzer tells apart: the archive's own statement of what kind
// of call a region is. Other values are kept as they are.
enum class RegionRole : std::uint8_t {
  Unknown = 0,
  Function = 1,
  Barrier = 15,
  CollOneToAll = 23,
  CollAllToOne = 24,
  CollAllToAll = 25,
  CollOther = 26,
  PointToPoint = 28,
  Rma = 29,
};

struct RegionInfo {
  std::string name;  // "MPI_Send"
  RegionClass cls = RegionClass::Other;
  SendMode mode = SendMode::None;  // for sends (blocking, nonblocking and persistent)
  RegionRole role = RegionRole::Unknown;
};

// Classifies an MPI function by name (mpi_function_class.cpp, with the table generated from
// the tracer's spec).
RegionInfo classify_region(const std::string& name);
// Classifies an OpenSHMEM or UPC function by name (pgas_function_class.cpp): init, finalize,
// barriers and collectives; everything else is Other, its records say the rest.
RegionInfo classify_pgas_region(const std::string& name);

struct CallSite {
  std::string file;  // absolute path as recorded; empty when unknown
  std::uint32_t line = 0;
  std::string function;  // enclosing user function
  // The call site of the frame above (index into Trace::callsites): recorded with
  // COLLWRAP_CALLSITE_DEPTH > 1, so that one MPI line reached from two places is two sites.
  std::uint32_t caller = kNone;
};

// Per rank within a communicator, the ranks within it that the rank exchanges with in a
// neighborhood collective.
using NeighborLists = std::vector<std::vector<std::uint32_t>>;

struct Communicator {
  std::string name;
  // index = rank within the communicator. Empty when the archive gives no member list (an
  // OTF2 COMM_SELF group, or a damaged definition): ops on it carry peer kNoWorldRank.
  std::vector<std::int32_t> world_ranks;
  // Virtual topologies (Cartesian, graph, distributed graph): whom each rank receives from
  // and sends to in neighborhood collectives; empty without a topology (topology.h).
  NeighborLists in_neighbors, out_neighbors;
};

// One OTF2 MPI record. Names follow OTF2's records.
enum class OpKind : std::uint8_t {
  Send,              // MpiSend            peer = receiver
  Isend,             // MpiIsend           peer = receiver, request
  IsendComplete,     // MpiIsendComplete   request
  IrecvRequest,      // MpiIrecvRequest    request
  Recv,              // MpiRecv            peer = actual sender, tag = actual tag
  Irecv,             // MpiIrecv           peer = actual sender, request (completion)
  RequestTest,       // MpiRequestTest     request
  RequestCancelled,  // MpiRequestCancelled request
  CollectiveEnd,     // MpiCollectiveEnd   coll, comm, peer = root, bytes, bytes_received,
                     //                    tag = UPC sync flags (upc_entry_sync) or 0
  NbcRequest,        // NonBlockingCollectiveRequest  request
  NbcComplete,       // NonBlockingCollectiveComplete coll, comm, root, bytes, request
  // One-sided communication (OTF2's Rma* records: OpenSHMEM, UPC, MPI windows). The window
  // becomes its communicator (comm); remote ranks become world ranks (peer). RmaCollectiveEnd
  // is read as CollectiveEnd over the window's communicator, so that barriers and collectives
  // of every paradigm match and are analyzed alike.
  RmaPut,          // RmaPut        peer = target, bytes
  RmaGet,          // RmaGet        peer = target, bytes_received
  RmaAtomic,       // RmaAtomic     peer = target, bytes, bytes_received
  RmaLockRequest,  // RmaRequestLock  tag = lock (see rma_lock_tag), bytes = 1 if shared
  RmaLockAcquire,  // RmaAcquireLock  tag = lock, bytes = 1 if shared
  RmaLockTry,      // RmaTryLock      tag = lock (an attempt that failed)
  RmaLockRelease,  // RmaReleaseLock  tag = lock
  RmaWaitChange,   // RmaWaitChange   this process waited for its memory to change
  RmaSync,         // RmaSync         quiet/fence: completion or ordering of its operations
  RmaGroupSync,    // RmaGroupSync    comm = the group (as a communicator), tag = the window's
                   //                 communicator (MPI_Win_post/start/complete/wait)
};

// A UPC relocalization collective's UPC_IN_* or UPC_OUT_* mode, from the UpcSyncFlags attribute
// of its RmaCollectiveEnd (kept in the CollectiveEnd op's tag): bits 0-1 on entry, 2-3 on exit.
// Unspecified: not a UPC collective (MPI, OpenSHMEM), which synchronizes as its family says.
enum class UpcSync : std::uint8_t { Unspecified = 0, No = 1, My = 2, All = 3 };
constexpr UpcSync upc_entry_sync(std::int32_t flags) {
  return static_cast<UpcSync>(flags & 3);
}
constexpr UpcSync upc_exit_sync(std::int32_t flags) {
  return static_cast<UpcSync>((flags >> 2) & 3);
}
constexpr std::int32_t upc_sync_flags(UpcSync entry, UpcSync exit) {
  return static_cast<std::int32_t>(entry) | static_cast<std::int32_t>(exit) << 2;
}

// An OTF2 lock id folded into op_tag: lock ids are 64-bit, tags 32-bit.
constexpr std::int32_t rma_lock_tag(std::uint64_t lock) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(lock ^ (lock >> 32)));
}
// MpiCollectiveBegin carries no information beyond its time (≈ the call's Enter), so the
// reader counts it but does not store it.

// Values of OTF2_CollectiveOp.
enum class CollOp : std::uint8_t {
  Barrier = 0,
  Bcast = 1,
  Gather = 2,
  Gatherv = 3,
  Scatter = 4,
  Scatterv = 5,
  Allgather = 6,
  Allgatherv = 7,
  Alltoall = 8,
  Alltoallv = 9,
  Alltoallw = 10,
  Allreduce = 11,
  Reduce = 12,
  ReduceScatter = 13,
  Scan = 14,
  Exscan = 15,
  ReduceScatterBlock = 16,
  CreateHandle = 17,
  DestroyHandle = 18,
  None = 255,
};

// Who must have entered a collective before a member can leave it. The pattern families
// (wait_at_barrier, wait_at_nxn, late_broadcast, early_reduce, early_scan) and the matcher's
// clock-condition check both follow it.
enum class CollFamily : std::uint8_t {
  Barrier,   // Barrier: everyone waits for everyone
  NxN,       // Allgather(v), Alltoall(v/w), Allreduce, Reduce_scatter(_block): everyone
  OneToN,    // Bcast, Scatter(v): a non-root needs the root
  NToOne,    // Reduce, Gather(v): the root needs everyone
  Prefix,    // Scan, Exscan: the member of rank i needs ranks 0..i
  Neighbor,  // neighborhood collectives: a member needs its in-neighbors (the topology's)
  // One-sided collectives over an MPI window (region role RMA): MPI_Win_fence, window creation
  // and MPI_Win_free. MPI does not require them to synchronize (a fence may return as soon as
  // this process's operations completed), so they state no dependency.
  Fence,
  WindowCreate,
  WindowFree,
  Other,  // communicator creation/destruction, unknown: no stated dependency
};

constexpr CollFamily collective_family(CollOp op) {
  switch (op) {
    case CollOp::Barrier:
      return CollFamily::Barrier;
    case CollOp::Allgather:
    case CollOp::Allgatherv:
    case CollOp::Alltoall:
    case CollOp::Alltoallv:
    case CollOp::Alltoallw:
    case CollOp::Allreduce:
    case CollOp::ReduceScatter:
    case CollOp::ReduceScatterBlock:
      return CollFamily::NxN;
    case CollOp::Bcast:
    case CollOp::Scatter:
    case CollOp::Scatterv:
      return CollFamily::OneToN;
    case CollOp::Reduce:
    case CollOp::Gather:
    case CollOp::Gatherv:
      return CollFamily::NToOne;
    case CollOp::Scan:
    case CollOp::Exscan:
      return CollFamily::Prefix;
    default:
      return CollFamily::Other;
  }
}

// The family of a collective recorded as `op` in a region of `role`. Neighborhood collectives
// are recorded with the operation whose data movement they share (MPI_Neighbor_allgather as
// Allgather) in a region of role COLL_OTHER, which no all-to-all collective has.
constexpr CollFamily collective_family(CollOp op, RegionRole role) {
  if (role == RegionRole::Rma && op == CollOp::Barrier) return CollFamily::Fence;
  if (role == RegionRole::Rma && op == CollOp::CreateHandle) return CollFamily::WindowCreate;
  if (role == RegionRole::Rma && op == CollOp::DestroyHandle) return CollFamily::WindowFree;
  const CollFamily family = collective_family(op);
  return family == CollFamily::NxN && role == RegionRole::CollOther ? CollFamily::Neighbor : family;
}

// A call of MPI_Pcontrol and its level (the Enter's PcontrolLevel attribute).
struct PcontrolCall {
  std::uint32_t call = kNone;  // index of the call on its location
  std::int32_t level = 0;
};

// Figures that few ops of a location have: only those, with their ops, in op order (12
// bytes per such op rather than 8 bytes per op).
template <class Value>
struct SparseOpValues {
  std::vector<std::uint32_t> ops;  // ascending
  std::vector<Value> values;

  // Value{} for an op that is not kept; `all_ops`: the location's op count, which guides the
  // search.
  Value of(std::uint32_t op, std::size_t all_ops) const;
  // For an op after every op kept so far; Value{} is not kept.
  void append(std::uint32_t op, Value value);
  // For any op: keeps `value` for it, in its place among the others.
  void set(std::uint32_t op, Value value);
};

// Byte counts: 0 is not kept.
using SparseOpBytes = SparseOpValues<std::uint64_t>;
// Whole times of the ops whose time is not a 32-bit offset from their call's Enter.
using SparseOpTimes = SparseOpValues<TimeNs>;

// A set of op kinds, one bit per kind.
class OpKindSet {
 public:
  constexpr OpKindSet() = default;
  constexpr OpKindSet(std::initializer_list<OpKind> kinds) {
    for (const OpKind k : kinds) add(k);
  }
  static constexpr OpKindSet all() {
    OpKindSet set;
    set.bits_ = ~std::uint32_t{0};
    return set;
  }
  constexpr void add(OpKind k) { bits_ |= bit(k); }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr bool intersects(OpKindSet other) const { return (bits_ & other.bits_) != 0; }
  constexpr bool operator==(const OpKindSet&) const = default;

 private:
  static constexpr std::uint32_t bit(OpKind k) { return 1u << static_cast<unsigned>(k); }
  static_assert(static_cast<unsigned>(OpKind::RmaGroupSync) < 32);
  std::uint32_t bits_ = 0;
};

// Only collectives (CollectiveEnd, NbcComplete) and one-sided gets and atomics receive bytes
// of their own: a point-to-point receive counts its message in the sent bytes.
constexpr bool may_receive_bytes(OpKind kind) {
  return kind == OpKind::CollectiveEnd || kind == OpKind::NbcComplete || kind == OpKind::RmaGet ||
         kind == OpKind::RmaAtomic;
}

// In Location::op_bytes_sent: the count is 2^32 - 1 or more (about 4 GiB), kept in
// op_wide_bytes_sent.
inline constexpr std::uint32_t kWideBytes = std::numeric_limits<std::uint32_t>::max();

// In Location::op_time_offset: the op's time is not within 2^32 - 2 ns (about 4.3 s) after its
// call's Enter, and is kept whole in op_wide_time.
inline constexpr std::uint32_t kWideTime = std::numeric_limits<std::uint32_t>::max();

struct Location {
  std::int32_t rank = 0;      // MPI_COMM_WORLD rank
  std::int32_t thread = 0;    // 0 = the thread that called MPI_Init
  std::uint32_t node = 0;     // index into Trace::nodes
  std::uint64_t otf2_id = 0;  // OTF2 location id

  // What the archive's definitions say of it (rank, thread, node, OTF2 id), without events:
  // what every analyzer process of a job knows of the locations it does not hold.
  Location definition_only() const {
    Location l;
    l.rank = rank;
    l.thread = thread;
    l.node = node;
    l.otf2_id = otf2_id;
    return l;
  }

  // Calls: one per MPI region instance, in time order. Ops of call i are
  // [call_first_op[i], call_first_op[i + 1]); call_first_op has calls()+1 entries.
  std::vector<TimeNs> call_enter;
  std::vector<TimeNs> call_leave;
  std::vector<std::uint32_t> call_region;    // index into Trace::regions
  std::vector<std::uint32_t> call_callsite;  // index into Trace::callsites, or kNone
  std::vector<std::uint32_t> call_first_op{0};
  std::vector<PcontrolCall> pcontrol;  // rare, so kept apart from the per-call columns

  // Ops, in record order.
  std::vector<OpKind> op_kind;
  std::vector<CollOp> op_coll;  // CollOp::None for point-to-point
  // An op's time in ns after its call's Enter, 4 bytes rather than 8 per op: ops happen
  // within their call. kWideTime: kept whole in op_wide_time. Read with op_time(), write with
  // set_op_time().
  std::vector<std::uint32_t> op_time_offset;
  std::vector<std::uint32_t> op_call;  // owning call
  std::vector<std::int32_t> op_peer;   // world rank of peer / root, or kNoWorldRank
  std::vector<std::uint32_t> op_comm;  // index into Trace::comms, or kNone
  std::vector<std::int32_t> op_tag;
  // Bytes sent (point-to-point: the message size) in 32 bits; a count of 2^32 - 1 or more reads
  // kWideBytes here and is kept in op_wide_bytes_sent. Read with bytes_sent().
  std::vector<std::uint32_t> op_bytes_sent;
  // Request ids, one per op; empty while every id is 0, as on a location with only blocking
  // communication (8 bytes per op less while reading and matching). Read with request(), write
  // with set_request(); see also Trace::release_request_ids.
  std::vector<std::uint64_t> op_request;
  SparseOpBytes op_wide_bytes_sent;  // counts of 2^32 - 1 or more
  SparseOpBytes op_bytes_received;   // few ops have any (may_receive_bytes)
  SparseOpTimes op_wide_time;        // times too far from their call's Enter for an offset

  std::size_t calls() const { return call_enter.size(); }
  std::size_t ops() const { return op_kind.size(); }
  std::uint64_t request(std::uint32_t op) const {
    return op < op_request.size() ? op_request[op] : 0;
  }
  // For an op already added; also pads op_request to ops() once it has any nonzero id.
  void set_request(std::uint32_t op, std::uint64_t id) {
    if (op_request.empty() && id == 0) return;
    if (op_request.size() < ops()) op_request.resize(ops(), 0);
    op_request[op] = id;
  }
  TimeNs op_time(std::uint32_t op) const {
    const std::uint32_t offset = op_time_offset[op];
    return offset != kWideTime ? call_enter[op_call[op]] + offset : op_wide_time.of(op, ops());
  }
  // For an op already added, whose call's Enter is set: an op time moves with its call's
  // Enter, so whoever moves an Enter sets its ops' times again.
  void set_op_time(std::uint32_t op, TimeNs time) {
    const TimeNs offset = time - call_enter[op_call[op]];
    if (offset >= 0 && offset < kWideTime) {
      op_time_offset[op] = static_cast<std::uint32_t>(offset);
    } else {
      op_time_offset[op] = kWideTime;
      op_wide_time.set(op, time);
    }
  }
  std::uint64_t bytes_sent(std::uint32_t op) const {
    const std::uint32_t narrow = op_bytes_sent[op];
    return narrow != kWideBytes ? narrow : op_wide_bytes_sent.of(op, ops());
  }
  // For an op after every op with a wide count so far.
  void set_bytes_sent(std::uint32_t op, std::uint64_t bytes) {
    if (bytes < kWideBytes) {
      op_bytes_sent[op] = static_cast<std::uint32_t>(bytes);
    } else {
      op_bytes_sent[op] = kWideBytes;
      op_wide_bytes_sent.append(op, bytes);
    }
  }
  std::uint64_t bytes_received(std::uint32_t op) const {
    return may_receive_bytes(op_kind[op]) ? op_bytes_received.of(op, ops()) : 0;
  }
};

// Every per-call column of a location (call_first_op, which has one entry more, included),
// then every per-op column and the sparse lists' (which hold at most one entry per op): for
// passes that treat all columns alike (reserving, giving back unused capacity, sending a
// location to another analyzer process), so that a new column is added in one place.
template <class L, class F>
void for_each_call_column(L& l, F&& f) {
  f(l.call_enter);
  f(l.call_leave);
  f(l.call_region);
  f(l.call_callsite);
  f(l.call_first_op);
}
template <class L, class F>
void for_each_dense_op_column(L& l, F&& f) {
  f(l.op_kind);
  f(l.op_coll);
  f(l.op_time_offset);
  f(l.op_call);
  f(l.op_peer);
  f(l.op_comm);
  f(l.op_tag);
  f(l.op_bytes_sent);
  f(l.op_request);
}
// The sparse lists, at most one entry per op and few ops with one.
template <class L, class F>
void for_each_sparse_op_list(L& l, F&& f) {
  f(l.op_wide_bytes_sent.ops);
  f(l.op_wide_bytes_sent.values);
  f(l.op_bytes_received.ops);
  f(l.op_bytes_received.values);
  f(l.op_wide_time.ops);
  f(l.op_wide_time.values);
}
template <class L, class F>
void for_each_op_column(L& l, F&& f) {
  for_each_dense_op_column(l, f);
  for_each_sparse_op_list(l, f);
}

// Problems found while reading; the analysis goes on and the report lists them.
struct ReadWarnings {
  std::vector<std::string> messages;    // one line each, human readable
  std::uint64_t unclosed_calls = 0;     // Enter without Leave (truncated stream)
  std::uint64_t orphan_ops = 0;         // MPI records outside any call (the reader drops them)
  std::uint32_t missing_locations = 0;  // defined locations whose events are missing
};

struct ClockQuality {
  std::uint32_t offsets_per_location_min = 0;  // ClockOffset records (2: init and finalize)
  double max_offset_stddev_s = 0;              // largest reported offset uncertainty
  std::uint64_t violations_before_repair = 0;  // filled by the matcher / clock repair
  std::uint64_t violations_after_repair = 0;
  double max_repair_shift_s = 0;
};

struct Trace {
  std::string path;                // anchor file
  std::string program;             // from the archive's description, when present
  std::vector<std::string> nodes;  // host names
  std::vector<RegionInfo> regions;
  std::vector<CallSite> callsites;
  std::vector<Communicator> comms;
  std::vector<Location> locations;  // sorted by (rank, thread)
  std::int32_t world_size = 0;
  TimeNs begin = 0, end = 0;      // global time span (begin is 0 after normalization)
  std::uint64_t event_count = 0;  // OTF2 events read, all kinds
  ReadWarnings warnings;
  ClockQuality clock;

  // Location index of (rank, thread 0), or kNone. Built by finish_indexes().
  std::vector<std::uint32_t> rank_main_location;
  void finish_indexes();

  // Request ids serve only to pair each nonblocking operation with its completion; once the
  // final matching holds those pairs (Matching::request_partner), the analysis frees them,
  // 8 bytes per op. op_request is empty afterwards.
  void release_request_ids();

  // Frees every op column but op_kind, op_peer and, if `keep_op_call`, op_call, and the sparse
  // lists: 17 bytes per op, 21 without op_call. For the owner of a trace whose remaining
  // readers are the root-cause analysis (RootCauseAnalysis) and the calls' columns: every
  // other reader of ops would find them gone (ops() stays, call_first_op too).
  void release_op_details(bool keep_op_call = false);
};

// The kinds of the ops the trace's locations hold.
OpKindSet op_kinds_in(const Trace& trace);

}  // namespace collwrap
