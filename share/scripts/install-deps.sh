#!/bin/sh
# Installs the Debian 12 packages collwrap builds and tests with. Safe to run again.
set -eu
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
PACKAGES="build-essential cmake pkg-config python3 git \
  libopenmpi-dev openmpi-bin gfortran \
  libopen-trace-format2-dev otf2-tools python3-otf2 \
  libsqlite3-dev sqlite3 nlohmann-json3-dev libgtest-dev libgmock-dev \
  libdw-dev libelf-dev faketime python3-jsonschema chromium groff-base valgrind"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "collwrap: installing Debian packages:$missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
