#!/bin/sh
# Tracer overhead per OpenSHMEM call: shmem_overhead on 2 PEs under oshrun, without and with
# the preloaded tracer; each run times the traced entry points against pshmem_* in the same
# run, so the untraced run shows the measurement's own noise (both columns should agree).
#   run_shmem_overhead.sh BUILD_DIR [CALLS_PER_BLOCK]
set -eu
BUILD=$1
CALLS=${2:-200000}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# --mca btl ^vader: Open MPI 4.1.4's OpenSHMEM crashes in shmem_finalize without it (README).
RUN="oshrun --mca btl ^vader --oversubscribe -np 2"
BINARY=$BUILD/tests/perf/shmem/shmem_overhead
$RUN "$BINARY" "$CALLS" > "$TMP/plain"
COLLWRAP_TRACE_DIR=$TMP/trace $RUN -x LD_PRELOAD="$BUILD/wrappers/libcollwrap.so" \
  -x COLLWRAP_TRACE_DIR "$BINARY" "$CALLS" > "$TMP/traced"
echo "OpenSHMEM tracer overhead, 2 PEs, best of 7 blocks (ns per call; untraced = pshmem_*)"
while read -r name untraced traced; do
  plain=$(awk -v n="$name" '$1 == n { printf "%.1f", $3 - $2 }' "$TMP/plain")
  awk -v n="$name" -v u="$untraced" -v t="$traced" -v p="$plain" 'BEGIN {
    printf "  %-22s %9.1f untraced %9.1f traced: %+8.1f ns per call (without the tracer: %+.1f)\n",
           substr(n, 1, length(n) - 3) ":", u, t, t - u, p }'
done < "$TMP/traced"
