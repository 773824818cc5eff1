#!/usr/bin/python3
"""Traces one pattern example with mpirun and libcollwrap.so, analyzes the trace, validates the
report against the schema, and checks the findings the example's source announces.

An example marks the line of the MPI call where a finding must appear:
    MPI_Recv(...); /* @expect late_sender rank=0 wait=1.0 */
rank= lists the ranks (comma separated) that must each have the finding at that line; wait= is
the expected total idle time in seconds, or "any" when it depends on the machine. An example
whose source says "@expect none" must have no significant finding at all, except at lines
marked "@startup": the barrier that lines the ranks up after MPI_Init absorbs the spread of
their MPI_Init exits (the tracer synchronizes clocks there), which is real waiting but not the
program's.

    run_pattern_example.py --mpirun M --preload LIB --analyzer A --schema-dir D --source C BINARY
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Tolerance for the measured idle time. The machine is loaded and oversubscribed (4 ranks on
# 2 cores shared with other builds): a rank can lose its CPU for a scheduler time slice or more
# before it enters a call (the wait shrinks) or before it notices that the data has arrived
# (the wait grows), and usleep may oversleep. Injected delays are 200 ms per iteration, so the
# bounds are wide enough for several lost time slices per run and still far from zero.
LOW, HIGH, SLACK_S = 0.6, 1.6, 0.05
# "No significant finding" in the balanced example: no finding as large as one injected delay.
SIGNIFICANT_S = 0.2

EXPECT = re.compile(r"@expect\s+(\w+)([^*]*)\*/")


def expectations(source):
    """([(line, pattern, ranks, wait_s or None)], startup lines); [] for '@expect none'."""
    found, startup = [], set()
    with open(source, encoding="utf-8") as f:
        for number, text in enumerate(f, start=1):
            if "@startup" in text:
                startup.add(number)
            m = EXPECT.search(text)
            if not m or m.group(1) == "none":
                continue
            fields = dict(kv.split("=", 1) for kv in m.group(2).split())
            ranks = [int(r) for r in fields["rank"].split(",")]
            wait = None if fields.get("wait", "any") == "any" else float(fields["wait"])
            found.append((number, m.group(1), ranks, wait))
    return found, startup


def trace(args, workdir, name="trace", binary=None, np=None, program_args=()):
    """Traces `binary` (default args.binary) on `np` ranks (default args.np) with its
    `program_args` into workdir/name; the archive directory."""
    trace_dir = os.path.join(workdir, name)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               COLLWRAP_TRACE_DIR=trace_dir)
    command = [args.mpirun, "-np", str(np or args.np), "--oversubscribe",
               "-x", "LD_PRELOAD=" + args.preload, "-x", "COLLWRAP_TRACE_DIR",
               binary or args.binary, *program_args]
    run = subprocess.run(command, env=env, cwd=workdir, capture_output=True, text=True,
                         timeout=args.timeout)
    if run.returncode != 0:
        sys.exit(f"FAIL: {' '.join(command)} exited {run.returncode}\n{run.stdout}{run.stderr}")
    return trace_dir


def analyze(args, trace_dir, workdir):
    report_path = os.path.join(workdir, "report.json")
    command = [args.analyzer, trace_dir, "--patterns", "all", "--json", report_path]
    run = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
    print(run.stdout, run.stderr, sep="")
    if run.returncode != 0:
        sys.exit(f"FAIL: {' '.join(command)} exited {run.returncode}")
    with open(report_path, encoding="utf-8") as f:
        return json.load(f)


def check_findings(report, source):
    """Failure messages, one per unmet expectation."""
    expected, startup = expectations(source)
    name = os.path.basename(source)
    findings = report["findings"]
    failures = []
    if not expected:
        for f in findings:
            if f["wait_time_s"] >= SIGNIFICANT_S and f["line"] not in startup:
                failures.append(f"significant finding in a balanced program: {f['pattern']} rank "
                                f"{f['rank']} line {f['line']}: {f['wait_time_s']:.3f} s")
        return failures
    for line, pattern, ranks, wait in expected:
        for rank in ranks:
            match = [f for f in findings if f["pattern"] == pattern and f["rank"] == rank
                     and f["line"] == line and os.path.basename(f["file"] or "") == name]
            where = f"{pattern} on rank {rank} at {name}:{line}"
            if not match:
                failures.append(f"missing {where}")
            elif wait is not None:
                got = match[0]["wait_time_s"]
                low, high = LOW * wait - SLACK_S, HIGH * wait + SLACK_S
                if not low <= got <= high:
                    failures.append(f"{where}: {got:.3f} s idle, expected {wait} s "
                                    f"(accepted {low:.3f} .. {high:.3f})")
                else:
                    print(f"ok: {where}: {got:.3f} s (expected {wait} s)")
            else:
                print(f"ok: {where}: {match[0]['wait_time_s'] * 1e3:.3f} ms")
    return failures


def example_arguments(timeout=120):
    """The command line every example checker shares; callers add their own options."""
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--source", required=True)
    parser.add_argument("--mpirun", required=True)
    parser.add_argument("--preload", required=True)
    parser.add_argument("--analyzer", required=True)
    parser.add_argument("--schema-dir", required=True)
    parser.add_argument("--np", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=timeout)
    return parser


def schema_failures(report, schema_dir):
    sys.path.insert(0, schema_dir)
    import validate_report
    return ["schema: " + v
            for v in validate_report.violations(report, validate_report.load_schema())]


def finish(failures, workdir):
    """Prints the failures and keeps `workdir` for a look, or removes it; the exit status."""
    if failures:
        print("\n".join("FAIL: " + f for f in failures))
        print(f"(trace and report kept in {workdir})")
        return 1
    shutil.rmtree(workdir)
    return 0


def main():
    args = example_arguments().parse_args()
    workdir = tempfile.mkdtemp(prefix="collwrap-" + os.path.basename(args.binary) + "-")
    report = analyze(args, trace(args, workdir), workdir)
    failures = schema_failures(report, args.schema_dir)
    failures += check_findings(report, args.source)
    return finish(failures, workdir)


if __name__ == "__main__":
    sys.exit(main())
