"""The tracer must never harm a program it cannot or should not trace.

1. An MPI program whose trace directory cannot be created prints one `collwrap:` line on
   stderr, produces the same output and exits with 0.
2. A process that never calls MPI_Init (here a shell) is not affected at all: same output,
   nothing on stderr, no trace directory.

Usage: check_untraced_runs.py --binary tracer_ring --library libcollwrap.so --mpirun mpirun
"""

import argparse
import os
import subprocess
import sys
import tempfile

from run_example import RANKS


def run_mpi(args, extra):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    command = [args.mpirun, "-np", str(RANKS), "--oversubscribe"]
    for name, value in extra:
        command += ["-x", f"{name}={value}"]
    return subprocess.run(command + [args.binary], capture_output=True, text=True, env=env,
                          timeout=100)


def unwritable_trace_directory(args):
    failures = []
    plain = run_mpi(args, [])
    traced = run_mpi(args, [("LD_PRELOAD", args.library),
                            ("COLLWRAP_TRACE_DIR", "/proc/collwrap-cannot-create/trace")])
    if traced.returncode != 0:
        failures.append(f"exit code {traced.returncode} with an unwritable trace directory")
    if traced.stdout != plain.stdout:
        failures.append(f"output changed: {traced.stdout!r} instead of {plain.stdout!r}")
    lines = [line for line in traced.stderr.splitlines() if line.startswith("collwrap:")]
    if not 1 <= len(lines) <= RANKS:
        failures.append(f"expected one collwrap: line (at most one per rank), got {lines}")
    return failures


def process_without_mpi(args):
    failures = []
    with tempfile.TemporaryDirectory(prefix="collwrap-test-") as cwd:
        env = {k: v for k, v in os.environ.items() if k != "COLLWRAP_TRACE_DIR"}
        env["LD_PRELOAD"] = args.library
        run = subprocess.run(["/bin/sh", "-c", "echo hello"], capture_output=True, text=True,
                             env=env, cwd=cwd, timeout=30)
        if (run.returncode, run.stdout, run.stderr) != (0, "hello\n", ""):
            failures.append(f"a shell under LD_PRELOAD gave {run.returncode}, {run.stdout!r}, "
                            f"{run.stderr!r}")
        if os.listdir(cwd):
            failures.append(f"a process without MPI_Init created {os.listdir(cwd)}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for option in ("--binary", "--library", "--mpirun"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    failures = unwritable_trace_directory(args) + process_without_mpi(args)
    for failure in failures:
        print(f"FAIL: {failure}")
    if not failures:
        print("ok: untraced runs are unaffected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
