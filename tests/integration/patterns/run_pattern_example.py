#!/usr/bin/python3
"""Traces one pattern example with mpirun and libcollwrap.so, analyzes the trace, validates the
report against the schema, and checks the findings the example's source announces.

An example marks the line of the MPI call where a finding must appear:
    MPI_Recv(...); /* @expect late_sender rank=0 wait=1.0 */
rank= lists the ranks (comma separated) that must each have the finding at that line; wait= is
the expected total idle time in seconds, or "any" when it depends on the machine; peers=, when
given, ranks that must be among the finding's peers (world ranks, comma separated), each
optionally as RANK:THREAD when that thread of the rank must be among the peer threads the
finding names for it (peers=0:2,1 = rank 0's thread 2, and rank 1); thread=, when given, the
thread that must have it (else any). On the same line, "@absent P1,P2
rank=R1,R2 [thread=T]" says that those ranks (that thread of them) have no significant finding of
those patterns there, and "@not-peer P rank=R1,R2" that no finding of theirs there names rank P
as a peer. "@root-cause rank=R thread=T" says that the report's root causes include the
compute segment of that rank and thread that ends at this line. "@np N" anywhere in the source
runs the example with N ranks. "@job divided" anywhere in the source also
analyzes the trace with --patterns all --no-causes alone and as a job of two analyzer processes
(with --mpirun), which divides the trace among its processes: the reports must be equal
field by field. An example
whose source says "@expect none" must have no significant finding at all, except at lines
marked "@startup": the barrier that lines the ranks up after MPI_Init absorbs the spread of
their MPI_Init exits (the tracer synchronizes clocks there), which is real waiting but not the
program's.

    run_pattern_example.py --mpirun M --preload LIB --analyzer A --schema-dir D --source C
                           [--otf2-print O] BINARY
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

EXPECT = re.compile(r"@expect\s+(\w+)([^*@]*)")
ABSENT = re.compile(r"@absent\s+([\w,]+)\s+rank=([\d,]+)(?:\s+thread=(\d+))?")
NOT_PEER = re.compile(r"@not-peer\s+(\d+)\s+rank=([\d,]+)")
RANKS = re.compile(r"@np\s+(\d+)")
JOB = re.compile(r"@job\s+divided")
ROOT_CAUSE = re.compile(r"@root-cause\s+rank=(\d+)\s+thread=(\d+)")


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


def job_failures(args, trace_dir, workdir, source):
    """The "@job divided" check: a job of two analyzer processes gives the report of the
    analyzer alone, dividing the trace."""
    with open(source, encoding="utf-8") as f:
        m = JOB.search(f.read())
    if not m:
        return []
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "perf", "analyzer"))
    from compare_reports import differences
    options = ["--patterns", "all", "--no-causes", "--min-wait", "0", "-q"]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    reports = []
    for name, command in (("alone", [args.analyzer]),
                          ("job", [args.mpirun, "-np", "2", "--oversubscribe", args.analyzer])):
        path = os.path.join(workdir, f"{name}.json")
        run = subprocess.run(command + [trace_dir, *options, "--json", path],
                             env=env, capture_output=True, text=True, timeout=args.timeout)
        if run.returncode != 0:
            return [f"{' '.join(command)} exited {run.returncode}: {run.stderr}"]
        with open(path, encoding="utf-8") as f:
            reports.append(json.load(f))
    failures = [f"the job's report differs: {d}" for d in differences(*reports)][:10]
    if not failures:
        print(f"ok: a job of two processes gives the same report, analyzing divided "
              f"({len(reports[0]['findings'])} findings)")
    return failures


def expected_fields(source):
    """{(line, pattern): {field: value}} of the "@expect" comments."""
    found = {}
    with open(source, encoding="utf-8") as f:
        for number, text in enumerate(f, start=1):
            m = EXPECT.search(text)
            if m and m.group(1) != "none":
                found[(number, m.group(1))] = dict(kv.split("=", 1) for kv in m.group(2).split())
    return found


def absences(source):
    """[(line, [pattern, ...], [rank, ...], thread or None)] from "@absent" comments."""
    found = []
    with open(source, encoding="utf-8") as f:
        for number, text in enumerate(f, start=1):
            for m in ABSENT.finditer(text):
                found.append((number, m.group(1).split(","),
                              [int(r) for r in m.group(2).split(",")],
                              None if m.group(3) is None else int(m.group(3))))
    return found


def rank_count(source, default):
    """The "@np N" of the source, else `default`."""
    with open(source, encoding="utf-8") as f:
        m = RANKS.search(f.read())
    return int(m.group(1)) if m else default


def peer_of(text):
    """(rank, thread or None) of a peers= item: "0" or "0:2"."""
    rank, _, thread = text.partition(":")
    return int(rank), (int(thread) if thread else None)


def names_peer(finding, rank, thread):
    """Whether the finding names that rank (and that thread of it, unless None) as a peer."""
    if rank not in finding["peers"]:
        return False
    if thread is None:
        return True
    threads = finding.get("peer_threads", [])
    i = finding["peers"].index(rank)
    return i < len(threads) and thread in threads[i]


def check_peers_and_absences(report, source):
    """Failure messages for unmet peers=, @absent and @not-peer statements."""
    name = os.path.basename(source)
    here = [f for f in report["findings"] if os.path.basename(f["file"] or "") == name]
    failures = []
    for (line, pattern), fields in expected_fields(source).items():
        if "peers" not in fields:
            continue
        peers = [peer_of(p) for p in fields["peers"].split(",")]
        ranks = [int(r) for r in fields["rank"].split(",")]
        thread = fields.get("thread")
        for f in here:
            if (f["pattern"] == pattern and f["line"] == line and f["rank"] in ranks
                    and thread in (None, str(f["thread"]))
                    and not all(names_peer(f, rank, t) for rank, t in peers)):
                failures.append(f"{pattern} on rank {f['rank']} thread {f['thread']} at "
                                f"{name}:{line}: peers {f['peers']}, peer threads "
                                f"{f.get('peer_threads')}, expected {fields['peers']} among them")
    for line, patterns, ranks, thread in absences(source):
        for f in here:
            if (f["line"] == line and f["pattern"] in patterns and f["rank"] in ranks
                    and thread in (None, f["thread"]) and f["wait_time_s"] >= SIGNIFICANT_S):
                failures.append(f"unexpected {f['pattern']} on rank {f['rank']} at {name}:{line}: "
                                f"{f['wait_time_s']:.3f} s")
    with open(source, encoding="utf-8") as text:
        for line, content in enumerate(text, start=1):
            for m in NOT_PEER.finditer(content):
                peer, ranks = int(m.group(1)), [int(r) for r in m.group(2).split(",")]
                for f in here:
                    if f["line"] == line and f["rank"] in ranks and peer in f["peers"]:
                        failures.append(f"{f['pattern']} on rank {f['rank']} at {name}:{line} "
                                        f"names rank {peer} as a peer: {f['peers']}")
    return failures


def check_root_causes(report, source):
    """Failure messages for "@root-cause" statements the report's root causes do not meet."""
    failures = []
    with open(source, encoding="utf-8") as f:
        for number, text in enumerate(f, start=1):
            m = ROOT_CAUSE.search(text)
            if not m:
                continue
            rank, thread = int(m.group(1)), int(m.group(2))
            if not any(c["rank"] == rank and c["thread"] == thread
                       and c["segment"]["line"] == number
                       for c in report.get("root_causes", [])):
                failures.append(f"no root cause on rank {rank} thread {thread} in the segment "
                                f"ending at line {number}")
            else:
                print(f"ok: root cause on rank {rank} thread {thread} at line {number}")
    return failures


def otf2_print_failures(trace_dir, otf2_print="otf2-print"):
    """otf2-print --silent -Werror must accept the archive."""
    anchor = os.path.join(trace_dir, "traces.otf2")
    run = subprocess.run([otf2_print, "--silent", "-Werror", anchor], capture_output=True,
                         text=True)
    if run.returncode != 0:
        return [f"otf2-print --silent -Werror {anchor} exited {run.returncode}: "
                f"{(run.stdout + run.stderr)[-2000:]}"]
    return []


def trace(args, workdir, name="trace", binary=None, np=None, program_args=(), settings=None):
    """Traces `binary` (default args.binary) on `np` ranks (default args.np) with its
    `program_args` and the environment `settings` ({name: value}, exported to every rank)
    into workdir/name; the archive directory."""
    trace_dir = os.path.join(workdir, name)
    settings = settings or {}
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               COLLWRAP_TRACE_DIR=trace_dir, **settings)
    exported = [arg for name in settings for arg in ("-x", name)]
    command = [args.mpirun, "-np", str(np or args.np), "--oversubscribe",
               "-x", "LD_PRELOAD=" + args.preload, "-x", "COLLWRAP_TRACE_DIR", *exported,
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
    fields = expected_fields(source)
    for line, pattern, ranks, wait in expected:
        thread = fields[(line, pattern)].get("thread")
        for rank in ranks:
            match = [f for f in findings if f["pattern"] == pattern and f["rank"] == rank
                     and f["line"] == line and os.path.basename(f["file"] or "") == name
                     and (thread is None or f["thread"] == int(thread))]
            where = f"{pattern} on rank {rank}" + (f" thread {thread}" if thread else "") + \
                f" at {name}:{line}"
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
    parser = example_arguments()
    parser.add_argument("--otf2-print", default="otf2-print")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="collwrap-" + os.path.basename(args.binary) + "-")
    args.np = rank_count(args.source, args.np)
    trace_dir = trace(args, workdir)
    report = analyze(args, trace_dir, workdir)
    failures = schema_failures(report, args.schema_dir)
    failures += check_findings(report, args.source)
    failures += check_peers_and_absences(report, args.source)
    failures += check_root_causes(report, args.source)
    failures += otf2_print_failures(trace_dir, args.otf2_print)
    failures += job_failures(args, trace_dir, workdir, args.source)
    return finish(failures, workdir)


if __name__ == "__main__":
    sys.exit(main())
