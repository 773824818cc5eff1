#!/usr/bin/python3
"""Traces one OpenSHMEM example with oshrun and libcollwrap.so, checks the archive with
`otf2-print --silent -Werror`, checks that the traced run prints what the untraced run prints,
analyzes the trace, validates the report and checks the findings the source announces:
    shmem_barrier_all(); /* @expect wait_at_barrier rank=0,1,2 peer=3 wait=1.0 */
(rank=, wait=, @absent as for the MPI pattern examples, see run_pattern_example.py; peer= a PE that must
be among the finding's peers, or "next" for rank + 1 modulo the number of PEs). A program of
several paradigms (MPI with OpenSHMEM, or the GASP harness: MPI with UPC) must give one archive
with all of them, traced from MPI_Init on. The launcher is oshrun, or mpirun for the harness.

Open MPI 4.1's OpenSHMEM crashes in shmem_finalize with its default transport on one machine
(the shared-memory BTL and UCX both claim the segment); `--mca btl ^vader` avoids it.

    run_shmem_example.py --oshrun O --preload LIB --analyzer A --schema-dir D --source C BINARY
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "patterns"))
import run_pattern_example as common  # noqa: E402

PEER = re.compile(r"@expect\s+(\w+)[^*]*?rank=([\d,]+)[^*]*?peer=(\w+)")


def oshrun(args, extra_env):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               **dict(extra_env))
    command = [args.mpirun, "--mca", "btl", "^vader", "--oversubscribe", "-np", str(args.np)]
    for name, _ in extra_env:
        command += ["-x", name]
    command.append(args.binary)
    run = subprocess.run(command, env=env, capture_output=True, text=True, timeout=args.timeout)
    if run.returncode != 0:
        sys.exit(f"FAIL: {' '.join(command)} exited {run.returncode}\n{run.stdout}{run.stderr}")
    return run


def peer_failures(report, source, np):
    failures = []
    name = os.path.basename(source)
    with open(source, encoding="utf-8") as f:
        for number, text in enumerate(f, start=1):
            m = PEER.search(text)
            if not m:
                continue
            for rank in (int(r) for r in m.group(2).split(",")):
                peer = (rank + 1) % np if m.group(3) == "next" else int(m.group(3))
                match = [f for f in report["findings"] if f["pattern"] == m.group(1)
                         and f["rank"] == rank and f["line"] == number
                         and os.path.basename(f["file"] or "") == name]
                if match and peer not in match[0]["peers"]:
                    failures.append(f"{m.group(1)} on PE {rank} at {name}:{number}: peers "
                                    f"{match[0]['peers']}, expected PE {peer} among them")
    return failures


def paradigm_failures(source, anchor):
    """A program of several paradigms (MPI with OpenSHMEM or with GASP/UPC): one archive with
    all of them, traced from MPI_Init on."""
    with open(source, encoding="utf-8") as f:
        text = f.read()
    expected = [name for name, marker in (("MPI", "#include <mpi.h>"),
                                          ("SHMEM", "#include <shmem.h>"), ("UPC", "gasp_init("))
                if marker in text]
    if len(expected) < 2:
        return []
    definitions = subprocess.run(["otf2-print", "-G", anchor], capture_output=True,
                                 text=True).stdout
    events = subprocess.run(["otf2-print", anchor], capture_output=True, text=True).stdout
    failures = [f"no {name} paradigm in the archive"
                for name in expected if not re.search(rf"^PARADIGM .*\b{name}\b",
                                                      definitions, re.M)]
    if 'Region: "MPI_Init"' not in events:
        failures.append("the archive does not start at MPI_Init")
    if "UPC_IN_" in text and '"UpcSyncFlags"' not in events:
        failures.append("the UPC collectives' RmaCollectiveEnd records carry no UpcSyncFlags")
    return failures


def main():
    parser = common.example_arguments(timeout=180)
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="collwrap-shmem-" + os.path.basename(args.binary) + "-")
    trace_dir = os.path.join(workdir, "trace")
    plain = oshrun(args, [])
    traced = oshrun(args, [("LD_PRELOAD", args.preload), ("COLLWRAP_TRACE_DIR", trace_dir)])
    failures = []
    # PEs print concurrently: the same lines, in any order.
    if sorted(plain.stdout.splitlines()) != sorted(traced.stdout.splitlines()):
        failures.append(f"output differs with the tracer:\n{plain.stdout}---\n{traced.stdout}")
    if "collwrap:" in traced.stderr:
        failures.append(f"the tracer complained: {traced.stderr.strip()}")
    printed = subprocess.run(["otf2-print", "--silent", "-Werror",
                              os.path.join(trace_dir, "traces.otf2")],
                             capture_output=True, text=True)
    if printed.returncode != 0:
        failures.append(f"otf2-print --silent -Werror: {printed.stderr.strip()}")
    failures += paradigm_failures(args.source, os.path.join(trace_dir, "traces.otf2"))
    report = common.analyze(args, trace_dir, workdir)
    failures += common.schema_failures(report, args.schema_dir)
    failures += common.check_findings(report, args.source)
    failures += peer_failures(report, args.source, args.np)
    failures += common.check_peers_and_absences(report, args.source)
    failures += common.job_failures(args, trace_dir, workdir, args.source)
    return common.finish(failures, workdir)


if __name__ == "__main__":
    sys.exit(main())
