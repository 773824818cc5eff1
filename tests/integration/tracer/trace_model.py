"""A collwrap archive read with OTF2's own reader, shaped for the tracer's integration tests.

Every MPI call becomes a Call (its Enter..Leave) holding the MPI records written inside it;
calls know their source call site and, through the example's `/* @site:NAME */` markers, the
site's name. Peers and roots are kept as OTF2 stores them (ranks within the communicator) and
also translated to MPI_COMM_WORLD ranks through the communicator's definition.

Needs the Python bindings of OTF2 (Debian's python3-otf2, importable by /usr/bin/python3).
"""

import re
import subprocess
from collections import Counter
from dataclasses import dataclass, field

import otf2

from call_sites import CallSites

OTF2_UNDEFINED_UINT32 = 0xFFFFFFFF
ROOT_SELF = OTF2_UNDEFINED_UINT32 - 1

SITE_MARKER = re.compile(r"/\*\s*@site:(\w+)\s*\*/")


def site_markers(source_path):
    """line -> (site name, MPI function called on that line) for an example source."""
    sites = {}
    with open(source_path, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            marker = SITE_MARKER.search(line)
            if not marker:
                continue
            call = re.search(r"\b(MPI_\w+)\s*\(", line)
            if not call:
                raise ValueError(f"{source_path}:{number}: @site marker without an MPI call")
            sites[number] = (marker.group(1), call.group(1))
    return sites


@dataclass
class Comm:
    ref: int
    name: str
    world_ranks: list

    def world(self, rank):
        """World rank of a rank within this communicator; None for no rank (OTF2's
        ROOT_NONE), "self" for an intercommunicator root's ROOT_SELF."""
        if rank == OTF2_UNDEFINED_UINT32:
            return None
        if rank == ROOT_SELF:
            return "self"
        return self.world_ranks[rank] if rank < len(self.world_ranks) else f"bad rank {rank}"


@dataclass
class Record:
    kind: str  # OTF2 event name: MpiSend, MpiIrecv, MpiCollectiveEnd, ...
    comm: Comm = None
    peer: int = None  # receiver, sender or root, as stored (rank within comm)
    tag: int = None
    bytes: int = None  # message size, or bytes sent by a collective
    received: int = None
    request: int = None
    op: str = None  # collective operation name: "BCAST"

    @property
    def world_peer(self):
        return self.comm.world(self.peer) if self.comm and self.peer is not None else None


@dataclass
class Call:
    region: str
    rank: int
    location: int
    enter: int
    leave: int = None
    file: str = None
    line: int = 0
    site: str = None
    records: list = field(default_factory=list)


@dataclass
class Trace:
    world_size: int
    comms: dict  # ref -> Comm
    calls: list
    location_ranks: dict  # location ref -> world rank
    orphan_records: list  # MPI records outside any call
    clock_offsets: Counter  # location ref -> ClockOffset definitions

    def calls_at(self, site, rank=None):
        return [c for c in self.calls if c.site == site and (rank is None or c.rank == rank)]

    def records(self, kind, site=None, rank=None):
        return [r for c in self.calls
                if (site is None or c.site == site) and (rank is None or c.rank == rank)
                for r in c.records if r.kind == kind]

    def comm_named(self, name):
        return [c for c in self.comms.values() if c.name == name]


def _record(event):
    kind = type(event).__name__
    comm = getattr(event, "communicator", None)
    peer = next((getattr(event, a) for a in ("receiver", "sender", "root") if hasattr(event, a)),
                None)
    op = getattr(event, "collective_op", None)
    return Record(kind=kind, comm=comm, peer=peer, tag=getattr(event, "msg_tag", None),
                  bytes=getattr(event, "msg_length", getattr(event, "size_sent", None)),
                  received=getattr(event, "size_received", None),
                  request=getattr(event, "request_id", None),
                  op=str(op).split(".")[-1] if op is not None else None)


def _file_and_line(calling_context):
    location = calling_context.source_code_location if calling_context is not None else None
    return (location.file, location.line_number) if location is not None else (None, 0)


def clock_offsets(anchor):
    """ClockOffset definitions per location, as otf2-print lists them."""
    out = subprocess.run(["otf2-print", "-C", anchor], capture_output=True, text=True,
                         check=True).stdout
    counts = Counter()
    for line in out.splitlines():
        match = re.match(r"CLOCK_OFFSET\s+(\d+)\s", line)
        if match:
            counts[int(match.group(1))] += 1
    return counts


def read_trace(anchor, source_path=None):
    sites = site_markers(source_path) if source_path else {}
    with otf2.reader.open(anchor) as reader:
        defs = reader.definitions
        comm_locations = next(g for g in defs.groups
                              if g.group_type == otf2.GroupType.COMM_LOCATIONS)
        rank_of_process = {loc.group: rank for rank, loc in enumerate(comm_locations.members)}
        location_ranks = {loc._ref: rank_of_process.get(loc.group) for loc in defs.locations}
        comms = {}
        for c in defs.comms:
            comms[c._ref] = Comm(c._ref, c.name,
                                 [rank_of_process.get(m.group, -1) for m in c.group.members])

        calls, open_calls, orphans = [], {}, []
        call_sites = CallSites()
        for location, event in reader.events:
            stack = open_calls.setdefault(location._ref, [])
            kind = type(event).__name__
            if kind == "Enter":
                file, line = _file_and_line(call_sites.of_enter(location, event))
                site = sites.get(line, (None,))[0] if file == source_path else None
                call = Call(event.region.name, location_ranks[location._ref], location._ref,
                            event.time, file=file, line=line, site=site)
                calls.append(call)
                stack.append(call)
            elif kind == "Leave":
                if stack:
                    stack.pop().leave = event.time
            elif kind.startswith("Mpi") or kind.startswith("NonBlockingCollective"):
                record = _record(event)
                if record.comm is not None:
                    record.comm = comms[record.comm._ref]
                (stack[-1].records if stack else orphans).append(record)
    return Trace(len(comm_locations.members), comms, calls, location_ranks, orphans,
                 clock_offsets(anchor))
