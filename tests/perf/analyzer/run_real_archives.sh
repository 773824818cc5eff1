#!/bin/sh
# Measures the analyzer on archives recorded from real programs, side by side with a bare
# OTF2 read (`otf2-print --silent`) of the same archive: each program in programs/ is built
# with mpicc, traced with libcollwrap.so, and then, best of REPEAT interleaved runs each,
#   analyzer ARCHIVE --patterns all --json report.json   against   otf2-print --silent
# are timed with /usr/bin/time. Prints per archive: events, wall and CPU time of both and
# their ratios, events per CPU second, and peak resident bytes per event.
#
# Usage: run_real_archives.sh [BUILD_DIR] [SCALE] [WORK_DIR]
#   SCALE   percent of the full iteration counts, may be fractional (default 100: 3.6-6.6 M
#           events per archive)
#   WORK_DIR keeps the archives and reports (default: a temporary directory, removed at exit);
#            an archive already recorded there at the same size is analyzed again, not
#            recorded anew, so that two builds can be compared on the same archives
#   REPEAT  environment variable, runs per tool (default 3)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "${1:-build}" && pwd)
SCALE=${2:-100}
REPEAT=${REPEAT:-3}
LIB="$BUILD/wrappers/libcollwrap.so"
ANALYZER="$BUILD/analyzer/command/analyzer"
[ -e "$ANALYZER" ] || { echo "run_real_archives.sh: $ANALYZER not found; build first" >&2; exit 2; }
for tool in mpicc mpirun otf2-print /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "run_real_archives.sh: $tool not found" >&2; exit 2; }
done
if [ $# -ge 3 ]; then
  WORK=$3
  mkdir -p "$WORK"
else
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# program ranks full-iterations (sizes: ~6.6 M, ~3.6 M and ~4.0 M events)
PROGRAMS="ring_allreduce 2 400000
halo_nonblocking 4 50000
collective_heavy 4 60000"

# best_of FILE: the run with the least CPU time among "wall user sys maxrss_kb" lines.
best_of() {
  awk '{ cpu = $2 + $3; if (NR == 1 || cpu < best) { best = cpu; line = $0 } } END { print line }' "$1"
}

printf '%-17s %5s %9s | %-25s | %-25s | %11s %11s | %10s | %s\n' archive ranks events \
  "otf2-print wall/CPU s B/ev" "analyzer wall/CPU s B/ev" "ratio wall" "ratio CPU" "M ev/s/core" \
  "peak MB"
echo "$PROGRAMS" | while read -r name ranks full; do
  iterations=$(awk -v full="$full" -v scale="$SCALE" \
    'BEGIN { n = int(full * scale / 100); print n < 1 ? 1 : n }')
  exe="$WORK/$name"
  archive="$WORK/$name-trace-$iterations"
  if [ ! -e "$archive/traces.otf2" ]; then
    [ -e "$LIB" ] || { echo "run_real_archives.sh: $LIB not found; build first" >&2; exit 2; }
    mpicc -O2 -g -o "$exe" "$HERE/programs/$name.c"
    rm -rf "$archive"
    # mpirun would read the rest of this loop's input: give it none.
    COLLWRAP_TRACE_DIR="$archive" mpirun -np "$ranks" --oversubscribe --bind-to none \
      -x COLLWRAP_TRACE_DIR -x LD_PRELOAD="$LIB" "$exe" "$iterations" </dev/null >/dev/null
  fi
  : >"$WORK/$name.otf2-print.times"
  : >"$WORK/$name.analyzer.times"
  i=0
  while [ "$i" -lt "$REPEAT" ]; do
    /usr/bin/time -a -o "$WORK/$name.otf2-print.times" -f '%e %U %S %M' \
      otf2-print --silent "$archive/traces.otf2" >/dev/null
    /usr/bin/time -a -o "$WORK/$name.analyzer.times" -f '%e %U %S %M' \
      "$ANALYZER" "$archive" --patterns all --json "$WORK/$name.json" >/dev/null
    i=$((i + 1))
  done
  events=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trace"]["events"])' \
    "$WORK/$name.json")
  best_of "$WORK/$name.otf2-print.times" >"$WORK/$name.best"
  best_of "$WORK/$name.analyzer.times" >>"$WORK/$name.best"
  awk -v name="$name" -v ranks="$ranks" -v events="$events" '
    NR == 1 { bw = $1; bc = $2 + $3; brss = $4 * 1024 }
    NR == 2 { aw = $1; ac = $2 + $3; arss = $4 * 1024 }
    END {
      if (bw <= 0) bw = 0.01; if (bc <= 0) bc = 0.01; if (ac <= 0) ac = 0.01
      printf "%-17s %5d %9d | %6.2f %6.2f %11.1f | %6.2f %6.2f %11.1f | %11.2f %11.2f | %10.1f | %.0f\n",
        name, ranks, events, bw, bc, brss / events, aw, ac, arss / events, aw / bw, ac / bc,
        events / ac / 1e6, arss / 1e6
    }' "$WORK/$name.best"
done
echo "targets: ratio <= 1.5, >= 10 M events/s per core, <= 32 peak resident bytes per event"
