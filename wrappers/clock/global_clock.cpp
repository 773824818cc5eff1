#include "clock/global_clock.h"

#include <sched.h>
#include <unistd.h>

#include "mpi/mpi_process_group.h"
#include "record/clock_sync.h"
#include "record/timer.h"

namespace collwrap::tracer {
namespace {

// A TSC's rate is measured against CLOCK_MONOTONIC over at least this long.
constexpr std::int64_t kCalibrationNs = 100'000'000;
// Closer than this to a deadline, wait_until spins: on a busy node a yield can cost a whole
// time slice (milliseconds), which would make punctual starts impossible.
constexpr double kSpinUs = 2000;

}  // namespace

GlobalClock::GlobalClock(MPI_Comm comm, ClockSyncKind kind, std::uint32_t patience) {
  const TimerSample calibration_start = timer::sample();
  MpiProcessGroup group(comm);
  group.barrier();
  const std::int64_t sync_start_ns = timer::monotonic_ns();
  auto synchronizer = make_clock_synchronizer(kind, patience, group.size());
  offset_ = synchronizer->synchronize(group).own;
  sync_name_ = synchronizer->name();
  sync_ms_ = double(timer::monotonic_ns() - sync_start_ns) / 1e6;
  // The synchronization usually covers part of the calibration interval; sleep off the rest.
  while (timer::monotonic_ns() - calibration_start.monotonic_ns < kCalibrationNs) usleep(1000);
  rate_ = timer::resolution(calibration_start, timer::sample());

  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int ranks_on_node = 1;
  MPI_Comm_size(node, &ranks_on_node);
  MPI_Comm_free(&node);
  oversubscribed_ = ranks_on_node > sysconf(_SC_NPROCESSORS_ONLN);
}

bool GlobalClock::wait_until(std::int64_t deadline) const {
  if (now() > deadline) return false;
  const std::int64_t spin_from = oversubscribed_ ? deadline : deadline - ticks(kSpinUs);
  while (now() < spin_from) sched_yield();
  while (now() < deadline) {
  }
  return true;
}

}  // namespace collwrap::tracer
