#!/usr/bin/python3
"""Prints the instructions the tracer adds per call from run_added_instructions.sh's profiles.

Each profile is `callgrind_annotate --inclusive=yes` of one call_family_loop run (rank 0,
traced): the inclusive instructions of traced_block (the MPI_* loops) minus those of
untraced_block (the PMPI_* loops), divided by the calls the blocks made.

usage: summarize_added_instructions.py CALLS PROFILE_DIR FAMILY...
"""
import re
import sys

BLOCKS = 10  # call_family_loop's kBlocks
# MPI calls per loop iteration, as call_family_loop counts them (ping_pong: per round trip).
CALLS_PER_ITERATION = {"comm_rank": 1, "iprobe": 1, "test": 1, "testall": 1, "send_recv": 2,
                       "isend_wait": 4, "allreduce": 1, "ping_pong": 1}


def block_instructions(text, block):
    """Inclusive instructions of the function `block` in callgrind_annotate's output: the sum
    of its per-file parts (inlined code is listed under its own file), not the call lines
    ("=> ...") of a source annotation."""
    pattern = re.compile(r"^\s*([\d,]+) \([ \d.]+%\)\s+[^=\s][^\n]*:\(anonymous namespace\)::" +
                         block + r"\(", re.M)
    return sum(int(m.group(1).replace(",", "")) for m in pattern.finditer(text))


def added_per_call(text, family, calls):
    iterations = max(BLOCKS, calls) // BLOCKS * BLOCKS
    traced = block_instructions(text, "traced_block")
    untraced = block_instructions(text, "untraced_block")
    if not traced or not untraced:
        return None
    return (traced - untraced) / (iterations * CALLS_PER_ITERATION[family])


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    calls, directory = int(sys.argv[1]), sys.argv[2]
    print(f"{'family':<11} {'added':>7}   (instructions per call; ping_pong: per round trip)")
    status = 0
    for family in sys.argv[3:]:
        with open(f"{directory}/{family}.txt", encoding="utf-8") as f:
            added = added_per_call(f.read(), family, calls)
        if added is None:
            print(f"{family:<11} {'?':>7}   (blocks not found in the profile)")
            status = 1
        else:
            print(f"{family:<11} {added:>7.0f}")
    return status


if __name__ == "__main__":
    sys.exit(main())
