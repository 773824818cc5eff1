#!/usr/bin/env python3
"""Under a per-process memory limit that the analyzer alone exceeds, `mpirun -np K analyzer`
with every pattern, without root causes or with them (--causes), analyzes the same archive,
each process holding only its share, and gives the report of the analyzer alone run without
the limit.

The limit is the data segment (RLIMIT_DATA, `ulimit -d`): the heap and private mappings of every
process, which the job's processes inherit from mpirun; MPI's shared-memory segments are not
counted. The analyzer alone must stop with its out-of-memory message and exit status 1, never
crash; each job must exit 0 with a report equal field by field (compare_reports.py).

Usage: memory_limit_test.py --analyzer A --mpirun M --archive DIR --limit-mib N
           --processes K [K...] [--causes] --work DIR
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "perf",
                                "analyzer"))
from compare_reports import differences  # noqa: E402

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
TIMEOUT_S = 300


def run(command, limit_bytes=None):
    def limit():
        resource.setrlimit(resource.RLIMIT_DATA, (limit_bytes, limit_bytes))
    return subprocess.run(command, env=ENV, capture_output=True, text=True, timeout=TIMEOUT_S,
                          preexec_fn=limit if limit_bytes else None)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--analyzer", required=True)
    parser.add_argument("--mpirun", required=True)
    parser.add_argument("--archive", required=True)
    parser.add_argument("--limit-mib", type=int, required=True)
    parser.add_argument("--processes", type=int, nargs="+", required=True)
    parser.add_argument("--causes", action="store_true", help="with the root-cause analysis")
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    limit = args.limit_mib << 20
    # Every wait counts (the synthetic archive's are short), one thread per process.
    options = ["--patterns", "all", "--min-wait", "0", "--threads", "1", "-q"] + \
        ([] if args.causes else ["--no-causes"])

    expected_path = os.path.join(args.work, "alone.json")
    alone = run([args.analyzer, args.archive, *options, "--json", expected_path])
    if alone.returncode != 0:
        sys.exit(f"FAIL: the analyzer alone without a limit exited {alone.returncode}:\n"
                 f"{alone.stderr}")
    expected = json.load(open(expected_path))
    if not expected["findings"]:
        sys.exit("FAIL: the archive has no findings to compare")

    limited = run([args.analyzer, args.archive, *options, "--json",
                   os.path.join(args.work, "alone-limited.json")], limit)
    if limited.returncode != 1 or "out of memory" not in limited.stderr:
        sys.exit(f"FAIL: under a limit of {args.limit_mib} MiB the analyzer alone exited "
                 f"{limited.returncode} and said {limited.stderr!r}; expected exit 1 and its "
                 f"out-of-memory message (lower the limit)")
    print(f"the analyzer alone under {args.limit_mib} MiB: {limited.stderr.strip()}")

    for processes in args.processes:
        report = os.path.join(args.work, f"np{processes}.json")
        job = run([args.mpirun, "-np", str(processes), "--oversubscribe", args.analyzer,
                   args.archive, *options, "--json", report], limit)
        if job.returncode != 0:
            sys.exit(f"FAIL: -np {processes} under {args.limit_mib} MiB per process exited "
                     f"{job.returncode}:\n{job.stderr[-2000:]}")
        found = list(differences(expected, json.load(open(report))))
        if found:
            sys.exit(f"FAIL: -np {processes}: the report differs:\n" + "\n".join(found[:20]))
        print(f"-np {processes} under {args.limit_mib} MiB per process: the report of the "
              f"analyzer alone ({len(expected['findings'])} findings)")
    print("analyzed within the limit")


if __name__ == "__main__":
    main()
