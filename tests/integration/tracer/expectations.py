"""What the trace of each example in share/examples/tracer must contain, site by site.

Each function gets the Trace (trace_model.py) of a 4-rank run and a Checker. Sites are the
`/* @site:NAME */` markers of the example's source; see the example for what each one does.
"""

SIZE = 4


def right(rank):
    return (rank + 1) % SIZE


def left(rank):
    return (rank + SIZE - 1) % SIZE


def kinds(records):
    return [r.kind for r in records]


def message(r):
    """A point-to-point record as (kind, world peer, tag, bytes)."""
    return (r.kind, r.world_peer, r.tag, r.bytes)


def collective(r):
    """A collective record as (op, world root or None, sent, received)."""
    return (r.op, r.world_peer, r.bytes, r.received)


def each_call(trace, c, site, expected_records, ranks=range(SIZE), count=1):
    """Every rank in `ranks` made `count` calls at `site`; expected_records(rank) lists each
    call's records, as produced by `message` or `collective`."""
    for rank in ranks:
        calls = trace.calls_at(site, rank)
        c.equal(len(calls), count, f"rank {rank}: calls at {site}")
        for call in calls:
            records = call.records
            if records and records[0].kind == "MpiCollectiveBegin":
                c.check(records[-1].kind == "MpiCollectiveEnd",
                        f"rank {rank}: MpiCollectiveBegin without End at {site}")
                records = records[1:]
            shape = [collective(r) if r.op else message(r) for r in records]
            c.equal(shape, expected_records(rank), f"rank {rank}: records at {site}")


def ring(trace, c):
    even, odd = range(0, SIZE, 2), range(1, SIZE, 2)
    send = lambda tag, size: lambda r: [("MpiSend", right(r), tag, size)]  # noqa: E731
    recv = lambda tag, size: lambda r: [("MpiRecv", left(r), tag, size)]  # noqa: E731
    each_call(trace, c, "send", send(1, 64), even)
    each_call(trace, c, "recv", recv(1, 64), even)
    each_call(trace, c, "send_odd", send(1, 64), odd)
    each_call(trace, c, "recv_odd", recv(1, 64), odd)
    each_call(trace, c, "sendrecv", lambda r: send(2, 64)(r) + recv(2, 64)(r))
    each_call(trace, c, "sendrecv_replace", lambda r: send(3, 64)(r) + recv(3, 64)(r))
    each_call(trace, c, "ssend", lambda r: [("MpiSend", 1, 4, 4)], [0])
    each_call(trace, c, "ssend_recv", lambda r: [("MpiRecv", 0, 4, 4)], [1])
    each_call(trace, c, "send_to_nobody", lambda r: [])  # MPI_PROC_NULL: no record
    for comm in {r.comm.name for r in trace.records("MpiSend")}:
        c.equal(comm, "MPI_COMM_WORLD", "communicator of the ring's messages")


def nonblocking(trace, c):
    each_call(trace, c, "isend_right", lambda r: [("MpiIsend", right(r), 10, 256)])
    each_call(trace, c, "isend_left", lambda r: [("MpiIsend", left(r), 11, 256)])
    each_call(trace, c, "irecv_left", lambda r: [("MpiIrecvRequest", None, None, None)])
    each_call(trace, c, "irecv_right", lambda r: [("MpiIrecvRequest", None, None, None)])
    for rank in range(SIZE):
        [waitall] = trace.calls_at("waitall", rank) or [None]
        if not c.check(waitall, f"rank {rank}: no MPI_Waitall at waitall"):
            continue
        posted = {r.request for site in ("irecv_left", "irecv_right", "isend_right",
                                         "isend_left")
                  for r in trace.records("MpiIsend", site, rank) +
                  trace.records("MpiIrecvRequest", site, rank)}
        c.equal({r.request for r in waitall.records}, posted,
                f"rank {rank}: requests completed by MPI_Waitall")
        c.equal(sorted(message(r) for r in waitall.records if r.kind == "MpiIrecv"),
                sorted([("MpiIrecv", left(rank), 10, 256), ("MpiIrecv", right(rank), 11, 256)]),
                f"rank {rank}: receives completed by MPI_Waitall")
        c.equal(sorted(kinds(waitall.records)), ["MpiIrecv", "MpiIrecv", "MpiIsendComplete",
                                                  "MpiIsendComplete"],
                f"rank {rank}: completions in MPI_Waitall")
        for site, tag, size in (("waitany", 20, 32), ("waitsome", 21, 16), ("testall", 22, 8)):
            completions = [r for call in trace.calls_at(site, rank) for r in call.records
                           if r.kind != "MpiRequestTest"]
            c.equal(sorted(message(r) for r in completions),
                    [("MpiIrecv", left(rank), tag, size),
                     ("MpiIsendComplete", None, None, None)],
                    f"rank {rank}: completions at {site}")
        [cancelled_post] = trace.records("MpiIrecvRequest", "irecv_cancelled", rank) or [None]
        cancelled = trace.records("MpiRequestCancelled", "wait_cancelled", rank)
        c.check(cancelled_post and [r.request for r in cancelled] == [cancelled_post.request],
                f"rank {rank}: the cancelled receive is not recorded as cancelled")


def persistent(trace, c):
    each_call(trace, c, "recv_init", lambda r: [])
    each_call(trace, c, "send_init", lambda r: [])
    each_call(trace, c, "startall",
              lambda r: [("MpiIrecvRequest", None, None, None), ("MpiIsend", right(r), 7, 32)],
              count=3)
    each_call(trace, c, "waitall",
              lambda r: [("MpiIrecv", left(r), 7, 32), ("MpiIsendComplete", None, None, None)],
              count=3)
    each_call(trace, c, "start_send", lambda r: [("MpiIsend", right(r), 7, 32)])
    each_call(trace, c, "wait_recv", lambda r: [("MpiIrecv", left(r), 7, 32)])
    for rank in range(SIZE):
        ids = [r.request for r in trace.records("MpiIsend", rank=rank)]
        c.equal(len(set(ids)), 4, f"rank {rank}: distinct request ids of the 4 starts")


def wildcards(trace, c):
    expected = sorted(("MpiRecv", s, 100 + s, 4 * (s + 1)) for s in range(1, SIZE))
    for site in ("recv_any", "mrecv"):
        got = sorted(message(r) for r in trace.records("MpiRecv", site, 0))
        c.equal(got, expected, f"rank 0: receives at {site} (actual source, tag, size)")
    irecvs = sorted(message(r) for r in trace.records("MpiIrecv", "waitall_any", 0))
    c.equal(irecvs, [("MpiIrecv",) + e[1:] for e in expected], "rank 0: receives at waitall_any")
    imrecvs = sorted(message(r) for r in trace.records("MpiIrecv", "wait_imrecv", 0))
    c.equal(imrecvs, [("MpiIrecv",) + e[1:] for e in expected], "rank 0: receives at wait_imrecv")
    c.equal(trace.records("MpiRecv", "mprobe", 0), [], "rank 0: records at mprobe")
    each_call(trace, c, "send", lambda r: [("MpiSend", 0, 100 + r, 4 * (r + 1))],
              range(1, SIZE), count=4)


def collectives(trace, c):
    halves = {tuple(sorted(comm.world_ranks)): comm for comm in trace.comms.values()
              if comm.name in ("even ranks", "odd ranks")}
    c.equal(sorted(halves), [(0, 2), (1, 3)], "members of the two halves (one definition each)")
    c.equal(len(trace.comm_named("even ranks")), 1, "definitions of the even half")
    world = [0, 1, 2, 3]

    def half(rank):
        return [0, 2] if rank % 2 == 0 else [1, 3]

    each_call(trace, c, "barrier", lambda r: [("BARRIER", None, 0, 0)])
    each_call(trace, c, "bcast", lambda r: [("BCAST", 0, 160 if r == 0 else 0, 40)])
    each_call(trace, c, "reduce_in_place", lambda r: [("REDUCE", 0, 32, 128)], [0])
    each_call(trace, c, "reduce", lambda r: [("REDUCE", 0, 32, 0)], [1, 2, 3])
    each_call(trace, c, "allreduce_in_place", lambda r: [("ALLREDUCE", None, 32, 32)])
    each_call(trace, c, "gather", lambda r: [("GATHER", 1, 8, 32 if r == 1 else 0)])
    each_call(trace, c, "scatterv", lambda r: [("SCATTERV", 2, 40 if r == 2 else 0, 4 * (r + 1))])
    each_call(trace, c, "allgather", lambda r: [("ALLGATHER", None, 16, 16)])
    each_call(trace, c, "alltoall", lambda r: [("ALLTOALL", None, 16, 16)])
    each_call(trace, c, "half_allreduce", lambda r: [("ALLREDUCE", None, 16, 16)])
    each_call(trace, c, "half_bcast",
              lambda r: [("BCAST", half(r)[1], 16 if r == half(r)[1] else 0, 8)])
    # Intercommunicator: world 0 is the root (MPI_ROOT: OTF2's ROOT_SELF), world 2 passes
    # MPI_PROC_NULL (no root), the odd half receives from world 0.
    each_call(trace, c, "inter_bcast", lambda r: [
        ("BCAST", "self", 8, 0) if r == 0 else ("BCAST", None, 0, 0) if r == 2
        else ("BCAST", 0, 0, 4)])
    # A non-periodic line: the ends have one neighbor.
    each_call(trace, c, "neighbor_alltoall",
              lambda r: [("ALLTOALL", None, 4, 4) if r in (0, SIZE - 1)
                         else ("ALLTOALL", None, 8, 8)])
    for rank in range(SIZE):
        for site, members in (("half_allreduce", half(rank)), ("inter_bcast", world),
                              ("neighbor_alltoall", world), ("bcast", world)):
            for r in trace.records("MpiCollectiveEnd", site, rank):
                c.equal(sorted(r.comm.world_ranks), members,
                        f"rank {rank}: members of the communicator at {site}")
        for r in trace.records("MpiCollectiveEnd", "inter_bcast", rank):
            c.check(r.comm.name != "MPI_COMM_WORLD", f"rank {rank}: inter_bcast on world")
    for site in ("split", "intercomm_create", "cart_create"):
        c.equal([r for call in trace.calls_at(site) for r in call.records], [],
                f"records at {site}")


def nonblocking_collectives(trace, c):
    expected = {
        "ibarrier": lambda r: ("BARRIER", None, 0, 0),
        "ibcast": lambda r: ("BCAST", 0, 96 if r == 0 else 0, 24),
        "iallreduce": lambda r: ("ALLREDUCE", None, 32, 32),
        "ialltoall": lambda r: ("ALLTOALL", None, 16, 16),
        "igather": lambda r: ("GATHER", 3, 4, 16 if r == 3 else 0),
    }
    for rank in range(SIZE):
        completions = {r.request: collective(r)
                       for r in trace.records("NonBlockingCollectiveComplete", "waitall", rank)}
        for site, shape in expected.items():
            [post] = trace.records("NonBlockingCollectiveRequest", site, rank) or [None]
            if c.check(post, f"rank {rank}: no request posted at {site}"):
                c.equal(completions.get(post.request), shape(rank),
                        f"rank {rank}: completion of the request posted at {site}")
        [poll] = trace.records("NonBlockingCollectiveRequest", "iallreduce_in_place",
                               rank) or [None]
        done = trace.records("NonBlockingCollectiveComplete", "test", rank)
        c.check(poll and [(r.request, collective(r)) for r in done] ==
                [(poll.request, ("ALLREDUCE", None, 32, 32))],
                f"rank {rank}: completion of the polled in-place allreduce")


def threads(trace, c):
    for rank in range(SIZE):
        main = {call.location for call in trace.calls_at("init_thread", rank)}
        by_location = {}
        for call in trace.calls_at("thread_sendrecv", rank):
            by_location.setdefault(call.location, []).append(call)
        c.equal(len(by_location), 2, f"rank {rank}: locations of the two threads")
        c.check(not set(by_location) & main, f"rank {rank}: thread calls on the main location")
        tags = {}
        for location, calls in by_location.items():
            for call in calls:
                tag = call.records[0].tag if call.records else None
                c.equal([message(r) for r in call.records],
                        [("MpiSend", right(rank), tag, 4), ("MpiRecv", left(rank), tag, 4)],
                        f"rank {rank}: records of a thread's MPI_Sendrecv")
                tags.setdefault(location, set()).add(tag)
        c.equal(sorted(t for ts in tags.values() for t in ts), [0, 1],
                f"rank {rank}: one tag per thread")
        # Posted on the main thread, completed on thread 1.
        posted = {r.request for site in ("handover_irecv", "handover_isend")
                  for r in trace.records("MpiIsend", site, rank) +
                  trace.records("MpiIrecvRequest", site, rank)}
        waitall = trace.calls_at("handover_waitall", rank)
        c.check(len(waitall) == 1 and waitall[0].location in by_location and
                tags.get(waitall[0].location) == {1},
                f"rank {rank}: MPI_Waitall of the handed-over requests not on thread 1")
        c.equal({r.request for call in waitall for r in call.records}, posted,
                f"rank {rank}: requests completed on thread 1")


def abort(trace, c):
    c.check(0 in trace.location_ranks.values(), "rank 0's events are missing")
    c.equal([message(r) for r in trace.records("MpiSend", "send", 0)],
            [("MpiSend", 1, 1, 4)], "rank 0: the send before the abort")
    c.equal(len(trace.calls_at("barrier", 0)), 1, "rank 0: the barrier before the abort")
    c.equal(len(trace.calls_at("abort", 0)), 1, "rank 0: the MPI_Abort call")


def no_finalize(trace, c):
    # Call sites of a rank killed before its exit handler ran stay unresolved: find the calls
    # by region.
    ranks = sorted({call.rank for call in trace.calls})
    c.check(ranks, "no rank's events survived")
    for rank in ranks:
        for call in (call for call in trace.calls
                     if call.rank == rank and call.region == "MPI_Sendrecv_replace"):
            c.equal([message(r) for r in call.records],
                    [("MpiSend", right(rank), 1, 4), ("MpiRecv", left(rank), 1, 4)],
                    f"rank {rank}: records at sendrecv_replace")


EXPECTATIONS = {
    "ring": ring,
    "nonblocking": nonblocking,
    "persistent": persistent,
    "wildcards": wildcards,
    "collectives": collectives,
    "nonblocking_collectives": nonblocking_collectives,
    "threads": threads,
    "abort": abort,
    "no_finalize": no_finalize,
}

# Examples that end without MPI_Finalize: their archives are completed by collwrap-recover,
# hold what was flushed, and may lack some ranks.
UNFINALIZED = {"abort", "no_finalize"}

# Marked sites a run need not reach (the job ends first).
UNREACHED = {"abort": {"recv", "never_matched"}, "no_finalize": {"barrier", "sendrecv_replace"}}
