#!/usr/bin/python3
"""Validates an analyzer JSON report against the collwrap report schema.

    validate_report.py [--schema report.schema.json] REPORT.json   ('-' reads standard input)

Exit status: 0 valid, 1 invalid (each violation printed with its JSON path), 2 usage error.
Needs Python's jsonschema (Debian package python3-jsonschema).
"""
import argparse
import json
import os
import sys

import jsonschema

DEFAULT_SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "report.schema.json")


def load_schema(path=DEFAULT_SCHEMA):
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def violations(report, schema):
    """Every schema violation of `report`, as 'path: message' lines (empty when valid)."""
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(report), key=lambda e: list(e.absolute_path))
    return ["/".join(str(p) for p in e.absolute_path) + ": " + e.message for e in errors]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", help="the JSON report, or - for standard input")
    parser.add_argument("--schema", default=DEFAULT_SCHEMA)
    args = parser.parse_args()
    try:
        schema = load_schema(args.schema)
        if args.report == "-":
            report = json.load(sys.stdin)
        else:
            with open(args.report, encoding="utf-8") as f:
                report = json.load(f)
    except (OSError, ValueError, jsonschema.SchemaError) as e:
        print(f"validate_report: {e}", file=sys.stderr)
        return 2
    problems = violations(report, schema)
    for line in problems:
        print(f"validate_report: {line}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
