#!/usr/bin/python3
"""Runs one Fortran example (share/examples/fortran) untraced and traced, and checks that

- the traced run prints exactly what the untraced one prints (the tracer changes no result:
  Fortran sentinels such as MPI_IN_PLACE and MPI_STATUS_IGNORE reach MPI intact);
- the trace is valid for otf2-print and records each Fortran call once: on every location,
  MPI regions never nest (a Fortran wrapper that reached a C wrapper would open a second
  region inside the first);
- the analyzer finds what the source's "! @expect PATTERN rank=N wait=S" comments announce, at
  the .f90 line of the CALL statement (checked by run_pattern_example.py's functions, reused
  here with a marker syntax for Fortran comments), and its report validates against the schema.

    run_fortran_example.py --mpirun M --preload LIB --analyzer A --schema-dir D
                           --patterns-dir P --otf2-print O --source F90 BINARY
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Fortran comments have no closing "*/": the marker runs to the end of the line.
FORTRAN_EXPECT = re.compile(r"@expect\s+(\w+)([^!\n]*)")


def run(command, env, workdir, timeout):
    result = subprocess.run(command, env=env, cwd=workdir, capture_output=True, text=True,
                            timeout=timeout)
    if result.returncode != 0:
        sys.exit(f"FAIL: {' '.join(command)} exited {result.returncode}\n"
                 f"{result.stdout}{result.stderr}")
    return result


def program_output(stdout):
    """The lines the ranks print, in a fixed order (ranks print concurrently)."""
    return sorted(line for line in stdout.splitlines() if line.strip())


def check_single_recording(otf2_print, anchor):
    """Failure messages: otf2-print errors, or an MPI region entered inside another."""
    result = subprocess.run([otf2_print, anchor], capture_output=True, text=True)
    if result.returncode != 0:
        return [f"otf2-print {anchor} exited {result.returncode}: {result.stderr[-2000:]}"]
    open_regions, failures, events = {}, [], 0
    record = re.compile(r"^(ENTER|LEAVE)\s+(\d+)\s+\d+\s+Region: \"([^\"]+)\"")
    for line in result.stdout.splitlines():
        m = record.match(line)
        if not m:
            continue
        events += 1
        kind, location, region = m.groups()
        stack = open_regions.setdefault(location, [])
        if kind == "ENTER":
            if stack:
                failures.append(f"location {location}: {region} entered inside {stack[-1]} "
                                "(a call recorded twice)")
            stack.append(region)
        elif stack:
            stack.pop()
    if events == 0:
        failures.append("the trace has no Enter/Leave records: the Fortran calls were not seen")
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--source", required=True)
    parser.add_argument("--mpirun", required=True)
    parser.add_argument("--preload", required=True)
    parser.add_argument("--analyzer", required=True)
    parser.add_argument("--schema-dir", required=True)
    parser.add_argument("--patterns-dir", required=True,
                        help="tests/integration/patterns (run_pattern_example.py)")
    parser.add_argument("--otf2-print", required=True)
    parser.add_argument("--np", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=240)
    args = parser.parse_args()

    sys.path.insert(0, args.schema_dir)
    sys.path.insert(0, args.patterns_dir)
    import run_pattern_example as pattern_checks
    import validate_report
    pattern_checks.EXPECT = FORTRAN_EXPECT
    expected, _ = pattern_checks.expectations(args.source)
    if not expected:
        sys.exit(f"FAIL: {args.source} announces no finding (no '! @expect' comment)")

    workdir = tempfile.mkdtemp(prefix="collwrap-" + os.path.basename(args.binary) + "-")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    env.pop("LD_PRELOAD", None)
    launch = [args.mpirun, "-np", str(args.np), "--oversubscribe"]
    untraced = run(launch + [args.binary], env, workdir, args.timeout)
    trace_dir = os.path.join(workdir, "trace")
    traced = run(launch + ["-x", "LD_PRELOAD=" + args.preload, "-x", "COLLWRAP_TRACE_DIR",
                           args.binary], dict(env, COLLWRAP_TRACE_DIR=trace_dir), workdir,
                 args.timeout)

    failures = []
    if program_output(traced.stdout) != program_output(untraced.stdout):
        failures.append("the traced run printed something else than the untraced one:\n"
                        "untraced:\n  " + "\n  ".join(program_output(untraced.stdout)) +
                        "\ntraced:\n  " + "\n  ".join(program_output(traced.stdout)))
    else:
        print("ok: traced output = untraced output:\n  " +
              "\n  ".join(program_output(traced.stdout)))
    if "collwrap:" in traced.stderr:
        failures.append("the tracer reported a problem:\n" + traced.stderr)
    failures += check_single_recording(args.otf2_print, os.path.join(trace_dir, "traces.otf2"))
    report = pattern_checks.analyze(args, trace_dir, workdir)
    failures += ["schema: " + v
                 for v in validate_report.violations(report, validate_report.load_schema())]
    failures += pattern_checks.check_findings(report, args.source)
    if failures:
        print("\n".join("FAIL: " + f for f in failures))
        print(f"(traces and report kept in {workdir})")
        return 1
    shutil.rmtree(workdir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
