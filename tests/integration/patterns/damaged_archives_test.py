#!/usr/bin/python3
"""The analyzer on damaged copies of real archives: the two damages that once went through
silently, then a fixed-seed sample of random damage (bit flips, overwritten bytes, cuts,
deleted and swapped files).

Every run must end by itself (no crash, no hang) with exit 0, 1 or 2 and, unless 0, an
"analyzer: " message; a finished report must hold no finding whose wait (wait_time_s, total
or max_wait_s) is longer than the trace it comes from: neither its own span nor the intact
archive's. The two known damages must be named in a warning.

    damaged_archives_test.py trace --mpirun M --preload LIB --out DIR EXAMPLE...
    damaged_archives_test.py check --analyzer A --archives DIR [--mutations N] [--sanitized]
                                   [--otf2-print O]

`trace` records each example program's archive into DIR/<name>; `check` damages copies of
them. With --sanitized, the analyzer is an AddressSanitizer + UndefinedBehaviorSanitizer
build and any sanitizer report fails the run.
"""
import argparse
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

# A sanitizer that stops the analyzer exits with this status, distinct from the analyzer's own.
SANITIZER_EXIT = 86
# Errors only: with allocator_may_return_null, a refused allocation is a WARNING the analyzer
# goes on from.
SANITIZER_SIGNS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")
# The reader accepts timestamps within the trace the archive's clock properties record (plus
# 1 % and 1 ms); that recorded length can be longer than the span of the events the analyzer
# reads (the tracer counts from its own first clock reading), so the bound on a damaged copy's
# span is loose. Damage without the check made traces of billions of seconds.
SPAN_SLACK, SPAN_SLACK_S = 2.0, 1.0


def trace_examples(args):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    os.makedirs(args.out, exist_ok=True)
    for example in args.examples:
        trace_dir = os.path.join(args.out, os.path.basename(example))
        shutil.rmtree(trace_dir, ignore_errors=True)
        env["COLLWRAP_TRACE_DIR"] = trace_dir
        subprocess.run([args.mpirun, "-np", "4", "--oversubscribe", "-x",
                        "LD_PRELOAD=" + args.preload, "-x", "COLLWRAP_TRACE_DIR", example],
                       env=env, cwd=args.out, check=True, capture_output=True, timeout=240)
    return 0


class Checker:
    def __init__(self, args, workdir):
        self.args = args
        self.workdir = workdir
        self.env = dict(os.environ)
        if args.sanitized:
            here = os.path.dirname(os.path.abspath(__file__))
            # A damaged size can make OTF2 ask for gigabytes: the analyzer must get a null
            # pointer and warn, as without the sanitizer, rather than be stopped.
            self.env["ASAN_OPTIONS"] = (f"exitcode={SANITIZER_EXIT}:allocator_may_return_null=1:"
                                        "detect_leaks=1")
            self.env["UBSAN_OPTIONS"] = f"exitcode={SANITIZER_EXIT}:print_stacktrace=1"
            self.env["LSAN_OPTIONS"] = "suppressions=" + os.path.join(here, "otf2_leaks.supp")
        self.failures = []
        self.runs = 0

    def analyze(self, trace, label):
        """(exit status, report or None, stderr); records failures of the contract."""
        report_path = os.path.join(self.workdir, "report.json")
        if os.path.exists(report_path):
            os.remove(report_path)
        self.runs += 1
        try:
            run = subprocess.run([self.args.analyzer, trace, "--quiet", "--json", report_path],
                                 capture_output=True, text=True, errors="replace",
                                 env=self.env, timeout=self.args.timeout)
        except subprocess.TimeoutExpired:
            self.failures.append(f"{label}: no answer within {self.args.timeout} s")
            return None, None, ""
        if any(sign in run.stderr for sign in SANITIZER_SIGNS):
            self.failures.append(f"{label}: sanitizer report:\n{run.stderr[-3000:]}")
        elif run.returncode not in (0, 1, 2):
            self.failures.append(f"{label}: exit {run.returncode}\n{run.stderr[-2000:]}")
        elif run.returncode != 0 and not run.stderr.startswith("analyzer: "):
            self.failures.append(f"{label}: exit {run.returncode} without an 'analyzer: ' "
                                 f"message: {run.stderr[:500]!r}")
        report = None
        if run.returncode == 0:
            with open(report_path, encoding="utf-8") as f:
                report = json.load(f)
        return run.returncode, report, run.stderr

    def check_spans(self, report, intact_span_s, label):
        own_span_s = report["trace"]["duration_s"]
        limit_s = min(own_span_s, intact_span_s * SPAN_SLACK + SPAN_SLACK_S) + 1e-9
        if own_span_s > intact_span_s * SPAN_SLACK + SPAN_SLACK_S:
            self.failures.append(f"{label}: a trace of {own_span_s} s from an archive of "
                                 f"{intact_span_s} s")
        for f in report["findings"]:
            for field in ("wait_time_s", "max_wait_s"):
                if f[field] > limit_s:
                    self.failures.append(
                        f"{label}: {f['pattern']} on rank {f['rank']} has {field} = "
                        f"{f[field]} s, longer than the trace ({own_span_s} s; intact "
                        f"{intact_span_s} s)")


def damaged_copy(original, workdir):
    copy = os.path.join(workdir, "damaged")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(original, copy)
    return copy


def rewrite(path, change):
    with open(path, "rb") as f:
        data = bytearray(f.read())
    change(data)
    with open(path, "wb") as f:
        f.write(data)


def clock_offsets(otf2_print, anchor):
    """{location id: [offset, ...]} from the ClockOffset records, as OTF2's own otf2-print -C
    lists them."""
    listing = subprocess.run([otf2_print, "-C", anchor], capture_output=True, text=True,
                             check=True, timeout=60).stdout
    offsets = {}
    for line in listing.splitlines():
        match = re.match(r"CLOCK_OFFSET\s+(\d+)\s+Time: \d+, Offset: ([+-]?\d+)", line)
        if match:
            offsets.setdefault(int(match.group(1)), []).append(int(match.group(2)))
    return offsets


def negative_clock_offset_top_byte(data, offsets):
    """The most significant byte of a negative ClockOffset value of a location in its
    definitions file, and the value. OTF2 writes a negative int64 in full, little endian, so it
    is found by its eight bytes where they occur once; other fields may hold 0xff bytes too.
    (In the archive of the original report this was the byte at offset 76.)"""
    for value in (v for v in offsets if v < 0):
        encoded = struct.pack("<q", value)
        if data.count(encoded) == 1:
            return data.find(encoded) + 7, value
    return None, None


def event_timestamp(data):
    """The offset of a timestamp in the middle of an event file: OTF2 writes a TIMESTAMP record
    (0x05) then the time as a little-endian uint64; the first follows the 18-byte chunk header."""
    first = struct.unpack_from("<Q", data, 19)[0]
    found = [i + 1 for i in range(18, len(data) - 9)
             if data[i] == 0x05 and abs(struct.unpack_from("<Q", data, i + 1)[0] - first) < 10**12]
    return found[len(found) // 2]


def check_known_damage(checker, balanced, span_s):
    """The two damages of the original report, in the balanced example's archive."""
    traces = os.path.join(balanced, "traces")
    offsets = clock_offsets(checker.args.otf2_print, os.path.join(balanced, "traces.otf2"))
    for location in (3, 1, 2, 0):  # rank 3's first, as reported
        name = f"{location}.def"
        with open(os.path.join(traces, name), "rb") as f:
            top, value = negative_clock_offset_top_byte(f.read(), offsets.get(location, []))
        if top is not None:
            break
    else:
        checker.failures.append(
            f"no negative clock offset found in the balanced archive's definitions: {offsets}")
        return
    cases = [(f"traces/{name} byte {top} 0xff -> 0x7f (top byte of the clock offset {value} ns)",
              os.path.join("traces", name), lambda d: d.__setitem__(top, 0x7F), str(location)),
             ("five bytes of a timestamp in traces/1.evt overwritten with 0x7f",
              os.path.join("traces", "1.evt"),
              lambda d: d.__setitem__(slice(event_timestamp(d) + 3, event_timestamp(d) + 8),
                                      b"\x7f" * 5), "1")]
    for label, file, change, location in cases:
        trace = damaged_copy(balanced, checker.workdir)
        rewrite(os.path.join(trace, file), change)
        status, report, stderr = checker.analyze(trace, label)
        if status != 0:
            checker.failures.append(f"{label}: exit {status}, expected 0 with a warning: {stderr}")
            continue
        checker.check_spans(report, span_s, label)
        named = [w for w in report["summary"]["warnings"]
                 if f"traces/{location}." in w and "record #" in w]
        if not named:
            checker.failures.append(f"{label}: no warning names the location and record: "
                                    f"{report['summary']['warnings']}")
        else:
            print(f"ok: {label}: {named[0]}")


MUTATIONS = ("flip bits", "overwrite bytes", "overwrite with 0x7f", "truncate", "delete file",
             "swap files")


def mutate(trace, rng):
    """Damages one file of the archive copy at random; a description of the damage."""
    files = sorted(os.path.relpath(os.path.join(d, f), trace)
                   for d, _, names in os.walk(trace) for f in names)
    kind = rng.choice(MUTATIONS)
    target = rng.choice(files)
    path = os.path.join(trace, target)
    size = os.path.getsize(path)
    if kind == "delete file":
        os.remove(path)
        return f"{kind} {target}"
    if kind == "swap files":
        other = rng.choice([f for f in files if f != target])
        swap = path + ".swap"
        os.rename(path, swap)
        os.rename(os.path.join(trace, other), path)
        os.rename(swap, os.path.join(trace, other))
        return f"{kind} {target} and {other}"
    if size == 0:
        return f"nothing ({target} is empty)"
    if kind == "truncate":
        length = rng.randrange(size)
        os.truncate(path, length)
        return f"{kind} {target} to {length} bytes"
    offsets = []

    def change(data):
        for _ in range(rng.randint(1, 8)):
            at = rng.randrange(len(data))
            offsets.append(at)
            if kind == "flip bits":
                data[at] ^= 1 << rng.randrange(8)
            elif kind == "overwrite bytes":
                data[at] = rng.randrange(256)
            else:
                data[at:at + 5] = b"\x7f" * len(data[at:at + 5])

    rewrite(path, change)
    return f"{kind} in {target} at {offsets}"


def check_examples(args):
    workdir = tempfile.mkdtemp(prefix="collwrap-damaged-")
    checker = Checker(args, workdir)
    started = time.monotonic()
    archives = sorted(os.path.join(args.archives, name) for name in os.listdir(args.archives))
    spans = {}
    for archive in archives:
        status, report, stderr = checker.analyze(archive, "intact " + os.path.basename(archive))
        if status != 0:
            print(f"FAIL: the intact archive {archive} exits {status}: {stderr}")
            return 1
        spans[archive] = report["trace"]["duration_s"]
        checker.check_spans(report, spans[archive], "intact " + os.path.basename(archive))
    balanced = [a for a in archives if os.path.basename(a) == "balanced"]
    if balanced:
        check_known_damage(checker, balanced[0], spans[balanced[0]])

    rng = random.Random(args.seed)
    statuses = {}
    for i in range(args.mutations):
        archive = rng.choice(archives)
        trace = damaged_copy(archive, workdir)
        label = f"mutation #{i} of {os.path.basename(archive)}: {mutate(trace, rng)}"
        status, report, _ = checker.analyze(trace, label)
        statuses[status] = statuses.get(status, 0) + 1
        if report is not None:
            checker.check_spans(report, spans[archive], label)
    elapsed = time.monotonic() - started
    print(f"{checker.runs} analyzer runs in {elapsed:.1f} s; exit statuses of the "
          f"{args.mutations} random mutations: {statuses}")
    if checker.failures:
        print("\n".join("FAIL: " + f for f in checker.failures))
        print(f"(damaged copies in {workdir})")
        return 1
    # The sample must damage for real: some runs end in an error, some read past damage.
    if args.mutations >= 50 and (statuses.get(1, 0) == 0 or statuses.get(0, 0) == 0):
        print(f"FAIL: the random damage is too mild or too harsh: {statuses}")
        return 1
    shutil.rmtree(workdir)
    return 0


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    trace = sub.add_parser("trace")
    trace.add_argument("examples", nargs="+")
    trace.add_argument("--mpirun", required=True)
    trace.add_argument("--preload", required=True)
    trace.add_argument("--out", required=True)
    check = sub.add_parser("check")
    check.add_argument("--analyzer", required=True)
    check.add_argument("--archives", required=True)
    check.add_argument("--mutations", type=int, default=300)
    check.add_argument("--seed", type=int, default=20261124)
    check.add_argument("--timeout", type=float, default=60)
    check.add_argument("--sanitized", action="store_true")
    check.add_argument("--otf2-print", default="otf2-print")
    args = parser.parse_args()
    return trace_examples(args) if args.command == "trace" else check_examples(args)


if __name__ == "__main__":
    sys.exit(main())
