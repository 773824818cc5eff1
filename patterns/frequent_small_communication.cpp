// frequent_small_communication: many small one-sided transfers from one call site to the same
// process that could be one larger transfer (Akopyan and Andreev, ISP RAS, data-transfer
// patterns of UPC programs: frequent communication).
#include <map>
#include <tuple>

#include "catalog.h"
#include "trace_access.h"

namespace collwrap {
namespace {

// A transfer of at most this many bytes costs mostly its fixed overhead.
constexpr std::uint64_t kSmallBytes = 256;
// At least this many such transfers from one call site to one process make a finding.
constexpr std::uint64_t kManyTransfers = 100;

struct Group {
  std::uint32_t first_call = kNone;
  std::uint64_t transfers = 0;
  std::uint64_t bytes = 0;
  TimeNs time = 0;
};

// frequent_small_communication (a possible saving, not idle time)
//   time = Σ (End − Start) of the calls with puts or gets of ≤ 256 bytes from one call site to
//   one process, when there are at least 100 of them; reported once per (call site, process)
//   at the first call, with the number of transfers and their bytes.
void find_frequent_small_communication(const RuleContext& context, InstanceSink& sink) {
  const Trace& trace = context.trace;
  for (std::uint32_t loc = 0; loc < trace.locations.size(); ++loc) {
    const Location& l = trace.locations[loc];
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::int32_t>, Group> groups;
    for (std::uint32_t call = 0; call < l.calls(); ++call) {
      for (const std::uint32_t op : ops_of_call(trace, loc, call)) {
        const OpKind kind = l.op_kind[op];
        if (kind != OpKind::RmaPut && kind != OpKind::RmaGet) continue;
        const std::uint64_t bytes = l.bytes_sent(op) + l.bytes_received(op);
        if (bytes > kSmallBytes || l.op_peer[op] == kNoWorldRank) continue;
        Group& g = groups[{l.call_callsite[call], l.call_region[call], l.op_peer[op]}];
        if (g.first_call == kNone) g.first_call = call;
        ++g.transfers;
        g.bytes += bytes;
        g.time += l.call_leave[call] - l.call_enter[call];
        break;  // one transfer per call
      }
    }
    for (const auto& [key, g] : groups) {
      if (g.transfers < kManyTransfers) continue;
      const Peer peer[] = {{std::get<2>(key)}};  // a passive target: no thread of it
      sink.add({&kFrequentSmallCommunication,
                loc,
                g.first_call,
                g.time,
                peer,
                {.transfers = g.transfers, .transfer_bytes = g.bytes}});
    }
  }
}

}  // namespace

const Pattern kFrequentSmallCommunication{
    .id = "frequent_small_communication",
    .waiting = false,
    .description =
        "Many small one-sided transfers (puts or gets of at most 256 bytes, at least 100) went "
        "from "
        "one call site to the same process.",
    .formula = "Σ (End − Start) of those transfer calls",
    .peer_role = "target",
    .recommendation =
        "Aggregate the values in a local buffer and move them with one shmem_putmem / "
        "shmem_getmem (upc_memput / upc_memget), or use the non-blocking _nbi forms and one "
        "shmem_quiet.",
    .find = find_frequent_small_communication,
    .reach = RuleReach::OwnLocation,
};

}  // namespace collwrap
