#!/usr/bin/python3
"""Traces one root-cause or POP example with mpirun and libcollwrap.so, analyzes the trace,
validates the report against the schema, and checks what the example's source announces.

    MPI_Send(...); /* @cause rank=0 short=1.0 long=2.0 gain=1.0 */
the top root cause (the first line to change) must be the compute segment that ends at this
line on that rank, with short- and long-term costs and the estimated gain near the given
seconds (the same bounds as the pattern examples: the machine is loaded and oversubscribed).
rank=any accepts every rank; basis=B also requires that gain_basis.

    @pop region=MPI_Pcontrol load_balance=0.625 serialization_efficiency=1.0
the POP efficiencies must be within 5 % of the given values (the region named exactly).

    @pcontrol 1 0
on every rank, the Enter records of MPI_Pcontrol, as otf2-print shows them, must carry the
PcontrolLevel attribute with these levels, in this order.

    @env COLLWRAP_CALLSITE_DEPTH=2
traces with these settings.

    exchange(value); /* @via */
the top root cause's call path must start at this line (with COLLWRAP_CALLSITE_DEPTH > 1).

    run_cause_example.py --mpirun M --preload LIB --analyzer A --schema-dir D --source C BINARY
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "patterns"))
import run_pattern_example as common  # noqa: E402

CAUSE = re.compile(r"@cause\s+([^*]*)\*/")
POP = re.compile(r"@pop\s+(.*)$")
PCONTROL = re.compile(r"@pcontrol\s+(.*)$")
ENV = re.compile(r"@env\s+(\S+)=(\S+)")
VIA = re.compile(r"@via\b")
LEVEL = re.compile(r'"PcontrolLevel" <\d+>; INT32; (-?\d+)')
POP_TOLERANCE = 0.05


def number_or_text(value):
    try:
        return float(value)
    except ValueError:
        return value


def announced(source):
    """(line, {key: value}) of the @cause comment or None (with "via": the @via line), {efficiency:
    value} of @pop, the levels of @pcontrol or None, the @env settings."""
    cause, pop, pcontrol, settings, via = None, {}, None, {}, None
    with open(source, encoding="utf-8") as f:
        for number, text in enumerate(f, start=1):
            if m := CAUSE.search(text):
                cause = (number, dict(kv.split("=", 1) for kv in m.group(1).split()))
            if m := ENV.search(text):
                settings[m.group(1)] = m.group(2)
            if VIA.search(text):
                via = number
            if m := POP.search(text):
                pop.update({k: number_or_text(v)
                            for k, v in (kv.split("=", 1) for kv in m.group(1).split())})
            if m := PCONTROL.search(text):
                pcontrol = [int(level) for level in m.group(1).split()]
    if cause and via:
        cause[1]["via"] = via
    return cause, pop, pcontrol, settings


def near(got, expected):
    return common.LOW * expected - common.SLACK_S <= got <= common.HIGH * expected + common.SLACK_S


def check_cause(report, source, cause):
    line, fields = cause
    causes = report["root_causes"]
    if not causes:
        return ["no root cause reported"]
    top = causes[0]
    name = os.path.basename(source)
    where = f"top root cause {os.path.basename(top['segment']['file'] or '')}:" \
            f"{top['segment']['line']} on rank {top['rank']}"
    rank = top["rank"] if fields["rank"] == "any" else int(fields["rank"])
    if (top["segment"]["line"], top["rank"], os.path.basename(top["segment"]["file"] or "")) != \
            (line, rank, name):
        return [f"{where}, expected {name}:{line} on rank {fields['rank']}"]
    failures = []
    if "basis" in fields and top["gain_basis"] != fields["basis"]:
        failures.append(f"{where}: gain_basis {top['gain_basis']}, expected {fields['basis']}")
    if "via" in fields:
        path = top["segment"]["call_path"]
        if not path or (path[0]["line"], os.path.basename(path[0]["file"] or "")) != \
                (fields["via"], name):
            failures.append(f"{where}: call path {path}, expected it to start at "
                            f"{name}:{fields['via']}")
        else:
            print(f"ok: {where}: called from {name}:{fields['via']}")
    for key, field in (("short", "short_term_cost_s"), ("long", "long_term_cost_s"),
                       ("gain", "gain_s")):
        got, expected = top[field], float(fields[key])
        if got is None or not near(got, expected):
            failures.append(f"{where}: {field} {got}, expected about {expected} s")
        else:
            print(f"ok: {where}: {field} {got:.3f} s (expected {expected} s)")
    delay = report["delay"]
    if delay["residual_s"] > 0.2 * delay["total_wait_s"] + common.SLACK_S:
        failures.append(f"residual {delay['residual_s']:.3f} s of {delay['total_wait_s']:.3f} s")
    return failures


def check_pop(report, pop):
    failures = []
    for key, expected in pop.items():
        got = report["pop"][key]
        if isinstance(expected, str):
            if got != expected:
                failures.append(f"pop {key} {got!r}, expected {expected!r}")
            else:
                print(f"ok: pop {key} {got}")
        elif abs(got - expected) > POP_TOLERANCE * expected:
            failures.append(f"pop {key} {got:.4f}, expected {expected} within 5 %")
        else:
            print(f"ok: pop {key} {got:.4f} (expected {expected})")
    return failures


def check_pcontrol(trace_dir, expected, ranks):
    """The levels otf2-print shows on each location's MPI_Pcontrol Enter records."""
    printed = subprocess.run(["otf2-print", os.path.join(trace_dir, "traces.otf2")],
                             capture_output=True, text=True, check=True).stdout.splitlines()
    levels = collections.defaultdict(list)
    for i, line in enumerate(printed):
        fields = line.split()
        if fields[:1] == ["ENTER"] and '"MPI_Pcontrol"' in line:
            m = LEVEL.search(printed[i + 1]) if i + 1 < len(printed) else None
            levels[fields[1]].append(int(m.group(1)) if m else None)
    if len(levels) != ranks or any(got != expected for got in levels.values()):
        return [f"PcontrolLevel per location {dict(levels)}, expected {expected} on {ranks}"]
    print(f"ok: PcontrolLevel {expected} on {ranks} locations")
    return []


def main():
    args = common.example_arguments().parse_args()
    workdir = tempfile.mkdtemp(prefix="collwrap-" + os.path.basename(args.binary) + "-")
    cause, pop, pcontrol, settings = announced(args.source)
    trace_dir = common.trace(args, workdir, settings=settings)
    report = common.analyze(args, trace_dir, workdir)
    failures = common.schema_failures(report, args.schema_dir)
    if cause:
        failures += check_cause(report, args.source, cause)
    failures += check_pop(report, pop)
    if pcontrol:
        failures += check_pcontrol(trace_dir, pcontrol, args.np)
    if not cause and not pop:
        failures.append("the example announces nothing to check")
    return common.finish(failures, workdir)


if __name__ == "__main__":
    sys.exit(main())
