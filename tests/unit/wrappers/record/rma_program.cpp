// A program without any parallel paradigm that drives the recording layer the way a one-sided
// adapter (OpenSHMEM, UPC) would: it registers a SHMEM region table, a team and a window over
// it, runs as a single process whose ProcessGroup has OTF2's serial collectives, and writes one
// of each RMA record. verify_rma_archive.py reads the archive back with otf2-print.
//
// Usage: record_rma (the trace directory comes from COLLWRAP_TRACE_DIR, as for the tracer)
#include <otf2/otf2.h>

#include <memory>

#include "record/recorder.h"
#include "single_process.h"

namespace {

using namespace collwrap::tracer;

enum Region : std::uint32_t { kInit, kPut, kFinalize };
const RegionInfo kRegions[] = {{"shmem_init", OTF2_REGION_ROLE_FUNCTION},
                               {"shmem_putmem", OTF2_REGION_ROLE_DATA_TRANSFER},
                               {"shmem_finalize", OTF2_REGION_ROLE_FUNCTION}};
const RegionRef kFirstRegion = register_regions(Paradigm::Shmem, kRegions);

constexpr GroupRef kTeam = 4;
constexpr WindowRef kHeap = 2;

AdapterDefinitions team_and_heap() {
  return {{{kTeam, Paradigm::Shmem, 1, "SHMEM_TEAM_WORLD", {0}}},
          {{kHeap, 1, "symmetric heap", kTeam}}};
}

void record_every_rma_record(ThreadRecorder& r) {
  r.enter(now(), kFirstRegion + kPut, intern_callsite(__builtin_return_address(0)));
  r.rma_win_create(now(), kHeap);
  r.rma_put(now(), kHeap, 0, 64, 1);
  r.rma_op_complete_blocking(now(), kHeap, 1);
  r.rma_get(now(), kHeap, 0, 32, 2);
  r.rma_op_complete_non_blocking(now(), kHeap, 2);
  r.rma_atomic(now(), kHeap, 0, RmaAtomicType::FetchAndAdd, 8, 8, 3);
  r.rma_op_complete_remote(now(), kHeap, 3);
  r.rma_collective_begin(now());
  r.rma_collective_end(now(), CollectiveOp::Barrier, RmaSyncLevel::ProcessAndMemory, kHeap,
                       kUndefinedRank, 0, 0);
  r.rma_group_sync(now(), RmaSyncLevel::Memory, kHeap, kTeam);
  r.rma_request_lock(now(), kHeap, 0, 9, RmaLockType::Exclusive);
  r.rma_acquire_lock(now(), kHeap, 0, 9, RmaLockType::Exclusive);
  r.rma_try_lock(now(), kHeap, 0, 10, RmaLockType::Shared);
  r.rma_release_lock(now(), kHeap, 0, 9);
  r.rma_sync(now(), kHeap, 0, RmaSyncType::Memory);
  r.rma_wait_change(now(), kHeap);
  r.rma_win_destroy(now(), kHeap);
  r.leave(now(), kFirstRegion + kPut);
}

}  // namespace

int main() {
  register_definitions_source(team_and_heap);
  init_enter(kFirstRegion + kInit, __builtin_return_address(0));
  init_leave(std::make_unique<SingleProcess>());
  ThreadRecorder* recorder = thread_recorder();
  if (recorder == nullptr) return 1;
  record_every_rma_record(*recorder);
  finalize_enter(kFirstRegion + kFinalize, __builtin_return_address(0));
  return 0;
}
