#!/usr/bin/python3
"""Prints the whole-run tracer overhead table from run_whole_run_overhead.sh's run lines.

Each input line is "untraced|traced FAMILY MPI_NS PMPI_NS" (one call_family_loop run). The
table gives, per family, the median over runs of the untraced and traced runs' MPI_* figure,
their difference, and the in-process figure: the traced runs' median of MPI_* minus PMPI_*.

usage: summarize_whole_run.py RUNS_FILE
"""
import statistics
import sys

TARGET_ADDED_NS_PER_CALL = 40
# A ping-pong round trip has two calls of each rank on its critical path; the target allows
# two calls' worth.
TARGET_ADDED_NS_PER_ROUND_TRIP = 2 * TARGET_ADDED_NS_PER_CALL


def target(family):
    return TARGET_ADDED_NS_PER_ROUND_TRIP if family == "ping_pong" else TARGET_ADDED_NS_PER_CALL


def read_runs(path):
    runs = {}
    with open(path) as f:
        for line in f:
            kind, family, mpi_ns, pmpi_ns = line.split()
            runs.setdefault(family, {"untraced": [], "traced": []})[kind].append(
                (float(mpi_ns), float(pmpi_ns)))
    return runs


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    runs = read_runs(sys.argv[1])
    print(f"{'family':<11} {'pairs':>5} {'untraced':>9} {'traced':>9} {'added':>8} "
          f"{'in-process':>10} {'target':>7}   (ns per call; ping_pong: ns per round trip)")
    for family, kinds in runs.items():
        untraced = statistics.median(mpi for mpi, _ in kinds["untraced"])
        traced = statistics.median(mpi for mpi, _ in kinds["traced"])
        in_process = statistics.median(mpi - pmpi for mpi, pmpi in kinds["traced"])
        pairs = min(len(kinds["untraced"]), len(kinds["traced"]))
        added = traced - untraced
        verdict = "met" if added <= target(family) else "above"
        print(f"{family:<11} {pairs:>5} {untraced:>9.1f} {traced:>9.1f} {added:>+8.1f} "
              f"{in_process:>+10.1f} {'<=' + str(target(family)):>7} {verdict}")
    print(f"target: <= {TARGET_ADDED_NS_PER_CALL} ns added per call; ping-pong <= two calls' "
          f"worth ({TARGET_ADDED_NS_PER_ROUND_TRIP} ns) per round trip")
    return 0


if __name__ == "__main__":
    sys.exit(main())
