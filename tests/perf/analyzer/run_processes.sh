#!/bin/sh
# The analyzer as K processes of an MPI job against the analyzer alone, on a synthetic archive
# of 64 locations (analyzer-bench-generate): for the analyzer alone with 1 and 2 threads, and
# for `mpirun -np K analyzer` with K = 2 and 4 (1 and 2 threads per process), best of REPEAT
# runs by wall time: wall seconds, M events per second, the speed-up over one process with
# one thread, the peak resident size of process 0 and of the largest other process, and a bare
# OTF2 read of the same archive (`otf2-print --silent`) for scale.
#
# Usage: run_processes.sh [BUILD_DIR] [EVENTS] [ARCHIVE_DIR]
#   EVENTS       events of the synthetic archive (default 10000000)
#   ARCHIVE_DIR  where the archive is kept (default: a temporary directory, removed at exit);
#                an archive already there is used as it is
#   REPEAT       environment variable, runs per configuration (default 3)
#   SELECTION    environment variable: "all" (default: --patterns all, the analyzer's whole
#                analysis, root causes included, which a job divides in slices of time) or
#                "divided" (--patterns all --no-causes: every pattern, each process holding
#                its share)
set -eu
BUILD=$(cd "${1:-build}" && pwd)
EVENTS=${2:-10000000}
REPEAT=${REPEAT:-3}
ANALYZER="$BUILD/analyzer/command/analyzer"
GENERATE="$BUILD/tests/perf/analyzer/analyzer-bench-generate"
for f in "$ANALYZER" "$GENERATE"; do
  [ -e "$f" ] || { echo "run_processes.sh: $f not found; build first" >&2; exit 2; }
done
for tool in mpirun otf2-print /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "run_processes.sh: $tool not found" >&2; exit 2; }
done
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
ARCHIVE=${3:-$WORK/archive}
[ -e "$ARCHIVE/traces.otf2" ] || "$GENERATE" "$ARCHIVE" --events "$EVENTS" --ranks 64 >/dev/null
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
case ${SELECTION:-all} in
  all) set -- --patterns all ;;
  divided) set -- --patterns all --no-causes ;;
  *) echo "run_processes.sh: SELECTION is all or divided" >&2; exit 2 ;;
esac

# run LABEL COMMAND...: REPEAT runs, each process timed by /usr/bin/time into its own file;
# prints "LABEL wall peak0_kb peak_others_kb" of the run with the least wall time.
run() {
  label=$1
  shift
  i=0
  while [ "$i" -lt "$REPEAT" ]; do
    rm -f "$WORK"/proc.*
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    peak0=$(cat "$WORK/proc.0" 2>/dev/null || echo 0)
    others=$(cat "$WORK"/proc.[1-9]* 2>/dev/null | sort -n | tail -1)
    echo "$label $(echo "$end - $start" | bc) $peak0 ${others:-0}"
    i=$((i + 1))
  done | sort -k2 -n | head -1
}

# Each process writes its peak resident size (KiB) to proc.RANK.
TIMED="$WORK/timed.sh"
printf '#!/bin/sh\nexec /usr/bin/time -f %%M -o "%s/proc.${OMPI_COMM_WORLD_RANK:-0}" "$@"\n' \
  "$WORK" > "$TIMED"
chmod +x "$TIMED"

events=$("$ANALYZER" "$ARCHIVE" --patterns all --json "$WORK/alone.json" -q --threads 2 &&
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["trace"]["events"])' \
    "$WORK/alone.json")
{
  run "otf2-print --silent" "$TIMED" otf2-print --silent "$ARCHIVE/traces.otf2"
  for threads in 1 2; do
    run "alone, $threads thread(s)" "$TIMED" "$ANALYZER" "$ARCHIVE" "$@" \
      --json "$WORK/out.json" -q --threads "$threads"
    for processes in 2 4; do
      run "-np $processes, $threads thread(s) each" mpirun -np "$processes" --oversubscribe \
        --bind-to none "$TIMED" "$ANALYZER" "$ARCHIVE" "$@" --json "$WORK/out.json" \
        -q --threads "$threads"
    done
  done
} > "$WORK/runs.txt"
echo "archive: $events events over 64 locations, $(du -sb "$ARCHIVE/traces" | cut -f1) bytes of event files; best of $REPEAT runs by wall time; patterns: ${SELECTION:-all}"
awk -v events="$events" -F' ' '
  { n = NF; wall = $(n - 2); p0 = $(n - 1); po = $n; label = $1; for (i = 2; i <= n - 3; ++i) label = label " " $i
    if (label ~ /^alone, 1/) base = wall
    rows[NR] = sprintf("%-28s %7.2f s %8.2f M events/s", label, wall, events / wall / 1e6)
    walls[NR] = wall; peak0[NR] = p0; peako[NR] = po }
  END { printf "%-28s %9s %17s %9s %12s %12s\n", "run", "wall", "throughput", "speed-up", "peak proc 0", "peak other"
        for (i = 1; i <= NR; ++i)
          printf "%s %8.2fx %9.0f MiB %9.0f MiB\n", rows[i], base / walls[i], peak0[i] / 1024, peako[i] / 1024 }
' "$WORK/runs.txt"
