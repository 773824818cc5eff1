#!/usr/bin/env python3
"""Runs the backend smoke program on 4 ranks under each COLLWRAP_CLOCKSYNC algorithm (linear,
ring, tree) with COLLWRAP_TIMER=monotonic, and checks that every location has two ClockOffsets
with plausible values and that the algorithms agree. All ranks share one host and one
CLOCK_MONOTONIC, so every true offset is 0: a measured offset far from it is an error."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verify_smoke_archive as smoke  # noqa: E402

ALGORITHMS = ["linear", "ring", "tree"]
PLAUSIBLE_NS = 100_000  # |offset| on one host; a loaded, oversubscribed machine adds noise
AGREEMENT_NS = 50_000   # between algorithms, per rank


def rank_offsets(args, algorithm):
    """Offsets (ns) of each rank's main location, at MPI_Init and at MPI_Finalize."""
    os.environ.update(COLLWRAP_CLOCKSYNC=algorithm, COLLWRAP_TIMER="monotonic")
    trace_dir = os.path.join(args.workdir, algorithm)
    result = smoke.run_program(args, "finalize", trace_dir)
    if not smoke.check(result.returncode == 0, f"{algorithm}: mpirun failed: {result.stderr}"):
        return {}
    offsets = smoke.clock_offsets(os.path.join(trace_dir, "traces.otf2"))
    smoke.check(len(offsets) == smoke.THREADS * smoke.RANKS,
                f"{algorithm}: clock offsets for {len(offsets)} locations")
    by_rank = {}
    for loc, records in offsets.items():
        smoke.check(len(records) == 2, f"{algorithm}: location {loc}: {len(records)} offsets")
        for _, offset, stddev in records:
            smoke.check(abs(offset) < PLAUSIBLE_NS, f"{algorithm}: location {loc}: offset {offset}")
            # COLLWRAP_TIMER=monotonic: offsets and their standard deviations are nanoseconds.
            # A round trip between two processes takes far more than a nanosecond.
            least = 0 if loc & 0xFFFFFFFF == 0 else 1
            smoke.check(least <= stddev < PLAUSIBLE_NS, f"{algorithm}: location {loc}: stddev")
        by_rank.setdefault(loc & 0xFFFFFFFF, [offset for _, offset, _ in records])
    smoke.check(by_rank.get(0) == [0, 0], f"{algorithm}: rank 0 must have offset 0")
    return by_rank


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--program", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--mpirun", required=True, help="mpirun command, ';'-separated")
    args = parser.parse_args()
    results = {algorithm: rank_offsets(args, algorithm) for algorithm in ALGORITHMS}
    for rank in range(smoke.RANKS):
        for when in range(2):
            values = [results[a][rank][when] for a in ALGORITHMS if rank in results[a]]
            smoke.check(len(values) < 2 or max(values) - min(values) < AGREEMENT_NS,
                        f"rank {rank}: algorithms disagree: {values}")
    for failure in smoke.failures:
        print("FAIL:", failure)
    return 1 if smoke.failures else 0


if __name__ == "__main__":
    sys.exit(main())
