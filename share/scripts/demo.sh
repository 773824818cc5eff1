#!/bin/sh
# The demo: installs dependencies, builds, traces an example program with mpirun, analyzes the
# trace and shows the report.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
"$ROOT/share/scripts/install-deps.sh"
"$ROOT/share/scripts/build.sh"
PREFIX=${COLLWRAP_PREFIX:-$ROOT/install}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
WORK=$(mktemp -d /tmp/collwrap-demo.XXXXXX)
cd "$WORK"
echo "== tracing: LD_PRELOAD=$PREFIX/lib/libcollwrap.so mpirun -np 4 late_sender"
COLLWRAP_TRACE_DIR="$WORK/trace" mpirun -np 4 --oversubscribe \
  -x LD_PRELOAD="$PREFIX/lib/libcollwrap.so" "$PREFIX/libexec/collwrap/examples/late_sender"
echo "== analyzing: analyzer $WORK/trace --patterns all --json report.json --html report.html"
"$PREFIX/bin/analyzer" "$WORK/trace" --patterns all --json "$WORK/report.json" \
  --html "$WORK/report.html"
echo "== report.json (first lines)"
head -c 2000 "$WORK/report.json"; echo
echo "== the trace and reports are in $WORK (open report.html in a browser)"
