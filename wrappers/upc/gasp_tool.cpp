// libcollwrap.so as a GASP 1.5 tool: the UPC runtime (Berkeley UPC with --inst, GNU UPC with
// -fupc-instrument) calls gasp_event_notify at the start and end of each UPC operation; each
// becomes the Enter/Leave of a UPC region and the OTF2 one-sided records of paradigm UPC that
// the OpenSHMEM wrappers also write (record/recorder.h): barriers, split-phase waits and
// collectives as RmaCollectiveBegin/End over the UPC window, locks as lock records, puts and gets
// (upc_memput, upc_memget, shared accesses) as RmaPut/RmaGet with the target thread, upc_fence
// as RmaSync. The call site is where the instrumented program called gasp_event_notify.
//
// The upc_all_* relocalization collectives carry their UPC_IN_*/UPC_OUT_* modes as the
// UpcSyncFlags attribute of their RmaCollectiveEnd (gasp.h, sync_flags), and an ALLSYNC on either
// side as the record's process synchronization level. upc_all_alloc and upc_all_lock_alloc are
// collective creations of a shared object that thread 0 allocates (OTF2 CREATE_HANDLE, root 0).
// upc_notify is a region of its own, without records, before the upc_wait that completes the
// split-phase barrier.
//
// GASP gives a tool no communication of its own: UPC tracing rides on the tracing that MPI_Init
// or shmem_init started (a runtime over MPI or OpenSHMEM, one UPC thread per process, thread i
// = process i). Before that, and when gasp_control turned it off, events are ignored.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "record/recorder.h"
#include "record/symmetric_address.h"
#include "upc/gasp.h"

namespace collwrap::tracer {
namespace {

using namespace gasp;

// UPC regions; index = position. Roles are OTF2_RegionRole values.
enum Region : std::uint32_t {
  kBarrierRegion,
  kNotifyRegion,
  kWaitRegion,
  kFenceRegion,
  kAllAllocRegion,
  kGlobalAllocRegion,
  kAllocRegion,
  kFreeRegion,
  kLockAllocRegion,
  kAllLockAllocRegion,
  kLockFreeRegion,
  kLockRegion,
  kLockAttemptRegion,
  kUnlockRegion,
  kMemcpyRegion,
  kMemgetRegion,
  kMemputRegion,
  kMemsetRegion,
  kGetRegion,
  kPutRegion,
  kAllBroadcastRegion,
  kAllScatterRegion,
  kAllGatherRegion,
  kAllGatherAllRegion,
  kAllExchangeRegion,
  kAllPermuteRegion,
  kAllReduceRegion,
  kAllPrefixReduceRegion,
  kForallRegion,
  kFunctionRegion,
  kExitRegion,
  kUserEventRegion,
  kRegionCount
};
constexpr std::uint8_t kFunction = 1, kBarrierRole = 15, kOne2All = 23, kAll2One = 24,
                       kAll2All = 25, kCollOther = 26, kRma = 29;
constexpr RegionInfo kUpcRegions[kRegionCount] = {
    {"upc_barrier", kBarrierRole},
    {"upc_notify", kBarrierRole},
    {"upc_wait", kBarrierRole},
    {"upc_fence", kRma},
    {"upc_all_alloc", kCollOther},
    {"upc_global_alloc", kFunction},
    {"upc_alloc", kFunction},
    {"upc_free", kFunction},
    {"upc_global_lock_alloc", kFunction},
    {"upc_all_lock_alloc", kCollOther},
    {"upc_lock_free", kFunction},
    {"upc_lock", kRma},
    {"upc_lock_attempt", kRma},
    {"upc_unlock", kRma},
    {"upc_memcpy", kRma},
    {"upc_memget", kRma},
    {"upc_memput", kRma},
    {"upc_memset", kRma},
    {"upc_get", kRma},
    {"upc_put", kRma},
    {"upc_all_broadcast", kOne2All},
    {"upc_all_scatter", kOne2All},
    {"upc_all_gather", kAll2One},
    {"upc_all_gather_all", kAll2All},
    {"upc_all_exchange", kAll2All},
    {"upc_all_permute", kAll2All},
    {"upc_all_reduce", kAll2One},
    {"upc_all_prefix_reduce", kCollOther},
    {"upc_forall", kFunction},
    {"upc_function", kFunction},
    {"upc_collective_exit", kFunction},
    {"upc_user_event", kFunction},
};
const RegionRef kFirstRegion = register_regions(Paradigm::Upc, kUpcRegions);

// The UPC threads as a group and the shared space as a window, clear of the other adapters' refs.
constexpr std::uint32_t kUpcRef = 0x50000000u;
constexpr std::uint64_t kUpcKey = 0x55504300u;  // "UPC"

struct State {
  std::mutex mutex;
  int threads = 0;  // 0: gasp_init has not found tracing on
  std::atomic<bool> enabled{true};
  std::atomic<unsigned> next_user_event{0};
  std::atomic<int (*)(const void*)> threadof{nullptr};
  // Set by gasp_init from COLLWRAP_GASP_RUNTIME and COLLWRAP_UPC_SYNC_FLAGS.
  Runtime runtime = Runtime::Gnu;
  SyncFlagEncoding flags = kClassicFlags;
};

State& state() {
  static State s;
  return s;
}

AdapterDefinitions upc_definitions() {
  State& s = state();
  std::lock_guard lock(s.mutex);
  if (s.threads == 0) return {};
  GroupInfo group{kUpcRef, Paradigm::Upc, kUpcKey, "UPC threads", {}};
  for (int t = 0; t < s.threads; ++t) group.members.push_back(t);
  return {{std::move(group)}, {{kUpcRef, kUpcKey, "UPC shared space", kUpcRef}}};
}

const bool g_registered = [] {
  register_definitions_source(upc_definitions);
  return true;
}();

std::uint32_t thread_of(const void* pointer_to_shared) {
  auto threadof = state().threadof.load(std::memory_order_relaxed);
  if (threadof == nullptr || pointer_to_shared == nullptr) return kUndefinedRank;
  const int thread = threadof(pointer_to_shared);
  return thread < 0 || thread >= state().threads ? kUndefinedRank : std::uint32_t(thread);
}

// What the Start of an operation left for its End.
struct Open {
  unsigned tag;
  Region region;
  RmaMatchId match = 0;
  std::uint64_t lock = 0;
  CollectiveOp op = CollectiveOp::Barrier;
  std::uint32_t root = kUndefinedRank;
  std::uint64_t bytes = 0;
  unsigned sync = 0;  // sync_flags() of a relocalization collective, else 0
};
thread_local std::vector<Open> t_open;
thread_local RmaMatchId t_next_match = 0;

bool region_of(unsigned tag, Region& region) {
  static constexpr std::pair<unsigned, Region> kTags[] = {
      {kBarrier, kBarrierRegion},
      {kNotify, kNotifyRegion},
      {kWait, kWaitRegion},
      {kFence, kFenceRegion},
      {kAllAlloc, kAllAllocRegion},
      {kGlobalAlloc, kGlobalAllocRegion},
      {kAlloc, kAllocRegion},
      {kFree, kFreeRegion},
      {kGlobalLockAlloc, kLockAllocRegion},
      {kAllLockAlloc, kAllLockAllocRegion},
      {kLockFree, kLockFreeRegion},
      {kLock, kLockRegion},
      {kLockAttempt, kLockAttemptRegion},
      {kUnlock, kUnlockRegion},
      {kMemcpy, kMemcpyRegion},
      {kMemget, kMemgetRegion},
      {kMemput, kMemputRegion},
      {kMemset, kMemsetRegion},
      {kGet, kGetRegion},
      {kPut, kPutRegion},
      {kAllBroadcast, kAllBroadcastRegion},
      {kAllScatter, kAllScatterRegion},
      {kAllGather, kAllGatherRegion},
      {kAllGatherAll, kAllGatherAllRegion},
      {kAllExchange, kAllExchangeRegion},
      {kAllPermute, kAllPermuteRegion},
      {kAllReduce, kAllReduceRegion},
      {kAllPrefixReduce, kAllPrefixReduceRegion},
      {kForall, kForallRegion},
      {kCFunc, kFunctionRegion},
      {kCollectiveExit, kExitRegion},
  };
  for (const auto& [t, r] : kTags) {
    if (t == tag) {
      region = r;
      return true;
    }
  }
  if (tag >= kUserEventFirst && tag <= kUserEventLast) {
    region = kUserEventRegion;
    return true;
  }
  return false;
}

// The relocalization collectives: OTF2 operation, root and bytes per thread from the Start's
// arguments (dst, src, [perm,] nbytes, flags; the reductions: dst, src, op, nelems, ...).
void describe_collective(unsigned tag, va_list args, Open& open) {
  const void* dst = va_arg(args, const void*);
  const void* src = va_arg(args, const void*);
  switch (tag) {
    case kAllBroadcast:
    case kAllScatter:
      open.op = tag == kAllBroadcast ? CollectiveOp::Bcast : CollectiveOp::Scatter;
      open.root = thread_of(src);
      open.bytes = va_arg(args, std::size_t);
      break;
    case kAllGather:
      open.op = CollectiveOp::Gather;
      open.root = thread_of(dst);
      open.bytes = va_arg(args, std::size_t);
      break;
    case kAllGatherAll:
    case kAllExchange:
      open.op = tag == kAllGatherAll ? CollectiveOp::Allgather : CollectiveOp::Alltoall;
      open.bytes = va_arg(args, std::size_t);
      break;
    case kAllPermute:
      va_arg(args, const void*);  // perm
      open.op = CollectiveOp::Alltoall;
      open.bytes = va_arg(args, std::size_t);
      break;
    case kAllReduce:
    case kAllPrefixReduce:
      va_arg(args, int);  // upc_op
      open.op = tag == kAllReduce ? CollectiveOp::Reduce : CollectiveOp::Scan;
      if (tag == kAllReduce) open.root = thread_of(dst);
      open.bytes = va_arg(args, std::size_t);  // elements; their size is not given
      va_arg(args, std::size_t);               // blk_size
      va_arg(args, const void*);               // func
      break;
    default:
      return;
  }
  open.sync = state().flags.decode(unsigned(va_arg(args, int)));  // upc_flags
}

bool is_collective(unsigned tag) {
  return tag == kBarrier || tag == kWait || tag == kAllAlloc || tag == kAllLockAlloc ||
         (tag >= kAllBroadcast && tag <= kAllPrefixReduce);
}

// Start and End read the event's arguments from `args` (a copy the caller owns).
void start(ThreadRecorder& r, Ticks t, unsigned tag, Open& open, va_list args) {
  if (is_collective(tag)) {
    r.rma_collective_begin(t);
    if (tag >= kAllBroadcast) describe_collective(tag, args, open);
    if (tag == kAllAlloc || tag == kAllLockAlloc) {
      open.op = CollectiveOp::CreateHandle;
      open.root = 0;
    }
    return;
  }
  switch (tag) {
    case kLock:
    case kLockAttempt:
      open.lock = symmetric_address_id(va_arg(args, const void*));
      if (tag == kLock)
        r.rma_request_lock(t, kUpcRef, kUndefinedRank, open.lock, RmaLockType::Exclusive);
      return;
    case kUnlock:
      r.rma_release_lock(t, kUpcRef, kUndefinedRank,
                         symmetric_address_id(va_arg(args, const void*)));
      return;
    case kPut:
    case kMemput:
    case kMemcpy:
    case kMemset: {
      if (tag == kPut) va_arg(args, int);  // is_relaxed
      const std::uint32_t target = thread_of(va_arg(args, const void*));
      if (tag == kMemset)
        va_arg(args, int);  // c
      else
        va_arg(args, const void*);  // src
      open.match = ++t_next_match;
      r.rma_put(t, kUpcRef, target, va_arg(args, std::size_t), open.match);
      return;
    }
    case kGet:
    case kMemget: {
      if (tag == kGet) va_arg(args, int);  // is_relaxed
      va_arg(args, const void*);           // local dst
      const std::uint32_t target = thread_of(va_arg(args, const void*));
      open.match = ++t_next_match;
      r.rma_get(t, kUpcRef, target, va_arg(args, std::size_t), open.match);
      return;
    }
    default:
      return;
  }
}

void end(ThreadRecorder& r, Ticks t, const Open& open, va_list args) {
  if (is_collective(open.tag)) {
    RmaSyncLevel level = RmaSyncLevel::ProcessAndMemory;
    if (open.sync != 0) {
      const bool all = (open.sync & 3u) == kAllSync || (open.sync >> 2) == kAllSync;
      level = all ? RmaSyncLevel::Process : RmaSyncLevel::None;
    }
    r.rma_collective_end(t, open.op, level, kUpcRef, open.root, open.bytes, open.bytes, open.sync);
    return;
  }
  switch (open.tag) {
    case kLock:
      r.rma_acquire_lock(t, kUpcRef, kUndefinedRank, open.lock, RmaLockType::Exclusive);
      return;
    case kLockAttempt: {
      va_arg(args, const void*);  // lck
      if (va_arg(args, int) != 0)
        r.rma_acquire_lock(t, kUpcRef, kUndefinedRank, open.lock, RmaLockType::Exclusive);
      else
        r.rma_try_lock(t, kUpcRef, kUndefinedRank, open.lock, RmaLockType::Exclusive);
      return;
    }
    case kFence:
      r.rma_sync(t, kUpcRef, kUndefinedRank, RmaSyncType::Memory);
      return;
    default:
      if (open.match != 0) r.rma_op_complete_blocking(t, kUpcRef, open.match);
      return;
  }
}

void notify(unsigned tag, gasp_evttype_t type, void* return_address, va_list args) noexcept {
  State& s = state();
  if (s.threads == 0 || !s.enabled.load(std::memory_order_relaxed)) return;
  if (s.runtime == Runtime::Berkeley) tag = berkeley_tag(tag);
  ThreadRecorder* r = thread_recorder();
  Region region;
  if (r == nullptr || !region_of(tag, region)) return;
  const Ticks t = now();
  try {
    if (type == GASP_START) {
      r->enter(t, kFirstRegion + region, intern_callsite(return_address));
      Open& open = t_open.emplace_back(Open{tag, region});
      start(*r, t, tag, open, args);
    } else if (type == GASP_END) {
      if (t_open.empty() || t_open.back().tag != tag) return;  // a Start we did not see
      end(*r, t, t_open.back(), args);
      r->leave(t, kFirstRegion + t_open.back().region);
      t_open.pop_back();
    } else {  // GASP_ATOMIC: an instant
      r->enter(t, kFirstRegion + region, intern_callsite(return_address));
      r->leave(t, kFirstRegion + region);
    }
  } catch (...) {
    // Out of memory for the open-event stack: this event is not recorded.
  }
}

}  // namespace
}  // namespace collwrap::tracer

using namespace collwrap::tracer;

extern "C" gasp_context_t gasp_init(gasp_model_t srcmodel, int*, char***) {
  static int context = 0;
  if (srcmodel != GASP_MODEL_UPC) return nullptr;
  int rank = 0, size = 0;
  if (traced_processes(rank, size)) {
    State& s = state();
    std::lock_guard lock(s.mutex);
    s.threads = size;
    const char* runtime = std::getenv("COLLWRAP_GASP_RUNTIME");
    s.runtime = runtime != nullptr && std::string_view(runtime) == "berkeley" ? Runtime::Berkeley
                                                                              : Runtime::Gnu;
    const char* flags = std::getenv("COLLWRAP_UPC_SYNC_FLAGS");
    s.flags = flags != nullptr && std::string_view(flags) == "upc13" ? kUpc13Flags : kClassicFlags;
  }
  return reinterpret_cast<gasp_context_t>(&context);
}

extern "C" void gasp_event_notify(gasp_context_t context, unsigned int evttag,
                                  gasp_evttype_t evttype, const char* filename, int linenum,
                                  int colnum, ...) {
  (void)context, (void)filename, (void)linenum;
  va_list args;
  va_start(args, colnum);
  notify(evttag, evttype, __builtin_return_address(0), args);
  va_end(args);
}

extern "C" void gasp_event_notifyVA(gasp_context_t, unsigned int evttag, gasp_evttype_t evttype,
                                    const char*, int, int, va_list varargs) {
  va_list args;
  va_copy(args, varargs);
  notify(evttag, evttype, __builtin_return_address(0), args);
  va_end(args);
}

extern "C" int gasp_control(gasp_context_t, int on) {
  return state().enabled.exchange(on != 0) ? 1 : 0;
}

// A new user event's tag in the runtime's own range (GNU UPC 1000..1999, Berkeley 100..999).
extern "C" unsigned int gasp_create_event(gasp_context_t, const char*, const char*) {
  const unsigned n = state().next_user_event.fetch_add(1);  // the n-th user event
  if (state().runtime == Runtime::Berkeley)
    return std::min(kBerkeleyUserEventFirst + n, kBerkeleyUserEventLast);
  return std::min(unsigned(kUserEventFirst) + n, unsigned(kUserEventLast));
}

extern "C" void collwrap_gasp_set_threadof(int (*threadof)(const void*)) {
  state().threadof.store(threadof);
}
