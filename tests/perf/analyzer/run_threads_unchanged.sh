#!/bin/sh
# Analyzes one synthetic archive of 64 locations with --threads 1 and --threads 4 and compares
# the two JSON reports field by field: the analysis must not depend on its thread count.
#
# Usage: run_threads_unchanged.sh GENERATOR ANALYZER COMPARE_REPORTS_PY WORKDIR
set -eu
generate=$1 analyzer=$2 compare=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
"$generate" "$work/archive" --events 400000 --ranks 64 >/dev/null
"$analyzer" "$work/archive" --patterns all --json "$work/threads_1.json" --threads 1 --min-wait 0 -q
"$analyzer" "$work/archive" --patterns all --json "$work/threads_4.json" --threads 4 --min-wait 0 -q
# Equal reports prove something only if there is something in them.
python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["findings"]) >= 5 and r["root_causes"], "too few findings to compare"' "$work/threads_1.json"
python3 "$compare" "$work/threads_1.json" "$work/threads_4.json"
