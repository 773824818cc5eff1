"""Integration check of `analyzer --noise`: the wait_at_barrier example is traced on 4 ranks,
noise is collected for a second on 2 ranks, and the analyzer's JSON report (valid against the
schema) holds every rank's compute grains and a noise prediction consistent with them; a job of
two analyzer processes that divide the trace (--patterns all --no-causes) gives the same
report; a file that is not a noise file is a usage error.

    noise_analyzer_check.py EXAMPLE --mpirun M --preload LIB --analyzer A --bench B
        --schema-dir D --pattern-tests DIR
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

from bench_mpirun import expect, run_bench

parser = argparse.ArgumentParser()
parser.add_argument("binary")
for option in ("--mpirun", "--preload", "--analyzer", "--bench", "--schema-dir",
               "--pattern-tests"):
    parser.add_argument(option, required=True)
ARGS = parser.parse_args()
ARGS.np, ARGS.timeout = 4, 120
sys.path[:0] = [ARGS.pattern_tests, ARGS.schema_dir]
import run_pattern_example  # noqa: E402  (trace(): mpirun with libcollwrap.so)
import validate_report  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "perf",
                                "analyzer"))
from compare_reports import differences  # noqa: E402


def check_grains(report):
    grains = report["grains"]
    expect({g["rank"] for g in grains} == set(range(ARGS.np)), "compute grains of every rank")
    for g in grains:
        histogram = g["histogram"]
        expect(len(histogram) == 9, "nine bins by powers of ten")
        expect(sum(b["count"] for b in histogram) == g["count"], "the bins hold every grain")
        expect(math.isclose(sum(b["total_s"] for b in histogram), g["total_s"], rel_tol=1e-9,
                            abs_tol=1e-12), "the bins hold the total")
        expect(g["min_s"] <= g["median_s"] <= g["max_s"], "min <= median <= max")
        expect(math.isclose(g["mean_s"] * g["count"], g["total_s"], rel_tol=1e-9), "mean")
    # Rank 3 works (sleeps) 0.2 s before each of the 5 barriers: its grains hold that time.
    slow = next(g for g in grains if g["rank"] == 3 and g["thread"] == 0)
    expect(slow["total_s"] >= 0.9 and slow["max_s"] >= 0.19, "the slow rank's long grains")
    return grains


def check_noise(report, grains):
    n = report["noise"]
    print("noise prediction:", json.dumps(n))
    expect(n["processes"] == ARGS.np and n["noise_ranks"] == 2 and n["metric_processes"] == 2,
           "p of the trace, metrics over the noise file's 2 ranks")
    expect(n["grains"] == sum(g["count"] for g in grains), "every grain predicted")
    expect(math.isclose(n["compute_s"], sum(g["total_s"] for g in grains), rel_tol=1e-9),
           "compute time of the grains")
    expect(0 <= n["wait_s"] <= n["delay_s"], "waiting is part of the delay")
    expect(0.5 <= n["observed_wait_s"], "the example's barrier waits are observed")
    expect(math.isclose(n["explained_fraction"], n["wait_s"] / n["observed_wait_s"],
                        rel_tol=1e-9), "explained fraction = wait / observed")


def check_divided_job(trace, noise, workdir):
    """The noise prediction of a job whose processes divide the trace: the analyzer's alone."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    options = ["--noise", noise, "--patterns", "all", "--no-causes", "-q"]
    reports = []
    for name, launch in (("alone", []), ("job", [ARGS.mpirun, "-np", "2", "--oversubscribe"])):
        path = os.path.join(workdir, f"{name}.json")
        run = subprocess.run(launch + [ARGS.analyzer, trace, *options, "--json", path], env=env,
                             capture_output=True, text=True, timeout=ARGS.timeout)
        expect(run.returncode == 0, f"{name} --noise exits with 0, not {run.returncode}: "
                                    f"{run.stderr}")
        with open(path, encoding="utf-8") as f:
            reports.append(json.load(f))
    expect("noise" in reports[1], "the job's report has the noise prediction")
    found = list(differences(*reports))
    expect(not found, "a divided job's report equals the analyzer's alone: " + "; ".join(found[:5]))


def main():
    workdir = tempfile.mkdtemp(prefix="collwrap-noise-analyzer-")
    trace = run_pattern_example.trace(ARGS, workdir)
    noise = os.path.join(workdir, "noise.json")
    result = run_bench(ARGS.mpirun, ARGS.bench, 2, "noise", "--duration", "1", "--save", noise)
    expect(result.returncode == 0, f"collwrap-bench noise exits with 0, not {result.returncode}")

    report_path = os.path.join(workdir, "report.json")
    run = subprocess.run([ARGS.analyzer, trace, "--noise", noise, "--json", report_path],
                         capture_output=True, text=True, timeout=ARGS.timeout)
    print(run.stdout, run.stderr, sep="")
    expect(run.returncode == 0, f"analyzer --noise exits with 0, not {run.returncode}")
    expect("Machine noise (" in run.stdout and "Measured noise explains about" in run.stdout,
           "the summary's machine noise section")
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    violations = validate_report.violations(report, validate_report.load_schema())
    expect(not violations, "the report follows the schema: " + "; ".join(violations))
    check_noise(report, check_grains(report))
    check_divided_job(trace, noise, workdir)

    plain = subprocess.run([ARGS.analyzer, trace, "--quiet", "--json", "-"], capture_output=True,
                           text=True, timeout=ARGS.timeout)
    expect(plain.returncode == 0 and "noise" not in json.loads(plain.stdout),
           "no noise section without --noise")
    bad = subprocess.run([ARGS.analyzer, trace, "--noise", report_path], capture_output=True,
                         text=True, timeout=ARGS.timeout)
    expect(bad.returncode == 2,
           f"a file that is not a noise file exits with 2, not {bad.returncode}")
    expect(bad.stderr.startswith(f"analyzer: cannot read the noise file '{report_path}': "),
           "the message names the noise file: " + bad.stderr)
    shutil.rmtree(workdir)
    print("PASS")


if __name__ == "__main__":
    main()
