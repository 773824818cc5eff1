#!/usr/bin/env python3
"""Runs record_rma (a paradigm-free program that writes one of each RMA record through the
recording layer) and reads its archive back with otf2-print: the archive must be valid
(-Werror), hold every RMA record in order, and define the SHMEM paradigm, its regions, the
team's Comm and the window."""
import argparse
import os
import re
import shutil
import subprocess
import sys

RECORDS = ["ENTER", "RMA_WIN_CREATE", "RMA_PUT", "RMA_OP_COMPLETE_BLOCKING", "RMA_GET",
           "RMA_OP_COMPLETE_NON_BLOCKING", "RMA_ATOMIC", "RMA_OP_COMPLETE_REMOTE",
           "RMA_COLLECTIVE_BEGIN", "RMA_COLLECTIVE_END", "RMA_GROUP_SYNC", "RMA_REQUEST_LOCK",
           "RMA_ACQUIRE_LOCK", "RMA_TRY_LOCK", "RMA_RELEASE_LOCK", "RMA_SYNC", "RMA_WAIT_CHANGE",
           "RMA_WIN_DESTROY", "LEAVE"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--program", required=True)
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)
    trace = os.path.join(args.workdir, "trace")
    env = dict(os.environ, COLLWRAP_TRACE_DIR=trace)
    run = subprocess.run([args.program], env=env, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"record_rma failed ({run.returncode}): {run.stderr}")
    anchor = os.path.join(trace, "traces.otf2")
    printed = subprocess.run(["otf2-print", "-Werror", anchor], capture_output=True, text=True)
    if printed.returncode != 0:
        sys.exit(f"otf2-print rejected the archive: {printed.stderr}")
    events = [line.split()[0] for line in printed.stdout.splitlines()
              if re.match(r"^[A-Z_]+\s+\d+\s+\d+", line)]
    # The init region's Enter/Leave come first, the finalize region's last.
    rma = events[2:-2]
    if rma != RECORDS:
        sys.exit(f"records differ:\n  expected {RECORDS}\n  got      {rma}")
    # The team's local GroupRef is mapped to its global COMM_GROUP (Group 1).
    if not re.search(r'RMA_GROUP_SYNC\s.*Group: "" <1>', printed.stdout):
        sys.exit("RmaGroupSync does not name the team's group")
    defs = subprocess.run(["otf2-print", "-G", anchor], capture_output=True, text=True).stdout
    expected = [r'PARADIGM\s.*"SHMEM"', r'REGION\s.*"shmem_putmem".*Paradigm: "SHMEM"',
                r'GROUP\s+1\s.*Type: COMM_GROUP, Paradigm: "SHMEM"',
                r'COMM\s.*"SHMEM_TEAM_WORLD".*Group: "" <1>',
                r'RMA_WIN\s.*"symmetric heap".*Communicator: "SHMEM_TEAM_WORLD"',
                r'LOCATION_GROUP\s.*"PE 0"']
    missing = [e for e in expected if not re.search(e, defs)]
    if missing:
        sys.exit(f"definitions lack {missing}:\n{defs}")
    print(f"{len(rma)} RMA records and the SHMEM definitions read back")


if __name__ == "__main__":
    main()
