"""Lists the MPI functions libmpi exports that libcollwrap.so does not wrap, and fails if one
is not in the allowlist (unwrapped_symbols.txt: `regex: reason` per line).

Only C functions count (`MPI_` followed by a capital letter or digit: Fortran's mpi_send_ and
friends are lower case and a later issue). Usage:
  check_unwrapped_symbols.py LIBMPI LIBCOLLWRAP ALLOWLIST
"""

import re
import subprocess
import sys

FUNCTION_TYPES = {"T", "W", "i"}


def exported_functions(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True,
                         text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in FUNCTION_TYPES and fields[2].startswith("MPI_"):
            names.add(fields[2])
    return names


def read_allowlist(path):
    allowed = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                pattern, _, reason = line.partition(": ")
                allowed.append((re.compile(pattern), reason))
    return allowed


def main(libmpi, libcollwrap, allowlist):
    unwrapped = sorted(exported_functions(libmpi) - exported_functions(libcollwrap))
    allowed = read_allowlist(allowlist)
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
        print(f"FAIL: {name} is exported by {libmpi} but not wrapped, and not in {allowlist}")
    print(f"{len(unwrapped)} MPI functions not wrapped, {len(unexpected)} unexpected")
    return 1 if unexpected else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
