"""Integration checks of `collwrap-bench coll`.

--mode table:    every method's table has OSU's first columns and MPIPerf's, with consistent
                 counts and statistics; --json and --csv hold the same rows.
--mode injected: the last rank waits U us in each run before MPI_Bcast from rank 0, so the
                 collective really takes about U (the last rank is done at U). The window method
                 must report about U; the naive loop times rank 0 alone, which hands its message
                 to the MPI library and leaves, so it reports far less than U.
--mode usage:    wrong command lines exit with 2 and a message naming the subcommand.
"""
import argparse
import csv
import json
import math
import os
import tempfile

from bench_mpirun import expect, expect_usage_error, run_bench

COLUMNS = ["# Size", "Avg Latency(us)", "Runs", "Correct", "Failed", "Used", "Mean(us)", "RSE",
           "SE(us)", "Min(us)", "Max(us)"]


def parse_tables(stdout):
    """{MPI name: [row dicts]} from the text output."""
    tables, current = {}, None
    for line in stdout.splitlines():
        if line.startswith("# collwrap-bench coll: "):
            current = line.split(": ", 1)[1].split(",")[0]
            tables[current] = []
        elif line.startswith("# Size"):
            expect(current is not None, "a column header follows a title")
            expect(line.startswith("# Size       Avg Latency(us)"), "OSU's first columns")
            for name in COLUMNS[2:]:
                expect(name in line, f"column {name} in the header")
        elif line.strip() and current:
            cells = line.split()
            expect(len(cells) >= 14, f"a full row: {line}")
            values = [float(c) if c != "-" else math.nan for c in cells[:14]]
            keys = ["size", "avg", "runs", "correct", "failed", "used", "mean", "rse", "se",
                    "min", "max", "ci_low", "ci_high", "window"]
            tables[current].append(dict(zip(keys, values), per_rank=[float(c) for c in cells[14:]]))
    return tables


def check_row(name, row, ranks, per_rank):
    where = f"{name} size {row['size']:.0f}"
    expect(row["runs"] == row["correct"] + row["failed"], f"{where}: runs = correct + failed")
    expect(row["runs"] >= 8, f"{where}: at least one stage of runs")
    if per_rank:
        expect(len(row["per_rank"]) == ranks, f"{where}: one time per rank")
    if row["correct"] == 0:
        # With more ranks than cores, some rank is always descheduled when a window opens, and
        # every run can start late: the method then says so instead of reporting a time.
        expect(ranks > os.cpu_count(), f"{where}: valid runs with a core per rank")
        expect(row["used"] == 0 and row["mean"] == 0, f"{where}: no time without valid runs")
        print(f"note: {where}: every run was invalid ({ranks} ranks on {os.cpu_count()} cores)")
        return
    expect(row["correct"] >= row["used"] >= 1, f"{where}: valid runs were used")
    expect(row["avg"] == row["mean"], f"{where}: Avg Latency is the mean")
    expect(0 < row["min"] <= row["mean"] <= row["max"], f"{where}: 0 < min <= mean <= max")
    expect(row["ci_low"] <= row["mean"] <= row["ci_high"], f"{where}: CI around the mean")
    expect(row["se"] >= 0 and row["rse"] >= 0, f"{where}: nonnegative errors")
    expect(row["mean"] < 100000, f"{where}: a plausible time")


def mode_table(args):
    with tempfile.TemporaryDirectory() as work:
        json_path, csv_path = os.path.join(work, "coll.json"), os.path.join(work, "coll.csv")
        ops = "barrier,bcast,allreduce,ialltoall"
        result = run_bench(args.mpirun, args.bench, args.np, "coll", "--op", ops, "--min", "1",
                           "--max", "1024", "--factor", "32", "--method", args.method,
                           "--per-rank", "--json", json_path, "--csv", csv_path)
        expect(result.returncode == 0, f"exit status 0, not {result.returncode}")
        tables = parse_tables(result.stdout)
        expect(list(tables) == ["MPI_Barrier", "MPI_Bcast", "MPI_Allreduce", "MPI_Ialltoall"],
               f"one table per collective, in order: {list(tables)}")
        expect([r["size"] for r in tables["MPI_Barrier"]] == [0], "a barrier has one row")
        for name in ["MPI_Bcast", "MPI_Allreduce", "MPI_Ialltoall"]:
            expect([r["size"] for r in tables[name]] == [1, 32, 1024], f"{name}: sizes 1 32 1024")
        for name, rows in tables.items():
            for row in rows:
                check_row(name, row, args.np, True)
                expect(math.isnan(row["window"]) == (args.method != "window"),
                       "only the window method reports a window")
        with open(json_path) as f:
            report = json.load(f)
        expect(report["method"] == args.method and report["ranks"] == args.np, "JSON header")
        expect(len(report["results"]) == 10, "JSON has every row")
        first = report["results"][1]
        expect(first["operation"] == "MPI_Bcast" and first["size"] == 1, "JSON row order")
        expect(abs(first["mean_us"] - tables["MPI_Bcast"][0]["mean"]) < 0.01, "JSON = table")
        expect(len(first["per_rank_us"]) == args.np, "JSON per-rank times")
        with open(csv_path) as f:
            rows = list(csv.DictReader(f))
        expect(len(rows) == 10 and rows[4]["operation"] == "MPI_Allreduce", "CSV has every row")
        expect(f"rank{args.np - 1}_us" in rows[0], "CSV per-rank columns")


def mean_with(args, method):
    result = run_bench(args.mpirun, args.bench, args.np, "coll", "--op", "bcast", "--min", "4",
                       "--max", "4", "--method", method, "--inject-us", str(args.inject_us))
    expect(result.returncode == 0, f"exit status 0, not {result.returncode}")
    rows = parse_tables(result.stdout)["MPI_Bcast"]
    expect(len(rows) == 1, "one row")
    return rows[0]["mean"]


def mode_injected(args):
    u = args.inject_us
    window, naive = mean_with(args, "window"), mean_with(args, "naive")
    print(f"injected {u} us: window {window:.2f} us, naive {naive:.2f} us")
    # The last rank cannot finish before U; scheduling noise on a loaded node only adds.
    expect(0.95 * u <= window <= 1.5 * u, f"window method within [0.95U, 1.5U]: {window:.2f}")
    expect(abs(window - u) < abs(naive - u), "the window method is closer to U than the naive loop")


def mode_usage(args):
    expect_usage_error(run_bench(args.mpirun, args.bench, 1, "coll", "--op", "bcst"), "coll")
    expect_usage_error(run_bench(args.mpirun, args.bench, 2, "coll", "--root", "2"), "coll")
    expect_usage_error(run_bench(args.mpirun, args.bench, 1, "coll", "--min", "8", "--max", "4"),
                       "coll")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mpirun", required=True)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--np", type=int, default=2)
    parser.add_argument("--mode", choices=["table", "injected", "usage"], required=True)
    parser.add_argument("--method", default="window")
    parser.add_argument("--inject-us", type=float, default=5000)
    args = parser.parse_args()
    {"table": mode_table, "injected": mode_injected, "usage": mode_usage}[args.mode](args)
    print("PASS")


if __name__ == "__main__":
    main()
