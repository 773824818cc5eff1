#!/usr/bin/python3
"""Prints the tracer overhead figures from two tracer_overhead runs and the traced archive.

usage: summarize_overhead.py PLAIN_OUTPUT TRACED_OUTPUT TCP_OUTPUT TRACE_DIR
"""
import os
import sys

import otf2

TARGET_NS_PER_CALL = 60
TARGET_PING_PONG_PERCENT = 5
TARGET_BYTES_PER_EVENT = 12


def figures(path):
    values = {}
    with open(path) as f:
        for line in f:
            name, *numbers = line.split()
            values[name] = [float(n) for n in numbers]
    return values


def archive_bytes_and_events(trace_dir):
    size = sum(os.path.getsize(os.path.join(root, name))
               for root, _, names in os.walk(trace_dir) for name in names)
    with otf2.reader.open(os.path.join(trace_dir, "traces.otf2")) as reader:
        events = sum(location.number_of_events for location in reader.definitions.locations)
    return size, events


def verdict(value, target):
    return "ok" if value <= target else "over target"


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    plain, traced, tcp = figures(sys.argv[1]), figures(sys.argv[2]), figures(sys.argv[3])
    size, events = archive_bytes_and_events(sys.argv[4])

    rank_untraced, rank_traced = traced["comm_rank_ns"]
    per_call = rank_traced - rank_untraced
    sustained_untraced, sustained_traced = traced["comm_rank_sustained_ns"]
    per_call_sustained = sustained_traced - sustained_untraced
    pair_untraced, pair_traced = traced["self_send_recv_ns"]
    per_p2p_call = (pair_traced - pair_untraced) / 2
    pong_untraced, pong_traced = traced["ping_pong_us"]
    pong_percent = 100 * (pong_traced - pong_untraced) / pong_untraced
    tcp_untraced, tcp_traced = tcp["ping_pong_us"]
    tcp_percent = 100 * (tcp_traced - tcp_untraced) / tcp_untraced
    noise_ns = plain["comm_rank_ns"][1] - plain["comm_rank_ns"][0]
    noise_pong = 100 * (plain["ping_pong_us"][1] - plain["ping_pong_us"][0]) / plain["ping_pong_us"][0]
    bytes_per_event = size / events

    print("tracer overhead (best block; untraced = PMPI_* calls in the same traced run)")
    print(f"  MPI_Comm_rank:        {rank_untraced:8.1f} ns untraced, {rank_traced:8.1f} ns traced: "
          f"+{per_call:.1f} ns per call (target <= {TARGET_NS_PER_CALL}: "
          f"{verdict(per_call, TARGET_NS_PER_CALL)})")
    print(f"  the same, 2 M calls:  {sustained_untraced:8.1f} ns untraced, "
          f"{sustained_traced:8.1f} ns traced: +{per_call_sustained:.1f} ns per call with the "
          f"event buffer written to disk (bound by the file system's write speed)")
    print(f"  0-byte send+recv self: {pair_untraced:7.1f} ns untraced, {pair_traced:8.1f} ns traced: "
          f"+{per_p2p_call:.1f} ns per call")
    for transport, untraced, traced_us, percent in (
            ("shared memory", pong_untraced, pong_traced, pong_percent),
            ("TCP loopback", tcp_untraced, tcp_traced, tcp_percent)):
        print(f"  1-byte ping-pong, {transport + ':':14} {untraced:6.2f} us untraced, "
              f"{traced_us:6.2f} us traced: {percent:+.1f} % (target <= "
              f"{TARGET_PING_PONG_PERCENT} %: {verdict(percent, TARGET_PING_PONG_PERCENT)})")
    print(f"  trace size:           {size} bytes for {events} events: {bytes_per_event:.1f} bytes "
          f"per event (target <= {TARGET_BYTES_PER_EVENT}: "
          f"{verdict(bytes_per_event, TARGET_BYTES_PER_EVENT)})")
    print(f"  noise floor (no preload): {noise_ns:+.1f} ns per call, {noise_pong:+.1f} % ping-pong")
    return 0


if __name__ == "__main__":
    sys.exit(main())
