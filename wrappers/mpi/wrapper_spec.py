"""What each MPI function's wrapper does besides Enter/Leave; read by gen_wrappers.py.

Every function of the installed MPI C API gets a wrapper that records Enter and Leave. The
functions listed in SEMANTICS also hand their arguments to the semantic handlers
(wrappers/mpi/handlers.h), which know what the call means. Snippets are C++ and name the
function's parameters in braces, spelled as in mpi.h ({count}); gen_wrappers.py checks each name.
In snippets, `c` is the call's Tracing context and `rc` the PMPI function's result.

  prepare  declarations before the PMPI call; must not throw
  before   handler calls before the PMPI call
  args     parameter -> expression passed to the PMPI function instead
  after    handler calls after the PMPI call
  untraced also run prepare/before/after when this process or thread is not tracing: the
           communicator bookkeeping agrees on keys collectively, so every rank must take part
  body     the whole wrapper body (lifecycle functions); `kRegion` is the function's region
  finally  run after the Leave whether this thread is tracing or not (no `c`): for work every
           rank must do at the same call, such as the clock checkpoint at world barriers

The same spec gives the Fortran wrappers (mpi_send_, mpi_send__, mpi_send, MPI_SEND and
mpi_send_f08_ for MPI_Send). Their dummy arguments are the C parameters in the same order, each
passed by reference, then IERROR (optional, so possibly a null pointer, in mpi_f08), then one
hidden length per CHARACTER argument. The generator gives each parameter a snippet names a C
view of the Fortran argument under the C name (handles through _f2c, Fortran sentinels
replaced by C ones, statuses converted, 1-based indices made 0-based), so the snippets above
serve both bindings; `args` only concerns the C call (the Fortran wrapper passes its own status
array when the caller passed MPI_STATUS(ES)_IGNORE, see fortran_args.h).

  fortran_params  the Fortran dummy arguments before IERROR when they differ from C's (MPI_Init)
  fortran_body    the whole Fortran wrapper body; `pmpi` is the library's entry point, `f_x`
                  the dummy argument x, `ierror` IERROR
"""

import re
from dataclasses import dataclass, field

# OTF2_RegionRole values, from otf2/OTF2_Definitions.h.
ROLES = {
    "FUNCTION": 1,
    "BARRIER": 15,
    "COLL_ONE2ALL": 23,
    "COLL_ALL2ONE": 24,
    "COLL_ALL2ALL": 25,
    "COLL_OTHER": 26,
    "FILE_IO": 27,
    "POINT2POINT": 28,
    "RMA": 29,
}


@dataclass(frozen=True)
class Semantics:
    role: str = "FUNCTION"
    prepare: str = ""
    before: str = ""
    args: dict = field(default_factory=dict)
    after: str = ""
    untraced: bool = False
    body: str = ""
    finally_: str = ""
    fortran_params: tuple = None
    fortran_body: str = ""


# Functions of the installed API that get no wrapper, with the reason (regular expressions).
EXCLUDED = {
    r"MPI_Wtime|MPI_Wtick":
        "timer queries: programs call them inside timed loops, a wrapper would perturb them",
    r"MPI_\w+_(c2f|f2c)":
        "handle conversions between the C and Fortran bindings: no MPI operation",
}

# Functions of the C API that get no Fortran wrapper, with the reason (regular expressions).
# Everything else gets one in every mangling; tests/integration/tracer checks the result against
# the Fortran entry points the MPI library exports.
FORTRAN_EXCLUDED = {
    r"MPI_T_\w+": "the tool information interface has no Fortran bindings",
}
# Functions that get F77 wrappers but no mpi_f08 one.
F08_EXCLUDED = {
    r"MPI_(Attr_delete|Attr_get|Attr_put|Keyval_create|Keyval_free)":
        "deprecated since MPI-2.0; the mpi_f08 module has no binding for them",
}

# Roles of functions without semantics, by name.
DEFAULT_ROLES = [
    (r"MPI_File_\w+", "FILE_IO"),
    (r"MPI_(Win_\w+|Put|Get|Accumulate|Get_accumulate|Fetch_and_op|Compare_and_swap|"
     r"Rput|Rget|Raccumulate|Rget_accumulate)", "RMA"),
    (r"MPI_(Probe|Iprobe|Cancel|Request_get_status|Buffer_attach|Buffer_detach)",
     "POINT2POINT"),
]

SEMANTICS = {}
P2P = "POINT2POINT"

# What each function is to the wait-state analysis, by name: the analyzer's RegionClass
# (analyzer/trace/trace_model.h), which gen_function_classes.py writes into the analyzer's
# table. Functions not listed are "Other". Region names are the same in every OTF2 archive of
# an MPI program (Score-P's too), so the analyzer reads other tools' archives with it as well.
ANALYSIS = {}

# Variables the snippets declare; gen_wrappers.py renames parameters spelled the same.
LOCALS = {"status_slot", "done", "call", "matched", "freed"}


def _add(names, semantics, analysis=None):
    for name in names.split():
        assert name not in SEMANTICS, name
        SEMANTICS[name] = semantics
    if analysis:
        _classify(names, analysis)


def _classify(names, analysis):
    for name in names.split():
        assert name not in ANALYSIS, name
        ANALYSIS[name] = analysis


def send_mode(name):
    """The SendMode of a send function (blocking, nonblocking or persistent), else "None"."""
    m = re.fullmatch(r"MPI_(?:I?([BSR]?)send(?:_init)?|Sendrecv(?:_replace)?)", name, re.I)
    if not m:
        return "None"
    return {"": "Standard", "b": "Buffered", "s": "Synchronous", "r": "Ready"}[
        (m.group(1) or "").lower()]


# --- Lifecycle -----------------------------------------------------------------------------------
# The recording layer records these regions itself (it opens the archive in init_leave and
# closes it in finalize_enter), so these wrappers call it directly instead of enter/leave.
# Fortran's MPI_INIT(IERROR) and MPI_INIT_THREAD(REQUIRED, PROVIDED, IERROR) have no argc/argv.
_add("MPI_Init", Semantics(body="""
  init_enter(kRegion, __builtin_return_address(0));
  const int rc = PMPI_Init({argc}, {argv});
  handle_init("MPI_Init", rc, nullptr);
  return rc;""", fortran_params=(), fortran_body="""
  init_enter(kRegion, __builtin_return_address(0));
  MPI_Fint own_ierror = MPI_SUCCESS;
  MPI_Fint* const f_ierror = ierror ? ierror : &own_ierror;
  pmpi(f_ierror);
  handle_init("MPI_Init", static_cast<int>(*f_ierror), nullptr);"""), "Init")
_add("MPI_Init_thread", Semantics(body="""
  init_enter(kRegion, __builtin_return_address(0));
  const int rc = PMPI_Init_thread({argc}, {argv}, {required}, {provided});
  handle_init("MPI_Init_thread", rc, {provided});
  return rc;""", fortran_params=("required", "provided"), fortran_body="""
  init_enter(kRegion, __builtin_return_address(0));
  MPI_Fint own_ierror = MPI_SUCCESS;
  MPI_Fint* const f_ierror = ierror ? ierror : &own_ierror;
  pmpi(f_required, f_provided, f_ierror);
  const int provided = fortran_int(f_provided);
  handle_init("MPI_Init_thread", static_cast<int>(*f_ierror), &provided);"""), "Init")
_add("MPI_Finalize", Semantics(body="""
  finalize_enter(kRegion, __builtin_return_address(0));
  handle_finalize();
  return PMPI_Finalize();""", fortran_body="""
  finalize_enter(kRegion, __builtin_return_address(0));
  handle_finalize();
  pmpi(ierror);"""), "Finalize")
_add("MPI_Abort", Semantics(body="""
  abort_enter(kRegion, __builtin_return_address(0));
  return PMPI_Abort({comm}, {errorcode});""", fortran_body="""
  abort_enter(kRegion, __builtin_return_address(0));
  pmpi(f_comm, f_errorcode, ierror);"""))

# MPI_Pcontrol's level marks the region of interest (level 1 on, 0 off): its Enter carries the
# level as the PcontrolLevel attribute. Fortran's MPI_PCONTROL(LEVEL) has no IERROR; the
# library's entry point ignores the extra argument.
_add("MPI_Pcontrol", Semantics(body="""
  ThreadRecorder* const r = thread_recorder();
  if (!r) return PMPI_Pcontrol({level});
  r->enter_with_level(now(), kRegion, intern_callsite(__builtin_return_address(0)), {level});
  const int rc = PMPI_Pcontrol({level});
  r->leave(now(), kRegion);
  return rc;""", fortran_body="""
  ThreadRecorder* const r = thread_recorder();
  if (!r) return pmpi(f_level, ierror);
  r->enter_with_level(now(), kRegion, intern_callsite(__builtin_return_address(0)),
                      fortran_int(f_level));
  pmpi(f_level, ierror);
  r->leave(now(), kRegion);"""))

# --- Point-to-point ------------------------------------------------------------------------------
_STATUS = dict(prepare="StatusSlot status_slot({status});", args={"status": "status_slot.get()"})

# A send's MpiSend record carries the Enter's time but is written after the PMPI call (before
# the Leave, so the records keep their order): work done before the call delays the message and,
# in a ping-pong, the whole round trip; after it, the work overlaps the message's flight.
_add("MPI_Send MPI_Bsend MPI_Ssend MPI_Rsend", Semantics(
    P2P, after="handle_send(c, {count}, {datatype}, {dest}, {tag}, {comm});"), "BlockingSend")
_add("MPI_Isend MPI_Ibsend MPI_Issend MPI_Irsend", Semantics(
    P2P, after="handle_isend(c, rc, {count}, {datatype}, {dest}, {tag}, {comm}, {request});"),
    "NonblockingP2P")
_add("MPI_Send_init MPI_Bsend_init MPI_Ssend_init MPI_Rsend_init", Semantics(
    P2P, after="handle_send_init(c, rc, {count}, {datatype}, {dest}, {tag}, {comm}, {request});"),
    "NonblockingP2P")
_add("MPI_Recv", Semantics(P2P, **_STATUS,
                           after="handle_recv(c, rc, {comm}, status_slot.get());"), "BlockingRecv")
_add("MPI_Irecv", Semantics(P2P, after="handle_irecv(c, rc, {source}, {comm}, {request});"),
     "NonblockingP2P")
_add("MPI_Recv_init", Semantics(
    P2P, after="handle_recv_init(c, rc, {source}, {comm}, {request});"), "NonblockingP2P")
_add("MPI_Sendrecv", Semantics(
    P2P, **_STATUS,
    after="""handle_send(c, {sendcount}, {sendtype}, {dest}, {sendtag}, {comm});
             handle_recv(c, rc, {comm}, status_slot.get());"""), "Sendrecv")
_add("MPI_Sendrecv_replace", Semantics(
    P2P, **_STATUS,
    after="""handle_send(c, {count}, {datatype}, {dest}, {sendtag}, {comm});
             handle_recv(c, rc, {comm}, status_slot.get());"""), "Sendrecv")
_add("MPI_Start", Semantics(P2P, after="handle_start(c, rc, 1, {request});"), "NonblockingP2P")
_add("MPI_Startall", Semantics(P2P, after="handle_start(c, rc, {count}, {array_of_requests});"),
     "NonblockingP2P")
_add("MPI_Mprobe", Semantics(
    P2P, after="handle_matched_probe(c, rc, {comm}, nullptr, {message});"), "Probe")
_add("MPI_Improbe", Semantics(
    P2P, after="handle_matched_probe(c, rc, {comm}, {flag}, {message});"), "Probe")
# Probes that do not match a message need no handler: Enter/Leave with role POINT2POINT.
_classify("MPI_Probe MPI_Iprobe", "Probe")
# A matched message's handle is freed by the receive: look its communicator up before.
_add("MPI_Mrecv", Semantics(
    P2P, prepare="const CommEntry* matched = nullptr;\n" + _STATUS["prepare"],
    args=_STATUS["args"], before="matched = take_matched_message(c, {message});",
    after="handle_mrecv(c, rc, matched, status_slot.get());"), "BlockingRecv")
_add("MPI_Imrecv", Semantics(
    P2P, prepare="const CommEntry* matched = nullptr;",
    before="matched = take_matched_message(c, {message});",
    after="handle_imrecv(c, rc, matched, {request});"), "NonblockingP2P")

# --- Request completion --------------------------------------------------------------------------
# The scope keeps a copy of the call's Tracing from before the PMPI call; its completion
# records take the time the call returned, so it gets that time before it records.
def _completion_of(name, kind, count, requests, statuses, capacity, after):
    _add(name, _completion(kind, count, requests, statuses, capacity, after), kind)


def _completion(kind, count, requests, statuses, capacity, after):
    return Semantics(
        P2P,
        prepare=f"CompletionScope done(c, CompletionKind::{kind}, {count}, {requests}, "
                f"{statuses}, {capacity});",
        args={statuses.strip("{}"): "done.statuses()"}, after="done.set_left(c.left); " + after)


_completion_of("MPI_Wait", "Wait", "1", "{request}", "{status}", "1", "done.after_wait(rc);")
_completion_of("MPI_Test", "Test", "1", "{request}", "{status}", "1",
               "done.after_test(rc, {flag});")
_completion_of("MPI_Waitany", "Wait", "{count}", "{array_of_requests}", "{status}", "1",
               "done.after_waitany(rc, {index});")
_completion_of("MPI_Testany", "Test", "{count}", "{array_of_requests}", "{status}", "1",
               "done.after_testany(rc, {index}, {flag});")
_completion_of("MPI_Waitall", "Wait", "{count}", "{array_of_requests}",
               "{array_of_statuses}", "{count}", "done.after_waitall(rc);")
_completion_of("MPI_Testall", "Test", "{count}", "{array_of_requests}",
               "{array_of_statuses}", "{count}",
               "done.after_testall(rc, {flag});")
_completion_of("MPI_Waitsome", "Wait", "{incount}", "{array_of_requests}",
               "{array_of_statuses}", "{incount}",
               "done.after_some(rc, {outcount}, {array_of_indices});")
_completion_of("MPI_Testsome", "Test", "{incount}", "{array_of_requests}",
               "{array_of_statuses}", "{incount}",
               "done.after_some(rc, {outcount}, {array_of_indices});")
_add("MPI_Request_free", Semantics(P2P, before="handle_request_free(c, {request});"))

# --- Collectives ---------------------------------------------------------------------------------
# name: (role, the describe_* call computing op, communicator, root and bytes). Each gets a
# blocking wrapper (MpiCollectiveBegin/End) and a nonblocking one MPI_I<name> (request at post,
# completion in Wait/Test). Neighborhood collectives are recorded with the matching operation
# and region role COLL_OTHER: only neighbors take part, so they are no N-to-N synchronization.
COLLECTIVES = {
    "Barrier": ("BARRIER", "describe_barrier(c, {comm})"),
    "Bcast": ("COLL_ONE2ALL", "describe_bcast(c, {count}, {datatype}, {root}, {comm})"),
    "Scatter": ("COLL_ONE2ALL", "describe_scatter(c, {sendcount}, {sendtype}, {recvbuf}, "
                                "{recvcount}, {recvtype}, {root}, {comm})"),
    "Scatterv": ("COLL_ONE2ALL", "describe_scatterv(c, {sendcounts}, {sendtype}, {recvbuf}, "
                                 "{recvcount}, {recvtype}, {root}, {comm})"),
    "Gather": ("COLL_ALL2ONE", "describe_gather(c, {sendbuf}, {sendcount}, {sendtype}, "
                               "{recvcount}, {recvtype}, {root}, {comm})"),
    "Gatherv": ("COLL_ALL2ONE", "describe_gatherv(c, {sendbuf}, {sendcount}, {sendtype}, "
                                "{recvcounts}, {recvtype}, {root}, {comm})"),
    "Reduce": ("COLL_ALL2ONE", "describe_reduce(c, {count}, {datatype}, {root}, {comm})"),
    "Allgather": ("COLL_ALL2ALL", "describe_allgather(c, {sendbuf}, {sendcount}, {sendtype}, "
                                  "{recvcount}, {recvtype}, {comm})"),
    "Allgatherv": ("COLL_ALL2ALL", "describe_allgatherv(c, {sendbuf}, {sendcount}, {sendtype}, "
                                   "{recvcounts}, {recvtype}, {comm})"),
    "Alltoall": ("COLL_ALL2ALL", "describe_alltoall(c, {sendbuf}, {sendcount}, {sendtype}, "
                                 "{recvcount}, {recvtype}, {comm})"),
    "Alltoallv": ("COLL_ALL2ALL", "describe_alltoallv(c, {sendbuf}, {sendcounts}, {sendtype}, "
                                  "{recvcounts}, {recvtype}, {comm})"),
    "Alltoallw": ("COLL_ALL2ALL", "describe_alltoallw(c, {sendbuf}, {sendcounts}, {sendtypes}, "
                                  "{recvcounts}, {recvtypes}, {comm})"),
    "Allreduce": ("COLL_ALL2ALL", "describe_allreduce(c, {count}, {datatype}, {comm})"),
    "Reduce_scatter": ("COLL_ALL2ALL",
                       "describe_reduce_scatter(c, {recvcounts}, {datatype}, {comm})"),
    "Reduce_scatter_block": ("COLL_ALL2ALL", "describe_reduce_scatter_block(c, {recvcount}, "
                                             "{datatype}, {comm})"),
    "Scan": ("COLL_OTHER", "describe_scan(c, {count}, {datatype}, {comm})"),
    "Exscan": ("COLL_OTHER", "describe_exscan(c, {count}, {datatype}, {comm})"),
    "Neighbor_allgather": ("COLL_OTHER", "describe_neighbor_allgather(c, {sendcount}, "
                                         "{sendtype}, {recvcount}, {recvtype}, {comm})"),
    "Neighbor_allgatherv": ("COLL_OTHER", "describe_neighbor_allgatherv(c, {sendcount}, "
                                          "{sendtype}, {recvcounts}, {recvtype}, {comm})"),
    "Neighbor_alltoall": ("COLL_OTHER", "describe_neighbor_alltoall(c, {sendcount}, "
                                        "{sendtype}, {recvcount}, {recvtype}, {comm})"),
    "Neighbor_alltoallv": ("COLL_OTHER", "describe_neighbor_alltoallv(c, {sendcounts}, "
                                         "{sendtype}, {recvcounts}, {recvtype}, {comm})"),
    "Neighbor_alltoallw": ("COLL_OTHER", "describe_neighbor_alltoallw(c, {sendcounts}, "
                                         "{sendtypes}, {recvcounts}, {recvtypes}, {comm})"),
}

# Barriers on MPI_COMM_WORLD are where all ranks can re-measure clock offsets together
# (COLLWRAP_CLOCKSYNC_INTERVAL; recorder.h's clock_checkpoint).
_FINALLY = {"Barrier": "if ({comm} == MPI_COMM_WORLD) clock_checkpoint(\"MPI_Barrier\");"}

for _name, (_role, _describe) in COLLECTIVES.items():
    _add("MPI_" + _name, Semantics(
        _role, prepare="CollectiveCall call;",
        before=f"call = {_describe}; handle_collective_begin(c, call);",
        after="handle_collective_end(c, call);", finally_=_FINALLY.get(_name, "")), "Collective")
    _add("MPI_I" + _name[0].lower() + _name[1:], Semantics(
        _role, after=f"handle_nbc_post(c, rc, {_describe}, {{request}});"),
        "NonblockingCollective")

# --- Communicators -------------------------------------------------------------------------------
# Created collectively within this job: members agree on the communicator's key.
for _name, _out in [("Comm_dup", "newcomm"), ("Comm_dup_with_info", "newcomm"),
                    ("Comm_create", "newcomm"), ("Comm_create_group", "newcomm"),
                    ("Comm_split", "newcomm"), ("Comm_split_type", "newcomm"),
                    ("Cart_create", "comm_cart"), ("Cart_sub", "new_comm"),
                    ("Graph_create", "comm_graph"), ("Dist_graph_create", "newcomm"),
                    ("Dist_graph_create_adjacent", "comm_dist_graph"),
                    ("Intercomm_create", "newintercomm"), ("Intercomm_merge", "newintercomm")]:
    _add("MPI_" + _name, Semantics(
        untraced=True, after=f"handle_comm_created(semantics(), rc, {{{_out}}});"))
# Connected to processes of another job (which may not be traced): registered locally.
for _name, _out in [("Comm_spawn", "intercomm"), ("Comm_spawn_multiple", "intercomm"),
                    ("Comm_accept", "newcomm"), ("Comm_connect", "newcomm"),
                    ("Comm_join", "intercomm"), ("Comm_get_parent", "parent")]:
    _add("MPI_" + _name, Semantics(
        untraced=True, after=f"handle_comm_attached(semantics(), rc, {{{_out}}});"))
_add("MPI_Comm_free MPI_Comm_disconnect", Semantics(
    untraced=True, before="handle_comm_freed(semantics(), {comm});"))
_add("MPI_Comm_set_name", Semantics(
    untraced=True, after="handle_comm_named(semantics(), rc, {comm}, {comm_name});"))

# --- One-sided communication (RMA) --------------------------------------------------------------
# Windows, transfers and synchronization as OTF2's Rma* records (wrappers/mpi/one_sided.h). The
# region classes tell the analyzer the roles of general active target synchronization.
RMA = "RMA"
for _name, _comm in [("Win_create", "comm"), ("Win_allocate", "comm"),
                     ("Win_allocate_shared", "comm"), ("Win_create_dynamic", "comm")]:
    _add("MPI_" + _name, Semantics(
        RMA, before="handle_win_collective_begin(c);",
        after=f"handle_win_created(c, rc, {{{_comm}}}, {{win}});"))
_add("MPI_Win_free", Semantics(
    RMA, prepare="WindowEntry* freed = nullptr;", before="freed = handle_win_free_begin(c, {win});",
    after="handle_win_freed(c, rc, freed);"))
_add("MPI_Win_fence", Semantics(
    RMA, before="handle_win_collective_begin(c);", after="handle_win_fence(c, rc, {win});"))
_add("MPI_Win_post", Semantics(RMA, after="handle_win_post(c, rc, {group}, {win});"), "RmaPost")
_add("MPI_Win_start", Semantics(RMA, after="handle_win_start(c, rc, {group}, {win});"),
     "RmaStart")
_add("MPI_Win_complete", Semantics(RMA, after="handle_win_complete(c, rc, {win});"),
     "RmaComplete")
_add("MPI_Win_wait", Semantics(RMA, after="handle_win_wait(c, rc, {win});"), "RmaWait")
_add("MPI_Win_test", Semantics(RMA, after="handle_win_wait(c, rc, {win}, {flag});"), "RmaWait")
_add("MPI_Win_lock", Semantics(
    RMA, after="handle_win_lock(c, rc, {lock_type}, {rank}, {win});"))
_add("MPI_Win_unlock", Semantics(RMA, after="handle_win_unlock(c, rc, {rank}, {win});"))
_add("MPI_Win_lock_all", Semantics(RMA, after="handle_win_lock_all(c, rc, {win});"))
_add("MPI_Win_unlock_all", Semantics(RMA, after="handle_win_unlock_all(c, rc, {win});"))
# Transfers: (kind, elements sent, elements fetched, datatype, target).
_RMA_TRANSFERS = {
    "Put": ("Put", "{origin_count}", "0", "{origin_datatype}"),
    "Get": ("Get", "0", "{origin_count}", "{origin_datatype}"),
    "Accumulate": ("Atomic", "{origin_count}", "0", "{origin_datatype}"),
    "Get_accumulate": ("Atomic", "{origin_count}", "{result_count}", "{origin_datatype}"),
    "Fetch_and_op": ("Atomic", "1", "1", "{datatype}"),
    "Compare_and_swap": ("Atomic", "1", "1", "{datatype}"),
}
for _name, (_kind, _sent, _fetched, _type) in _RMA_TRANSFERS.items():
    _after = (f"handle_rma(c, rc, RmaTransfer::{_kind}, {_sent}, {_type}, {_fetched}, "
              "{target_rank}, {win});")
    _add("MPI_" + _name, Semantics(RMA, after=_after))
    if _name in ("Put", "Get", "Accumulate", "Get_accumulate"):
        _add("MPI_R" + _name[0].lower() + _name[1:], Semantics(RMA, after=_after))

# --- Datatypes -----------------------------------------------------------------------------------
# Handlers remember datatype sizes per thread; a freed handle may come back for another type, so
# freeing one makes them stale on every thread, traced or not.
_add("MPI_Type_free", Semantics(untraced=True, before="handle_type_freed(semantics());"))


# Fortran datatype arrays (MPI_(Neighbor_)alltoallw): how many entries the handlers read.
FORTRAN_TYPE_ARRAYS = {
    ("MPI_Alltoallw", "sendtypes"): "Peers",
    ("MPI_Alltoallw", "recvtypes"): "Peers",
    ("MPI_Ialltoallw", "sendtypes"): "Peers",
    ("MPI_Ialltoallw", "recvtypes"): "Peers",
    ("MPI_Neighbor_alltoallw", "sendtypes"): "OutNeighbors",
    ("MPI_Neighbor_alltoallw", "recvtypes"): "InNeighbors",
    ("MPI_Ineighbor_alltoallw", "sendtypes"): "OutNeighbors",
    ("MPI_Ineighbor_alltoallw", "recvtypes"): "InNeighbors",
}


def fortran_excluded(name):
    """Why `name` gets no Fortran wrapper, or None."""
    return next((why for pattern, why in FORTRAN_EXCLUDED.items() if re.fullmatch(pattern, name)),
                None)


def f08_excluded(name):
    """Why `name` gets no mpi_f08 wrapper (besides fortran_excluded), or None."""
    return next((why for pattern, why in F08_EXCLUDED.items() if re.fullmatch(pattern, name)),
                None)


def semantics_of(name):
    return SEMANTICS.get(name) or Semantics(role_name(name))


def role_name(name):
    if name in SEMANTICS:
        return SEMANTICS[name].role
    return next((role for pattern, role in DEFAULT_ROLES if re.fullmatch(pattern, name)),
                "FUNCTION")


def role_value(name):
    return ROLES[role_name(name)]
