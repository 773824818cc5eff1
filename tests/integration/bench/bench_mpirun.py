"""Runs collwrap-bench under mpirun for the integration checkers (coll, ops, timer)."""
import os
import subprocess
import sys


def run_bench(mpirun, bench, ranks, subcommand, *options, timeout=90):
    """Returns the CompletedProcess of `mpirun -np RANKS collwrap-bench SUBCOMMAND OPTIONS`."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    command = [mpirun, "--oversubscribe", "-np", str(ranks), bench, subcommand, *options]
    print("$", " ".join(command), flush=True)
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    return result


def expect(condition, message):
    if not condition:
        raise SystemExit("FAIL: " + message)


def expect_usage_error(result, subcommand):
    """Exit status 2 and a message that names the program and the subcommand."""
    expect(result.returncode == 2, f"usage error exits with 2, not {result.returncode}")
    expect(f"collwrap-bench {subcommand}: " in result.stderr,
           f"the message starts with 'collwrap-bench {subcommand}: '")
