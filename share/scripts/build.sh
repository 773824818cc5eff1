#!/bin/sh
# Configures and builds collwrap into build/ and installs it into install/ (both in the source tree).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${COLLWRAP_BUILD_DIR:-$ROOT/build}
PREFIX=${COLLWRAP_PREFIX:-$ROOT/install}
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX="$PREFIX" >/dev/null
cmake --build "$BUILD" -j "$(nproc)"
cmake --install "$BUILD" >/dev/null
