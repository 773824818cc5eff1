#include "every_pattern_trace.h"

#include "trace_builder.h"

namespace collwrap::testing {
namespace {

constexpr TimeNs ms(double v) {
  return static_cast<TimeNs>(v * 1e6);
}

void collective(TraceBuilder& b, const char* function, CollOp op, std::uint32_t line,
                const TimeNs (&enter)[4], const TimeNs (&leave)[4], int root = kNoWorldRank) {
  for (int r = 0; r < 4; ++r)
    b.collective(b.call(r, function, enter[r], leave[r], kAppFile, line), op, 0, root);
}

}  // namespace

Trace every_pattern_trace() {
  TraceBuilder b(4);
  // late_sender + wrong_order: rank 0 waits for tag 2 while tag 0 has already arrived.
  b.send(b.call(1, "MPI_Send", ms(1), ms(1.01), kAppFile, 5), 0, 0, 8);
  b.send(b.call(1, "MPI_Send", ms(10), ms(10.01), kAppFile, 6), 0, 2, 8);
  b.recv(b.call(0, "MPI_Recv", ms(2), ms(10.01), kAppFile, 10), 1, 2, 8);
  b.recv(b.call(0, "MPI_Recv", ms(10.1), ms(10.11), kAppFile, 11), 1, 0, 8);
  // late_receiver: rank 2's Ssend waits 7 ms for rank 3's receive.
  b.send(b.call(2, "MPI_Ssend", ms(1), ms(8), kAppFile, 20), 3, 0, 8);
  b.recv(b.call(3, "MPI_Recv", ms(8), ms(8.01), kAppFile, 21), 2, 0, 8);
  // early_wait (and late_sender at the same wait): rank 2 waits for rank 3's late send.
  b.irecv_request(b.call(2, "MPI_Irecv", ms(9), ms(9.01), kAppFile, 30), 1);
  b.irecv(b.call(2, "MPI_Wait", ms(9.02), ms(15), kAppFile, 31), 3, 1, 8, 1);
  b.send(b.call(3, "MPI_Send", ms(14.9), ms(14.91), kAppFile, 32), 2, 1, 8);
  // wait_at_barrier (rank 3 late) and barrier_completion (rank 3 leaves late).
  collective(b, "MPI_Barrier", CollOp::Barrier, 40, {ms(20), ms(20), ms(20), ms(25)},
             {ms(25.1), ms(25.1), ms(25.1), ms(27)});
  // wait_at_nxn (rank 2 late) and nxn_completion (rank 3 leaves late).
  collective(b, "MPI_Allreduce", CollOp::Allreduce, 50, {ms(30), ms(30), ms(33), ms(30)},
             {ms(33.1), ms(33.1), ms(33.1), ms(35)});
  // late_broadcast: root 0 arrives 2 ms after the others.
  collective(b, "MPI_Bcast", CollOp::Bcast, 60, {ms(40), ms(38), ms(38), ms(38)},
             {ms(40.1), ms(40.1), ms(40.1), ms(40.1)}, 0);
  // early_reduce: root 0 waits 3 ms for rank 3.
  collective(b, "MPI_Reduce", CollOp::Reduce, 70, {ms(42), ms(42), ms(42), ms(45)},
             {ms(45.1), ms(42.01), ms(42.01), ms(45.1)}, 0);
  // early_scan: ranks 1-3 wait 2 ms for rank 0.
  collective(b, "MPI_Scan", CollOp::Scan, 80, {ms(50), ms(48), ms(48), ms(48)},
             {ms(50.1), ms(50.1), ms(50.1), ms(50.1)});
  // wait_at_neighbor: on a ring (neighbors r − 1 and r + 1) rank 2 is 2 ms late; only its
  // neighbors 1 and 3 wait.
  b.role("MPI_Neighbor_allgather", RegionRole::CollOther);
  const std::uint32_t ring = b.topology_comm({0, 1, 2, 3}, {{3, 1}, {0, 2}, {1, 3}, {2, 0}});
  const TimeNs ring_enter[4] = {ms(55), ms(55), ms(57), ms(55)};
  const TimeNs ring_leave[4] = {ms(55.1), ms(57.1), ms(57.1), ms(57.1)};
  for (int r = 0; r < 4; ++r)
    b.collective(b.call(r, "MPI_Neighbor_allgather", ring_enter[r], ring_leave[r], kAppFile, 85),
                 CollOp::Allgather, ring, kNoWorldRank, 8, 16);
  // sendrecv_candidate: rank 0 sends to rank 1, then receives from it right away.
  b.send(b.call(0, "MPI_Send", ms(60), ms(62), kAppFile, 90), 1, 9, 1 << 20);
  b.recv(b.call(0, "MPI_Recv", ms(62.01), ms(64), kAppFile, 91), 1, 9, 1 << 20);
  b.recv(b.call(1, "MPI_Recv", ms(60), ms(62), kAppFile, 92), 0, 9, 1 << 20);
  b.send(b.call(1, "MPI_Send", ms(62.001), ms(64), kAppFile, 93), 0, 9, 1 << 20);
  // One-sided (OpenSHMEM) patterns. lock_contention: rank 1 holds the lock 70..75 ms while
  // rank 2 waits for it from 71 ms.
  constexpr std::uint64_t kLock = 0x40;
  auto c = b.call(1, "shmem_set_lock", ms(70), ms(70.01), kAppFile, 99);
  b.lock(c, OpKind::RmaLockRequest, kLock);
  b.lock(c, OpKind::RmaLockAcquire, kLock);
  b.lock(b.call(1, "shmem_clear_lock", ms(75), ms(75.01), kAppFile, 101), OpKind::RmaLockRelease,
         kLock);
  c = b.call(2, "shmem_set_lock", ms(71), ms(75.02), kAppFile, 100);
  b.lock(c, OpKind::RmaLockRequest, kLock);
  b.lock(c, OpKind::RmaLockAcquire, kLock);
  b.lock(b.call(2, "shmem_clear_lock", ms(75.1), ms(75.11), kAppFile, 101), OpKind::RmaLockRelease,
         kLock);
  // late_wait_until: rank 3 waits from 70 ms for rank 0's put at 78 ms; memory_sync_wait: rank
  // 0's quiet after it takes 0.99 ms.
  b.wait_change(b.call(3, "shmem_long_wait_until", ms(70), ms(78.01), kAppFile, 110));
  b.put(b.call(0, "shmem_long_p", ms(78), ms(78.001), kAppFile, 111), 3, 8);
  b.memory_sync(b.call(0, "shmem_quiet", ms(78.01), ms(79), kAppFile, 112));
  // frequent_small_communication: rank 1 puts 100 single words to rank 2, 5 µs each.
  for (int i = 0; i < 100; ++i)
    b.put(
        b.call(1, "shmem_long_p", ms(80) + 10'000 * i, ms(80) + 10'000 * i + 5'000, kAppFile, 120),
        2, 8);
  // MPI windows. rma_wait_at_fence: rank 3 enters the closing fence 3 ms late; rma_early_fence:
  // ranks 0 and 1 (rank 0 put to rank 1 in the epoch) stay 0.5 ms after it entered.
  for (const char* function : {"MPI_Win_fence", "MPI_Win_create", "MPI_Win_free"})
    b.role(function, RegionRole::Rma);
  collective(b, "MPI_Win_fence", CollOp::Barrier, 129, {ms(84.01), ms(84.01), ms(84.01), ms(84.01)},
             {ms(84.01), ms(84.01), ms(84.01), ms(84.01)});
  b.put(b.call(0, "MPI_Put", ms(84.5), ms(84.51), kAppFile, 131), 1, 8);
  collective(b, "MPI_Win_fence", CollOp::Barrier, 130, {ms(85), ms(85), ms(85), ms(88)},
             {ms(88.5), ms(88.5), ms(88.1), ms(88.1)});
  // rma_wait_at_create (rank 3 1 ms late) and rma_wait_at_free (rank 2 1 ms late).
  collective(b, "MPI_Win_create", CollOp::CreateHandle, 140, {ms(90), ms(90), ms(90), ms(91)},
             {ms(91.1), ms(91.1), ms(91.1), ms(91.1)});
  collective(b, "MPI_Win_free", CollOp::DestroyHandle, 141, {ms(92), ms(92), ms(93), ms(92)},
             {ms(93.1), ms(93.1), ms(93.1), ms(93.1)});
  // rma_late_post: origin 0's MPI_Win_complete waits 1.98 ms for target 1's post.
  // rma_early_wait and rma_late_complete: target 3 waits 2.98 ms for origin 2's complete, 1.8 ms
  // of it after origin 2's last put.
  const std::uint32_t to1 = b.comm({1}), from0 = b.comm({0}), to3 = b.comm({3}),
                      from2 = b.comm({2});
  b.group_sync(b.call(0, "MPI_Win_start", ms(95), ms(95.01), kAppFile, 150), to1);
  b.group_sync(b.call(0, "MPI_Win_complete", ms(95.02), ms(97.1), kAppFile, 151), to1);
  b.group_sync(b.call(1, "MPI_Win_post", ms(97), ms(97.01), kAppFile, 152), from0);
  b.group_sync(b.call(1, "MPI_Win_wait", ms(97.02), ms(99), kAppFile, 153), from0);
  b.group_sync(b.call(2, "MPI_Win_start", ms(95), ms(95.01), kAppFile, 154), to3);
  b.put(b.call(2, "MPI_Put", ms(95.1), ms(95.2), kAppFile, 155), 3, 8);
  b.group_sync(b.call(2, "MPI_Win_complete", ms(97), ms(97.1), kAppFile, 156), to3);
  b.group_sync(b.call(3, "MPI_Win_post", ms(94), ms(94.01), kAppFile, 157), from2);
  b.group_sync(b.call(3, "MPI_Win_wait", ms(94.02), ms(97.2), kAppFile, 158), from2);
  // upc_sync_on_entry (UPC_IN_ALLSYNC, thread 3 1 ms late) and upc_sync_on_exit
  // (UPC_IN_NOSYNC | UPC_OUT_ALLSYNC, thread 2 1 ms late).
  const TimeNs upc_enter[2][4] = {{ms(100), ms(100), ms(100), ms(101)},
                                  {ms(102), ms(102), ms(103), ms(102)}};
  const TimeNs upc_leave[2] = {ms(101.1), ms(103.1)};
  const UpcSync upc_entry[2] = {UpcSync::All, UpcSync::No};
  for (int k = 0; k < 2; ++k)
    for (int r = 0; r < 4; ++r) {
      const CallRef c =
          b.call(r, "upc_all_exchange", upc_enter[k][r], upc_leave[k], kAppFile, 160 + k);
      b.upc_sync(c, b.collective(c, CollOp::Alltoall, 0, kNoWorldRank, 64, 64), upc_entry[k],
                 UpcSync::All);
    }
  // upc_wait_inside_collective: after thread 0 left a UPC_OUT_ALLSYNC broadcast, thread 1 stays
  // 1 ms.
  for (int r = 0; r < 4; ++r) {
    const CallRef c =
        b.call(r, "upc_all_broadcast", ms(104), ms(r == 1 ? 105.2 : 104.2), kAppFile, 162);
    b.upc_sync(c, b.collective(c, CollOp::Bcast, 0, 0, 64, 64), UpcSync::My, UpcSync::All);
  }
  // upc_wait_at_all_alloc: threads 1-3 wait 1 ms in upc_all_alloc for thread 0.
  for (int r = 0; r < 4; ++r)
    b.collective(b.call(r, "upc_all_alloc", ms(r == 0 ? 107 : 106), ms(107.1), kAppFile, 163),
                 CollOp::CreateHandle, 0, 0);
  // large_communication and unbalanced_communication: rank 1 puts 1 MiB to rank 3 in 2 ms, after
  // the UPC calls.
  b.put(b.call(1, "shmem_putmem", ms(108), ms(110), kAppFile, 164), 3, 1 << 20);
  return b.finish();
}

const std::vector<ExpectedFinding>& every_pattern_expected() {
  static const std::vector<ExpectedFinding> expected = {
      {"late_sender", 0, 10, 0.008},
      {"wrong_order", 0, 10, 0.008},
      {"late_receiver", 2, 20, 0.007},
      {"early_wait", 2, 31, 0.00598},
      {"wait_at_barrier", 0, 40, 0.005},
      {"barrier_completion", 3, 40, 0.0019},
      {"wait_at_nxn", 0, 50, 0.003},
      {"nxn_completion", 3, 50, 0.0019},
      {"wait_at_neighbor", 1, 85, 0.002},
      {"late_broadcast", 1, 60, 0.002},
      {"early_reduce", 0, 70, 0.003},
      {"early_scan", 1, 80, 0.002},
      {"sendrecv_candidate", 0, 90, 0.00199},
      {"lock_contention", 2, 100, 0.004},
      {"late_wait_until", 3, 110, 0.008},
      {"memory_sync_wait", 0, 112, 0.00099},
      {"frequent_small_communication", 1, 120, 0.0005},
      {"rma_wait_at_fence", 0, 130, 0.003},
      {"rma_early_fence", 0, 130, 0.0005},
      {"rma_wait_at_create", 0, 140, 0.001},
      {"rma_wait_at_free", 0, 141, 0.001},
      {"rma_late_post", 0, 151, 0.00198},
      {"rma_early_wait", 3, 158, 0.00298},
      {"rma_late_complete", 3, 158, 0.0018},
      {"upc_sync_on_entry", 0, 160, 0.001},
      {"upc_sync_on_exit", 0, 161, 0.001},
      {"upc_wait_inside_collective", 1, 162, 0.001},
      {"upc_wait_at_all_alloc", 1, 163, 0.001},
      {"large_communication", 1, 164, 0.002},
      // unbalanced_communication: 1 MiB against a mean of 449512 bytes over the 7 pairs.
      {"unbalanced_communication", 1, 164, 0.002 * (1048576 - 449512) / 1048576.0},
  };
  return expected;
}

}  // namespace collwrap::testing
