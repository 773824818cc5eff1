#include "otf2_events.h"

#include <algorithm>
#include <array>
#include <exception>
#include <filesystem>
#include <limits>
#include <optional>
#include <stdexcept>

#include "definitions_file_check.h"
#include "otf2_error_log.h"
#include "otf2_event_decoder.h"
#include "otf2_local_definitions.h"
#include "unused_capacity.h"

namespace collwrap {
namespace {

// --- column storage ---------------------------------------------------------------------
// Columns are reserved once, at the most the location's declared event count allows: every
// call is at least two events (Enter, Leave) and every op one. Growing them instead (copying
// each column into a larger one) held old and new copies at once and made the reading peak
// half again the trace's size. Reserved pages that are never written are never faulted in,
// so the generous bound costs address space, not resident memory. Should the declared count
// be short (a damaged archive), columns grow by a quarter.

std::size_t grown(std::size_t size) {
  return size + size / 4 + 1024;
}

// call_first_op has one entry more than calls: reserved once, at its own size, so that it is
// not allocated twice.
void reserve_calls(Location& l, std::size_t n) {
  for_each_call_column(l, [&](auto& column) {
    column.reserve(static_cast<const void*>(&column) == &l.call_first_op ? n + 1 : n);
  });
}

// The dense columns only: the sparse lists grow as they need, most staying empty (wide counts
// and times), so that their reserve does not take address space (ulimit -v) for nothing.
void reserve_ops(Location& l, std::size_t n) {
  for_each_dense_op_column(l, [&](auto& column) { column.reserve(n); });
}

// After reading: the unused reserve goes back (see release_unused_capacity).
void release_unused_reserve(const Location& l) {
  const auto release = [](const auto& column) { release_unused_capacity(column); };
  for_each_call_column(l, release);
  for_each_op_column(l, release);
}

void reserve_for_events(Location& l, std::uint64_t events) {
  reserve_calls(l, static_cast<std::size_t>(events / 2) + 16);
  reserve_ops(l, static_cast<std::size_t>(events) + 16);
}

struct OpFields {
  OpKind kind;
  CollOp coll = CollOp::None;
  std::int32_t peer = kNoWorldRank;
  std::uint32_t comm = kNone;
  std::int32_t tag = 0;
  std::uint64_t bytes = 0;
  std::uint64_t bytes_received = 0;
  std::uint64_t request = 0;
};

CollOp to_coll_op(OTF2_CollectiveOp op) {
  return op <= OTF2_COLLECTIVE_OP_DESTROY_HANDLE ? static_cast<CollOp>(op) : CollOp::None;
}

// The op a record stands for, where one record type makes one kind of op.
OpKind op_kind(Otf2Record type) {
  switch (type) {
    case Otf2Record::MpiSend:
      return OpKind::Send;
    case Otf2Record::MpiRecv:
      return OpKind::Recv;
    case Otf2Record::MpiIsend:
      return OpKind::Isend;
    case Otf2Record::MpiIrecv:
      return OpKind::Irecv;
    case Otf2Record::MpiIsendComplete:
      return OpKind::IsendComplete;
    case Otf2Record::MpiIrecvRequest:
      return OpKind::IrecvRequest;
    case Otf2Record::MpiRequestTest:
      return OpKind::RequestTest;
    case Otf2Record::MpiRequestCancelled:
      return OpKind::RequestCancelled;
    case Otf2Record::NbcRequest:
      return OpKind::NbcRequest;
    case Otf2Record::RmaPut:
      return OpKind::RmaPut;
    case Otf2Record::RmaGet:
      return OpKind::RmaGet;
    case Otf2Record::RmaRequestLock:
      return OpKind::RmaLockRequest;
    case Otf2Record::RmaAcquireLock:
      return OpKind::RmaLockAcquire;
    case Otf2Record::RmaTryLock:
      return OpKind::RmaLockTry;
    default:
      throw std::logic_error("no single op kind for this record");
  }
}

// --- the loader ---------------------------------------------------------------------------

class EventLoader {
 public:
  EventLoader(const EventLoadContext& context, Location& loc, LocationReport& report,
              const Otf2ErrorLog& otf2_errors)
      : ctx_(context), loc_(loc), report_(report), otf2_errors_(otf2_errors) {}

  // Whether the record at `position` (1-based) with timestamp `t` can be used. The first that
  // cannot ends the stream: `damage` says why.
  bool admit(OTF2_TimeStamp t, std::uint64_t position) {
    if (!otf2_errors_.empty()) {
      damage = "OTF2 reported an error before it (" + otf2_errors_.summary() + ")";
    } else if (!ctx_.timestamps.plausible(t)) {
      damage = "its timestamp is " + ctx_.timestamps.describe(t) +
               ", outside the trace's clock range (" + ctx_.timestamps.range() + ")";
    } else if (!TimestampCheck::plausible_step(last_time_, ctx_.ticks(t))) {
      damage = "its timestamp is " +
               std::to_string(static_cast<double>(last_time_ - ctx_.ticks(t)) * 1e-9) +
               " s earlier than the previous record's";
    } else {
      return true;
    }
    damaged_record = position;
    return false;
  }

  // Whether the stream goes on after `r`. It stops at the last record the event file check
  // trusts, and at the first record admit() refuses. Records the analyzer does not use are not
  // looked at: libotf2 delivers them to no callback of the loader.
  bool take(const EventRecord& r) {
    if (r.type == Otf2Record::Other) return true;
    if (r.position > last_record) {
      cut_short = true;
      return false;
    }
    if (!admit(r.time, r.position)) return false;
    handle(r);
    return true;
  }

  void enter(OTF2_TimeStamp t, const RecordAttributes& attributes, OTF2_RegionRef ref) {
    const TimeNs time = timestamp(t);
    const std::uint32_t region = ctx_.defs.region[ref];
    if (region == kNone) {
      ++unknown_refs_;
      return;
    }
    if (!ctx_.defs.region_call[region]) return;
    open_regions_.push_back(region);
    if (open_regions_.size() > 1) {
      // Nested inside a call, as the calls MPI makes internally are when a tool records them:
      // part of that call. Kept in case it never ends (split_after_lost_leave).
      if (open_regions_.size() == 2)
        nested_.push_back({time, time, callsite_context(attributes),
                           static_cast<std::uint32_t>(loc_.ops()), region});
      return;
    }
    Location& l = loc_;
    if (l.call_enter.size() == l.call_enter.capacity()) reserve_calls(l, grown(l.calls()));
    open_call_ = static_cast<std::uint32_t>(l.calls());
    l.call_enter.push_back(time);
    l.call_leave.push_back(time);  // until its Leave arrives
    l.call_region.push_back(region);
    l.call_callsite.push_back(callsite(callsite_context(attributes), region));
    l.call_first_op.push_back(static_cast<std::uint32_t>(l.ops()));
    if (std::int32_t level; pcontrol_level(attributes, level))
      l.pcontrol.push_back({open_call_, level});
  }

  void leave(OTF2_TimeStamp t, OTF2_RegionRef ref) {
    const TimeNs time = timestamp(t);
    const std::uint32_t region = ctx_.defs.region[ref];
    if (region == kNone) {
      ++unknown_refs_;
      return;
    }
    if (!ctx_.defs.region_call[region]) return;
    if (open_regions_.empty()) {
      ++unmatched_leaves_;
      return;
    }
    if (open_regions_.back() != region) ++unmatched_leaves_;
    open_regions_.pop_back();
    if (open_regions_.size() == 1 && !nested_.empty()) nested_.back().leave = time;
    if (open_regions_.empty()) {
      loc_.call_leave[open_call_] = time;
      open_call_ = kNone;
      nested_.clear();
    }
  }

  // Records that carry no information beyond their existence still advance the clock.
  void other(OTF2_TimeStamp t) { timestamp(t); }

  void op(OTF2_TimeStamp t, const OpFields& f) {
    const TimeNs time = timestamp(t);
    if (open_call_ == kNone) {
      ++report_.orphan_ops;
      return;
    }
    Location& l = loc_;
    if (l.op_kind.size() == l.op_kind.capacity()) reserve_ops(l, grown(l.ops()));
    l.op_kind.push_back(f.kind);
    l.op_coll.push_back(f.coll);
    l.op_time_offset.push_back(0);
    l.op_call.push_back(open_call_);
    l.op_peer.push_back(f.peer);
    l.op_comm.push_back(f.comm);
    l.op_tag.push_back(f.tag);
    l.op_bytes_sent.push_back(0);
    const auto op = static_cast<std::uint32_t>(l.ops() - 1);
    l.set_op_time(op, time);
    l.set_bytes_sent(op, f.bytes);
    l.set_request(op, f.request);
    l.op_bytes_received.append(op, f.bytes_received);
    l.call_first_op.back() = static_cast<std::uint32_t>(l.ops());
  }

  // A record the loader admitted: part of a call (Enter, Leave) or one op of it.
  void handle(const EventRecord& r) {
    using R = Otf2Record;
    const OTF2_TimeStamp t = r.time;
    switch (r.type) {
      case R::Enter:
        return enter(t, r.attributes, r.ref);
      case R::Leave:
        return leave(t, r.ref);
      case R::MpiSend:
      case R::MpiRecv:
      case R::MpiIsend:
      case R::MpiIrecv: {
        const std::uint32_t c = comm(r.ref);
        return op(t, {.kind = op_kind(r.type),
                      .peer = world_rank(c, r.rank),
                      .comm = c,
                      .tag = static_cast<std::int32_t>(r.tag),
                      .bytes = r.bytes,
                      .request = r.id});
      }
      case R::MpiIsendComplete:
      case R::MpiIrecvRequest:
      case R::MpiRequestTest:
      case R::MpiRequestCancelled:
      case R::NbcRequest:
        return op(t, {.kind = op_kind(r.type), .request = r.id});
      case R::MpiCollectiveBegin:
      case R::RmaCollectiveBegin:
        return other(t);
      case R::MpiCollectiveEnd:
        return collective_end(t, r, comm(r.ref), 0);
      case R::RmaCollectiveEnd:
        // A UPC collective's synchronisation flags travel as an attribute.
        return collective_end(t, r, window(r.ref), upc_sync_flags(r.attributes));
      case R::NbcComplete: {
        const std::uint32_t c = comm(r.ref);
        return op(t, {.kind = OpKind::NbcComplete,
                      .coll = to_coll_op(r.code),
                      .peer = world_rank(c, r.rank),
                      .comm = c,
                      .bytes = r.bytes,
                      .bytes_received = r.bytes_received,
                      .request = r.id});
      }
      // One-sided records: the window's communicator stands for the window.
      case R::RmaPut:
      case R::RmaGet: {
        const std::uint32_t c = window(r.ref);
        const bool put = r.type == R::RmaPut;
        return op(t, {.kind = op_kind(r.type),
                      .peer = world_rank(c, r.rank),
                      .comm = c,
                      .bytes = put ? r.bytes : 0,
                      .bytes_received = put ? 0 : r.bytes});
      }
      case R::RmaAtomic: {
        const std::uint32_t c = window(r.ref);
        return op(t, {.kind = OpKind::RmaAtomic,
                      .peer = world_rank(c, r.rank),
                      .comm = c,
                      .bytes = r.bytes,
                      .bytes_received = r.bytes_received});
      }
      case R::RmaRequestLock:
      case R::RmaAcquireLock:
      case R::RmaTryLock:
        return op(t, {.kind = op_kind(r.type),
                      .comm = window(r.ref),
                      .tag = rma_lock_tag(r.id),
                      .bytes = r.code == OTF2_LOCK_SHARED ? 1u : 0u});
      case R::RmaReleaseLock:
        return op(
            t, {.kind = OpKind::RmaLockRelease, .comm = window(r.ref), .tag = rma_lock_tag(r.id)});
      case R::RmaWaitChange:
        return op(t, {.kind = OpKind::RmaWaitChange, .comm = window(r.ref)});
      case R::RmaSync: {
        const std::uint32_t c = window(r.ref);
        return op(t, {.kind = OpKind::RmaSync, .peer = world_rank(c, r.rank), .comm = c});
      }
      // MPI_Win_post/start/complete/wait: the epoch's group becomes the op's communicator, the
      // window's communicator its tag.
      case R::RmaGroupSync:
        return op(t, {.kind = OpKind::RmaGroupSync,
                      .comm = group(r.tag),
                      .tag = static_cast<std::int32_t>(window(r.ref))});
      case R::Other:
        return;
    }
  }

  // Index into Trace::comms, or kNone for a communicator the definitions do not know.
  std::uint32_t comm(OTF2_CommRef ref) {
    const std::uint32_t c = ctx_.defs.comm[ref];
    if (c == kNone) ++unknown_refs_;
    return c;
  }

  // Index into Trace::comms of a window's communicator, or kNone for an unknown window.
  std::uint32_t window(OTF2_RmaWinRef ref) {
    const std::uint32_t c = ctx_.defs.window[ref];
    if (c == kNone) ++unknown_refs_;
    return c;
  }

  // Index into Trace::comms of the communicator over an OTF2 group, or kNone.
  std::uint32_t group(OTF2_GroupRef ref) {
    const std::uint32_t c = ctx_.defs.group[ref];
    if (c == kNone) ++unknown_refs_;
    return c;
  }

  // A rank within communicator `comm` as a world rank; kNoWorldRank when it cannot be translated
  // (unknown communicator, MPI_PROC_NULL, a root constant such as OTF2_COLLECTIVE_ROOT_NONE).
  std::int32_t world_rank(std::uint32_t comm, std::uint32_t rank) const {
    if (comm == kNone) return kNoWorldRank;
    const std::vector<std::int32_t>& ranks = ctx_.comms[comm].world_ranks;
    return rank < ranks.size() ? ranks[rank] : kNoWorldRank;
  }

  // Closes what the stream left open and writes the report's messages.
  void finish() {
    if (open_call_ != kNone && !nested_.empty() &&
        ctx_.defs.region_mpi[loc_.call_region[open_call_]])
      split_after_lost_leave();
    if (open_call_ != kNone) {
      report_.unclosed_calls = 1;
      loc_.call_leave[open_call_] = last_time_;
      report_.messages.push_back(where() + ": the stream ends inside " +
                                 ctx_.regions[loc_.call_region[open_call_]].name +
                                 " (call closed at the last timestamp)");
    }
    if (report_.orphan_ops > 0)
      report_.messages.push_back(where() + ": " + std::to_string(report_.orphan_ops) +
                                 " MPI records outside any MPI call were ignored");
    if (unmatched_leaves_ > 0)
      report_.messages.push_back(where() + ": " + std::to_string(unmatched_leaves_) +
                                 " Leave records do not match the open call");
    if (unknown_refs_ > 0)
      report_.messages.push_back(where() + ": " + std::to_string(unknown_refs_) +
                                 " records refer to undefined regions or communicators");
    if (backward_steps_ > 0)
      report_.messages.push_back(where() + ": " + std::to_string(backward_steps_) +
                                 " timestamps go backwards (kept at the previous time)");
  }

  std::string where() const { return location_name(loc_); }

  std::exception_ptr error;  // thrown inside a callback; rethrown after OTF2 returns
  std::uint64_t last_record = std::numeric_limits<std::uint64_t>::max();
  bool cut_short = false;            // records past last_record were left unread
  std::uint64_t damaged_record = 0;  // the record admit() refused, 0 if none
  std::string damage;                // why

 private:
  // The end of an MPI collective or of a one-sided (window) collective: the same record.
  void collective_end(OTF2_TimeStamp t, const EventRecord& r, std::uint32_t comm,
                      std::int32_t upc_sync) {
    op(t, {.kind = OpKind::CollectiveEnd,
           .coll = to_coll_op(r.code),
           .peer = world_rank(comm, r.rank),
           .comm = comm,
           .tag = upc_sync,
           .bytes = r.bytes,
           .bytes_received = r.bytes_received});
  }

  // The UpcSyncFlags attribute of a UPC collective's RmaCollectiveEnd, or 0.
  std::int32_t upc_sync_flags(const RecordAttributes& attributes) const {
    const OTF2_AttributeRef ref = ctx_.defs.upc_sync_flags_attribute;
    std::uint32_t flags = 0;
    if (ref != OTF2_UNDEFINED_ATTRIBUTE && attributes.uint32(ref, flags))
      return static_cast<std::int32_t>(flags & 15u);
    return 0;
  }

  // Time in ns; never earlier than the previous event, so calls stay in time order even
  // in a damaged stream.
  TimeNs timestamp(OTF2_TimeStamp t) {
    TimeNs time = ctx_.ticks(t);
    if (time < last_time_) {
      ++backward_steps_;
      time = last_time_;
    }
    last_time_ = time;
    return time;
  }

  // The calling context of an Enter's CallSite attribute, if it has one.
  std::optional<std::uint32_t> callsite_context(const RecordAttributes& attributes) const {
    std::uint32_t context = 0;
    if (ctx_.defs.callsite_attribute != OTF2_UNDEFINED_ATTRIBUTE &&
        attributes.calling_context(ctx_.defs.callsite_attribute, context))
      return context;
    return std::nullopt;
  }

  // The call site of an Enter of `region`: its CallSite attribute's or, without one, the call
  // site of the previous Enter of the same region on this location. The tracer writes the
  // attribute only when a region's call site changes (README, "Trace format").
  std::uint32_t callsite(std::optional<std::uint32_t> context, std::uint32_t region) {
    if (region >= last_site_.size()) last_site_.resize(ctx_.defs.region_call.size(), kNone);
    if (context) last_site_[region] = ctx_.defs.callsite[*context];
    return last_site_[region];
  }

  // The stream ends inside an MPI call that holds other MPI calls. A tracer on MPI's profiling
  // interface records no MPI call inside another (the library's own calls go to PMPI_), so the
  // open call's Leave was lost, a damaged record: left open, it would hold every later call of
  // the stream, with waits counted once per collective inside it. It ends where the first call
  // inside it began, and those calls become calls of their own, each with the ops after its
  // Enter (a tool that records MPI's internal calls, cut short inside one, is split too).
  void split_after_lost_leave() {
    Location& l = loc_;
    const std::uint32_t outer = open_call_;
    const std::uint32_t first_moved = nested_.front().first_op;
    const auto end_op = static_cast<std::uint32_t>(l.ops());
    std::vector<TimeNs> times(end_op - first_moved);  // before the ops' calls change
    for (std::uint32_t op = first_moved; op < end_op; ++op) times[op - first_moved] = l.op_time(op);
    l.call_leave[outer] = nested_.front().enter;
    l.call_first_op.pop_back();  // the outer call's end, now its first nested call's start
    for (const NestedCall& n : nested_) {
      if (l.call_enter.size() == l.call_enter.capacity()) reserve_calls(l, grown(l.calls()));
      l.call_first_op.push_back(n.first_op);
      l.call_enter.push_back(n.enter);
      l.call_leave.push_back(n.leave);
      l.call_region.push_back(n.region);
      l.call_callsite.push_back(callsite(n.context, n.region));
    }
    l.call_first_op.push_back(end_op);
    for (auto call = outer + 1; call < l.calls(); ++call)
      for (std::uint32_t op = l.call_first_op[call]; op < l.call_first_op[call + 1]; ++op) {
        l.op_call[op] = call;
        l.set_op_time(op, times[op - first_moved]);
      }
    report_.messages.push_back(where() + ": " + ctx_.regions[l.call_region[outer]].name +
                               " has no Leave (a damaged record): it ends where the next MPI "
                               "call begins, and the " +
                               std::to_string(nested_.size()) +
                               " calls after it are calls of "
                               "their own");
    // Whether the stream ends inside the last of them.
    open_call_ = open_regions_.size() > 1 ? static_cast<std::uint32_t>(l.calls() - 1) : kNone;
    nested_.clear();
  }

  // The PcontrolLevel attribute of an Enter of MPI_Pcontrol, when it has one.
  bool pcontrol_level(const RecordAttributes& attributes, std::int32_t& level) const {
    const OTF2_AttributeRef ref = ctx_.defs.pcontrol_level_attribute;
    return ref != OTF2_UNDEFINED_ATTRIBUTE && attributes.int32(ref, level);
  }

  const EventLoadContext& ctx_;
  Location& loc_;
  LocationReport& report_;
  const Otf2ErrorLog& otf2_errors_;          // what OTF2 reports while the events are read
  std::vector<std::uint32_t> open_regions_;  // MPI regions entered and not left, outermost first
  std::vector<std::uint32_t> last_site_;     // index: region; see callsite()
  std::uint32_t open_call_ = kNone;
  TimeNs last_time_ = std::numeric_limits<TimeNs>::min();
  std::uint64_t unmatched_leaves_ = 0;
  // The calls directly inside the open call, while it is open (see split_after_lost_leave).
  struct NestedCall {
    TimeNs enter, leave;
    std::optional<std::uint32_t> context;  // of its CallSite attribute
    std::uint32_t first_op;
    std::uint32_t region;
  };
  std::vector<NestedCall> nested_;
  std::uint64_t unknown_refs_ = 0;
  std::uint64_t backward_steps_ = 0;
};

// --- libotf2's event reader -----------------------------------------------------------------
// Each callback turns its record into an EventRecord for the loader. OTF2 is C: an exception
// must not unwind through it, so `deliver` parks it in the loader and interrupts the read, as
// it does when the loader stops the stream.

OTF2_CallbackCode deliver(void* user_data, const EventRecord& record) {
  auto& loader = *static_cast<EventLoader*>(user_data);
  try {
    return loader.take(record) ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_INTERRUPT;
  } catch (...) {
    loader.error = std::current_exception();
    return OTF2_CALLBACK_INTERRUPT;
  }
}

OTF2_CallbackCode on_enter(OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t pos, void* d,
                           OTF2_AttributeList* a, OTF2_RegionRef region) {
  return deliver(d, {.type = Otf2Record::Enter,
                     .time = t,
                     .position = pos,
                     .ref = region,
                     .attributes = RecordAttributes(a)});
}

OTF2_CallbackCode on_leave(OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t pos, void* d,
                           OTF2_AttributeList*, OTF2_RegionRef region) {
  return deliver(d, {.type = Otf2Record::Leave, .time = t, .position = pos, .ref = region});
}

template <Otf2Record type>
OTF2_CallbackCode on_p2p_request(OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t pos, void* d,
                                 OTF2_AttributeList*, std::uint32_t peer, OTF2_CommRef comm,
                                 std::uint32_t tag, std::uint64_t bytes, std::uint64_t request) {
  return deliver(d, {.type = type,
                     .time = t,
                     .position = pos,
                     .ref = comm,
                     .rank = peer,
                     .tag = tag,
                     .bytes = bytes,
                     .id = request});
}

// A blocking send or receive: a nonblocking one without a request.
template <Otf2Record type>
OTF2_CallbackCode on_p2p(OTF2_LocationRef l, OTF2_TimeStamp t, std::uint64_t pos, void* d,
                         OTF2_AttributeList* a, std::uint32_t peer, OTF2_CommRef comm,
                         std::uint32_t tag, std::uint64_t bytes) {
  return on_p2p_request<type>(l, t, pos, d, a, peer, comm, tag, bytes, 0);
}

template <Otf2Record type>
OTF2_CallbackCode on_request(OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t pos, void* d,
                             OTF2_AttributeList*, std::uint64_t request) {
  return deliver(d, {.type = type, .time = t, .position = pos, .id = request});
}

template <Otf2Record type>
OTF2_CallbackCode on_collective_begin(OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t pos,
                                      void* d, OTF2_AttributeList*) {
  return deliver(d, {.type = type, .time = t, .position = pos});
}

template <Otf2Record type>
OTF2_CallbackCode on_collective_complete(OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t pos,
                                         void* d, OTF2_AttributeList*, OTF2_CollectiveOp op,
                                         OTF2_CommRef comm, std::uint32_t root, std::uint64_t sent,
                                         std::uint64_t received, std::uint64_t request) {
  return deliver(d, {.type = type,
                     .time = t,
                     .position = pos,
                     .ref = comm,
                     .rank = root,
                     .code = op,
                     .bytes = sent,
                     .bytes_received = received,
                     .id = request});
}

// A blocking collective's end: a nonblocking one's completion without a request.
OTF2_CallbackCode on_collective_end(OTF2_LocationRef l, OTF2_TimeStamp t, std::uint64_t pos,
                                    void* d, OTF2_AttributeList* a, OTF2_CollectiveOp op,
                                    OTF2_CommRef comm, std::uint32_t root, std::uint64_t sent,
                                    std::uint64_t received) {
  return on_collective_complete<Otf2Record::MpiCollectiveEnd>(l, t, pos, d, a, op, comm, root, sent,
                                                              received, 0);
}

template <Otf2Record type>
OTF2_CallbackCode on_rma_transfer(OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t pos, void* d,
                                  OTF2_AttributeList*, OTF2_RmaWinRef win, std::uint32_t remote,
                                  std::uint64_t bytes, std::uint64_t) {
  return deliver(
      d, {.type = type, .time = t, .position = pos, .ref = win, .rank = remote, .bytes = bytes});
}

OTF2_CallbackCode on_rma_atomic(OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t pos, void* d,
                                OTF2_AttributeList*, OTF2_RmaWinRef win, std::uint32_t remote,
                                OTF2_RmaAtomicType, std::uint64_t sent, std::uint64_t received,
                                std::uint64_t) {
  return deliver(d, {.type = Otf2Record::RmaAtomic,
                     .time = t,
                     .position = pos,
                     .ref = win,
                     .rank = remote,
                     .bytes = sent,
                     .bytes_received = received});
}

OTF2_CallbackCode on_rma_collective_end(OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t pos,
                                        void* d, OTF2_AttributeList* attributes,
                                        OTF2_CollectiveOp op, OTF2_RmaSyncLevel, OTF2_RmaWinRef win,
                                        std::uint32_t root, std::uint64_t sent,
                                        std::uint64_t received) {
  return deliver(d, {.type = Otf2Record::RmaCollectiveEnd,
                     .time = t,
                     .position = pos,
                     .ref = win,
                     .rank = root,
                     .code = op,
                     .bytes = sent,
                     .bytes_received = received,
                     .attributes = RecordAttributes(attributes)});
}

template <Otf2Record type>
OTF2_CallbackCode on_rma_lock(OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t pos, void* d,
                              OTF2_AttributeList*, OTF2_RmaWinRef win, std::uint32_t remote,
                              std::uint64_t lock, OTF2_LockType lock_type) {
  return deliver(d, {.type = type,
                     .time = t,
                     .position = pos,
                     .ref = win,
                     .rank = remote,
                     .code = lock_type,
                     .id = lock});
}

OTF2_CallbackCode on_rma_release_lock(OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t pos,
                                      void* d, OTF2_AttributeList*, OTF2_RmaWinRef win,
                                      std::uint32_t remote, std::uint64_t lock) {
  return deliver(d, {.type = Otf2Record::RmaReleaseLock,
                     .time = t,
                     .position = pos,
                     .ref = win,
                     .rank = remote,
                     .id = lock});
}

OTF2_CallbackCode on_rma_wait_change(OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t pos, void* d,
                                     OTF2_AttributeList*, OTF2_RmaWinRef win) {
  return deliver(d, {.type = Otf2Record::RmaWaitChange, .time = t, .position = pos, .ref = win});
}

OTF2_CallbackCode on_rma_sync(OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t pos, void* d,
                              OTF2_AttributeList*, OTF2_RmaWinRef win, std::uint32_t remote,
                              OTF2_RmaSyncType) {
  return deliver(
      d, {.type = Otf2Record::RmaSync, .time = t, .position = pos, .ref = win, .rank = remote});
}

OTF2_CallbackCode on_rma_group_sync(OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t pos, void* d,
                                    OTF2_AttributeList*, OTF2_RmaSyncLevel, OTF2_RmaWinRef win,
                                    OTF2_GroupRef group) {
  return deliver(
      d, {.type = Otf2Record::RmaGroupSync, .time = t, .position = pos, .ref = win, .tag = group});
}

OTF2_EvtReaderCallbacks* event_callbacks() {
  using R = Otf2Record;
  OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_p2p<R::MpiSend>);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_p2p<R::MpiRecv>);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_p2p_request<R::MpiIsend>);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_p2p_request<R::MpiIrecv>);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_request<R::MpiIsendComplete>);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_request<R::MpiIrecvRequest>);
  OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, on_request<R::MpiRequestTest>);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_request<R::MpiRequestCancelled>);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb,
                                                        on_collective_begin<R::MpiCollectiveBegin>);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_collective_end);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, on_request<R::NbcRequest>);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(
      cb, on_collective_complete<R::NbcComplete>);
  OTF2_EvtReaderCallbacks_SetRmaPutCallback(cb, on_rma_transfer<R::RmaPut>);
  OTF2_EvtReaderCallbacks_SetRmaGetCallback(cb, on_rma_transfer<R::RmaGet>);
  OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(cb, on_rma_atomic);
  OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(cb,
                                                        on_collective_begin<R::RmaCollectiveBegin>);
  OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(cb, on_rma_collective_end);
  OTF2_EvtReaderCallbacks_SetRmaRequestLockCallback(cb, on_rma_lock<R::RmaRequestLock>);
  OTF2_EvtReaderCallbacks_SetRmaAcquireLockCallback(cb, on_rma_lock<R::RmaAcquireLock>);
  OTF2_EvtReaderCallbacks_SetRmaTryLockCallback(cb, on_rma_lock<R::RmaTryLock>);
  OTF2_EvtReaderCallbacks_SetRmaReleaseLockCallback(cb, on_rma_release_lock);
  OTF2_EvtReaderCallbacks_SetRmaWaitChangeCallback(cb, on_rma_wait_change);
  OTF2_EvtReaderCallbacks_SetRmaSyncCallback(cb, on_rma_sync);
  OTF2_EvtReaderCallbacks_SetRmaGroupSyncCallback(cb, on_rma_group_sync);
  return cb;
}

// --- local definitions: clock offsets -----------------------------------------------------

OTF2_CallbackCode on_clock_offset(void* d, OTF2_TimeStamp, std::int64_t, double stddev) {
  auto& report = *static_cast<LocationReport*>(d);
  ++report.clock_offsets;
  report.max_offset_stddev = std::max(report.max_offset_stddev, stddev);
  return OTF2_CALLBACK_SUCCESS;
}

std::string location_file(const EventLoadContext& context, const Location& loc,
                          const char* extension) {
  return context.files + "/" + std::to_string(loc.otf2_id) + extension;
}

// Reading a location's local definitions is also what makes OTF2 apply its clock offsets and
// mapping tables to the events read afterwards. The file is optional in OTF2: without it the
// events are read without clock offsets. False when the file is there but damaged (OTF2
// reports an error, or a read fails): the location's events cannot be trusted then.
bool read_local_definitions(const EventLoadContext& context, const StreamLimits& limits,
                            const Location& loc, LocationReport& report) {
  const std::string file = location_file(context, loc, ".def");
  const std::string where = location_name(loc) + " (" + file + ")";
  const auto damaged = [&](const std::string& why) {
    report.messages.push_back(where + ": the local definitions are damaged (" + why +
                              "); without its clock offsets and id mappings its events cannot "
                              "be trusted and are left out");
    return false;
  };
  // A record that runs past the file's data libotf2 would read from memory that is not the
  // file's (definitions_file_check.h).
  if (limits.decodable)
    if (const std::string problem = check_definitions_file((context.archive / file).string(),
                                                           limits.decodable->definitions);
        !problem.empty())
      return damaged(problem);
  Otf2ErrorLog otf2_errors;
  OTF2_ErrorCode status = OTF2_ERROR_INVALID_ARGUMENT;
  if (OTF2_DefReader* defs = OTF2_Reader_GetDefReader(context.reader, loc.otf2_id)) {
    OTF2_DefReaderCallbacks* cb = OTF2_DefReaderCallbacks_New();
    status = cb ? OTF2_DefReaderCallbacks_SetClockOffsetCallback(cb, on_clock_offset)
                : OTF2_ERROR_MEM_ALLOC_FAILED;
    if (status == OTF2_SUCCESS)
      status = OTF2_Reader_RegisterDefCallbacks(context.reader, defs, cb, &report);
    OTF2_DefReaderCallbacks_Delete(cb);
    std::uint64_t count = 0;
    if (status == OTF2_SUCCESS)
      status = OTF2_Reader_ReadAllLocalDefinitions(context.reader, defs, &count);
    OTF2_Reader_CloseDefReader(context.reader, defs);
  }
  if (status == OTF2_SUCCESS && otf2_errors.empty()) return true;
  if (!std::filesystem::exists(context.archive / file)) {
    report.messages.push_back(where +
                              ": no local definitions; its clock offsets are not "
                              "applied");
    return true;
  }
  return damaged(otf2_errors.empty() ? std::string("OTF2: ") + OTF2_Error_GetDescription(status)
                                     : otf2_errors.summary());
}

}  // namespace

std::string location_name(const Location& loc) {
  return "rank " + std::to_string(loc.rank) + " thread " + std::to_string(loc.thread);
}

namespace {

// How the read of a location's events ended, once the loader has seen them: the report's
// event count and messages. `stream_end`: why the stream ended before its end-of-file record,
// if the loader did not stop it.
void conclude(const EventLoadContext& context, const StreamLimits& limits, const Location& loc,
              EventLoader& loader, const std::string& stream_end, LocationReport& report) {
  release_unused_reserve(loc);
  const std::string events_file =
      location_name(loc) + " (" + location_file(context, loc, ".evt") + ")";
  if (loader.cut_short) {
    report.events = limits.last_record;  // the interrupting record was not used
    report.messages.push_back(events_file + ": " + limits.cut_reason);
  } else if (loader.damaged_record > 0) {
    report.events = loader.damaged_record - 1;
    // OTF2 adds the offsets of the location's definitions to every timestamp: damage there
    // shows up in the events.
    const std::string offsets_hint =
        report.clock_offsets > 0
            ? " (or the clock offsets in " + location_file(context, loc, ".def") + " are damaged)"
            : "";
    report.messages.push_back(events_file + ": record #" + std::to_string(loader.damaged_record) +
                              " is damaged" + offsets_hint + ": " + loader.damage +
                              "; it and the records after it are left out");
  } else if (!stream_end.empty()) {
    report.messages.push_back(events_file + ": " + stream_end);
  }
  const bool stopped = loader.cut_short || loader.damaged_record > 0 || !stream_end.empty();
  report.missing = report.events == 0 && stopped;
  loader.finish();
}

// Records between calls of the progress callback.
constexpr std::uint64_t kBatch = 1 << 16;

// Through the analyzer's own decoder; nullopt when it met something that libotf2 must judge
// (see otf2_event_decoder.h), having added nothing the caller needs to keep.
std::optional<LocationReport> decode_location(const EventLoadContext& context,
                                              const StreamLimits& limits, Location& loc,
                                              const RecordsRead& records_read) {
  const ChunkSizes chunks = *limits.decodable;
  const std::optional<LocalDefinitions> defs = read_local_definitions_file(
      (context.archive / location_file(context, loc, ".def")).string(), chunks.definitions);
  if (!defs) return std::nullopt;
  LocationReport report;
  report.clock_offsets = defs->clock_offsets;
  report.max_offset_stddev = defs->max_offset_stddev;
  const Otf2ErrorLog no_otf2_errors;  // libotf2 is not involved
  EventLoader loader(context, loc, report, no_otf2_errors);
  // libotf2 is stopped at the last whole chunk of a cut file; this decoder reads to the cut.
  if (!limits.cut) loader.last_record = limits.last_record;
  const std::array<WantedAttribute, 3> wanted{{
      {context.defs.callsite_attribute, OTF2_TYPE_CALLING_CONTEXT},
      {context.defs.pcontrol_level_attribute, OTF2_TYPE_INT32},
      {context.defs.upc_sync_flags_attribute, OTF2_TYPE_UINT32},
  }};
  EventFileDecoder decoder((context.archive / location_file(context, loc, ".evt")).string(),
                           chunks.events, *defs, wanted);
  reserve_for_events(loc, limits.expected_events);
  EventRecord record;
  EventFileDecoder::Step step;
  std::uint64_t counted = 0;  // records given to records_read
  while ((step = decoder.next(record)) == EventFileDecoder::Step::Record) {
    report.events = record.position;
    if (!loader.take(record)) break;
    if (records_read && report.events - counted == kBatch) {
      records_read(kBatch);
      counted = report.events;
    }
  }
  // Damage in a whole chunk is left to libotf2, which reads it from the file's bytes alone and
  // names it; in the last chunk, where libotf2 would read on past the file's data, the stream
  // ends at the record that cannot be decoded: the cut, in a file cut short.
  using Step = EventFileDecoder::Step;
  if (step == Step::Unsupported || (step == Step::Irregular && !decoder.in_last_chunk()))
    return std::nullopt;
  if (records_read) records_read(report.events - counted);
  const std::string next_record = "#" + std::to_string(decoder.records() + 1);
  conclude(context, limits, loc, loader,
           step != Step::Irregular ? ""
           : limits.cut ? "the event file is truncated: it ends inside record " + next_record +
                              ", which is left out; the records before it are kept"
                        : "record " + next_record +
                              " is damaged: it cannot be decoded from the file's data; it and the "
                              "records after it are left out",
           report);
  return report;
}

// Empties the event columns of `loc` for a new read, keeping their capacity.
void forget_events(Location& loc) {
  const auto clear = [](auto& column) { column.clear(); };
  for_each_call_column(loc, clear);
  loc.call_first_op.push_back(0);
  for_each_op_column(loc, clear);
  loc.pcontrol.clear();
}

// Through libotf2's event reader.
LocationReport read_location_with_libotf2(const EventLoadContext& context,
                                          const StreamLimits& limits, Location& loc,
                                          const RecordsRead& records_read) {
  LocationReport report;
  if (!read_local_definitions(context, limits, loc, report)) {
    report.missing = true;
    return report;
  }
  Otf2ErrorLog otf2_errors;
  EventLoader loader(context, loc, report, otf2_errors);
  loader.last_record = limits.last_record;

  OTF2_EvtReader* events = OTF2_Reader_GetEvtReader(context.reader, loc.otf2_id);
  if (!events) {
    report.missing = true;
    report.messages.push_back(location_name(loc) + " (" + location_file(context, loc, ".evt") +
                              "): the event file cannot be opened" +
                              (otf2_errors.empty() ? "" : " (" + otf2_errors.summary() + ")"));
    return report;
  }
  reserve_for_events(loc, limits.expected_events);
  OTF2_EvtReaderCallbacks* cb = event_callbacks();
  OTF2_ErrorCode status = cb ? OTF2_Reader_RegisterEvtCallbacks(context.reader, events, cb, &loader)
                             : OTF2_ERROR_MEM_ALLOC_FAILED;
  OTF2_EvtReaderCallbacks_Delete(cb);
  // In batches rather than ReadAllLocalEvents, so that a damaged stream still tells how far
  // it could be read.
  for (std::uint64_t read = kBatch; status == OTF2_SUCCESS && read == kBatch;) {
    read = 0;
    status = OTF2_Reader_ReadLocalEvents(context.reader, events, kBatch, &read);
    report.events += read;
    if (records_read) records_read(read);
  }
  OTF2_Reader_CloseEvtReader(context.reader, events);
  if (loader.error) std::rethrow_exception(loader.error);
  const bool stream_damaged = status != OTF2_SUCCESS || !otf2_errors.empty();
  conclude(
      context, limits, loc, loader,
      !stream_damaged
          ? std::string()
          : "the event stream is damaged after " + std::to_string(report.events) + " records (" +
                (otf2_errors.empty() ? std::string("OTF2: ") + OTF2_Error_GetDescription(status)
                                     : otf2_errors.summary()) +
                "); the rest is lost",
      report);
  return report;
}

}  // namespace

LocationReport load_location_events(const EventLoadContext& context, const StreamLimits& limits,
                                    Location& loc, const RecordsRead& records_read) {
  if (limits.decodable && context.own_decoder) {
    if (std::optional<LocationReport> report = decode_location(context, limits, loc, records_read))
      return *std::move(report);
    forget_events(loc);
  }
  return read_location_with_libotf2(context, limits, loc, records_read);
}

}  // namespace collwrap
