// unbalanced_communication: a process pair that moved far more data than the others
// (Akopyan and Andreev, ISP RAS, data-transfer patterns of UPC programs: unbalanced
// communication). They compare the time threads spend in the same communication operation;
// that difference is what the wait-state patterns already measure, so here the imbalance is
// taken at its source, the bytes each pair moved, as the communication matrix shows them.
#include <algorithm>
#include <optional>
#include <utility>

#include "catalog.h"
#include "trace_access.h"
#include "traffic_totals.h"

namespace collwrap {
namespace {

// unbalanced_communication (a possible saving, not idle time)
//   a pair (from → to) is unbalanced when bytes(pair) ≥ factor × mean bytes over the pairs
//   that communicated (factor 2);
//   time = Σ (End − Start) of the pair's issuing calls × (bytes − mean) / bytes, the share of
//   its transfer time spent on the volume above the mean;
// reported once per pair at the call site that issued most of its bytes, at the site's earliest
// call that issued one of them, on the process that issued them (the sender, the origin of a
// put, or of a get: then the receiver), with the other process of the pair as peer. Matched MPI
// messages count as well as one-sided transfers.
void find_unbalanced_communication(const RuleContext& context, InstanceSink& sink) {
  std::optional<PairTraffics> own;
  const PairTraffics& pairs = context.totals != nullptr
                                  ? context.totals->pairs
                                  : own.emplace(pair_traffic(context.trace, context.matching));
  if (pairs.empty()) return;
  std::uint64_t total = 0;
  for (const auto& [key, p] : pairs) total += p.bytes;
  const double mean = static_cast<double>(total) / static_cast<double>(pairs.size());
  for (const auto& [key, p] : pairs) {
    const double bytes = static_cast<double>(p.bytes);
    if (bytes == 0 || bytes < context.options.unbalanced_factor * mean) continue;
    const auto& [where, top] = *std::max_element(
        p.sites.begin(), p.sites.end(),
        [](const auto& a, const auto& b) { return a.second.bytes < b.second.bytes; });
    const std::uint32_t loc = where.first;
    const std::int32_t issuer = rank_of(context.trace, loc);
    const Peer peer[] = {{issuer == key.first ? key.second : key.first}};
    const auto excess = static_cast<TimeNs>(static_cast<double>(p.time) * (bytes - mean) / bytes);
    sink.add({&kUnbalancedCommunication,
              loc,
              top.first_call,
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
    .reach = RuleReach::Totals,
};

}  // namespace collwrap
