// The GASP 1.5 tool interface for UPC (Su, Leko, Bonachea et al., "GASP: A Performance Analysis
// Tool Interface for Global Address Space Programming Models", version 1.5): the functions a
// GASP-instrumented program calls (gasp_init, gasp_event_notify(VA), gasp_control,
// gasp_create_event), which libcollwrap.so implements, and the event tags of gasp_upc.h. The
// specification leaves the tags' values to the implementation's gasp_upc.h; these are GNU UPC's
// (libupc/include/gasp_upc.h, GASP_UPC_VERSION 40302), Berkeley UPC numbers them differently.
#pragma once

#include <cstdarg>
#include <utility>

extern "C" {

typedef enum {
  GASP_MODEL_UPC,
  GASP_MODEL_TITANIUM,
  GASP_MODEL_CAF,
  GASP_MODEL_MPI,
  GASP_MODEL_SHMEM
} gasp_model_t;

typedef enum { GASP_START, GASP_END, GASP_ATOMIC } gasp_evttype_t;

struct _gasp_context_S;
typedef struct _gasp_context_S* gasp_context_t;

gasp_context_t gasp_init(gasp_model_t srcmodel, int* argc, char*** argv);
void gasp_event_notify(gasp_context_t context, unsigned int evttag, gasp_evttype_t evttype,
                       const char* filename, int linenum, int colnum, ...);
void gasp_event_notifyVA(gasp_context_t context, unsigned int evttag, gasp_evttype_t evttype,
                         const char* filename, int linenum, int colnum, va_list varargs);
int gasp_control(gasp_context_t context, int on);
unsigned int gasp_create_event(gasp_context_t context, const char* name, const char* desc);

// Not part of GASP: a pointer-to-shared is opaque to a tool, so the runtime (or a bridge for
// it) tells libcollwrap.so which UPC thread a pointer-to-shared or lock has affinity to.
// Without it, one-sided records name no target thread.
void collwrap_gasp_set_threadof(int (*threadof)(const void* pointer_to_shared));
}

namespace collwrap::tracer::gasp {

// Event tags (gasp_upc.h) and their arguments after colnum.
enum Tag : unsigned {
  kCFunc = 1,              // Start,End: const char* funcsig
  kCollectiveExit = 5,     // Start,End: int status
  kNoncollectiveExit = 6,  // Atomic: int status
  kNotify = 7,             // Start,End: int named, int expr
  kWait = 8,               // Start,End: int named, int expr
  kBarrier = 9,            // Start,End: int named, int expr
  kFence = 10,             // Start,End
  kForall = 11,            // Start,End
  kGlobalAlloc = 12,       // Start: size_t nblocks, size_t nbytes; End: + PTS* result
  kAllAlloc = 13,          // idem (collective)
  kAlloc = 14,             // Start: size_t nbytes; End: + PTS* result
  kFree = 15,              // Start,End: PTS* ptr
  kGlobalLockAlloc = 16,   // End: lock*
  kAllLockAlloc = 17,      // End: lock*
  kLockFree = 18,          // Start,End: lock*
  kLock = 19,              // Start,End: lock*
  kLockAttempt = 20,       // Start: lock*; End: lock*, int result
  kUnlock = 21,            // Start,End: lock*
  kMemcpy = 22,            // Start,End: PTS* dst, PTS* src, size_t n
  kMemget = 23,            // Start,End: void* dst, PTS* src, size_t n
  kMemput = 24,            // Start,End: PTS* dst, void* src, size_t n
  kMemset = 25,            // Start,End: PTS* dst, int c, size_t n
  kGet = 26,               // Start,End: int is_relaxed, void* dst, PTS* src, size_t n
  kPut = 27,               // Start,End: int is_relaxed, PTS* dst, void* src, size_t n
  kAllBroadcast = 36,      // Start,End: PTS* dst, PTS* src, size_t nbytes, int upc_flags
  kAllScatter = 37,        // idem
  kAllGather = 38,         // idem
  kAllGatherAll = 39,      // idem
  kAllExchange = 40,       // idem
  kAllPermute = 41,        // PTS* dst, PTS* src, PTS* perm, size_t nbytes, int upc_flags
  kAllReduce = 42,         // PTS* dst, PTS* src, int op, size_t nelems, size_t blk_size,
                           //   void* func, int upc_flags, gasp_upc_reduction_t type
  kAllPrefixReduce = 43,   // idem
  kUserEventFirst = 1000,  // gasp_create_event's tags
  kUserEventLast = 1999,
};

// Which runtime's gasp_upc.h the program was built against: COLLWRAP_GASP_RUNTIME=gnu (the
// default) or berkeley. The two numberings overlap (Berkeley's system events start at 1000,
// where GNU UPC's user events do), so the runtime cannot be told from the tags themselves.
enum class Runtime : unsigned char { Gnu, Berkeley };

// Berkeley UPC's tags (_GASP_UPC_SYSEVT_START = 1000) as GNU UPC's; user events are
// 100..999 there. Berkeley UPC has no GASP_UPC_BARRIER (upc_barrier is upc_notify + upc_wait),
// no GASP_UPC_FENCE and no GASP_UPC_FORALL. Unknown tags give 0.
constexpr unsigned kBerkeleyUserEventFirst = 100, kBerkeleyUserEventLast = 999;
constexpr std::pair<unsigned, Tag> kBerkeleyTags[] = {
    {1000, kAlloc},
    {1001, kGlobalAlloc},
    {1002, kAllAlloc},
    {1003, kFree},
    {1010, kGlobalLockAlloc},
    {1011, kAllLockAlloc},
    {1012, kLockFree},
    {1013, kLockAttempt},
    {1014, kLock},
    {1015, kUnlock},
    {1023, kCFunc},
    {1030, kMemget},
    {1031, kMemput},
    {1032, kMemcpy},
    {1033, kMemset},
    {1100, kNotify},
    {1101, kWait},
    {1110, kPut},
    {1111, kGet},
    {1210, kCollectiveExit},
    {1211, kNoncollectiveExit},
    {1300, kAllBroadcast},
    {1310, kAllScatter},
    {1320, kAllGather},
    {1330, kAllGatherAll},
    {1340, kAllExchange},
    {1350, kAllPermute},
    {1400, kAllReduce},
    {1410, kAllPrefixReduce},
};
constexpr unsigned berkeley_tag(unsigned tag) {
  if (tag >= kBerkeleyUserEventFirst && tag <= kBerkeleyUserEventLast)
    return kUserEventFirst + (tag - kBerkeleyUserEventFirst);
  for (const auto& [berkeley, gnu] : kBerkeleyTags)
    if (berkeley == tag) return gnu;
  return 0;
}

// A collective's synchronization modes on entry and on exit, as the archive stores them (the
// UpcSyncFlags attribute of RmaCollectiveEnd, independent of the runtime's upc_flag_t):
// bits 0-1 the entry mode, bits 2-3 the exit mode, each 1 = NOSYNC, 2 = MYSYNC, 3 = ALLSYNC.
enum SyncMode : unsigned { kNoSync = 1, kMySync = 2, kAllSync = 3 };
constexpr unsigned sync_flags(SyncMode in, SyncMode out) {
  return unsigned(in) | unsigned(out) << 2;
}

// The bits of UPC_IN_{MY,NO}SYNC and UPC_OUT_{MY,NO}SYNC in a runtime's upc_flag_t. A direction
// with neither is ALLSYNC, whatever its UPC_*_ALLSYNC value (the collectives specification's
// default when a direction has no flag), so the ALLSYNC values need no decoding.
struct SyncFlagEncoding {
  unsigned in_my, in_no, out_my, out_no;

  constexpr unsigned decode(unsigned flags) const {
    auto mode = [flags](unsigned my, unsigned no) {
      return (flags & no) != 0 ? kNoSync : (flags & my) != 0 ? kMySync : kAllSync;
    };
    return sync_flags(mode(in_my, in_no), mode(out_my, out_no));
  }
};
// COLLWRAP_UPC_SYNC_FLAGS=classic (the default): the values of the UPC collectives
// specification's reference implementation (Michigan Tech), which GNU UPC 4 (upc_collective.h:
// IN_NOSYNC 1, IN_MYSYNC 2, OUT_NOSYNC 4, OUT_MYSYNC 8, ALLSYNC 0) and Berkeley UPC (the same,
// with IN_ALLSYNC 16, OUT_ALLSYNC 32) share: one decoding serves both.
constexpr SyncFlagEncoding kClassicFlags{2, 1, 8, 4};
// COLLWRAP_UPC_SYNC_FLAGS=upc13: UPC 1.3's upc_types.h (GNU UPC 5, Clang UPC): IN_ALLSYNC 1,
// IN_MYSYNC 2, IN_NOSYNC 4, OUT_ALLSYNC 8, OUT_MYSYNC 16, OUT_NOSYNC 32.
constexpr SyncFlagEncoding kUpc13Flags{2, 4, 16, 32};

}  // namespace collwrap::tracer::gasp
