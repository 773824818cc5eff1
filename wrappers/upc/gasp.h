// The GASP 1.5 tool interface for UPC (Su, Leko, Bonachea et al., "GASP: A Performance Analysis
// Tool Interface for Global Address Space Programming Models", version 1.5): the functions a
// GASP-instrumented program calls (gasp_init, gasp_event_notify(VA), gasp_control,
// gasp_create_event), which libcollwrap.so implements, and the event tags of gasp_upc.h. The
// specification leaves the tags' values to the implementation's gasp_upc.h; these are GNU UPC's
// (libupc/include/gasp_upc.h, GASP_UPC_VERSION 40302), Berkeley UPC numbers them differently.
#pragma once

#include <cstdarg>

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

}  // namespace collwrap::tracer::gasp
