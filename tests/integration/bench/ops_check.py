"""Integration check of `collwrap-bench ops`: MPITEST's table has its 13 operations in order,
one row per size for those that move data, plausible times (min <= mean <= max), the table in
--output's file, and the same rows in --json and --csv; wrong command lines exit with 2."""
import argparse
import csv
import json
import os
import tempfile

from bench_mpirun import expect, expect_usage_error, run_bench

OPERATIONS = ["TIMING", "BARRIER", "ALLREDUCE", "REDUCE", "BROADCAST", "GATHER", "ALLGATHER",
              "ALL-TO-ALL", "ISEND&WAIT", "BLOCKING SEND", "SENDRECV", "SEND&RECV", "SIGNAL"]
UNSIZED = {"TIMING", "BARRIER", "SIGNAL"}
SIZES = [1, 10, 100]


def parse_table(text):
    rows = []
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        *name, size, mean, low, high = line.split()
        rows.append({"operation": " ".join(name), "size": None if size == "-" else int(size),
                     "mean": float(mean), "min": float(low), "max": float(high)})
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mpirun", required=True)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--np", type=int, default=3)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as work:
        table_path = os.path.join(work, "transfer.dat")
        json_path, csv_path = os.path.join(work, "ops.json"), os.path.join(work, "ops.csv")
        result = run_bench(args.mpirun, args.bench, args.np, "ops", "--min", "1", "--max", "100",
                           "--factor", "10", "--repeat", "2", "--iterations", "20",
                           "--short-iterations", "200", "--output", table_path, "--json",
                           json_path, "--csv", csv_path)
        expect(result.returncode == 0, f"exit status 0, not {result.returncode}")
        expect(result.stdout == "", "the table goes to --output's file, not the terminal")
        with open(table_path) as f:
            text = f.read()
        print(text)
        expect(text.startswith(f"# collwrap-bench ops: {args.np} ranks, timer "), "title line")
        expect("# t = t2 - t1 - DT - DB with DT (one clock read) " in text, "the correction")
        rows = parse_table(text)
        expected = [(op, None) if op in UNSIZED else (op, n) for op in OPERATIONS
                    for n in ([None] if op in UNSIZED else SIZES)]
        expect([(r["operation"], r["size"]) for r in rows] == expected,
               "every operation, with sizes 1 10 100 for those that move data, in MPITEST order")
        with open(json_path) as f:
            report = json.load(f)
        dt, db = report["clock_read"]["mean_us"], report["barrier"]["mean_us"]
        for r in rows:
            expect(r["min"] <= r["mean"] <= r["max"], f"{r['operation']}: min <= mean <= max")
            # t = t2 - t1 - DT - DB with t2 - t1 >= 0: an operation cheaper than the barrier's
            # average (a preempted barrier inflates DB) goes negative, never below -(DT + DB).
            expect(-(dt + db) - 0.01 <= r["mean"] < 100000,
                   f"{r['operation']} {r['size']}: plausible time")
        timing = rows[0]
        # Even with preemptions averaged in, a clock read is far below 50 us.
        expect(0 < timing["mean"] < 50, f"one clock read takes under 50 us: {timing['mean']}")
        expect(report["ranks"] == args.np and report["repeats"] == 2, "JSON header")
        expect([r["operation"] for r in report["results"]] == [r["operation"] for r in rows],
               "JSON has every row")
        expect(abs(report["clock_read"]["mean_us"] - timing["mean"]) < 0.001, "DT = TIMING row")
        with open(csv_path) as f:
            csv_rows = list(csv.DictReader(f))
        expect(len(csv_rows) == len(rows) and csv_rows[-1]["operation"] == "SIGNAL",
               "CSV has every row")

    # Messages that do not fit the buffer, and an unknown option.
    expect_usage_error(run_bench(args.mpirun, args.bench, 2, "ops", "--max", "1000", "--buffer",
                                 "1024"), "ops")
    expect_usage_error(run_bench(args.mpirun, args.bench, 1, "ops", "--sync", "ring"), "ops")
    print("PASS")


if __name__ == "__main__":
    main()
