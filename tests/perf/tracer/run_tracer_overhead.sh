#!/bin/sh
# Measures the tracer's overhead: runs tracer_overhead with 2 ranks, once plain (noise floor:
# both columns call the MPI library directly), once with libcollwrap.so preloaded (MPI_* calls
# traced, PMPI_* calls as the untraced baseline in the same run) over shared memory, and once
# more traced with the ping-pong over TCP (loopback: the latency class of a network), then
# prints ns added per intercepted call, % added to a 1-byte ping-pong and trace bytes per event.
#
# Usage: run_tracer_overhead.sh [BUILD_DIR] [BLOCKS]   (defaults: ./build, 100 blocks)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "${1:-build}" && pwd)
BLOCKS=${2:-100}
LIB="$BUILD/wrappers/libcollwrap.so"
BENCH="$BUILD/tests/perf/tracer/tracer_overhead"
for f in "$LIB" "$BENCH"; do
  [ -e "$f" ] || { echo "run_tracer_overhead.sh: $f not found; build first" >&2; exit 2; }
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

mpirun -np 2 --bind-to none "$BENCH" "$BLOCKS" > "$WORK/plain.txt"
COLLWRAP_TRACE_DIR="$WORK/trace" mpirun -np 2 --bind-to none -x COLLWRAP_TRACE_DIR \
  -x LD_PRELOAD="$LIB" "$BENCH" "$BLOCKS" > "$WORK/traced.txt"
COLLWRAP_TRACE_DIR="$WORK/trace-tcp" mpirun -np 2 --bind-to none --mca btl tcp,self \
  -x COLLWRAP_TRACE_DIR -x LD_PRELOAD="$LIB" "$BENCH" "$BLOCKS" ping-pong > "$WORK/tcp.txt"
/usr/bin/python3 "$HERE/summarize_overhead.py" "$WORK/plain.txt" "$WORK/traced.txt" \
  "$WORK/tcp.txt" "$WORK/trace"
