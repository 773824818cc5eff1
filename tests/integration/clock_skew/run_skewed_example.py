#!/usr/bin/python3
"""Traces a pattern example with one rank's clock skewed by libfaketime, analyzes it, and checks
the same findings, within the same tolerances, as the unskewed pattern test
(run_pattern_example.py), and that no clock-condition violation is left after the repair.

Rank 0 runs under libfaketime (FAKETIME="+5s x1.001": 5 s ahead, running 1000 ppm fast) and
all ranks use COLLWRAP_TIMER=monotonic, so the tracer's clock synchronization and the
analyzer's offset interpolation and clock repair have a real skew and drift to undo. The
MPMD form `-np 1 env LD_PRELOAD=... : -np N-1 env LD_PRELOAD=...` gives only rank 0 the
faked clock; `env` sets LD_PRELOAD for the example itself (not for mpirun's daemons).

With --clocksync-interval S the tracer also re-measures the offsets at MPI_COMM_WORLD barriers
every S seconds (COLLWRAP_CLOCKSYNC_INTERVAL); --min-offsets K then requires at least K
ClockOffset records per location, counted by OTF2's own otf2-print.

With --tracer-clock-sync off the tracer records no offsets (COLLWRAP_CLOCKSYNC=off), so the
skew reaches the analyzer untouched: the run must then show violations before the repair, and
the findings must still come out right after it; and `mpirun -np 2 analyzer --patterns all
--no-causes` (and -np 3), a job whose processes divide the trace, find the violations and repair the
clocks each on its own locations, must give the report of the analyzer alone.

    run_skewed_example.py --mpirun M --preload LIB --faketime LIBFAKETIME --analyzer A
                          --schema-dir D --source C
                          [--tracer-clock-sync off] [--clocksync-interval S --min-offsets K]
                          BINARY
"""
import json
import os
import subprocess
import sys
import tempfile

# The pattern examples' checker, a sibling folder: expectations, analysis and findings checks.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "patterns"))
import run_pattern_example as pattern_test  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "perf",
                                "analyzer"))
from compare_reports import differences  # noqa: E402

FAKETIME = "+5s x1.001"


def trace(args, workdir):
    trace_dir = os.path.join(workdir, "trace")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               COLLWRAP_TRACE_DIR=trace_dir, COLLWRAP_TIMER="monotonic",
               COLLWRAP_CLOCKSYNC=args.tracer_clock_sync,
               COLLWRAP_CLOCKSYNC_INTERVAL=args.clocksync_interval)
    skewed = ["env", "LD_PRELOAD=" + args.preload + ":" + args.faketime,
              "FAKETIME=" + FAKETIME, args.binary]
    plain = ["env", "LD_PRELOAD=" + args.preload, args.binary]
    command = [args.mpirun, "--oversubscribe", "-x", "COLLWRAP_TRACE_DIR",
               "-x", "COLLWRAP_TIMER", "-x", "COLLWRAP_CLOCKSYNC",
               "-x", "COLLWRAP_CLOCKSYNC_INTERVAL",
               "-np", "1", *skewed, ":", "-np", str(args.np - 1), *plain]
    print(" ".join(command))
    run = subprocess.run(command, env=env, cwd=workdir, capture_output=True, text=True,
                         timeout=args.timeout)
    if run.returncode != 0:
        sys.exit(f"FAIL: {' '.join(command)} exited {run.returncode}\n{run.stdout}{run.stderr}")
    return trace_dir


def check_offset_counts(args, trace_dir):
    """ClockOffset definitions per location, as OTF2's reference reader lists them."""
    listing = subprocess.run([args.otf2_print, "-C", os.path.join(trace_dir, "traces.otf2")],
                             capture_output=True, text=True, check=True).stdout
    counts = {}
    for line in listing.splitlines():
        if line.startswith("CLOCK_OFFSET"):
            location = line.split()[1]
            counts[location] = counts.get(location, 0) + 1
    print(f"ClockOffset records per location: {counts}")
    if not counts:
        return ["otf2-print -C lists no ClockOffset records"]
    return [f"location {loc} has {n} ClockOffset records, expected at least {args.min_offsets}"
            for loc, n in sorted(counts.items()) if n < args.min_offsets]


def check_divided_job(args, trace_dir, workdir):
    """Jobs of 2 and 3 processes that divide the trace find the violations and repair the
    clocks, each process its own locations, as the analyzer alone does."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    options = ["--patterns", "all", "--no-causes", "-q", "--timings"]
    runs = {}
    for name, launch in (("alone", []), ("np2", [args.mpirun, "-np", "2", "--oversubscribe"]),
                         ("np3", [args.mpirun, "-np", "3", "--oversubscribe"])):
        path = os.path.join(workdir, f"job-{name}.json")
        command = launch + [args.analyzer, trace_dir, *options, "--json", path]
        run = subprocess.run(command, env=env, capture_output=True, text=True,
                             timeout=args.timeout)
        if run.returncode != 0:
            return [f"{' '.join(command)} exited {run.returncode}: {run.stderr}"]
        runs[name] = (json.load(open(path)), run.stderr)
    alone = runs.pop("alone")[0]
    if alone["summary"]["clock"]["violations_before_repair"] == 0:
        return ["the report shows no clock repair"]
    for name, (report, said) in runs.items():
        found = list(differences(alone, report))
        if found:
            return [f"the report of the job ({name}) differs from the analyzer's alone: "
                    + "; ".join(found[:5])]
        if "clock repair" not in said:
            return [f"the job ({name}) did not repair the clocks:\n{said}"]
    print("jobs of 2 and 3 processes that divide the trace repaired the clocks as the analyzer "
          "alone does")
    return []


def main():
    parser = pattern_test.example_arguments(timeout=240)
    parser.add_argument("--faketime", required=True)
    parser.add_argument("--tracer-clock-sync", default="auto",
                        help="COLLWRAP_CLOCKSYNC for the traced run (auto: the tracer's default)")
    parser.add_argument("--clocksync-interval", default="0",
                        help="COLLWRAP_CLOCKSYNC_INTERVAL for the traced run (seconds)")
    parser.add_argument("--min-offsets", type=int, default=2,
                        help="ClockOffset records each location must have")
    parser.add_argument("--otf2-print", default="otf2-print")
    args = parser.parse_args()
    args.binary = os.path.abspath(args.binary)  # mpirun runs in a scratch directory

    workdir = tempfile.mkdtemp(prefix="collwrap-skew-" + os.path.basename(args.binary) + "-")
    report = pattern_test.analyze(args, trace(args, workdir), workdir)
    clock = report["summary"]["clock"]
    print("clock: " + ", ".join(f"{k}={v}" for k, v in sorted(clock.items())))
    failures = pattern_test.schema_failures(report, args.schema_dir)
    failures += pattern_test.check_findings(report, args.source)
    if clock["violations"] != 0 or clock["violations_after_repair"] != 0:
        failures.append(f"clock-condition violations left after repair: {clock}")
    # The offsets' uncertainty is half a round trip between two processes of one machine: more
    # than a nanosecond, far less than 50 ms even on a loaded machine, whatever the tick length.
    uncertainty = clock["max_offset_stddev_s"]
    if args.tracer_clock_sync != "off" and not 1e-9 <= uncertainty <= 0.05:
        failures.append(f"offset uncertainty {uncertainty} s is not half a local round trip")
    if args.tracer_clock_sync != "off":
        failures += check_offset_counts(args, os.path.join(workdir, "trace"))
    if args.tracer_clock_sync == "off" and clock["violations_before_repair"] == 0:
        failures.append("no violation before repair although the tracer recorded no offsets: "
                        "the skew did not reach the trace")
    if args.tracer_clock_sync == "off":
        failures += check_divided_job(args, os.path.join(workdir, "trace"), workdir)
    return pattern_test.finish(failures, workdir)

if __name__ == "__main__":
    sys.exit(main())
