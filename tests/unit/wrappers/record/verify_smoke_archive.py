#!/usr/bin/python3
"""Runs record_smoke under mpirun and checks the archive it leaves.

--mode finalize: checks with otf2-print (-Werror) and OTF2's Python reader: one consistent
global definition set (locations, system tree, communicators, regions), Init/Finalize regions
on every rank, message records, two ClockOffsets per location, and call sites resolving to the
marked lines of smoke_program.cpp.
--mode abort / exit: the last rank calls MPI_Abort, or every rank returns from main without
MPI_Finalize; the ranks that got to save their sidecar must be recoverable with
collwrap-recover into an archive the OTF2 tools accept.
--mode flush: a 1 MiB event buffer per thread overflows; it must be flushed and recording go on.
--mode unwritable: the trace directory cannot be created; one collwrap line, the program
runs to its end untraced.
Exit status 0 = all checks passed.
"""
import argparse
import collections
import os
import re
import shutil
import socket
import subprocess
import sys

import otf2

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "integration", "tracer"))
from call_sites import CallSites  # noqa: E402

REGION_MARKERS = {
    "MPI_Init": {"init"},
    "MPI_Finalize": {"finalize"},
    "MPI_Send": {"send", "send_odd"},
    "MPI_Recv": {"recv", "recv_odd"},
    "MPI_Isend": {"self_exchange"},
    "MPI_Irecv": {"self_exchange"},
    "MPI_Wait": {"self_exchange"},
    "MPI_Barrier": {"barrier"},
    "MPI_Comm_rank": {"thread_comm_rank", "main_comm_rank"},
}
RANKS = 4
THREADS = 3  # the main thread and two workers
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def marker_lines(source):
    lines = {}
    with open(source) as f:
        for number, text in enumerate(f, 1):
            m = re.search(r"// CALLSITE (\w+)$", text.rstrip())
            if m:
                lines[m.group(1)] = number
    return lines


def run_program(args, mode, trace_dir, depth=1, buffer_mb=32, worker_calls=100):
    env = dict(os.environ, COLLWRAP_TRACE_DIR=trace_dir, COLLWRAP_CALLSITE_DEPTH=str(depth),
               COLLWRAP_BUFFER_MB=str(buffer_mb))
    command = args.mpirun.split(";") + ["-x", "COLLWRAP_TRACE_DIR", "-x", "COLLWRAP_CALLSITE_DEPTH",
                                       "-x", "COLLWRAP_BUFFER_MB", args.program, mode,
                                       str(worker_calls)]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=100)


def clock_offsets(anchor):
    out = subprocess.run(["otf2-print", "-C", anchor], capture_output=True, text=True).stdout
    offsets = collections.defaultdict(list)
    for m in re.finditer(r"CLOCK_OFFSET\s+(\d+)\s+Time: (\d+), Offset: ([+-]?\d+), StdDev: (\S+)",
                         out):
        offsets[int(m.group(1))].append((int(m.group(2)), int(m.group(3)), float(m.group(4))))
    return offsets


def verify_definitions(defs):
    check(len(defs.location_groups) == RANKS, f"expected {RANKS} location groups")
    check(len(defs.locations) == THREADS * RANKS, f"expected {THREADS} locations per rank")
    for loc in defs.locations:
        rank, thread = loc._ref & 0xFFFFFFFF, loc._ref >> 32
        check(loc.group.name == f"MPI Rank {rank}", f"location {loc._ref} in {loc.group.name}")
        check(thread < THREADS, f"location {loc._ref}: unexpected thread index")
        check(str(loc.type).endswith("CPU_THREAD"), f"location {loc._ref} type {loc.type}")
    hosts = [n.name for n in defs.system_tree_nodes if n.parent is not None]
    check(hosts == [socket.gethostname()], f"host nodes {hosts}")
    for group in defs.location_groups:
        check(group.system_tree_parent.name == socket.gethostname(), "rank not under its host")
    comms = {c.name: c for c in defs.comms}
    world = comms.get("MPI_COMM_WORLD")
    if check(world is not None, "no MPI_COMM_WORLD"):
        check([m._ref for m in world.group.members] == list(range(RANKS)), "WORLD members")
    check(sum(1 for c in defs.comms if c.name == "MPI_COMM_SELF") == RANKS, "one SELF per rank")
    mpi_regions = [r for r in defs.regions if r.source_file == "MPI"]
    check(all(str(r.paradigm).endswith("MPI") for r in mpi_regions), "MPI regions paradigm")
    clock = defs.clock_properties
    check(clock.timer_resolution > 0 and clock.trace_length > 0, "clock properties")


def chain_length(context):
    length = 0
    while context is not None:
        length += 1
        context = context.parent
    return length


def verify_events(reader, markers, source, depth, worker_calls):
    per_location = collections.defaultdict(list)
    locations = {}
    for location, event in reader.events:
        per_location[location._ref].append(event)
        locations[location._ref] = location
    check(len(per_location) == THREADS * RANKS, f"events for {len(per_location)} locations")
    clock = reader.definitions.clock_properties
    all_times = [e.time for events in per_location.values() for e in events]
    check(min(all_times) >= clock.global_offset and
          max(all_times) <= clock.global_offset + clock.trace_length,
          "events outside the span given by ClockProperties")
    call_sites = CallSites()
    for loc, events in per_location.items():
        rank, thread = loc & 0xFFFFFFFF, loc >> 32
        times = [e.time for e in events]
        check(times == sorted(times), f"location {loc}: timestamps not ordered")
        if thread == 0:
            check(type(events[0]).__name__ == "Enter" and events[0].region.name == "MPI_Init",
                  f"rank {rank}: first event is not Enter MPI_Init")
            check(type(events[-1]).__name__ == "Leave" and events[-1].region.name == "MPI_Finalize",
                  f"rank {rank}: last event is not Leave MPI_Finalize")
        for e in events:
            kind = type(e).__name__
            if kind == "Enter":
                site = call_sites.of_enter(locations[loc], e)
                if not check(site is not None, f"rank {rank}: {e.region.name} without call site"):
                    continue
                scl = site.source_code_location
                expected = {markers[name] for name in REGION_MARKERS[e.region.name]}
                check(scl.file == source and scl.line_number in expected,
                      f"rank {rank}: {e.region.name} at {scl.file}:{scl.line_number}, "
                      f"expected one of lines {sorted(expected)}")
                function = site.region.name
                check(function == ("worker_thread" if thread else "main"),
                      f"rank {rank}: call site function {function}")
                check(chain_length(site) == depth,
                      f"rank {rank}: call site chain of {chain_length(site)} frames")
            elif kind == "MpiSend":
                check(e.receiver == (rank + 1) % RANKS and e.msg_length == 16 and
                      e.communicator.name == "MPI_COMM_WORLD" and 100 <= e.msg_tag <= 102,
                      f"rank {rank}: bad MpiSend {e}")
            elif kind == "MpiRecv":
                check(e.sender == (rank - 1) % RANKS and e.msg_length == 16,
                      f"rank {rank}: bad MpiRecv {e}")
            elif kind == "MpiIsend":
                check(e.communicator.name == "MPI_COMM_SELF" and e.receiver == 0,
                      f"rank {rank}: bad MpiIsend {e}")
        counts = collections.Counter(type(e).__name__ for e in events)
        if thread == 0:
            check(counts["MpiSend"] == 3 and counts["MpiRecv"] == 3, f"rank {rank}: {counts}")
            check(counts["MpiIsend"] == 1 and counts["MpiIsendComplete"] == 1 and
                  counts["MpiIrecvRequest"] == 1 and counts["MpiIrecv"] == 1,
                  f"rank {rank}: request records {counts}")
            check(counts["MpiCollectiveBegin"] == 1 and counts["MpiCollectiveEnd"] == 1,
                  f"rank {rank}: collective records {counts}")
        else:
            check(counts["Enter"] == worker_calls and counts["Leave"] == worker_calls,
                  f"worker {loc}: {counts}")
            # All of a worker's calls come from one line: only the first carries the attribute.
            written = sum(1 for e in events if type(e).__name__ == "Enter" and e.attributes)
            check(written == 1, f"worker {loc}: {written} CallSite attributes for one call site")
            if worker_calls > 40000:
                check(counts["BufferFlush"] >= 1, f"worker {loc}: the buffer was never flushed")


def verify_finalized_run(args, markers, depth, buffer_mb=32, worker_calls=100):
    trace_dir = os.path.join(args.workdir, f"finalize-depth{depth}")
    result = run_program(args, "finalize", trace_dir, depth, buffer_mb, worker_calls)
    check(result.returncode == 0, f"mpirun failed ({result.returncode}): {result.stderr}")
    check(result.stdout == "", f"the tracer printed on stdout: {result.stdout!r}")
    check("collwrap:" not in result.stderr, f"unexpected messages: {result.stderr}")
    anchor = os.path.join(trace_dir, "traces.otf2")
    if not check(os.path.exists(anchor), "no anchor file"):
        return
    printed = subprocess.run(["otf2-print", "--silent", "-Werror", anchor],
                             capture_output=True, text=True)
    check(printed.returncode == 0, f"otf2-print rejected the archive: {printed.stderr}")

    offsets = clock_offsets(anchor)
    with otf2.reader.open(anchor) as reader:
        ticks_per_second = reader.timer_resolution
    check(len(offsets) == THREADS * RANKS, f"clock offsets for {len(offsets)} locations")
    for loc, records in offsets.items():
        check(len(records) == 2, f"location {loc}: {len(records)} clock offsets")
        check(records == sorted(records), f"location {loc}: offsets out of order")
        # Standard deviations are in timer ticks, like the offsets: under 10 ms.
        check(all(0 <= stddev < 1e-2 * ticks_per_second for _, _, stddev in records),
              f"location {loc}: stddev")
        if loc & 0xFFFFFFFF == 0:
            check(all(offset == 0 for _, offset, _ in records), "rank 0 must have offset 0")

    with otf2.reader.open(anchor) as reader:
        verify_definitions(reader.definitions)
        verify_events(reader, markers, args.source, depth, worker_calls)


def verify_recovered_run(args, mode):
    trace_dir = os.path.join(args.workdir, mode)
    result = run_program(args, mode, trace_dir)
    check(result.returncode != 0, f"{mode}: mpirun should report the failed job")
    check(result.stdout == "", f"the tracer printed on stdout: {result.stdout!r}")
    messages = [l for l in result.stderr.splitlines() if l.startswith("collwrap:")]
    check(len(messages) <= 1, f"{mode}: more than one collwrap line: {messages}")
    sidecars = sorted(f for f in os.listdir(trace_dir) if f.endswith(".sidecar"))
    if mode == "abort":
        # Only the aborting rank can save its data; mpirun kills the others.
        check(sidecars == [f"collwrap-rank-{RANKS - 1}.sidecar"], f"abort: sidecars {sidecars}")
        check(len(messages) == 1 and "MPI_Abort" in messages[0], f"abort: messages {messages}")
    else:
        # Every rank saves at exit, but mpirun may kill some once the first one has exited.
        check(len(sidecars) >= 1, "exit: no sidecar at all")
    check(not os.path.exists(os.path.join(trace_dir, "traces.otf2")), f"{mode}: anchor exists")

    recovered = subprocess.run([args.recover, trace_dir], capture_output=True, text=True)
    if not check(recovered.returncode == 0, f"{mode}: collwrap-recover failed: {recovered.stderr}"):
        return
    anchor = os.path.join(trace_dir, "traces.otf2")
    printed = subprocess.run(["otf2-print", "--silent", "-Werror", anchor],
                             capture_output=True, text=True)
    check(printed.returncode == 0, f"{mode}: otf2-print rejected the archive: {printed.stderr}")
    recovered_ranks = {int(re.search(r"(\d+)", f).group(1)) for f in sidecars}
    with otf2.reader.open(anchor) as reader:
        check(len(reader.definitions.location_groups) == RANKS, f"{mode}: location groups")
        per_location = collections.defaultdict(list)
        for location, event in reader.events:
            per_location[location._ref].append(event)
    for rank in recovered_ranks:
        events = per_location.get(rank, [])
        if not check(len(events) > 2, f"{mode}: rank {rank} has no events"):
            continue
        check(events[0].region.name == "MPI_Init", f"{mode}: rank {rank} does not start in Init")
        if mode == "abort":
            check([type(e).__name__ for e in events[-2:]] == ["Enter", "Leave"] and
                  events[-1].region.name == "MPI_Abort", f"abort: rank {rank} does not end in Abort")
        else:
            check(events[-1].region.name == "MPI_Barrier", f"exit: rank {rank} last event")
    for rank in set(range(RANKS)) - recovered_ranks:
        check(not per_location.get(rank), f"{mode}: unrecovered rank {rank} has events")


def verify_unwritable_directory(args):
    blocker = os.path.join(args.workdir, "not-a-directory")
    with open(blocker, "w") as f:
        f.write("x")
    result = run_program(args, "finalize", os.path.join(blocker, "trace"))
    check(result.returncode == 0, f"unwritable: the program failed: {result.stderr}")
    check(result.stdout == "", f"unwritable: the tracer printed on stdout: {result.stdout!r}")
    messages = [l for l in result.stderr.splitlines() if l.startswith("collwrap:")]
    check(len(messages) == 1 and "tracing is off" in messages[0], f"unwritable: {messages}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--program", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--mpirun", required=True, help="mpirun command, ';'-separated")
    parser.add_argument("--recover", help="collwrap-recover, for --mode abort and exit")
    parser.add_argument("--mode", choices=["finalize", "abort", "exit", "flush", "unwritable"],
                        default="finalize")
    parser.add_argument("--depth", type=int, default=1, help="COLLWRAP_CALLSITE_DEPTH to use")
    args = parser.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    if args.mode == "finalize":
        verify_finalized_run(args, marker_lines(args.source), args.depth)
    elif args.mode == "flush":
        verify_finalized_run(args, marker_lines(args.source), 1, buffer_mb=1, worker_calls=45000)
    elif args.mode == "unwritable":
        verify_unwritable_directory(args)
    else:
        verify_recovered_run(args, args.mode)
    for message in failures[:30]:
        print("FAIL:", message)
    print(f"{'FAILED' if failures else 'passed'}: {len(failures)} failed checks")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
