#!/bin/sh
# The one test command: installs dependencies, builds, and runs every unit and integration test.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
"$ROOT/share/scripts/install-deps.sh"
"$ROOT/share/scripts/build.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cd "${COLLWRAP_BUILD_DIR:-$ROOT/build}"
ctest --output-on-failure --timeout 600 -j 2
