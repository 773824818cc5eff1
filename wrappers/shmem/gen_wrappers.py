#!/usr/bin/env python3
"""Writes libcollwrap's OpenSHMEM wrappers from the installed shmem.h and wrapper_spec.py.

Usage:
  gen_wrappers.py --header shmem_declarations.i --profiling pshmem_declarations.i \
                  --wrappers shmem_wrappers.cpp --table shmem_function_table.cpp

The headers are shmem.h and pshmem.h as the C preprocessor sees them (`cc -E -P`), so that only
the declarations this OpenSHMEM build activates count. Every `shmem_X` function with a
`pshmem_X` counterpart gets one extern "C" wrapper, unless wrapper_spec.EXCLUDED names it. Its
region index is its position in the function table, sorted by name so that it is the same on
every PE and in every build against the same shmem.h.
"""

import argparse
import os
import re
import sys
from dataclasses import dataclass

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrapper_spec  # noqa: E402

# One declaration per line in Open MPI's headers: "void shmem_long_p(long* addr, long value, int pe);"
_DECLARATION = re.compile(r"^\s*(?:extern\s+)?([A-Za-z_][\w\s\*]*?[\s\*])(p?shmem_\w+)\s*\(([^()]*)\)\s*;")


@dataclass(frozen=True)
class Param:
    type: str  # "const long *"
    name: str


@dataclass(frozen=True)
class Prototype:
    name: str
    ret: str
    params: tuple


# C's complex types as shmem.h spells them for C++ (std::complex, <complex>).
_CXX_TYPES = {"float _Complex": "std::complex<float>", "double _Complex": "std::complex<double>"}


def parse_param(text):
    text = " ".join(text.split())
    for c_type, cxx_type in _CXX_TYPES.items():
        text = text.replace(c_type, cxx_type)
    m = re.fullmatch(r"(.*?[\s\*>])(\w+)", text)
    if not m:
        raise SystemExit(f"cannot parse parameter '{text}'")
    return Param(m.group(1).strip(), m.group(2))


def parse(path):
    prototypes = {}
    with open(path) as f:
        for line in f:
            m = _DECLARATION.match(line)
            if not m:
                continue
            ret, name, params = " ".join(m.group(1).split()), m.group(2), m.group(3).strip()
            plist = () if params in ("", "void") else tuple(parse_param(p) for p in params.split(","))
            prototypes[name] = Prototype(name, ret, plist)
    return prototypes


# ---------------------------------------------------------------------------------------------
# Records per kind


def pointee_size(param):
    """sizeof the element a pointer parameter points to, or None for void *."""
    base = re.sub(r"\b(const|volatile)\b", "", param.type).replace("*", "").strip()
    return None if base == "void" else f"sizeof({base})"


def element_size(p):
    bits = wrapper_spec.element_bits(p.name)
    if bits:
        return str(bits // 8)
    size = pointee_size(p.params[0] if not p.params[0].name == "ctx" else p.params[1])
    if size is None:
        raise SystemExit(f"{p.name}: no element size")
    return size


def names(p):
    return {q.name for q in p.params}


def count_param(p):
    for candidate in ("len", "nelems", "nlong", "nreduce"):
        if candidate in names(p):
            return candidate
    return None


def transfer_bytes(p):
    rest, _ = wrapper_spec.untyped(p.name)
    if rest == "p":
        return "sizeof(value)"
    if rest == "g":
        return f"sizeof({p.ret})"
    return f"std::uint64_t({count_param(p)}) * {element_size(p)}"


ATOMIC_TYPES = {
    "fetch": "FetchAndAccumulate", "fetch_add": "FetchAndAdd", "fadd": "FetchAndAdd",
    "fetch_inc": "FetchAndIncrement", "finc": "FetchAndIncrement",
    "fetch_and": "FetchAndAccumulate", "fetch_or": "FetchAndAccumulate",
    "fetch_xor": "FetchAndAccumulate", "swap": "Swap", "compare_swap": "CompareAndSwap",
    "cswap": "CompareAndSwap", "set": "Swap", "inc": "Increment", "add": "Accumulate",
    "and": "Accumulate", "or": "Accumulate", "xor": "Accumulate",
}


def atomic_record(p, kind):
    rest, _ = wrapper_spec.untyped(p.name)
    op = re.sub(r"^atomic_", "", rest)
    size = element_size(p)
    sent = {"fetch": "0", "fetch_inc": "0", "finc": "0", "inc": "0",
            "compare_swap": f"2 * {size}", "cswap": f"2 * {size}"}.get(op, size)
    received = "0" if kind == "atomic" else size
    return (f"const auto id = shmem::atomic(*r, entered, pe, RmaAtomicType::{ATOMIC_TYPES[op]}, "
            f"{sent}, {received});", "shmem::completed(*r, left, id);")


def active_set(p):
    if "PE_start" in names(p):
        return "PE_start, logPE_stride, PE_size"
    return "0, 0, shmem::world_size()"


def collective(p, op, level, root="kUndefinedRank", sent="0", received="0"):
    return ("r->rma_collective_begin(entered);",
            f"shmem::collective_end(*r, left, CollectiveOp::{op}, RmaSyncLevel::{level}, "
            f"{active_set(p)}, {root}, {sent}, {received});")


def records(p, kind):
    """(before, after) statements around the pshmem call."""
    if kind in ("put", "get", "put_nbi", "get_nbi"):
        op = kind.split("_")[0]
        done = "issued" if kind.endswith("_nbi") else "completed"
        return (f"const auto id = shmem::{op}(*r, entered, pe, {transfer_bytes(p)});",
                f"shmem::{done}(*r, left, id);")
    if kind in ("atomic", "atomic_fetch", "atomic_swap"):
        return atomic_record(p, kind)
    if kind in ("barrier_all", "barrier"):
        level = "ProcessAndMemory" if "barrier" in p.name else "Process"
        return collective(p, "Barrier", level)
    if kind == "broadcast":
        size = f"std::uint64_t({count_param(p)}) * {element_size(p) if wrapper_spec.element_bits(p.name) else 8}"
        return collective(p, "Bcast", "None", root="std::uint32_t(PE_root)",
                          sent=f"(shmem::my_pe() == PE_start + (PE_root << logPE_stride) ? {size} * std::uint64_t(PE_size - 1) : 0)",
                          received=f"(shmem::my_pe() == PE_start + (PE_root << logPE_stride) ? 0 : {size})")
    if kind == "collect":
        size = f"std::uint64_t({count_param(p)}) * {element_size(p)}"
        op = "Allgather" if p.name.startswith("shmem_fcollect") else "Allgatherv"
        return collective(p, op, "None", sent=f"{size} * std::uint64_t(PE_size)",
                          received=f"{size} * std::uint64_t(PE_size)")
    if kind == "alltoall":
        size = f"std::uint64_t({count_param(p)}) * {element_size(p)} * std::uint64_t(PE_size)"
        return collective(p, "Alltoall", "None", sent=size, received=size)
    if kind == "reduce":
        size = f"std::uint64_t({count_param(p)}) * {element_size(p)} * std::uint64_t(PE_size)"
        return collective(p, "Allreduce", "None", sent=size, received=size)
    if kind == "memory_sync":
        return ("", "shmem::memory_sync(*r, left);")
    if kind == "set_lock":
        return ("shmem::lock_requested(*r, entered, lock);", "shmem::lock_acquired(*r, left, lock);")
    if kind == "test_lock":
        return ("", "if (rc == 0) shmem::lock_acquired(*r, left, lock); "
                    "else shmem::lock_tried(*r, left, lock);")
    if kind == "clear_lock":
        return ("shmem::lock_released(*r, entered, lock);", "")
    if kind == "wait":
        return ("", "shmem::wait_change(*r, left);")
    if kind == "test":
        return ("", "if (rc != 0) shmem::wait_change(*r, left);")
    return ("", "")


# ---------------------------------------------------------------------------------------------
# Output

HEADER = """// Generated by gen_wrappers.py from shmem.h and wrapper_spec.py. Do not edit.
#include <pshmem.h>
#include <shmem.h>

#include "record/recorder.h"
#include "shmem/lifecycle.h"
#include "shmem/one_sided.h"
#include "shmem/shmem_regions.h"

using namespace collwrap::tracer;

"""


def declaration(p):
    params = ", ".join(f"{q.type} {q.name}" for q in p.params) or "void"
    return f'extern "C" {p.ret} {p.name}({params})'


def wrapper(p, index):
    kind = wrapper_spec.kind_of(p.name)
    args = ", ".join(q.name for q in p.params)
    call = f"p{p.name}({args})"
    returns = p.ret != "void"
    region = f"shmem_region({index})"
    if kind in ("init", "finalize", "abort"):
        return f"{declaration(p)} {{\n  {lifecycle_body(p, kind, call, region)}\n}}\n"
    before, after = records(p, kind)
    result = f"const auto rc = {call};" if returns else f"{call};"
    lines = [
        f"{declaration(p)} {{",
        "  ThreadRecorder* const r = thread_recorder();",
        f"  if (!r || shmem::t_in_call) return {call};",
        "  const shmem::CallScope scope;",
        "  const Ticks entered = now();",
        f"  r->enter_from(entered, {region}, __builtin_return_address(0));",
    ]
    if before:
        lines.append(f"  {before}")
    lines += [f"  {result}", "  const Ticks left = now();"]
    if after:
        lines.append(f"  {after}")
    lines.append(f"  r->leave(left, {region});")
    if returns:
        lines.append("  return rc;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def lifecycle_body(p, kind, call, region):
    """Init, finalize and abort; the library's own shmem_* calls inside them are not recorded."""
    return "const shmem::CallScope scope;\n  " + lifecycle_calls(p, kind, call, region)


def lifecycle_calls(p, kind, call, region):
    site = "__builtin_return_address(0)"
    if kind == "init":
        if p.ret == "void":
            return f"shmem_init_enter({region}, {site});\n  {call};\n  shmem_init_leave({region}, true);"
        return (f"shmem_init_enter({region}, {site});\n  const int rc = {call};\n"
                f"  shmem_init_leave({region}, rc == 0);\n  return rc;")
    if kind == "finalize":
        return f"shmem_finalize_enter({region}, {site});\n  {call};"
    return f"abort_enter({region}, {site});\n  {call};"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--header", required=True)
    ap.add_argument("--profiling", required=True)
    ap.add_argument("--wrappers", required=True)
    ap.add_argument("--table", required=True)
    a = ap.parse_args()
    api = parse(a.header)
    profiling = parse(a.profiling)
    wrapped = sorted(n for n in api if n.startswith("shmem_") and "p" + n in profiling
                     and n not in wrapper_spec.EXCLUDED)
    with open(a.wrappers, "w") as out:
        out.write(HEADER)
        for i, name in enumerate(wrapped):
            out.write(wrapper(api[name], i) + "\n")
    with open(a.table, "w") as out:
        out.write("// Generated by gen_wrappers.py from shmem.h and wrapper_spec.py. Do not edit.\n")
        out.write('#include "shmem/shmem_regions.h"\n\nnamespace collwrap::tracer {\n\n')
        out.write("// One entry per wrapped OpenSHMEM function; index = region. role = OTF2_RegionRole.\n")
        out.write("const RegionInfo kShmemRegions[] = {\n")
        for name in wrapped:
            kind = wrapper_spec.kind_of(name)
            role = wrapper_spec.ROLES[wrapper_spec.KIND_ROLES.get(kind, "FUNCTION")]
            out.write(f'    {{"{name}", {role}}},\n')
        out.write("};\n")
        out.write(f"const std::uint32_t kShmemRegionCount = {len(wrapped)};\n")
        out.write("const RegionRef kShmemFirstRegion =\n"
                  "    register_regions(Paradigm::Shmem, {kShmemRegions, kShmemRegionCount});\n\n")
        out.write("}  // namespace collwrap::tracer\n")


if __name__ == "__main__":
    main()
