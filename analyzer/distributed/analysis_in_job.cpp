#include "analysis_in_job.h"

#include <mpi.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "byte_exchange.h"
#include "byte_fields.h"
#include "clock_repair_in_job.h"
#include "compute_grains.h"
#include "ghost_exchange.h"
#include "held_result.h"
#include "job_read.h"
#include "memory_reuse.h"
#include "partial_trace.h"
#include "request_linkage.h"
#include "root_causes_in_job.h"
#include "time_normalization.h"
#include "traffic_totals_bytes.h"

namespace collwrap {
namespace {

// The clock-condition violations the processes' matchings found.
std::uint64_t violations_in_job(const Matching& matching) {
  std::uint64_t violations = matching.counts.clock_violations;
  MPI_Allreduce(MPI_IN_PLACE, &violations, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return violations;
}

// The clock repair, when the job's matching found clock-condition violations: each process
// repairs its locations, its ghosts take their holders' times (clock_repair_in_job.h). As the
// analyzer alone does, the violations left become the matching's count: process 0's.
void repair_clocks_in_job(PartialTrace& part, Matching& matching,
                          const std::vector<LocationRange>& shares, unsigned self,
                          unsigned threads) {
  if (violations_in_job(matching) == 0) return;
  ClockRepairInJob job(part, shares, self);
  const ClockRepairReport repair = repair_clocks(part.trace, matching, {}, threads, &job);
  if (repair.passes > 0) matching.counts.clock_violations = self == 0 ? repair.violations_after : 0;
}

// Every process's times start where the earliest event of all starts.
void start_time_at_zero_in_job(Trace& trace, unsigned threads) {
  TimeSpan span = time_span(trace);
  MPI_Allreduce(MPI_IN_PLACE, &span.first, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &span.last, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  start_time_at(trace, span, threads);
}

// Every process's part, merged on process 0 and sent back to all: `merge` adds a part to
// the sum, `to_bytes` and `from_bytes` carry both.
template <class T, class Merge, class ToBytes, class FromBytes>
T merged_in_job(const T& mine, Merge merge, ToBytes to_bytes, FromBytes from_bytes) {
  std::vector<std::vector<char>> parts = gather_bytes(to_bytes(mine));
  std::vector<char> bytes;
  if (!parts.empty()) {
    T sum;
    for (const std::vector<char>& part : parts) merge(sum, from_bytes(part));
    bytes = to_bytes(sum);
  }
  broadcast_bytes(bytes);
  return from_bytes(bytes);
}

// The same for a `merge` whose result does not depend on the order of the parts, over a binomial
// tree of processes: each holds its own part and one received at a time, where merged_in_job's
// process 0 holds every process's part at once.
template <class T, class Merge, class ToBytes, class FromBytes>
T tree_merged_in_job(T mine, Merge merge, ToBytes to_bytes, FromBytes from_bytes) {
  int self = 0, processes = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &self);
  MPI_Comm_size(MPI_COMM_WORLD, &processes);
  for (int step = 1; step < processes; step *= 2) {
    if (self % (2 * step) != 0) {
      const std::vector<char> bytes = to_bytes(mine);
      send_bytes(bytes.data(), bytes.size(), self - step);
      break;
    }
    if (self + step < processes) merge(mine, from_bytes(receive_bytes(self + step)));
  }
  std::vector<char> bytes;
  if (self == 0) bytes = to_bytes(mine);
  broadcast_bytes(bytes);
  return from_bytes(bytes);
}

// Which communicators the job digests (collective_digest.h): the least of every process's
// answer of its own locations.
std::vector<std::uint8_t> digested_in_job(const Trace& trace, const LocationRange& held) {
  std::vector<std::uint8_t> digested = digestible_communicators(trace, held);
  MPI_Allreduce(MPI_IN_PLACE, digested.data(), static_cast<int>(digested.size()), MPI_UINT8_T,
                MPI_MIN, MPI_COMM_WORLD);
  return digested;
}

// The digests of the collectives of the digested communicators: each process digests the
// members its matching has (its own), the parts are merged over a tree of processes
// (merge_digests is associative and commutative), and each process takes the digests in place
// of the others' members (apply_digests).
void digest_in_job(const Trace& trace, Matching& matching, const LocationRange& held,
                   CollectiveDigests& digests) {
  const auto fields = [](auto& io, auto& d) {
    io.vector(d.digested_comm);
    io.vector(d.digests);
  };
  digests = tree_merged_in_job(
      partial_digests(trace, matching, digests.digested_comm),
      [](CollectiveDigests& sum, const CollectiveDigests& part) { sum = merge_digests(sum, part); },
      [&](const CollectiveDigests& d) { return to_bytes(d, fields); },
      [&](std::span<const char> bytes) {
        return from_bytes<CollectiveDigests>(bytes, "the digests of the collectives", fields);
      });
  apply_digests(trace, matching, digests, held);
}

// The partial trace of this process: its share and the others' ghosts of it, but of the
// members of the `digested_comms` collectives. `links` gets the request pairs of the share,
// which choosing the ghosts reads, and the matching goes on from.
PartialTrace partial_trace_in_job(Trace trace, const std::vector<LocationRange>& shares,
                                  unsigned self, unsigned threads,
                                  const std::vector<std::uint8_t>* digested_comms,
                                  Matching& links) {
  const LocationRange held = shares.at(self);
  const ProcessMap map(trace, shares);
  link_requests(trace, links, threads, held);
  PartialTrace part{std::move(trace), held, {}, {}};
  exchange_ghosts(part, links, map, self, threads, digested_comms);
  return part;
}

// The instances whose first member (in rank-in-communicator order) this process holds.
std::uint64_t held_collectives(const PartialTrace& part, const Matching& matching) {
  std::uint64_t n = 0;
  for (const CollectiveInstance& c : matching.collectives) {
    const std::uint32_t first = c.digest != kNone ? matching.digests->digests[c.digest].first.loc
                                                  : matching.members[c.first_member].loc;
    n += part.holds(first);
  }
  return n;
}

// The whole trace's traffic totals, which the rules of RuleReach::Totals read: the pairs'
// first, then, when they form a star, its master's traffic.
TrafficTotals totals_in_job(const PartialTrace& part, const Matching& matching,
                            const RuleOptions& options) {
  TrafficTotals totals;
  totals.pairs = merged_in_job(pair_traffic(part.trace, matching, part.held), merge_pair_traffic,
                               pair_traffic_bytes, read_pair_traffic);
  const std::int32_t master = master_of(totals.pairs, part.trace.world_size);
  if (master == kNoWorldRank) return totals;
  const auto merge = [](MasterTraffic& sum, const MasterTraffic& traffic) {
    sum.master = traffic.master;
    merge_master_traffic(sum, traffic);
  };
  totals.master = merged_in_job(master_traffic({part.trace, matching, options}, master, part.held),
                                merge, master_traffic_bytes, read_master_traffic);
  return totals;
}

// The cells of the communication matrix whose transfers only this process counted, made here
// (take_unshared_cells), so that process 0 receives a cell of each rather than every transfer's
// time; the times of pairs that other processes counted too stay in `pairs`.
std::vector<CommPair> summarize_unshared_pairs(PairTransfers& pairs) {
  const auto fields = [](auto& io, auto& holders) {
    io.map(holders, [&io](auto& n) { io.value(n); });
  };
  PairHolders mine;
  for (const auto& [key, times] : pairs) mine[key] = 1;
  const PairHolders holders = tree_merged_in_job(
      std::move(mine),
      [](PairHolders& sum, const PairHolders& part) {
        for (const auto& [key, n] : part) sum[key] += n;
      },
      [&](const PairHolders& h) { return to_bytes(h, fields); },
      [&](std::span<const char> bytes) {
        return from_bytes<PairHolders>(bytes, "the pairs of the communication matrix", fields);
      });
  return take_unshared_cells(pairs, holders);
}

// What this process makes of its share, from its matched partial trace.
HeldResult analyze_held(const PartialTrace& part, const Matching& matching,
                        const AnalysisSettings& settings) {
  FindingSettings findings = settings.findings();
  findings.at = part.held;
  std::optional<TrafficTotals> totals;
  if (reads_totals(settings.patterns)) totals = totals_in_job(part, matching, settings.rules);
  findings.totals = totals ? &*totals : nullptr;
  HeldResult held;
  held.findings = find_findings(part.trace, matching, findings, settings.threads);
  held.counts = matching.counts;
  held.collectives = held_collectives(part, matching);
  held.times = location_times(part.trace, part.held);
  held.operations = tally_operations(part.trace, part.held);
  held.grains = compute_grains(part.trace, part.held);
  if (settings.noise)
    held.noise = grain_noise(
        part.trace, noise_model(*settings.noise, settings.noise_file, part.trace.world_size),
        part.held);
  held.transfers = collect_transfers(part.trace, matching, part.held);
  held.cells = summarize_unshared_pairs(held.transfers);
  return held;
}

// Process 0: the processes' parts, in process order (their shares are in location order), as
// one result. `trace` holds the archive's definitions and its time span.
AnalysisResult merge_held(Trace& trace, std::vector<HeldResult> parts,
                          std::uint64_t timer_resolution, const AnalysisSettings& settings) {
  ResultParts merged;
  std::vector<Findings> findings;
  std::vector<LocationReport> reports;
  OperationTallies operations;
  PairTransfers transfers;
  std::vector<CommPair> cells;
  trace.warnings.messages.clear();
  for (HeldResult& part : parts) {
    findings.push_back(std::move(part.findings));
    merged.counts += part.counts;
    merged.collectives += part.collectives;
    merged.times.insert(merged.times.end(), part.times.begin(), part.times.end());
    merge_tallies(operations, part.operations);
    std::move(part.grains.begin(), part.grains.end(), std::back_inserter(merged.grains));
    merged.noise.insert(merged.noise.end(), part.noise.begin(), part.noise.end());
    merge_transfers(transfers, std::move(part.transfers));
    cells.insert(cells.end(), part.cells.begin(), part.cells.end());
    std::move(part.reports.begin(), part.reports.end(), std::back_inserter(reports));
    trace.warnings.messages.insert(trace.warnings.messages.end(), part.archive_messages.begin(),
                                   part.archive_messages.end());
  }
  add_reports(trace, reports, timer_resolution);
  merged.found = merge_findings(std::move(findings));
  merged.operations = operation_stats(trace, operations);
  merged.communication = communication_matrix(std::move(transfers), std::move(cells));
  return assemble_result(trace, std::move(merged), settings);
}

}  // namespace

bool can_divide(const AnalysisSettings& settings, bool clock_repair) {
  if (settings.causes.enabled && !clock_repair) return false;
  for (const Pattern* p : settings.patterns)
    if (!runs_divided(p->reach)) return false;
  return true;
}

HeldShare hold_share_in_job(const MpiJob& job, const std::string& path,
                            const AnalysisSettings& settings, bool clock_repair,
                            const ReadProgress& progress,
                            const std::function<void(std::string_view)>& phase) {
  LocationsRead read = read_share_in_job(job, path, {settings.threads}, progress);
  const unsigned threads = settings.threads;
  HeldShare held;
  try {
    phase("ghosts");
    held.shares = read.shares;
    held.timer_resolution = read.timer_resolution;
    // What reading said, of this process's locations and of the archive, for process 0.
    const LocationRange share = read.shares.at(job.rank());
    held.reports.assign(read.reports.begin() + static_cast<std::ptrdiff_t>(share.first),
                        read.reports.begin() +
                            static_cast<std::ptrdiff_t>(std::min(share.end, read.reports.size())));
    std::vector<LocationReport>().swap(read.reports);
    held.archive_messages = read.trace.warnings.messages;
    // The share with the others' ghosts, matched; with `digests`, of the communicators that
    // the job digests, the members stay where they are and the digests stand for them.
    const auto partial_and_matched = [&](LocationsRead& share, CollectiveDigests* digests) {
      start_time_at_zero_in_job(share.trace, threads);
      share.trace.finish_indexes();
      const std::vector<std::uint8_t>* digested = nullptr;
      if (digests) {
        digests->digested_comm = digested_in_job(share.trace, share.shares.at(job.rank()));
        digested = &digests->digested_comm;
      }
      // The pages of the copies sent as the others' ghosts, and then of the matching's working
      // tables, are kept for the tables of the steps after them (memory_reuse.h): the peak is
      // at the root causes' delay tables (at the rules' without them, 11 MiB higher so at
      // 10^8 events with -np 2), and given back, the pages were faulted in again. The ghosts'
      // exchange and the matching took 0.24-0.37 s less a process at 10^8 events with -np 2.
      Matching links;
      PartialTrace part = partial_trace_in_job(std::move(share.trace), share.shares, job.rank(),
                                               threads, digested, links);
      if (digests) phase("matching");  // not again when the shares are read once more
      // The share's requests were linked for the ghosts: only the ghosts' are linked here.
      Matching matching = match_trace_and_release_request_ids(
          part.trace, threads, part.held, digested, std::move(links), part.held);
      if (digests) digest_in_job(part.trace, matching, part.held, *digests);
      return std::pair(std::move(part), std::move(matching));
    };
    held.digests = std::make_unique<CollectiveDigests>();
    std::tie(held.part, held.matching) = partial_and_matched(read, held.digests.get());
    if (clock_repair && !held.digests->digests.empty() && violations_in_job(held.matching) > 0) {
      // The clock repair reads every member of every collective, which the digests stand for:
      // the shares are read once more, and the members travel as ghosts.
      held.part = {};
      held.matching = {};
      *held.digests = {};
      give_back_freed_memory();
      read = read_share_in_job(job, path, {settings.threads}, {});
      std::tie(held.part, held.matching) = partial_and_matched(read, nullptr);
    }
    if (clock_repair) {
      phase("clock repair");
      repair_clocks_in_job(held.part, held.matching, read.shares, job.rank(), threads);
    }
  } catch (const std::exception& e) {
    end_job_after(job, "hold its share of the locations with the others' ghosts", e);
  }
  return held;
}

std::optional<AnalysisResult> analyze_in_job(const MpiJob& job, const std::string& path,
                                             const AnalysisSettings& settings, bool clock_repair,
                                             const ReadProgress& progress,
                                             const std::function<void(std::string_view)>& phase) {
  if (!can_divide(settings, clock_repair))
    throw std::invalid_argument(
        "the settings ask for rules or a root-cause analysis that need the whole trace");
  HeldShare held = hold_share_in_job(job, path, settings, clock_repair, progress, phase);
  std::vector<std::vector<char>> all;  // on process 0, every process's result
  try {
    phase("patterns");
    HeldResult result = analyze_held(held.part, held.matching, settings);
    result.reports = std::move(held.reports);
    result.archive_messages = std::move(held.archive_messages);
    all = gather_bytes(held_result_bytes(result));
  } catch (const std::exception& e) {
    end_job_after(job, "analyze its share of the locations with the others", e);
  }
  std::optional<CauseAnalysis> causes;
  if (settings.causes.enabled) {
    try {
      JobCauses found = root_causes_in_job(job, held, settings.causes, settings.threads);
      if (found.refused)
        throw std::runtime_error(
            "the clock condition does not allow the run to be cut into slices of time, even "
            "with the clocks repaired; analyze the archive alone, or without root causes "
            "(--no-causes)");
      causes = std::move(found.analysis);
    } catch (const std::exception& e) {
      end_job_after(job, "find the root causes with the others", e);
    }
  }
  if (!job.leads()) return std::nullopt;
  std::optional<AnalysisResult> out;
  try {
    // Of the locations, only what the definitions say stays: the events are analyzed.
    Trace& trace = held.part.trace;
    for (Location& l : trace.locations) l = l.definition_only();
    std::vector<HeldResult> parts;
    for (std::vector<char>& bytes : all) {
      parts.push_back(read_held_result(bytes));
      std::vector<char>().swap(bytes);
    }
    out = merge_held(trace, std::move(parts), held.timer_resolution, settings);
    out->causes = std::move(causes);
  } catch (const std::exception& e) {
    end_job_after(job, "merge the processes' findings", e);
  }
  return out;
}

}  // namespace collwrap
