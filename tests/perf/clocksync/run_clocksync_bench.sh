#!/bin/sh
# Clock synchronization benchmark: for 2, 4 and 8 ranks and each algorithm, the time the
# synchronization took (slowest rank) and its residual error: the largest difference between the
# algorithm's offset and a direct re-measurement against rank 0, and the largest uncertainty it
# stated (sum of half minimum round trips along its path). Uses collwrap-timercheck, i.e. the
# tracer's own timer and sync code. Not run by ctest (it needs an idle machine to mean much).
#
# usage: run_clocksync_bench.sh PATH/TO/collwrap-timercheck [RUNS_PER_CELL (default 5)]
set -eu
timercheck=${1:?usage: run_clocksync_bench.sh PATH/TO/collwrap-timercheck [RUNS]}
runs=${2:-5}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

printf '%-6s %-7s %14s %20s %19s\n' ranks sync "sync ms (med)" "max |residual| us" "stated +- us (med)"
for ranks in 2 4 8; do
  for sync in linear ring tree; do
    i=0
    while [ "$i" -lt "$runs" ]; do
      mpirun --oversubscribe -np "$ranks" "$timercheck" --sync "$sync" --repeat 1 | grep '^summary:'
      i=$((i + 1))
    done | awk -v ranks="$ranks" -v sync="$sync" '
      { for (f = 2; f <= NF; ++f) { split($f, kv, "="); v[kv[1], NR] = kv[2] } n = NR }
      function median(key,   i, j, a, t) {
        for (i = 1; i <= n; ++i) a[i] = v[key, i] + 0
        for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return a[int((n + 1) / 2)]
      }
      END {
        worst = 0
        for (i = 1; i <= n; ++i) if (v["max_residual_us", i] + 0 > worst) worst = v["max_residual_us", i] + 0
        printf "%-6s %-7s %14.3f %20.3f %19.3f\n", ranks, sync, median("sync_ms"), worst, median("max_stated_us")
      }'
  done
done
