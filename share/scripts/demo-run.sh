#!/bin/sh
# The demo's run: traces the late_sender example with mpirun and libcollwrap.so, analyzes the
# trace, and shows the summary, which leads with the line to change and its estimated gain.
# Uses the collwrap installed in COLLWRAP_PREFIX (default: install/ in the source tree); a test
# points it at a build tree with COLLWRAP_PRELOAD, COLLWRAP_ANALYZER and COLLWRAP_EXAMPLE.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PREFIX=${COLLWRAP_PREFIX:-$ROOT/install}
PRELOAD=${COLLWRAP_PRELOAD:-$PREFIX/lib/libcollwrap.so}
ANALYZER=${COLLWRAP_ANALYZER:-$PREFIX/bin/analyzer}
EXAMPLE=${COLLWRAP_EXAMPLE:-$PREFIX/libexec/collwrap/examples/late_sender}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
WORK=$(mktemp -d /tmp/collwrap-demo.XXXXXX)
cd "$WORK"
echo "== tracing: LD_PRELOAD=$PRELOAD mpirun -np 4 late_sender"
COLLWRAP_TRACE_DIR="$WORK/trace" mpirun -np 4 --oversubscribe -x LD_PRELOAD="$PRELOAD" "$EXAMPLE"
echo "== analyzing: analyzer $WORK/trace --patterns all --json report.json --html report.html"
"$ANALYZER" "$WORK/trace" --patterns all --json "$WORK/report.json" --html "$WORK/report.html"
echo "== the trace and the reports are in $WORK (open report.html in a browser)"
