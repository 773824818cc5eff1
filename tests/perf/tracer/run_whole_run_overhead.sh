#!/bin/sh
# Tracer overhead as a user sees it: for each call family, runs call_family_loop with 2 ranks
# as separate processes without and with libcollwrap.so preloaded, alternating (the order
# flips every pair so neither side always runs first), and prints the median over the pairs:
# ns per call untraced, traced, added, and beside it the in-process figure (the traced run's
# MPI_* loop against its own PMPI_* loop).
#
# Usage: run_whole_run_overhead.sh [BUILD_DIR] [PAIRS] [CALLS] [FAMILY...]
#   defaults: ./build, 5 pairs, 100000 calls per loop, every family
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "${1:-build}" && pwd)
PAIRS=${2:-5}
CALLS=${3:-100000}
[ $# -gt 3 ] && shift 3 || set --
FAMILIES=${*:-comm_rank iprobe test testall send_recv isend_wait allreduce ping_pong}
LIB="$BUILD/wrappers/libcollwrap.so"
BENCH="$BUILD/tests/perf/tracer/call_family_loop"
for f in "$LIB" "$BENCH"; do
  [ -e "$f" ] || { echo "run_whole_run_overhead.sh: $f not found; build first" >&2; exit 2; }
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

plain() {
  mpirun -np 2 --bind-to none "$BENCH" "$1" "$CALLS" | sed 's/^/untraced /' >> "$WORK/runs.txt"
}
traced() {
  rm -rf "$WORK/trace"
  COLLWRAP_TRACE_DIR="$WORK/trace" mpirun -np 2 --bind-to none -x COLLWRAP_TRACE_DIR \
    -x LD_PRELOAD="$LIB" "$BENCH" "$1" "$CALLS" | sed 's/^/traced /' >> "$WORK/runs.txt"
}
for family in $FAMILIES; do
  pair=0
  while [ "$pair" -lt "$PAIRS" ]; do
    if [ $((pair % 2)) -eq 0 ]; then plain "$family"; traced "$family"
    else traced "$family"; plain "$family"; fi
    pair=$((pair + 1))
  done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (after the runs), $(nproc) cores"
/usr/bin/python3 "$HERE/summarize_whole_run.py" "$WORK/runs.txt"
