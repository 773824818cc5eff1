#!/usr/bin/env python3
"""Writes libcollwrap's MPI wrappers from the installed mpi.h and wrapper_spec.py.

Usage:
  gen_wrappers.py --header mpi_declarations.i --wrappers mpi_wrappers.cpp \
                  --table mpi_function_table.cpp

The header is mpi.h as the C preprocessor sees it (`cc -E -P mpi.h`), so that only the
declarations this MPI build activates count: Open MPI, for instance, keeps the prototypes of the
functions removed in MPI-3.0 behind an #if. Every `MPI_X` function with a `PMPI_X` counterpart
gets one extern "C" wrapper, unless wrapper_spec.EXCLUDED names it. Its region index (RegionRef)
is its position in the function table, which is sorted by name so that it is the same on every
rank and in every build against the same mpi.h.
"""

import argparse
import os
import re
import sys
from dataclasses import dataclass

# The spec lives next to this script; importing it must not leave bytecode in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrapper_spec  # noqa: E402


@dataclass(frozen=True)
class Param:
    prefix: str  # the declaration around the name: "const int " + "recvcounts" + "[]"
    name: str
    suffix: str = ""

    def decl(self, name=None):
        return f"{self.prefix}{self.name if name is None else name}{self.suffix}"


@dataclass(frozen=True)
class Prototype:
    name: str
    ret: str
    params: tuple  # of Param
    variadic: bool


class SpecError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# Parsing

_ATTRIBUTE = re.compile(r"__attribute__\s*\(\(")
# Words that cannot be a parameter's name, and words that do not make a type by themselves.
_BUILTIN_TYPES = {"unsigned", "signed", "short", "long", "int", "char", "void", "float", "double"}
_NON_TYPE_WORDS = {"const", "volatile", "restrict", "__restrict", "struct", "enum", "union"}


def _strip_comments_and_directives(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r"^\s*#[^\n]*", " ", text, flags=re.M)


def _strip_attributes(text):
    """Removes every __attribute__((...)) (balanced parentheses)."""
    out, pos = [], 0
    for match in _ATTRIBUTE.finditer(text):
        if match.start() < pos:
            continue
        out.append(text[pos:match.start()])
        depth, i = 0, match.end() - 2
        while i < len(text):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
            if depth == 0:
                break
        pos = i
    out.append(text[pos:])
    return "".join(out)


def _statements(text):
    """Top-level declarations: split at ';' outside braces and parentheses."""
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
        elif ch == ";" and depth == 0:
            yield text[start:i]
            start = i + 1


def _split_params(text):
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [" ".join(p.split()) for p in parts if p.strip()]


def _param(decl, index):
    """A parameter's name; unnamed ones get `arg<index>` inserted where the name belongs."""
    core = re.sub(r"(\[[^\]]*\])+\s*$", "", decl).rstrip()  # without array suffixes
    suffix = decl[len(core):].strip()
    *before, last = re.findall(r"[A-Za-z_]\w*", core) or [""]
    has_type = any(word not in _NON_TYPE_WORDS for word in before)
    if has_type and core.endswith(last) and last not in _BUILTIN_TYPES | _NON_TYPE_WORDS:
        return Param(core[:len(core) - len(last)], last, suffix)
    return Param(core + " ", f"arg{index}", suffix)


def parse_prototypes(text):
    """All function prototypes `ret MPI_X(...)` / `ret PMPI_X(...)` of a (preprocessed) header."""
    text = _strip_attributes(_strip_comments_and_directives(text))
    text = re.sub(r"\b(OMPI_DECLSPEC|extern|__extension__)\b", " ", text)
    protos = {}
    for stmt in _statements(text):
        stmt = " ".join(stmt.split())
        if stmt.startswith("typedef") or "{" in stmt:
            continue
        match = re.fullmatch(r"(?P<ret>[\w\s\*]+?)\s*\b(?P<name>P?MPI_\w+)\s*\((?P<params>.*)\)",
                             stmt)
        if not match:
            continue
        raw = _split_params(match.group("params"))
        variadic = bool(raw) and raw[-1] == "..."
        if variadic:
            raw = raw[:-1]
        if raw == ["void"]:
            raw = []
        params = tuple(_param(decl, i) for i, decl in enumerate(raw))
        protos[match.group("name")] = Prototype(match.group("name"), match.group("ret").strip(),
                                                params, variadic)
    return protos


def wrapped_functions(protos):
    """The MPI functions to wrap (sorted by name) and the skipped ones with their reasons."""
    wrapped, skipped = [], {}
    for name in sorted(n for n in protos if n.startswith("MPI_")):
        reason = next((why for pattern, why in wrapper_spec.EXCLUDED.items()
                       if re.fullmatch(pattern, name)), None)
        if reason is None and "P" + name not in protos:
            reason = "no PMPI_ counterpart in mpi.h"
        if reason is None:
            wrapped.append(protos[name])
        else:
            skipped[name] = reason
    return wrapped, skipped


# ---------------------------------------------------------------------------------------------
# Rendering

# Names the wrapper itself declares; a parameter spelled like one is renamed in the wrapper.
_WRAPPER_LOCALS = {"r", "c", "rc", "kRegion", "entered", "left"}


def _emitted_names(proto):
    taken = _WRAPPER_LOCALS | wrapper_spec.LOCALS
    return {p.name: p.name + "_arg" if p.name in taken else p.name for p in proto.params}


def _substitute(snippet, proto):
    """Replaces {param} by the parameter's name in the wrapper; unknown names are an error."""
    names = _emitted_names(proto)

    def replace(match):
        if match.group(1) not in names:
            raise SpecError(f"{proto.name}: spec refers to {{{match.group(1)}}}, but mpi.h "
                            f"declares ({', '.join(p.name for p in proto.params)})")
        return names[match.group(1)]
    return re.sub(r"\{(\w+)\}", replace, snippet)


def _pmpi_call(proto, overrides):
    names = _emitted_names(proto)
    args = [overrides.get(p.name, names[p.name]) for p in proto.params]
    return f"P{proto.name}({', '.join(args)})"


def _guarded(proto, snippet):
    return f'  guarded("{proto.name}", [&] {{ {snippet} }});\n' if snippet else ""


def render_wrapper(proto, region, spec):
    names = _emitted_names(proto)
    signature = f'extern "C" {proto.ret} {proto.name}(' + \
        ", ".join(p.decl(names[p.name]) for p in proto.params) + \
        (", ..." if proto.variadic else "") + ")"
    note = "  // The variadic arguments cannot be forwarded; MPI ignores them.\n" \
        if proto.variadic else ""
    head = (f"{signature} {{\n{note}  const RegionRef kRegion = mpi_region({region});\n"
            f"  if (inside_fortran_call()) return {_pmpi_call(proto, {})};\n")
    if spec.body:
        return head + _substitute(spec.body, proto).strip("\n") + "\n}\n"

    sub = {key: _substitute(getattr(spec, key), proto) for key in ("prepare", "before", "after")}
    overrides = {name: _substitute(value, proto) for name, value in spec.args.items()}
    unknown = set(overrides) - set(names)
    if unknown:
        raise SpecError(f"{proto.name}: spec overrides unknown arguments {sorted(unknown)}")
    prepare = "".join(f"  {line.strip()}\n" for line in sub["prepare"].splitlines() if line.strip())
    call = f"  const {proto.ret} rc = {_pmpi_call(proto, overrides)};\n"

    fin = "".join(f"  {line.strip()}\n" for line in
                  _substitute(spec.finally_, proto).splitlines() if line.strip())
    if spec.untraced:
        untraced = ("  if (!r) {\n" + _indent(prepare + _guarded(proto, sub["before"]) + call +
                    _guarded(proto, sub["after"]) + fin) + "    return rc;\n  }\n")
    elif fin:
        untraced = ("  if (!r) {\n" + _indent(f"  const {proto.ret} rc = "
                                              f"{_pmpi_call(proto, {})};\n" + fin) +
                    "    return rc;\n  }\n")
    else:
        untraced = f"  if (!r) return {_pmpi_call(proto, {})};\n"
    has_semantics = any(sub.values())
    return (head +
            "  ThreadRecorder* const r = thread_recorder();\n" + untraced +
            "  const Ticks entered = now();\n"
            "  r->enter_from(entered, kRegion, __builtin_return_address(0));\n" +
            ("  [[maybe_unused]] Tracing c{*r, semantics(), entered};\n" if has_semantics else "") +
            prepare + _guarded(proto, sub["before"]) + call +
            "  const Ticks left = now();\n" +
            ("  c.left = left;\n" if sub["after"] else "") +
            _guarded(proto, sub["after"]) +
            "  r->leave(left, kRegion);\n" + fin + "  return rc;\n}\n")


def _indent(block):
    return "".join("  " + line + "\n" for line in block.splitlines())


def render_wrappers(wrapped, skipped):
    parts = [
        "// Generated by gen_wrappers.py from mpi.h and wrapper_spec.py. Do not edit.\n",
        "#include <mpi.h>\n\n#include \"mpi/fortran_args.h\"\n#include \"mpi/handlers.h\"\n"
        "#include \"mpi/mpi_regions.h\"\n#include \"record/recorder.h\"\n\n",
        "// Deprecated MPI functions are still called by applications, so they are wrapped too.\n",
        "#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"\n\n",
        "using namespace collwrap::tracer;\n\n",
        "// Not wrapped:\n",
        *(f"//   {name}: {why}\n" for name, why in sorted(skipped.items())),
        "\n",
    ]
    for region, proto in enumerate(wrapped):
        parts.append(render_wrapper(proto, region, wrapper_spec.semantics_of(proto.name)))
        parts.append("\n")
    return "".join(parts)


def render_table(wrapped):
    rows = "".join(f'    {{"{p.name}", {wrapper_spec.role_value(p.name)}}},\n' for p in wrapped)
    return ("// Generated by gen_wrappers.py from mpi.h and wrapper_spec.py. Do not edit.\n"
            "#include \"mpi/mpi_regions.h\"\n\nnamespace collwrap::tracer {\n\n"
            "// One entry per wrapped MPI function; role = OTF2_RegionRole.\n"
            f"const RegionInfo kMpiRegions[] = {{\n{rows}}};\n"
            f"const std::uint32_t kMpiRegionCount = {len(wrapped)};\n"
            "const RegionRef kMpiFirstRegion =\n"
            "    register_regions(Paradigm::Mpi, {kMpiRegions, kMpiRegionCount});\n\n"
            "}  // namespace collwrap::tracer\n")


# ---------------------------------------------------------------------------------------------
# Fortran bindings
#
# One wrapper per wrapped C function and binding, under the same region (RegionRef): the F77
# entry point (`use mpi`, mpif.h) exported in the four manglings compilers use (aliases of one
# definition), and the mpi_f08 one. Each forwards to the MPI library's own profiling entry point
# of the same binding, found with dlsym(RTLD_NEXT) on first use, and gives the semantic handlers
# C views of the arguments they read (see fortran_args.h).

_HANDLE_F2C = {
    "MPI_Comm": "PMPI_Comm_f2c", "MPI_Datatype": "PMPI_Type_f2c", "MPI_Op": "PMPI_Op_f2c",
    "MPI_Info": "PMPI_Info_f2c", "MPI_Group": "PMPI_Group_f2c", "MPI_Win": "PMPI_Win_f2c",
    "MPI_File": "PMPI_File_f2c", "MPI_Errhandler": "PMPI_Errhandler_f2c",
    "MPI_Message": "PMPI_Message_f2c", "MPI_Request": "PMPI_Request_f2c",
}
# Locals of the Fortran wrapper; a parameter spelled like one is renamed.
_FORTRAN_LOCALS = {"pmpi", "kNames", "Entry", "scope", "ierror", "own_ierror", "f_ierror"}


def fortran_names(c_name):
    """The exported names of `c_name`'s Fortran wrappers: (F77 manglings, f08 name)."""
    lower = c_name.lower()
    return [lower + "_", lower + "__", lower, c_name.upper()], lower + "_f08_"


def fortran_entry_names(c_name):
    """The MPI library's profiling entry points to forward to: (F77 manglings, f08)."""
    lower = "p" + c_name.lower()
    return [lower + "_", lower, lower + "__", lower.upper()], [lower + "_f08_"]


def fortran_functions(wrapped):
    """(region, prototype) of the wrapped C functions that get Fortran wrappers, and the skipped
    ones with their reasons."""
    chosen, skipped = [], {}
    for region, proto in enumerate(wrapped):
        why = wrapper_spec.fortran_excluded(proto.name)
        if not why and proto.ret != "int":
            # MPI_Aint_add, MPI_Wtime...: Fortran functions with a result, not subroutines.
            why = f"returns {proto.ret}: a Fortran function, not a subroutine with IERROR"
        if why:
            skipped[proto.name] = why
        else:
            chosen.append((region, proto))
    return chosen, skipped


def _type_of(param):
    """A parameter's C type, spaces normalized: 'const int[]', 'MPI_Status*', 'MPI_Comm'."""
    return re.sub(r"\s+", " ", param.prefix).strip().replace(" *", "*").replace("* ", "*") + \
        ("[]" if param.suffix else "")


def _is_char(param):
    return re.search(r"\bchar\b", param.prefix) is not None


@dataclass(frozen=True)
class FortranParam:
    name: str       # the C parameter's name as the wrapper spells its C view
    raw: str        # the dummy argument: f_<name>
    c: Param = None  # None for IERROR


def _fortran_params(proto, spec):
    names = _emitted_names(proto)
    wanted = spec.fortran_params
    params = [p for p in proto.params if wanted is None or p.name in wanted]
    return [FortranParam(names[p.name], "f_" + p.name, p) for p in params]


def _referenced(spec):
    text = " ".join([spec.prepare, spec.before, spec.after, spec.finally_, " ".join(spec.args)] +
                    list(spec.args.values()))
    return set(re.findall(r"\{(\w+)\}", text)) | set(spec.args)


def _count_param(proto):
    return next((p.name for p in proto.params if p.name in ("count", "incount")), None)


def _fortran_views(proto, spec):
    """C views of the Fortran arguments the snippets read: (before the call, after the call,
    arguments replaced in the pmpi call)."""
    names = _emitted_names(proto)
    used = _referenced(spec)
    params = [p for p in proto.params if p.name in used]
    first, second, after, call_args = [], [], [], {}
    for p in params:
        n, raw, t = names[p.name], "f_" + p.name, _type_of(p)
        base = t.replace("const ", "").rstrip("*[]")
        if t in ("int", "const int"):
            first.append(f"const int {n} = fortran_int({raw});")
        elif t.rstrip() in _HANDLE_F2C or t.replace("const ", "") in _HANDLE_F2C:
            first.append(f"const {base} {n} = {_HANDLE_F2C[base]}("
                         f"*static_cast<const MPI_Fint*>({raw}));")
        elif base == "void":
            first.append(f"const void* const {n} = c_buffer({raw});")
        elif t == "int*":
            convert = "c_index" if p.name == "index" else ""
            second.append(f"int {n}_v = {convert}(fortran_int({raw}));")
            second.append(f"int* const {n} = &{n}_v;")
            after.append(f"{n}_v = {convert}(fortran_int({raw}));")
        elif base == "int" and t.endswith("[]") and p.name == "array_of_indices":
            capacity = names[_count_param(proto)]
            outcount = names["outcount"]
            second.append(f"FortranIndices {n}_h({raw}, {capacity});")
            second.append(f"int* const {n} = {n}_h.get();")
            after.append(f"{n}_h.refresh({outcount}_v);")
        elif base == "int" and t.endswith("[]"):
            first.append(f"const int* const {n} = static_cast<const int*>({raw});")
        elif base == "MPI_Status":
            # mpi.h spells MPI_Waitall's array `MPI_Status *array_of_statuses`.
            many = t.endswith("[]") or p.name == "array_of_statuses"
            capacity = names[_count_param(proto)] if many else "1"
            second.append(f"FortranStatuses {n}_s({raw}, {capacity});")
            second.append(f"MPI_Status* const {n} = {n}_s.c();")
            after.insert(0, f"{n}_s.refresh();")
            call_args[p.name] = f"{n}_s.fortran()"
        elif base == "MPI_Request" and t.endswith("[]"):
            second.append(f"FortranRequests {n}_h({raw}, {names[_count_param(proto)]});")
            second.append(f"MPI_Request* const {n} = {n}_h.get();")
            after.append(f"{n}_h.refresh();")
        elif base == "MPI_Datatype" and t.endswith("[]"):
            use = wrapper_spec.FORTRAN_TYPE_ARRAYS[(proto.name, p.name)]
            second.append(f"FortranTypes {n}_h({raw}, alltoallw_type_count({names['comm']}, "
                          f"TypeArrayUse::{use}));")
            second.append(f"const MPI_Datatype* const {n} = {n}_h.get();")
        elif base in _HANDLE_F2C and t.endswith("*"):
            f2c = _HANDLE_F2C[base]
            second.append(f"{base} {n}_v = {f2c}(*static_cast<const MPI_Fint*>({raw}));")
            second.append(f"{base}* const {n} = &{n}_v;")
            after.append(f"{n}_v = {f2c}(*static_cast<const MPI_Fint*>({raw}));")
        elif base == "char" and t.endswith("*"):
            index = [q.name for q in proto.params if _is_char(q)].index(p.name)
            second.append(f"std::string {n}_s;")
            second.append(f'guarded("{proto.name}", [&] {{ {n}_s = fortran_string('
                          f'static_cast<const char*>({raw}), length{index}); }});')
            second.append(f"const char* const {n} = {n}_s.c_str();")
        else:
            raise SpecError(f"{proto.name}: no Fortran view of parameter {p.name} ({t})")
    return first + second, after, call_args


def _fortran_signature(name, fparams, hidden):
    args = [f"void* {p.raw}" for p in fparams] + ["MPI_Fint* ierror"] + \
        [f"std::size_t length{i}" for i in range(hidden)]
    return f'extern "C" void {name}({", ".join(args)})'


def render_fortran_wrapper(proto, region, spec, binding):
    """The wrapper of one binding ("f77" or "f08") of `proto`."""
    fparams = _fortran_params(proto, spec)
    hidden = sum(1 for p in fparams if _is_char(p.c))
    f77, f08 = fortran_names(proto.name)
    entries = fortran_entry_names(proto.name)[0 if binding == "f77" else 1]
    exported = f77 if binding == "f77" else [f08]
    signature = _fortran_signature(exported[0], fparams, hidden)
    arg_types = ["void*"] * len(fparams) + ["MPI_Fint*"] + ["std::size_t"] * hidden
    forward_args = [p.raw for p in fparams] + ["ierror"] + [f"length{i}" for i in range(hidden)]
    names_list = ", ".join(f'"{e}"' for e in entries)
    head = (f"{signature} {{\n"
            f"  const RegionRef kRegion = mpi_region({region});\n"
            f"  using Entry = void (*)({', '.join(arg_types)});\n"
            f"  static constexpr const char* kNames[] = {{{names_list}, nullptr}};\n"
            f"  static const Entry pmpi = reinterpret_cast<Entry>(resolve_fortran_entry(kNames));\n"
            f"  if (!pmpi) {{\n"
            f"    report_missing_fortran_entry(kNames[0]);\n"
            f"    if (ierror) *ierror = MPI_ERR_INTERN;\n"
            f"    return;\n  }}\n"
            f"  if (inside_fortran_call()) return pmpi({', '.join(forward_args)});\n"
            f"  FortranCallScope scope;\n")
    aliases = "".join(f'extern "C" void {alias}({", ".join(arg_types)}) '
                      f'__attribute__((alias("{exported[0]}")));\n' for alias in exported[1:])
    if spec.fortran_body:
        return head + spec.fortran_body.strip("\n") + "\n}\n" + aliases

    sub = {key: _substitute(getattr(spec, key), proto) for key in ("prepare", "before", "after")}
    has_semantics = any(sub.values())
    if not has_semantics:
        call = f"  pmpi({', '.join(forward_args)});\n"
        return (head + "  ThreadRecorder* const r = thread_recorder();\n"
                f"  if (!r) return pmpi({', '.join(forward_args)});\n"
                "  r->enter_from(now(), kRegion, __builtin_return_address(0));\n" +
                call + "  r->leave(now(), kRegion);\n}\n" + aliases)

    views, refresh, call_args = _fortran_views(proto, spec)
    pmpi_args = [call_args.get(p.c.name, p.raw) for p in fparams] + ["f_ierror"] + \
        [f"length{i}" for i in range(hidden)]
    prepare = "".join(f"  {line.strip()}\n" for line in sub["prepare"].splitlines() if line.strip())
    view_lines = "".join(f"  {line}\n" for line in views)
    refresh_lines = "".join(f"  {line}\n" for line in refresh)
    ierror_lines = ("  MPI_Fint own_ierror = MPI_SUCCESS;\n"
                    "  MPI_Fint* const f_ierror = ierror ? ierror : &own_ierror;\n")
    call = (f"  pmpi({', '.join(pmpi_args)});\n"
            "  [[maybe_unused]] const int rc = static_cast<int>(*f_ierror);\n")
    fin = "".join(f"  {line.strip()}\n" for line in
                  _substitute(spec.finally_, proto).splitlines() if line.strip())
    if spec.untraced:
        untraced = ("  if (!r) {\n" + _indent(ierror_lines + view_lines + prepare +
                                              _guarded(proto, sub["before"]) + call +
                                              refresh_lines + _guarded(proto, sub["after"]) +
                                              fin) +
                    "    return;\n  }\n")
    elif fin:
        untraced = ("  if (!r) {\n" + _indent(f"  pmpi({', '.join(forward_args)});\n" +
                                              view_lines + fin) + "    return;\n  }\n")
    else:
        untraced = f"  if (!r) return pmpi({', '.join(forward_args)});\n"
    return (head + "  ThreadRecorder* const r = thread_recorder();\n" + untraced +
            ierror_lines +
            "  const Ticks entered = now();\n"
            "  r->enter_from(entered, kRegion, __builtin_return_address(0));\n"
            "  [[maybe_unused]] Tracing c{*r, semantics(), entered};\n" +
            view_lines + prepare + _guarded(proto, sub["before"]) + call +
            "  const Ticks left = now();\n" + refresh_lines +
            ("  c.left = left;\n" if sub["after"] else "") +
            _guarded(proto, sub["after"]) +
            "  r->leave(left, kRegion);\n" + fin + "}\n" + aliases)


def render_fortran_wrappers(chosen, skipped):
    parts = [
        "// Generated by gen_wrappers.py from mpi.h and wrapper_spec.py. Do not edit.\n",
        "// The Fortran bindings' wrappers (see fortran_args.h).\n",
        "#include <mpi.h>\n\n#include <cstddef>\n#include <string>\n\n",
        "#include \"mpi/fortran_args.h\"\n#include \"mpi/handlers.h\"\n"
        "#include \"mpi/mpi_regions.h\"\n#include \"record/recorder.h\"\n\n",
        "#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"\n",
        "// The aliases take the wrappers' types; GCC compares them with the C functions'.\n",
        "#pragma GCC diagnostic ignored \"-Wattribute-alias\"\n\n",
        "using namespace collwrap::tracer;\n\n",
        "// Not wrapped in Fortran:\n",
        *(f"//   {name}: {why}\n" for name, why in sorted(skipped.items())),
        *(f"//   {proto.name} (mpi_f08 only): {wrapper_spec.f08_excluded(proto.name)}\n"
          for _, proto in chosen if wrapper_spec.f08_excluded(proto.name)),
        "\n",
    ]
    for region, proto in chosen:
        spec = wrapper_spec.semantics_of(proto.name)
        for binding in ("f77", "f08"):
            if binding == "f08" and wrapper_spec.f08_excluded(proto.name):
                continue
            parts.append(render_fortran_wrapper(proto, region, spec, binding))
            parts.append("\n")
    return "".join(parts)


def render_fortran_names(chosen):
    """One line per exported Fortran wrapper name (read by the unwrapped-symbol check)."""
    lines = []
    for _, proto in chosen:
        f77, f08 = fortran_names(proto.name)
        lines.extend(f77 if wrapper_spec.f08_excluded(proto.name) else f77 + [f08])
    return "".join(f"{name}\n" for name in sorted(lines))


def check_spec(protos):
    """Every function the spec gives semantics must exist, or its semantics would be lost."""
    missing = sorted(set(wrapper_spec.SEMANTICS) - set(protos))
    if missing:
        raise SpecError("wrapper_spec.py names functions mpi.h does not declare: " +
                        ", ".join(missing))


def _write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--header", required=True, help="preprocessed mpi.h")
    parser.add_argument("--wrappers", required=True, help="output: wrapper definitions (C++)")
    parser.add_argument("--table", required=True, help="output: function table (C++)")
    parser.add_argument("--fortran-wrappers", help="output: Fortran binding wrappers (C++)")
    parser.add_argument("--fortran-names", help="output: the Fortran wrappers' names, one a line")
    args = parser.parse_args(argv)
    with open(args.header, encoding="utf-8", errors="replace") as f:
        protos = parse_prototypes(f.read())
    try:
        check_spec(protos)
        wrapped, skipped = wrapped_functions(protos)
        if not wrapped:
            raise SpecError(f"no MPI_ prototypes found in {args.header}")
        _write(args.wrappers, render_wrappers(wrapped, skipped))
        _write(args.table, render_table(wrapped))
        chosen, fortran_skipped = fortran_functions(wrapped)
        if args.fortran_wrappers:
            _write(args.fortran_wrappers, render_fortran_wrappers(chosen, fortran_skipped))
        if args.fortran_names:
            _write(args.fortran_names, render_fortran_names(chosen))
    except SpecError as error:
        print(f"gen_wrappers.py: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
