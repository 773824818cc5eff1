#!/bin/sh
# The demo: installs dependencies, builds, traces an example program with mpirun, analyzes the
# trace and shows the report (demo-run.sh).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
"$ROOT/share/scripts/install-deps.sh"
"$ROOT/share/scripts/build.sh"
exec "$ROOT/share/scripts/demo-run.sh"
