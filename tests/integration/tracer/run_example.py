"""Traces one example program with libcollwrap.so under mpirun and checks the archive.

Usage (see CMakeLists.txt):
  run_example.py --name ring --binary tracer_ring --source ring.c --library libcollwrap.so
                 --mpirun mpirun [--recover collwrap-recover]

The example runs twice, without and with the preloaded library; its output must be the same.
The archive must satisfy `otf2-print --silent -Werror`, the checks every trace needs
(trace_checks.py) and the example's own expectations (expectations.py).
"""

import argparse
import os
import subprocess
import sys
import tempfile

import expectations
import trace_checks
import trace_model

RANKS = expectations.SIZE


def mpirun(args, binary, extra_env=()):
    """Runs `binary` on RANKS ranks; returns (exit code, stdout, stderr)."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    command = [args.mpirun, "-np", str(RANKS), "--oversubscribe"]
    for name, value in extra_env:
        command += ["-x", f"{name}={value}"]
    run = subprocess.run(command + [binary], capture_output=True, text=True, env=env,
                         timeout=100)
    return run.returncode, run.stdout, run.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for option in ("--name", "--binary", "--source", "--library", "--mpirun"):
        parser.add_argument(option, required=True)
    parser.add_argument("--recover", help="collwrap-recover, for runs without MPI_Finalize")
    args = parser.parse_args()
    c = trace_checks.Checker()
    finalized = args.name not in expectations.UNFINALIZED

    plain_rc, plain_out, plain_err = mpirun(args, args.binary)
    with tempfile.TemporaryDirectory(prefix="collwrap-test-") as tmp:
        trace_dir = os.path.join(tmp, "trace")
        rc, out, err = mpirun(args, args.binary, [("LD_PRELOAD", args.library),
                                                  ("COLLWRAP_TRACE_DIR", trace_dir)])
        c.equal(rc, plain_rc, "exit code with the tracer (untraced run's exit code)")
        c.equal(out, plain_out, "program output with the tracer")
        if finalized:
            c.equal(plain_rc, 0, "exit code of the untraced run")
            c.check("collwrap:" not in err, f"tracer complained: {err.strip()}")
        else:
            recovered = subprocess.run([args.recover, trace_dir], capture_output=True, text=True)
            c.equal(recovered.returncode, 0, f"collwrap-recover: {recovered.stderr.strip()}")

        anchor = os.path.join(trace_dir, "traces.otf2")
        printed = subprocess.run(["otf2-print", "--silent", "-Werror", anchor],
                                 capture_output=True, text=True)
        c.equal(printed.returncode, 0, f"otf2-print --silent -Werror ({printed.stderr.strip()})")
        if printed.returncode == 0:
            trace = trace_model.read_trace(anchor, args.source)
            if finalized:
                c.equal(trace.world_size, RANKS, "ranks in the trace")
                trace_checks.messages_match(trace, c)
                trace_checks.requests_complete_once(trace, c)
            trace_checks.lifecycle(trace, c, finalized)
            trace_checks.clock_offsets(trace, c, finalized)
            trace_checks.call_sites(trace, c, args.source, trace_model.site_markers(args.source),
                                    expectations.UNREACHED.get(args.name, set()), finalized)
            trace_checks.records_inside_calls(trace, c)
            expectations.EXPECTATIONS[args.name](trace, c)

    for failure in c.failures:
        print(f"FAIL {args.name}: {failure}")
    if c.failures:
        print(f"--- stderr of the traced run ---\n{err}", file=sys.stderr)
        return 1
    print(f"ok {args.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
