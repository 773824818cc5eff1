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
                           --otf2-print O --source F90 BINARY
"""
import os
import re
import subprocess
import sys
import tempfile

# The pattern examples' checker, a sibling folder: expectations, analysis and findings checks.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "patterns"))
import run_pattern_example as pattern_checks  # noqa: E402

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
    parser = pattern_checks.example_arguments(timeout=240)
    parser.add_argument("--otf2-print", required=True)
    args = parser.parse_args()

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
    failures += pattern_checks.schema_failures(report, args.schema_dir)
    failures += pattern_checks.check_findings(report, args.source)
    return pattern_checks.finish(failures, workdir)


if __name__ == "__main__":
    sys.exit(main())
