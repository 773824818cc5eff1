"""The pattern catalog (`analyzer --list-patterns=json`) is the one source of the pattern ids
and their overlaps; every other place that names them is checked against it here:

- the report schema, which names no pattern itself: every catalog id matches its pattern_id
  and it sends readers to --list-patterns for the ids and their overlaps;
- the README's pattern table (same ids, same order; a row may name several) and its overlap
  note;
- the analyzer's --help (every id under "Patterns:").

Usage: catalog_docs_test.py ANALYZER SOURCE_DIR"""
import json
import re
import subprocess
import sys

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message, flush=True)


def main():
    analyzer, source = sys.argv[1], sys.argv[2]
    listing = json.loads(subprocess.run([analyzer, "--list-patterns=json"], check=True,
                                        capture_output=True, text=True, timeout=60).stdout)
    ids = [p["id"] for p in listing["patterns"]]
    check(len(ids) == len(set(ids)) and ids, f"the catalog lists ids twice or none: {ids}")
    for p in listing["patterns"]:
        for other in ([p["parent"]] if p["parent"] else []) + p["may_include"]:
            check(other in ids, f"{p['id']} refers to {other}, which is not in the catalog")
    note = listing["overlap"]

    with open(f"{source}/share/schema/report.schema.json", encoding="utf-8") as f:
        schema = json.load(f)
    id_rule = schema["$defs"]["pattern_id"]
    check("enum" not in id_rule, "report.schema.json lists pattern ids; the catalog is their source")
    for i in ids:
        check(re.fullmatch(id_rule["pattern"], i) is not None,
              f"the catalog id {i} does not match the schema's pattern_id {id_rule['pattern']}")
    check("--list-patterns" in schema["description"],
          "report.schema.json's description does not point to analyzer --list-patterns")

    with open(f"{source}/README.md", encoding="utf-8") as f:
        readme = f.read()
    table = readme.split("### Patterns", 1)[1].split("\n\n| id |", 1)[1].split("\n\n", 1)[0]
    rows = [line.split("|")[1] for line in table.splitlines()[1:] if line.startswith("| `")]
    documented = [i for row in rows for i in re.findall(r"`([a-z_]+)`", row)]
    check(documented == ids, f"the README's pattern table lists {documented}, not the catalog {ids}")
    check(note in " ".join(readme.replace("`", "").split()),
          f"the README lacks the overlap note '{note}'")

    help_text = subprocess.run([analyzer, "--help"], check=True, capture_output=True, text=True,
                               timeout=60).stdout
    listed = re.findall(r"^  ([a-z_]+)\s", help_text.split("Patterns:\n", 1)[1], re.M)
    check(listed == ids, f"--help lists the patterns {listed}, not the catalog {ids}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
