#!/usr/bin/env python3
"""Compares two analyzer JSON reports of the same archive: every field must be equal except
those that name the invocation rather than the result (the archive's path as given on the
command line, the tool's version). Exits 1 and lists the first differences otherwise.

Usage: compare_reports.py EXPECTED.json ACTUAL.json
"""
import json
import sys

IGNORED = {("trace", "path"), ("tool_version",)}


def differences(expected, actual, path=()):
    if path in IGNORED:
        return
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            if key not in expected or key not in actual:
                yield "/".join(path + (key,)) + ": present in only one report"
            else:
                yield from differences(expected[key], actual[key], path + (key,))
    elif isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            yield f"{'/'.join(path)}: {len(expected)} entries, now {len(actual)}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            yield from differences(e, a, path + (str(i),))
    elif expected != actual:
        yield f"{'/'.join(path)}: {expected!r}, now {actual!r}"


def main():
    with open(sys.argv[1]) as f:
        expected = json.load(f)
    with open(sys.argv[2]) as f:
        actual = json.load(f)
    found = list(differences(expected, actual))
    for line in found[:20]:
        print(line)
    if found:
        print(f"{len(found)} differences")
        return 1
    print("reports equal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
