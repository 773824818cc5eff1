#!/usr/bin/python3
"""Runs the demo (share/scripts/demo-run.sh) on the build tree and checks what a new user sees
first: the summary leads with "Lines to change", whose first entry is the compute segment of
the late rank of late_sender.c (rank 1, ending at its MPI_Send) with an estimated gain near
the injected delay (5 x 200 ms).

    demo_summary_test.py --demo demo-run.sh --preload LIB --analyzer A --example BIN --source C
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "patterns"))
import run_pattern_example as common  # noqa: E402

LATE_RANK = 1
INJECTED_S = 1.0  # ITERATIONS x DELAY_US of late_sender.c


def send_line(source):
    """The line of the late rank's MPI_Send, which ends the segment to change."""
    with open(source, encoding="utf-8") as f:
        for number, text in enumerate(f, start=1):
            if "MPI_Send(" in text:
                return number
    raise AssertionError(f"{source} has no MPI_Send")


def main():
    parser = argparse.ArgumentParser()
    for option in ("--demo", "--preload", "--analyzer", "--example", "--source"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    env = dict(os.environ, COLLWRAP_PRELOAD=args.preload, COLLWRAP_ANALYZER=args.analyzer,
               COLLWRAP_EXAMPLE=args.example)
    run = subprocess.run(["sh", args.demo], env=env, capture_output=True, text=True, timeout=240)
    print(run.stdout)
    print(run.stderr, file=sys.stderr)
    if run.returncode != 0:
        raise SystemExit(f"FAIL: the demo exited with {run.returncode}")
    work = re.search(r"the reports are in (\S+)", run.stdout).group(1)
    try:
        failures = check(run.stdout, os.path.join(work, "report.json"), send_line(args.source))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print("FAIL: " + failure)
    return 1 if failures else 0


def check(output, report_path, line):
    failures = []
    summary = output.split("== analyzing", 1)[1]
    # The first section after the header lines is the lines to change.
    sections = [s for s in re.split(r"\n\s*\n", summary) if s.strip()]
    lead = next((s for s in sections if re.match(r"\s*(Lines to change|Findings|Idle time)", s)),
                "")
    if not lead.lstrip().startswith("Lines to change, by estimated gain"):
        failures.append("the summary does not lead with the lines to change:\n" + summary[:1500])
        return failures
    first = re.search(r"^\s*1\. (.*)$", lead, re.MULTILINE)
    if not first or not re.search(rf"late_sender\.c:{line}\b.* on rank {LATE_RANK}\b", first.group(1)):
        failures.append(f"the first line to change is not late_sender.c:{line} on rank "
                        f"{LATE_RANK}: {first.group(0) if first else lead}")
    if "saves " not in lead.split("2. ")[0]:
        failures.append("the first line to change has no estimated gain")
    with open(report_path, encoding="utf-8") as f:
        cause = json.load(f)["root_causes"][0]
    gain = cause["gain_s"]
    low = common.LOW * INJECTED_S - common.SLACK_S
    high = common.HIGH * INJECTED_S + common.SLACK_S
    if gain is None or not low <= gain <= high:
        failures.append(f"estimated gain {gain} s, expected {INJECTED_S} s within [{low}, {high}]")
    if cause["rank"] != LATE_RANK or cause["segment"]["line"] != line:
        failures.append(f"the JSON report's first root cause is {cause}")
    return failures


if __name__ == "__main__":
    sys.exit(main())
