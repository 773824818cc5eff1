"""Checks every traced example must pass, whatever it does (see expectations.py for the
example-specific ones). Each check reports through a Checker, so one run lists all problems."""

from collections import Counter

SEND_KINDS = ("MpiSend", "MpiIsend")
RECV_KINDS = ("MpiRecv", "MpiIrecv")
POST_KINDS = ("MpiIsend", "MpiIrecvRequest", "NonBlockingCollectiveRequest")
COMPLETION_KINDS = ("MpiIsendComplete", "MpiIrecv", "NonBlockingCollectiveComplete",
                    "MpiRequestCancelled")


class Checker:
    def __init__(self):
        self.failures = []

    def check(self, condition, message):
        if not condition:
            self.failures.append(message)
        return bool(condition)

    def equal(self, actual, expected, what):
        return self.check(actual == expected, f"{what}: expected {expected!r}, got {actual!r}")


def lifecycle(trace, c, finalized):
    """MPI_Init(_thread) and MPI_Finalize appear with Enter and Leave on every rank (on every
    rank whose events survived, for runs without MPI_Finalize)."""
    ranks = range(trace.world_size) if finalized else sorted({call.rank for call in trace.calls})
    for rank in ranks:
        regions = {call.region for call in trace.calls if call.rank == rank and call.leave}
        c.check(regions & {"MPI_Init", "MPI_Init_thread"},
                f"rank {rank}: no MPI_Init/MPI_Init_thread region with Enter and Leave")
        if finalized:
            c.check("MPI_Finalize" in regions, f"rank {rank}: no MPI_Finalize region")
    if finalized:
        open_calls = [call for call in trace.calls if call.leave is None]
        c.check(not open_calls, f"{len(open_calls)} calls without Leave, e.g. "
                                f"{open_calls[0].region if open_calls else ''}")


def clock_offsets(trace, c, finalized):
    """A ClockOffset per location after MPI_Init and another before MPI_Finalize (at least
    the first for locations with events, for runs without MPI_Finalize)."""
    locations = trace.location_ranks if finalized else {call.location for call in trace.calls}
    for location in locations:
        count = trace.clock_offsets.get(location, 0)
        if finalized:
            c.equal(count, 2, f"ClockOffsets of location {location}")
        else:
            c.check(count >= 1, f"location {location}: no ClockOffset")


def call_sites(trace, c, source, markers, unreached, finalized):
    """Every MPI call points into the example; marked lines call the marked function; every
    marked site (but the expected unreached ones) was hit. Runs without MPI_Finalize may leave
    the call sites of a killed rank unresolved (unknown file), but never wrong."""
    outside = [call for call in trace.calls if (call.file != source or call.line <= 0) and
               (finalized or call.file)]
    c.check(not outside, f"{len(outside)} calls with a call site outside {source}, e.g. " +
            (f"{outside[0].region} at {outside[0].file}:{outside[0].line}" if outside else ""))
    for call in trace.calls:
        if call.line in markers:
            name, function = markers[call.line]
            c.check(call.region == function,
                    f"site {name} (line {call.line}): {call.region} recorded, source calls "
                    f"{function}")
    hit = {call.site for call in trace.calls}
    for name, function in markers.values():
        if name not in unreached:
            c.check(name in hit, f"site {name} ({function}) has no recorded call")


def records_inside_calls(trace, c):
    c.equal(len(trace.orphan_records), 0, "MPI records outside any MPI call")


def messages_match(trace, c):
    """Every message sent was received: the same (sender, receiver, comm, tag, bytes) on both
    sides, in world ranks."""
    sent, received = Counter(), Counter()
    for call in trace.calls:
        for r in call.records:
            if r.kind in SEND_KINDS:
                sent[(call.rank, r.world_peer, r.comm.ref, r.tag, r.bytes)] += 1
            elif r.kind in RECV_KINDS:
                received[(r.world_peer, call.rank, r.comm.ref, r.tag, r.bytes)] += 1
    c.check(sent == received, "messages sent and received differ: only sent "
            f"{dict(sent - received)}, only received {dict(received - sent)}")


def requests_complete_once(trace, c):
    """Request ids are unique per rank, and each posted request completes exactly once."""
    for rank in range(trace.world_size):
        posted = Counter(r.request for call in trace.calls if call.rank == rank
                         for r in call.records if r.kind in POST_KINDS)
        completed = Counter(r.request for call in trace.calls if call.rank == rank
                            for r in call.records if r.kind in COMPLETION_KINDS)
        reused = [i for i, n in posted.items() if n > 1]
        c.check(not reused, f"rank {rank}: request ids posted twice: {reused}")
        c.check(set(posted) == set(completed) and all(n == 1 for n in completed.values()),
                f"rank {rank}: posted {sorted(posted)} but completed {dict(completed)}")
        tested = {r.request for call in trace.calls if call.rank == rank
                  for r in call.records if r.kind == "MpiRequestTest"}
        c.check(tested <= set(posted), f"rank {rank}: tests of unknown requests "
                                       f"{sorted(tested - set(posted))}")
