// The traffic of the whole trace that the rules weighing it across processes read
// (RuleReach::Totals): each process pair's transfers with the call sites that issued them
// (unbalanced_communication), the master of a master-worker program, and that master's traffic
// and waits (slow_workers, overloaded_master; Akopyan and Andreev, ISP RAS, master-worker
// patterns of UPC programs). Each part is taken at a range of locations, a transfer where
// for_each_transfer counts it and a wait where it is, so that the parts the processes of a job
// take at their own locations merge into the whole trace's.
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "pattern.h"

namespace collwrap {

struct SiteTraffic {
  std::uint32_t first_call = kNone;  // the site's earliest call that issued one of the transfers
  std::uint64_t bytes = 0;
  friend bool operator==(const SiteTraffic&, const SiteTraffic&) = default;
};

struct PairTraffic {
  std::uint64_t bytes = 0;
  std::uint64_t transfers = 0;
  TimeNs time = 0;  // in the issuing calls
  // By (issuing location, call site).
  std::map<std::pair<std::uint32_t, std::uint32_t>, SiteTraffic> sites;
  friend bool operator==(const PairTraffic&, const PairTraffic&) = default;
};

// By (from, to) world rank, in the direction the data went; a process's transfers to itself
// are left out.
using PairTraffics = std::map<std::pair<std::int32_t, std::int32_t>, PairTraffic>;

PairTraffics pair_traffic(const Trace& trace, const Matching& matching,
                          const LocationRange& at = {});
void merge_pair_traffic(PairTraffics& into, const PairTraffics& part);

// The master: with at least 3 processes, the one that exchanged data (either direction) with
// every other process while no two others exchanged any. kNoWorldRank when there is none.
std::int32_t master_of(const PairTraffics& pairs, std::int32_t world_size);

// A master's traffic: when it handed data to each worker, when each worker's data reached it,
// and when it waited for data itself.
struct MasterTraffic {
  struct Result {
    TimeNs done = 0;
    std::int32_t from = kNoWorldRank;
    friend auto operator<=>(const Result&, const Result&) = default;
  };
  struct Wait {
    TimeNs enter = 0;
    TimeNs released = 0;
    friend auto operator<=>(const Wait&, const Wait&) = default;
  };
  std::int32_t master = kNoWorldRank;
  std::map<std::int32_t, std::vector<TimeNs>> handouts;  // by worker: transfer Starts, ascending
  std::vector<Result> results;                           // ascending
  std::vector<Wait> waits;  // the master's DataWaits (master_worker.h), ascending

  // Start of the master's last transfer to `worker` before `t`: the hand-out of the work the
  // master is waiting for. Without one, the round began with the trace.
  TimeNs round_start(std::int32_t worker, TimeNs t) const;
  // The first completion in (from, until) of a transfer to the master by another process than
  // `worker`.
  std::optional<TimeNs> first_other_result(std::int32_t worker, TimeNs from, TimeNs until) const;

  friend bool operator==(const MasterTraffic&, const MasterTraffic&) = default;
};

MasterTraffic master_traffic(const RuleContext& context, std::int32_t master,
                             const LocationRange& at = {});
void merge_master_traffic(MasterTraffic& into, const MasterTraffic& part);

struct TrafficTotals {
  PairTraffics pairs;
  MasterTraffic master;  // master == kNoWorldRank: no master, nothing else
  friend bool operator==(const TrafficTotals&, const TrafficTotals&) = default;
};

// The whole trace's totals.
TrafficTotals traffic_totals(const RuleContext& context);

// Whether any of the rules reads them (RuleReach::Totals).
bool reads_totals(std::span<const Pattern* const> patterns);

// The totals a rule reads: the context's, which find_findings makes once for the rules that
// read them or the processes of a job that divide the trace add up, or else the whole
// trace's, made into `own`.
const TrafficTotals& totals_for(const RuleContext& context, std::optional<TrafficTotals>& own);

}  // namespace collwrap
