#!/usr/bin/python3
"""Runs `collwrap-bench matrix` under mpirun and checks what it wrote.

    matrix_check.py --mpirun M --bench B --np N --mode MODE [--noise-ranks K]
    matrix_check.py --mpirun M --bench B --usage-errors

A run measures message lengths 0, 128 KiB and 256 KiB. The index (matrix.json) must name the
mode, the ranks and every file; each CSV must be an N x N matrix with an empty diagonal and
positive, plausible delays with min <= median <= max and min <= mean <= max; the largest
messages must not be faster than empty ones at their fastest; every SVG must parse as XML with one
cell per matrix entry, the global heatmaps of a statistic sharing one legend and each local
one spanning its own matrix. --usage-errors checks the exit status and message of wrong
command lines instead.
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

SVG = "{http://www.w3.org/2000/svg}"
LENGTHS = [0, 131072, 262144]
STATISTICS = ["min", "median", "mean", "stddev", "max"]
PLAUSIBLE_S = 0.5  # no single exchange on one machine takes this long, even oversubscribed

parser = argparse.ArgumentParser()
parser.add_argument("--mpirun", required=True)
parser.add_argument("--bench", required=True)
parser.add_argument("--np", type=int, default=2)
parser.add_argument("--mode")
parser.add_argument("--noise-ranks", type=int)
parser.add_argument("--usage-errors", action="store_true")
ARGS = parser.parse_args()
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def run(np, *options, cwd=None):
    command = [ARGS.mpirun, "--oversubscribe", "-np", str(np), ARGS.bench, "matrix", *options]
    return subprocess.run(command, env=ENV, cwd=cwd, capture_output=True, text=True, timeout=120)


def read_matrix(path):
    with open(path, newline="") as f:
        return [[float(cell) for cell in row] for row in csv.reader(f)]


def legend(svg_path):
    """The SVG's cells (rect with a title) and its legend's two texts (max, then min)."""
    root = ElementTree.parse(svg_path).getroot()
    cells = [r for r in root.iter(SVG + "rect") if r.find(SVG + "title") is not None]
    texts = [t.text for t in root.iter(SVG + "text")]
    return cells, texts[-2:]


def check_run():
    n = ARGS.np
    with tempfile.TemporaryDirectory(prefix="collwrap-matrix-") as work:
        out = os.path.join(work, "out")
        options = ["--mode", ARGS.mode, "--begin", "0", "--end", str(LENGTHS[-1]), "--step",
                   str(LENGTHS[1]), "--repeats", "20", "--output", out]
        if ARGS.noise_ranks is not None:
            options += ["--noise-ranks", str(ARGS.noise_ranks)]
        result = run(n, *options, cwd=work)
        if not check(result.returncode == 0,
                     f"exit status {result.returncode}: {result.stderr}{result.stdout}"):
            return
        print(result.stdout)
        check(sum(" B: median delay " in line for line in result.stdout.splitlines())
              == len(LENGTHS), "stdout: expected one summary line per length")
        with open(os.path.join(out, "matrix.json")) as f:
            index = json.load(f)
        check(index["mode"] == ARGS.mode, f"index mode {index['mode']}")
        check(index["ranks"] == n and len(index["hosts"]) == n, "index ranks/hosts")
        check(index["statistics"] == STATISTICS, f"index statistics {index['statistics']}")
        check([entry["bytes"] for entry in index["lengths"]] == LENGTHS, "index lengths")
        if ARGS.noise_ranks is not None:
            check(index["noise"]["ranks_per_pair"] == ARGS.noise_ranks, "index noise ranks")

        fastest = []
        global_legends = {s: set() for s in STATISTICS}
        for entry in index["lengths"]:
            m = {s: read_matrix(os.path.join(out, entry["matrices"][s])) for s in STATISTICS}
            where = f"length {entry['bytes']}"
            for s in STATISTICS:
                check(len(m[s]) == n and all(len(row) == n for row in m[s]),
                      f"{where} {s}: not {n}x{n}")
            for i in range(n):
                for j in range(n):
                    cell = {s: m[s][i][j] for s in STATISTICS}
                    at = f"{where} cell {i}->{j}"
                    if i == j:
                        check(all(math.isnan(v) for v in cell.values()), f"{at}: diagonal set")
                        continue
                    if not check(all(math.isfinite(v) for v in cell.values()), f"{at}: no data"):
                        continue
                    check(0 < cell["min"] <= cell["median"] <= cell["max"] < PLAUSIBLE_S,
                          f"{at}: min/median/max {cell}")
                    check(cell["min"] <= cell["mean"] <= cell["max"], f"{at}: mean {cell}")
                    check(0 <= cell["stddev"] <= cell["max"] - cell["min"] + 1e-12,
                          f"{at}: stddev {cell}")
            # The fastest transfer of each length: scheduling noise on a busy node and the
            # noise modes' background traffic only add time, so minima keep their order.
            fastest.append(min(m["min"][i][j] for i in range(n) for j in range(n) if i != j))

            for s in STATISTICS:
                cells, global_legend = legend(os.path.join(out, entry["heatmaps"]["global"][s]))
                check(len(cells) == n * n, f"{where} {s} global heatmap: {len(cells)} cells")
                global_legends[s].add(tuple(global_legend))
                cells, local_legend = legend(os.path.join(out, entry["heatmaps"]["local"][s]))
                check(len(cells) == n * n, f"{where} {s} local heatmap: {len(cells)} cells")
                finite = [m[s][i][j] * 1e6 for i in range(n) for j in range(n) if i != j]
                top = float(local_legend[0].split()[0])
                check(math.isclose(top, max(finite), rel_tol=1e-3, abs_tol=1e-3),
                      f"{where} {s} local heatmap tops at {top} us, matrix at {max(finite)}")
        for s, legends in global_legends.items():
            check(len(legends) == 1, f"{s}: global heatmaps do not share one scale: {legends}")
        check(fastest[-1] >= fastest[0],
              f"{LENGTHS[-1]} B messages faster than empty ones: {fastest}")


def check_usage_errors():
    with tempfile.TemporaryDirectory(prefix="collwrap-matrix-") as work:
        blocker = os.path.join(work, "file")
        open(blocker, "w").close()
        cases = [
            (1, ["--mode", "ping_pong"], 2, "--mode"),
            (2, ["--step", "8", "--factor", "2"], 2, "--step or --factor"),
            (1, [], 2, "at least 2 ranks"),
            (3, ["--mode", "noise", "--noise-ranks", "2"], 2, "--noise-ranks"),
            (2, ["--output", os.path.join(blocker, "out")], 1, "choose another --output"),
        ]
        for np, options, status, words in cases:
            result = run(np, *options, cwd=work)
            where = f"matrix {' '.join(options)} on {np} ranks"
            check(result.returncode == status, f"{where}: exit {result.returncode}, not {status}")
            check(result.stderr.startswith("collwrap-bench matrix: ") and words in result.stderr,
                  f"{where}: message {result.stderr!r}")


if ARGS.usage_errors:
    check_usage_errors()
else:
    check_run()
for failure in failures[:20]:
    print("FAIL:", failure, file=sys.stderr)
sys.exit(1 if failures else 0)
