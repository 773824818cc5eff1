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
    head = f"{signature} {{\n{note}  constexpr RegionRef kRegion = {region};\n"
    if spec.body:
        return head + _substitute(spec.body, proto).strip("\n") + "\n}\n"

    sub = {key: _substitute(getattr(spec, key), proto) for key in ("prepare", "before", "after")}
    overrides = {name: _substitute(value, proto) for name, value in spec.args.items()}
    unknown = set(overrides) - set(names)
    if unknown:
        raise SpecError(f"{proto.name}: spec overrides unknown arguments {sorted(unknown)}")
    prepare = "".join(f"  {line.strip()}\n" for line in sub["prepare"].splitlines() if line.strip())
    call = f"  const {proto.ret} rc = {_pmpi_call(proto, overrides)};\n"

    if spec.untraced:
        untraced = ("  if (!r) {\n" + _indent(prepare + _guarded(proto, sub["before"]) + call +
                    _guarded(proto, sub["after"])) + "    return rc;\n  }\n")
    else:
        untraced = f"  if (!r) return {_pmpi_call(proto, {})};\n"
    has_semantics = any(sub.values())
    return (head +
            "  ThreadRecorder* const r = thread_recorder();\n" + untraced +
            "  const Ticks entered = now();\n"
            "  r->enter(entered, kRegion, intern_callsite(__builtin_return_address(0)));\n" +
            ("  [[maybe_unused]] Tracing c{*r, semantics(), entered};\n" if has_semantics else "") +
            prepare + _guarded(proto, sub["before"]) + call +
            "  const Ticks left = now();\n" +
            ("  c.left = left;\n" if sub["after"] else "") +
            _guarded(proto, sub["after"]) +
            "  r->leave(left, kRegion);\n  return rc;\n}\n")


def _indent(block):
    return "".join("  " + line + "\n" for line in block.splitlines())


def render_wrappers(wrapped, skipped):
    parts = [
        "// Generated by gen_wrappers.py from mpi.h and wrapper_spec.py. Do not edit.\n",
        "#include <mpi.h>\n\n#include \"mpi/handlers.h\"\n#include \"recorder.h\"\n\n",
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
            "#include \"recorder.h\"\n\nnamespace collwrap::tracer {\n\n"
            "// One entry per wrapped MPI function; index = RegionRef. role = OTF2_RegionRole.\n"
            f"const FunctionInfo kFunctionTable[] = {{\n{rows}}};\n"
            f"const std::uint32_t kFunctionCount = {len(wrapped)};\n\n"
            "}  // namespace collwrap::tracer\n")


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
    except SpecError as error:
        print(f"gen_wrappers.py: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
