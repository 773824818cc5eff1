// large_communication: one-sided transfers large enough that their call lasted long, time an
// asynchronous transfer overlapped with computation could hide (Akopyan and Andreev, ISP RAS,
// data-transfer patterns of UPC programs: large messages).
#include "catalog.h"
#include "trace_access.h"

namespace collwrap {
namespace {

// large_communication (a possible saving, not idle time)
//   time = End − Start of each call with a put or get of at least large_transfer_bytes
//   (64 KiB); --min-wait drops the calls that were quick anyway. Nonblocking forms
//   (shmem_putmem_nbi, MPI_Put) return at once and are already overlapped.
// MPI point-to-point messages are left to late_sender/late_receiver: their long calls are
// waits for the peer, not transfer time.
void find_large_communication(const RuleContext& context, InstanceSink& sink) {
  const Trace& trace = context.trace;
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    for (std::uint32_t call = 0; call < l.calls(); ++call) {
      for (const std::uint32_t op : ops_of_call(trace, loc, call)) {
        const OpKind kind = l.op_kind[op];
        if (kind != OpKind::RmaPut && kind != OpKind::RmaGet) continue;
        const std::uint64_t bytes = l.bytes_sent(op) + l.bytes_received(op);
        if (bytes < context.options.large_transfer_bytes || l.op_peer[op] == kNoWorldRank) continue;
        const Peer peer[] = {{l.op_peer[op]}};  // the passive target: no thread of its own
        sink.add({&kLargeCommunication,
                  loc,
                  call,
                  l.call_leave[call] - l.call_enter[call],
                  peer,
                  {.transfers = 1, .transfer_bytes = bytes}});
        break;  // one transfer per call
      }
    }
  }
}

}  // namespace

const Pattern kLargeCommunication{
    .id = "large_communication",
    .waiting = false,
    .description =
        "A put or get of at least 64 KiB (OpenSHMEM, UPC, MPI windows) kept its call busy "
        "moving the data.",
    .formula = "End − Start of the transfer call",
    .peer_role = "target",
    .recommendation =
        "Overlap the transfer with computation: issue it non-blocking (shmem_putmem_nbi / "
        "shmem_getmem_nbi, upc_memput_nb) early and complete it with shmem_quiet (upc_sync) "
        "just before the data is needed, or split it into chunks pipelined with the work on "
        "them.",
    .find = find_large_communication,
    .reach = RuleReach::OwnLocation,
};

}  // namespace collwrap
