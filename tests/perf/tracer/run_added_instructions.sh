#!/bin/sh
# Instructions the tracer adds per call, for each call family: runs call_family_loop with 2
# ranks and libcollwrap.so preloaded, rank 0 under valgrind's callgrind, and compares the
# instructions of its MPI_* blocks (traced) with those of its PMPI_* blocks (untraced). Unlike
# times, instruction counts do not move with the machine's load, so they compare builds on a
# busy machine (this VM exposes no hardware counters to `perf stat`).
#
# Usage: run_added_instructions.sh [BUILD_DIR] [CALLS] [FAMILY...]
#   defaults: ./build, 20000 calls per loop, every family but ping_pong (whose figure would
#   mostly count the polling of a rank waiting for its slowed-down peer)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "${1:-build}" && pwd)
CALLS=${2:-20000}
[ $# -gt 2 ] && shift 2 || set --
FAMILIES=${*:-comm_rank iprobe test testall send_recv isend_wait allreduce}
LIB="$BUILD/wrappers/libcollwrap.so"
BENCH="$BUILD/tests/perf/tracer/call_family_loop"
for f in "$LIB" "$BENCH"; do
  [ -e "$f" ] || { echo "run_added_instructions.sh: $f not found; build first" >&2; exit 2; }
done
command -v valgrind >/dev/null || { echo "run_added_instructions.sh: needs valgrind" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

for family in $FAMILIES; do
  COLLWRAP_TRACE_DIR="$WORK/trace" mpirun -np 2 --bind-to none -x COLLWRAP_TRACE_DIR \
    -x LD_PRELOAD="$LIB" sh -c 'if [ "$OMPI_COMM_WORLD_RANK" = 0 ]; then
        exec valgrind --tool=callgrind --callgrind-out-file="$0/profile" "$1" "$2" "$3"
      else exec "$1" "$2" "$3"; fi' "$WORK" "$BENCH" "$family" "$CALLS" >/dev/null 2>"$WORK/log" ||
    { cat "$WORK/log" >&2; exit 1; }
  callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$WORK/profile" > "$WORK/$family.txt"
  rm -rf "$WORK/trace" "$WORK/profile"
done
/usr/bin/python3 "$HERE/summarize_added_instructions.py" "$CALLS" "$WORK" $FAMILIES
