"""What each OpenSHMEM function's wrapper records besides Enter/Leave; read by gen_wrappers.py.

Every `shmem_X` function of the installed shmem.h with a `pshmem_X` counterpart gets a wrapper,
except the queries in EXCLUDED (cheap and called in inner loops). RULES map a function name
(with the `shmem_` or `shmem_ctx_` prefix and the type name removed) to a kind; the kind decides
the one-sided records around the call, following Score-P's OpenSHMEM adapter: puts, gets and
atomics as RmaPut/RmaGet/RmaAtomic with the target PE and bytes, completed by
RmaOpCompleteBlocking (RmaOpCompleteNonBlocking for the _nbi forms, whose completion is the next
quiet); barriers and collectives as RmaCollectiveBegin/End over the active set's window;
quiet and fence as RmaSync; locks as RmaRequestLock/RmaAcquireLock/RmaTryLock/RmaReleaseLock;
waits as RmaWaitChange.
"""

import re

# OTF2_RegionRole values, from otf2/OTF2_Definitions.h.
ROLES = {
    "FUNCTION": 1,
    "BARRIER": 15,
    "COLL_ONE2ALL": 23,
    "COLL_ALL2ONE": 24,
    "COLL_ALL2ALL": 25,
    "COLL_OTHER": 26,
    "RMA": 29,
    "ATOMIC": 30,
}

# Queries without communication: not wrapped.
EXCLUDED = {
    "shmem_my_pe", "shmem_n_pes", "shmem_pe_accessible", "shmem_addr_accessible", "shmem_ptr",
    "shmem_info_get_version", "shmem_info_get_name", "shmem_query_thread",
}

# The element types in OpenSHMEM's typed names, longest first so that "longlong" wins over "long".
TYPE_NAMES = sorted([
    "char", "short", "int", "long", "float", "double", "longlong", "longdouble", "schar", "uchar",
    "ushort", "uint", "ulong", "ulonglong", "int8", "int16", "int32", "int64", "uint8", "uint16",
    "uint32", "uint64", "size", "ptrdiff", "complexf", "complexd",
], key=len, reverse=True)

# (pattern over the untyped name, kind). First match wins; no match: Enter/Leave only.
RULES = [
    (r"init|init_thread", "init"),
    (r"finalize", "finalize"),
    (r"global_exit", "abort"),
    (r"(put(8|16|32|64|128|mem)?|p|iput(8|16|32|64|128)?)", "put"),
    (r"put(8|16|32|64|128|mem)?_nbi", "put_nbi"),
    (r"(get(8|16|32|64|128|mem)?|g|iget(8|16|32|64|128)?)", "get"),
    (r"get(8|16|32|64|128|mem)?_nbi", "get_nbi"),
    (r"(atomic_)?(fetch|atomic_fetch_(add|inc|and|or|xor)|finc|fadd)", "atomic_fetch"),
    (r"(atomic_)?(swap|compare_swap|cswap)", "atomic_swap"),
    (r"(atomic_)?(set|add|inc|and|or|xor)", "atomic"),
    (r"barrier_all|sync_all", "barrier_all"),
    (r"barrier|sync", "barrier"),
    (r"broadcast(32|64)?", "broadcast"),
    (r"f?collect(32|64)", "collect"),
    (r"alltoalls?(32|64)", "alltoall"),
    (r"(sum|prod|min|max|and|or|xor)_to_all", "reduce"),
    (r"quiet|fence", "memory_sync"),
    (r"set_lock", "set_lock"),
    (r"test_lock", "test_lock"),
    (r"clear_lock", "clear_lock"),
    (r"wait(_until)?", "wait"),
    (r"test", "test"),
]

KIND_ROLES = {
    "put": "RMA", "put_nbi": "RMA", "get": "RMA", "get_nbi": "RMA",
    "atomic": "ATOMIC", "atomic_fetch": "ATOMIC", "atomic_swap": "ATOMIC",
    "barrier_all": "BARRIER", "barrier": "BARRIER", "broadcast": "COLL_ONE2ALL",
    "collect": "COLL_ALL2ALL", "alltoall": "COLL_ALL2ALL", "reduce": "COLL_ALL2ALL",
    "memory_sync": "RMA", "set_lock": "RMA", "test_lock": "RMA", "clear_lock": "RMA",
    "wait": "RMA", "test": "RMA",
}


def untyped(name):
    """shmem_ctx_long_atomic_fetch_add -> ("atomic_fetch_add", "long")."""
    rest = re.sub(r"^shmem_(ctx_)?", "", name)
    for t in TYPE_NAMES:
        if rest.startswith(t + "_"):
            return rest[len(t) + 1:], t
    return rest, None


def kind_of(name):
    rest, _ = untyped(name)
    for pattern, kind in RULES:
        if re.fullmatch(pattern, rest):
            return kind
    return None


def element_bits(name):
    """putmem: 8; put32: 32; typed forms: None (sizeof the pointee)."""
    rest, _ = untyped(name)
    m = re.search(r"(8|16|32|64|128|mem)(_nbi)?$", rest)
    if not m:
        return None
    return 8 if m.group(1) == "mem" else int(m.group(1))
