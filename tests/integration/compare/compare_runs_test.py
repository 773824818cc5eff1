#!/usr/bin/python3
"""`analyzer compare` on real runs: the late_sender example traced twice, with its injected
delay and without it (`late_sender 0`), compared through all three kinds of input (an archive,
a JSON report, a run of a results database):

- the late_sender finding at the example's @expect line is reported gone (analyzed with
  --min-wait 0.05, so that scheduling noise of the fixed run is no finding), with its seconds
  (about the injected 1.0 s, within the pattern examples' bounds), summed over ranks and on
  rank 0, and the run got faster (between MPI_Init and MPI_Finalize by about the delay);
- `--fail-if-worse total:10` and `late_sender:10` exit 0 in that direction and 3 in the
  reverse one (delayed run as the new one); with `--json -` the JSON stays parseable;
- the HTML page is written, self-contained, with the bars;
- `--scaling` over the pop_balanced example at 2 and 4 ranks gives the POP scaling table:
  each rank does the same work, so the total useful time doubles (computational scaling about
  0.5), the run time stays (speedup about 1) and global efficiency = parallel efficiency ×
  computational scaling.

    compare_runs_test.py --mpirun M --preload LIB --analyzer A --schema-dir D --source C
                         --scaling-binary POP_BALANCED LATE_SENDER
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "patterns"))
import run_pattern_example as common  # noqa: E402

EXIT_WORSE = 3


def compare_schema_failures(result, schema_dir):
    sys.path.insert(0, schema_dir)
    import validate_report
    schema = validate_report.load_schema(os.path.join(schema_dir, "compare.schema.json"))
    return ["compare schema: " + v for v in validate_report.violations(result, schema)]


def run_analyzer(args, arguments, expected_status):
    command = [args.analyzer, *arguments]
    print("$", " ".join(command), flush=True)
    run = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
    print(run.stdout, run.stderr, sep="", flush=True)
    if run.returncode != expected_status:
        return run, [f"'{' '.join(arguments)}' exited {run.returncode}, expected {expected_status}"]
    return run, []


def check_gone(comparison, source):
    """The late_sender finding of the @expect line is gone, with about the injected seconds."""
    (line, pattern, ranks, wait), = common.expectations(source)[0]
    low, high = common.LOW * wait - common.SLACK_S, common.HIGH * wait + common.SLACK_S
    failures = []
    for table, rank in (("call_sites", None), ("per_rank", ranks[0])):
        rows = [r for r in comparison[table] if r["pattern"] == pattern and r["line"] == line
                and r["rank"] == rank]
        where = f"{table}: {pattern} at line {line} on rank {rank}"
        if len(rows) != 1:
            failures.append(f"{where}: {len(rows)} rows")
            continue
        row = rows[0]
        seconds = row["wait_time_s"]
        if row["status"] != "gone" or seconds["new"] != 0:
            failures.append(f"{where}: status {row['status']}, new {seconds['new']}")
        elif not low <= seconds["base"] <= high or abs(seconds["change"] + seconds["base"]) > 1e-9:
            failures.append(f"{where}: base {seconds['base']:.3f} s, change "
                            f"{seconds['change']:.3f} s, expected about -{wait} s")
        else:
            print(f"ok: {where}: gone, {seconds['change']:.3f} s")
    # The delay lies between MPI_Init and MPI_Finalize (the POP region). The whole trace's span
    # also holds the ranks' launch and finalization, which a loaded machine stretches by up to
    # a second (seen in CI: the fixed run spanned 1.06 s), so it need only get shorter.
    pop = comparison["pop"]
    if pop is None:
        failures.append("no POP efficiencies compared")
    elif pop["runtime_s"]["change"] > -0.5 * wait:
        failures.append(f"MPI_Init..MPI_Finalize changed by {pop['runtime_s']['change']:.3f} s, "
                        f"expected about -{wait} s")
    if comparison["run_time_s"]["change"] >= 0:
        failures.append(f"run time changed by {comparison['run_time_s']['change']:.3f} s, "
                        f"expected shorter")
    if comparison["total_wait_s"]["change"] > -low:
        failures.append(f"waiting changed by {comparison['total_wait_s']['change']:.3f} s")
    return failures


def check_scaling(args, workdir):
    failures = []
    two = common.trace(args, workdir, "scaling-2", binary=args.scaling_binary, np=2)
    four = common.trace(args, workdir, "scaling-4", binary=args.scaling_binary, np=4)
    out = os.path.join(workdir, "scaling.json")
    html = os.path.join(workdir, "scaling.html")
    run, failures = run_analyzer(args, ["compare", "--scaling", four, two, "--json", out,
                                        "--html", html], 0)
    if failures:
        return failures
    if "computational" not in run.stdout:
        failures.append("the terminal shows no scaling table")
    with open(out, encoding="utf-8") as f:
        result = json.load(f)
    failures += compare_schema_failures(result, args.schema_dir)
    rows = result["scaling"]["rows"]
    if [r["ranks"] for r in rows] != [2, 4]:
        return failures + [f"scaling rows for ranks {[r['ranks'] for r in rows]}, expected [2, 4]"]
    four_row = rows[1]
    checks = [("computational_scaling", 0.5, 0.1), ("speedup", 1.0, 0.3),
              ("ideal_speedup", 2.0, 1e-9)]
    for key, expected, tolerance in checks:
        if abs(four_row[key] - expected) > tolerance:
            failures.append(f"4 ranks: {key} {four_row[key]:.3f}, expected {expected} ± {tolerance}")
        else:
            print(f"ok: 4 ranks: {key} {four_row[key]:.3f}")
    product = four_row["parallel_efficiency"] * four_row["computational_scaling"]
    if abs(four_row["global_efficiency"] - product) > 1e-9:
        failures.append(f"global efficiency {four_row['global_efficiency']} != {product}")
    with open(html, encoding="utf-8") as f:
        if "<polyline" not in f.read():
            failures.append("the scaling page has no plot")
    return failures


def main():
    parser = common.example_arguments(timeout=240)
    parser.add_argument("--scaling-binary", required=True)
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="collwrap-compare-")
    failures = []

    delayed = common.trace(args, workdir, "delayed")
    fixed = common.trace(args, workdir, "fixed", program_args=["0"])
    report = os.path.join(workdir, "delayed.json")
    database = os.path.join(workdir, "runs.db")
    # Without the delay rank 0 can still post a receive a few milliseconds before rank 1,
    # descheduled on the loaded machine, sends: instances below a quarter of the injected
    # 200 ms are noise here (--min-wait, the epsilon of the pattern definitions).
    min_wait = ["--min-wait", "0.05"]
    failures += run_analyzer(args, [delayed, "--quiet", "--json", report, *min_wait], 0)[1]
    failures += run_analyzer(args, [fixed, "--quiet", "--sqlite", database, *min_wait], 0)[1]
    fixed_run = database + "#1"

    # The change helped: exit 0 under both thresholds.
    out = os.path.join(workdir, "compare.json")
    html = os.path.join(workdir, "compare.html")
    run, problems = run_analyzer(args, ["compare", report, fixed_run, "--json", out, "--html",
                                        html, "--fail-if-worse", "total:10",
                                        "--fail-if-worse", "late_sender:10"], 0)
    failures += problems
    if not problems:
        if "gone" not in run.stdout:
            failures.append("the terminal table does not say 'gone'")
        with open(out, encoding="utf-8") as f:
            result = json.load(f)
        failures += compare_schema_failures(result, args.schema_dir)
        failures += check_gone(result["comparisons"][0], args.source)
        if result["worse"]:
            failures.append("the fixed run is reported worse")
        with open(html, encoding="utf-8") as f:
            page = f.read()
        if "bar base" not in page or "gone" not in page or "<script" in page:
            failures.append("the HTML page lacks the bars or the gone finding, or has a script")

    # The reverse direction is worse: exit 3, for the total and for the pattern.
    for threshold in ("total:10", "late_sender:10"):
        run, problems = run_analyzer(args, ["compare", fixed_run, delayed, "--fail-if-worse",
                                            threshold], EXIT_WORSE)
        failures += problems
        if not problems and "WORSE" not in run.stdout:
            failures.append(f"--fail-if-worse {threshold}: no WORSE verdict on the terminal")
    run, problems = run_analyzer(args, ["compare", fixed_run, report, "--json", "-",
                                        "--fail-if-worse", "total:10"], EXIT_WORSE)
    failures += problems
    if not problems and json.loads(run.stdout)["worse"] is not True:
        failures.append("--json -: worse is not true")

    failures += check_scaling(args, workdir)
    return common.finish(failures, workdir)


if __name__ == "__main__":
    sys.exit(main())
