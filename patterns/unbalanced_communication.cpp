// unbalanced_communication: a process pair that moved far more data than the others
// (Akopyan and Andreev, ISP RAS, data-transfer patterns of UPC programs: unbalanced
// communication). They compare the time threads spend in the same communication operation;
// that difference is what the wait-state patterns already measure, so here the imbalance is
// taken at its source, the bytes each pair moved, as the communication matrix shows them.
#include <map>
#include <utility>

#include "catalog.h"
#include "trace_access.h"
#include "transfers.h"

namespace collwrap {
namespace {

// The transfers of one call site, on the process that issued them, within a pair.
struct Site {
  std::uint32_t loc = kNone;
  std::uint32_t first_call = kNone;
  std::uint64_t bytes = 0;
};

struct PairTraffic {
  std::uint64_t bytes = 0;
  std::uint64_t transfers = 0;
  TimeNs time = 0;                                                // in the issuing calls
  std::map<std::pair<std::uint32_t, std::uint32_t>, Site> sites;  // by (loc, callsite)
};

using Pairs = std::map<std::pair<std::int32_t, std::int32_t>, PairTraffic>;

Pairs pair_traffic(const Trace& trace, const Matching& matching) {
  Pairs pairs;
  for_each_transfer(trace, matching, [&](const Transfer& t) {
    if (t.from == kNoWorldRank || t.to == kNoWorldRank || t.from == t.to) return;
    PairTraffic& p = pairs[{t.from, t.to}];
    p.bytes += t.bytes;
    ++p.transfers;
    const Location& l = trace.locations[t.issued.loc];
    p.time += std::max<TimeNs>(0, l.call_leave[t.call] - l.call_enter[t.call]);
    Site& site = p.sites[{t.issued.loc, l.call_callsite[t.call]}];
    if (site.first_call == kNone) site = {t.issued.loc, t.call, 0};
    site.bytes += t.bytes;
  });
  return pairs;
}

// unbalanced_communication (a possible saving, not idle time)
//   a pair (from → to) is unbalanced when bytes(pair) ≥ factor × mean bytes over the pairs
//   that communicated (factor 2);
//   time = Σ (End − Start) of the pair's issuing calls × (bytes − mean) / bytes, the share of
//   its transfer time spent on the volume above the mean;
// reported once per pair at the call site that issued most of its bytes, on the process that
// issued them (the sender, the origin of a put, or of a get: then the receiver), with the
// other process of the pair as peer. Matched MPI messages count as well as one-sided transfers.
void find_unbalanced_communication(const RuleContext& context, InstanceSink& sink) {
  const Pairs pairs = pair_traffic(context.trace, context.matching);
  if (pairs.empty()) return;
  std::uint64_t total = 0;
  for (const auto& [key, p] : pairs) total += p.bytes;
  const double mean = static_cast<double>(total) / static_cast<double>(pairs.size());
  for (const auto& [key, p] : pairs) {
    const double bytes = static_cast<double>(p.bytes);
    if (bytes == 0 || bytes < context.options.unbalanced_factor * mean) continue;
    const Site* top = nullptr;
    for (const auto& [where, site] : p.sites)
      if (top == nullptr || site.bytes > top->bytes) top = &site;
    const std::int32_t issuer = rank_of(context.trace, top->loc);
    const Peer peer[] = {{issuer == key.first ? key.second : key.first}};
    const auto excess = static_cast<TimeNs>(static_cast<double>(p.time) * (bytes - mean) / bytes);
    sink.add({&kUnbalancedCommunication,
              top->loc,
              top->first_call,
              excess,
              peer,
              {.transfers = p.transfers,
               .transfer_bytes = p.bytes,
               .mean_pair_bytes = static_cast<std::uint64_t>(mean)}});
  }
}

}  // namespace

const Pattern kUnbalancedCommunication{
    .id = "unbalanced_communication",
    .waiting = false,
    .description =
        "One process pair moved at least twice the mean bytes of the pairs that communicated "
        "(messages and one-sided transfers, in the direction the data went).",
    .formula = "Σ (End − Start) of the pair's transfer calls × (bytes − mean) / bytes",
    .peer_role = "other process of the pair",
    .recommendation =
        "Spread the data more evenly over the processes (partition by volume, not by count), "
        "or route part of it through other processes, so that no single pair carries the "
        "bulk of the traffic.",
    .find = find_unbalanced_communication,
};

}  // namespace collwrap
