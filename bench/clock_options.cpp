#include "clock_options.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace collwrap::bench {

ClockChoice read_clock_options(Arguments& args, bool synchronizes) {
  using tracer::TimerKind;
  std::vector<std::string> problems;
  const tracer::TracerConfig config = tracer::read_config(
      [](const char* name) -> const char* { return std::getenv(name); }, problems);
  // Like the tracer: an invalid setting is reported and its default used.
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (const std::string& p : problems)
    if (rank == 0) std::fprintf(stderr, "collwrap-bench: %s\n", p.c_str());

  ClockChoice c{config.timer, config.clocksync, config.clocksync_rounds};
  const std::string timer = args.choice("timer", tracer::timer_kind_name(c.timer),
                                        {"auto", "tsc", "monotonic", "mpi_wtime"});
  for (TimerKind kind :
       {TimerKind::Auto, TimerKind::Tsc, TimerKind::Monotonic, TimerKind::MpiWtime})
    if (timer == tracer::timer_kind_name(kind)) c.timer = kind;
  if (!synchronizes) return c;
  const std::string sync = args.choice("sync", tracer::clocksync_kind_name(c.sync),
                                       {"auto", "linear", "ring", "tree", "off"});
  c.sync = *tracer::parse_clocksync_kind(sync);
  c.patience = std::uint32_t(args.integer("rounds", c.patience, 1, 100000));
  return c;
}

}  // namespace collwrap::bench
