#!/usr/bin/env python3
"""`mpirun -np K analyzer ARCHIVE ...` gives the report `analyzer ARCHIVE ...` gives.

Analyzes one archive alone (or takes a reference report) and then as the processes of an MPI
job for each K given, and compares the JSON reports field by field (compare_reports.py: only
the archive path and tool version may differ) and the terminal summaries line by line. With
--failure-check it also runs a job on a path that is no archive: every process must stop, the
job must exit 2 and process 0 must say, once, which process failed, and --timings must print
one table of the phases, alone and from a job. With --remove FILE the
archive is copied and FILE (an event file, relative to the archive) removed from the copy
first: a damaged share reads as the analyzer alone reads it.

The job analyzes the archive divided (analyzer/distributed/analysis_in_job.h): each process
holds only its share of the locations, the root causes found in slices of time over the
processes; the report must still be the analyzer's alone. With --no-causes every pattern runs
without root causes; with --gathered the clocks are not repaired (--no-clock-repair), which a
divided root-cause analysis needs, so that process 0 gathers the whole trace and analyzes it
alone.

Usage: job_analysis_test.py --analyzer A --mpirun M --archive DIR --processes K [K...]
           [--reference REPORT.json] [--min-findings N] [--failure-check] [--remove FILE]
           [--min-wait S] [--no-causes | --gathered] [--what-if SPEC]... [--threads N] --work DIR
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "perf",
                                "analyzer"))
from compare_reports import differences  # noqa: E402

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
TIMEOUT_S = 300


def analyze(command, report, options, timeout=TIMEOUT_S):
    """The terminal summary."""
    run = subprocess.run(command + ["--json", report] + options,
                         env=ENV, capture_output=True, text=True, timeout=timeout)
    if run.returncode != 0:
        sys.exit(f"FAIL: {' '.join(command)} exited {run.returncode}:\n{run.stderr}")
    return run.stdout


def job(args, processes):
    return [args.mpirun, "-np", str(processes), "--oversubscribe", args.analyzer, args.archive]


def check_failure(args):
    missing = os.path.join(args.work, "no-such-archive")
    run = subprocess.run(job(args, 3)[:-1] + [missing, "--patterns", "all"], env=ENV,
                         capture_output=True, text=True, timeout=TIMEOUT_S)
    said = [line for line in run.stderr.splitlines() if line.startswith("analyzer:")]
    if run.returncode != 2 or len(said) != 1 or "process 0 of 3" not in said[0] \
            or missing not in said[0]:
        sys.exit(f"FAIL: a job on a missing archive exited {run.returncode} and said "
                 f"{said!r}; expected exit 2 and one message naming the process and the path")
    print(f"a job on a missing archive: exit 2, {said[0]!r}")


def check_timings(args):
    """--timings: process 0 alone prints each phase, once, and the job ends cleanly; a divided
    job exchanges ghosts after reading."""
    alone = ["reading", "matching", "clock repair", "patterns", "writing reports", "total"]
    divided = alone[:1] + ["ghosts"] + alone[1:]
    for command, phases in (([args.analyzer, args.archive], alone), (job(args, 2), divided)):
        run = subprocess.run(command + ["--patterns", "all", "-q", "--timings"], env=ENV,
                             capture_output=True, text=True, timeout=TIMEOUT_S)
        lines = run.stderr.splitlines()
        headers = [line for line in lines if "time and peak resident size" in line]
        named = [line.split()[0] + (" " + line.split()[1] if line.split()[1].isalpha() else "")
                 for line in lines if line.startswith("  ")]
        if run.returncode != 0 or len(headers) != 1 or named != phases:
            sys.exit(f"FAIL: {' '.join(command)} --timings exited {run.returncode} and printed "
                     f"{run.stderr!r}; expected one table of {phases}")
    print("--timings: one table of the phases, alone and from a job")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--analyzer", required=True)
    parser.add_argument("--mpirun", required=True)
    parser.add_argument("--archive", required=True)
    parser.add_argument("--processes", type=int, nargs="+", required=True)
    parser.add_argument("--reference")
    parser.add_argument("--min-findings", type=int, default=1)
    parser.add_argument("--failure-check", action="store_true")
    parser.add_argument("--remove")
    parser.add_argument("--min-wait", help="the analyzer's --min-wait (default: its own)")
    parser.add_argument("--no-causes", action="store_true", help="every pattern, no root causes")
    parser.add_argument("--what-if", action="append", default=[],
                        help="a what-if question to ask as well (the analyzer's --what-if)")
    parser.add_argument("--gathered", action="store_true",
                        help="clocks not repaired: process 0 gathers the trace")
    parser.add_argument("--threads", help="the job's --threads (default: the analyzer's own)")
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    if args.remove:
        copy = os.path.join(args.work, "archive")
        shutil.copytree(args.archive, copy)
        os.remove(os.path.join(copy, args.remove))
        args.archive = copy

    alone_report = os.path.join(args.work, "alone.json")
    options = ["--min-wait", args.min_wait] if args.min_wait else []
    options += ["--patterns", "all"] + (["--no-causes"] if args.no_causes else []) + \
        (["--no-clock-repair"] if args.gathered else []) + \
        [option for spec in args.what_if for option in ("--what-if", spec)]
    alone_summary = analyze([args.analyzer, args.archive], alone_report, options)
    expected = json.load(open(args.reference or alone_report))
    # Equal reports prove something only if there is something in them.
    if len(expected["findings"]) < args.min_findings:
        sys.exit(f"FAIL: only {len(expected['findings'])} findings to compare")
    unchanged = [q["spec"] for q in expected.get("what_if", []) if q["segments_changed"] == 0]
    if len(expected.get("what_if", [])) != len(args.what_if) or unchanged:
        sys.exit(f"FAIL: what-if questions asked {args.what_if}, answered "
                 f"{len(expected.get('what_if', []))}, changing nothing: {unchanged}")
    for processes in args.processes:
        report = os.path.join(args.work, f"np{processes}.json")
        job_options = options + (["--threads", args.threads] if args.threads else [])
        summary = analyze(job(args, processes), report, job_options)
        found = list(differences(expected, json.load(open(report))))
        if found:
            sys.exit(f"FAIL: -np {processes}: the report differs:\n" + "\n".join(found[:20]))
        if summary != alone_summary:
            sys.exit(f"FAIL: -np {processes}: the terminal summary differs from the one of the "
                     f"analyzer alone (or is printed more than once)")
        print(f"-np {processes}: report and summary equal to the analyzer's alone "
              f"({len(expected['findings'])} findings)")
    if args.failure_check:
        check_failure(args)
        check_timings(args)
    print("reports equal")


if __name__ == "__main__":
    main()
