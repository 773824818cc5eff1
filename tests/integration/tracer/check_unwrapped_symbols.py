"""Lists the MPI functions libmpi exports that libcollwrap.so does not wrap, and fails if one
is not in the allowlist (unwrapped_symbols.txt: `regex: reason` per line).

C functions: `MPI_` followed by a capital letter or digit and a lower-case letter somewhere
(MPI_Send). With --fortran, the same for the Fortran entry points of the given libraries
(libmpi_mpifh, libmpi_usempif08): every mangling, mpi_send_, mpi_send__, mpi_send, MPI_SEND and
mpi_send_f08_, against a second allowlist (unwrapped_fortran_symbols.txt, patterns matched
without regard to case). Open MPI's C names of its Fortran implementation (MPI_Send_f,
MPI_Send_f08) and its pmpi_ entry points do not count: programs do not call them. Usage:
  check_unwrapped_symbols.py LIBMPI LIBCOLLWRAP ALLOWLIST
      [--fortran LIB... --fortran-allowlist FILE]
"""

import argparse
import re
import subprocess
import sys

FUNCTION_TYPES = {"T", "W", "i"}


# Fortran entry points: all lower case (mpi_send_, mpi_send_f08_) or all upper case (MPI_SEND).
FORTRAN_NAME = re.compile(r"mpi_[a-z0-9_]+|MPI_[A-Z0-9_]+")


def exported_names(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True,
                         text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in FUNCTION_TYPES:
            names.add(fields[2])
    return names


def exported_functions(library):
    """The C API functions `library` exports (MPI_Send; not MPI_SEND, not MPI_Send_f)."""
    return {n for n in exported_names(library)
            if n.startswith("MPI_") and not FORTRAN_NAME.fullmatch(n)
            and not re.fullmatch(r"MPI_\w+_f(08)?", n)}


def exported_fortran_functions(library):
    return {n for n in exported_names(library) if FORTRAN_NAME.fullmatch(n)}


def read_allowlist(path, flags=0):
    allowed = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                pattern, _, reason = line.partition(": ")
                allowed.append((re.compile(pattern, flags), reason))
    return allowed


def compare(kind, exported, wrapped, libraries, allowlist, flags=0):
    """Prints the unwrapped functions; returns how many the allowlist does not explain."""
    unwrapped = sorted(exported - wrapped)
    allowed = read_allowlist(allowlist, flags)
    unexpected, used = [], set()
    for name in unwrapped:
        match = next(((p, why) for p, why in allowed if p.fullmatch(name)), None)
        if match:
            used.add(match[0].pattern)
            print(f"not wrapped: {name} ({match[1]})")
        else:
            unexpected.append(name)
    for pattern, _ in allowed:
        if pattern.pattern not in used:
            print(f"note: allowlist entry {pattern.pattern} matches nothing in this MPI")
    for name in unexpected:
        print(f"FAIL: {name} is exported by {' or '.join(libraries)} but not wrapped, and not "
              f"in {allowlist}")
    print(f"{len(unwrapped)} MPI {kind} functions not wrapped, {len(unexpected)} unexpected")
    return len(unexpected)


def main(argv=None):
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("libmpi")
    parser.add_argument("libcollwrap")
    parser.add_argument("allowlist")
    parser.add_argument("--fortran", nargs="+", default=[], metavar="LIB",
                        help="MPI libraries with Fortran entry points")
    parser.add_argument("--fortran-allowlist")
    args = parser.parse_args(argv)
    if args.fortran and not args.fortran_allowlist:
        parser.error("--fortran needs --fortran-allowlist")
    ours = exported_names(args.libcollwrap)
    failures = compare("C", exported_functions(args.libmpi), ours, [args.libmpi], args.allowlist)
    if args.fortran:
        fortran = set().union(*(exported_fortran_functions(lib) for lib in args.fortran))
        failures += compare("Fortran", fortran, ours, args.fortran, args.fortran_allowlist,
                            re.IGNORECASE)
        # A wrapper without an entry point in the library is dead code, and a sign that the
        # generator's name rules drifted from the library's.
        dead = sorted(n for n in ours if FORTRAN_NAME.fullmatch(n) and n not in fortran)
        for name in dead:
            print(f"FAIL: libcollwrap.so exports {name}, which no Fortran library defines")
        failures += len(dead)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
