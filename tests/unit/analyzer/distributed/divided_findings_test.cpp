// The findings of a divided trace: each process finds, on its partial trace, the findings of
// the locations it holds and counts what its matching counts there; merged, they are the whole
// trace's findings and counts, field by field, for every way of dividing the locations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "catalog.h"
#include "comm_matrix.h"
#include "compute_grains.h"
#include "divided_trace.h"
#include "findings.h"
#include "held_result.h"
#include "traffic_totals_bytes.h"

namespace collwrap {
namespace {

std::vector<const Pattern*> rules_that_run_divided() {
  std::vector<const Pattern*> rules;
  for (const Pattern* p : kPatternCatalog)
    if (runs_divided(p->reach)) rules.push_back(p);
  return rules;
}

void expect_divided_findings_as_whole(const Trace& whole, const std::vector<LocationRange>& shares,
                                      const RuleOptions& options) {
  SCOPED_TRACE(std::to_string(shares.size()) + " processes");
  const FindingSettings settings{options, rules_that_run_divided(), 3};
  const Findings serial = find_findings(whole, match_trace(whole, 1), settings, 1);
  ASSERT_FALSE(serial.findings.empty());
  const auto [parts, matchings, digests] = divide(whole, shares);
  const TrafficTotals totals = divided_totals(parts, matchings, options);
  std::vector<Findings> found;
  for (unsigned self = 0; self < shares.size(); ++self) {
    FindingSettings held = settings;
    held.at = parts[self].held;
    held.totals = &totals;
    found.push_back(find_findings(parts[self].trace, matchings[self], held, 1));
  }
  const Findings merged = merge_findings(std::move(found));
  EXPECT_EQ(merged.instances_below_min_wait, serial.instances_below_min_wait);
  ASSERT_EQ(merged.findings.size(), serial.findings.size());
  for (std::size_t i = 0; i < serial.findings.size(); ++i)
    EXPECT_TRUE(merged.findings[i] == serial.findings[i])
        << "finding " << i << ": " << merged.findings[i].pattern << " on rank "
        << merged.findings[i].rank << " line " << merged.findings[i].line << ", expected "
        << serial.findings[i].pattern << " on rank " << serial.findings[i].rank << " line "
        << serial.findings[i].line;
}

// The trace's waits are nanoseconds: every instance counts.
RuleOptions every_instance() {
  RuleOptions options;
  options.min_wait = 0;
  return options;
}

TEST(DividedFindings, MergedFromEveryDivisionTheyAreTheWholeTracesFindings) {
  for (const Trace& whole : divided_test_traces()) {
    for (unsigned processes = 1; processes <= whole.locations.size(); ++processes)
      expect_divided_findings_as_whole(
          whole, split_locations(events_per_location(whole), processes), every_instance());
    if (whole.locations.size() == 8)  // rank 1's threads held apart
      expect_divided_findings_as_whole(whole, {{0, 3}, {3, 5}, {5, 8}}, every_instance());
  }
}

TEST(DividedFindings, InstancesBelowTheMinimumWaitCountOnceAtTheirLocation) {
  const Trace whole = varied_trace();
  RuleOptions options = every_instance();
  options.min_wait = 50;
  expect_divided_findings_as_whole(whole, split_locations(events_per_location(whole), 3), options);
  const FindingSettings settings{options, rules_that_run_divided(), 3};
  EXPECT_GT(find_findings(whole, match_trace(whole, 1), settings, 1).instances_below_min_wait, 0u);
}

// The report's other parts, taken by each process at its own locations and merged as process 0
// merges them, against the same parts of the whole trace: exactly, doubles included.
TEST(DividedReportParts, MergedFromEveryDivisionTheyAreTheWholeTracesParts) {
  const Trace whole = varied_trace();
  const Matching matching = match_trace(whole, 1);
  const std::vector<LocationTimes> times = location_times(whole);
  const std::vector<OperationStats> operations = operation_stats(whole);
  const std::vector<GrainDistribution> grains = compute_grains(whole);
  const std::vector<CommPair> matrix = communication_matrix(whole, matching);
  ASSERT_FALSE(operations.empty());
  ASSERT_FALSE(grains.empty());
  ASSERT_TRUE(std::any_of(matrix.begin(), matrix.end(), [](const CommPair& c) {
    return c.sender == 1 && c.receiver == 2 && c.bytes > (1 << 20);  // the puts count too
  }));
  bool shared_pairs_seen = false;
  for (unsigned processes = 1; processes <= whole.locations.size(); ++processes) {
    SCOPED_TRACE(std::to_string(processes) + " processes");
    std::vector<LocationTimes> merged_times;
    OperationTallies tallies;
    std::vector<GrainDistribution> merged_grains;
    std::vector<PairTransfers> held_transfers;
    const std::vector<LocationRange> shares =
        split_locations(events_per_location(whole), processes);
    for (unsigned self = 0; self < processes; ++self) {
      const LocationRange& share = shares[self];
      const PartialTrace part = partial_trace(whole, shares, self);
      const Matching m = match_trace(part.trace, 1, part.held);
      for (const LocationTimes& t : location_times(part.trace, share)) merged_times.push_back(t);
      merge_tallies(tallies, tally_operations(part.trace, share));
      for (GrainDistribution& g : compute_grains(part.trace, share))
        merged_grains.push_back(std::move(g));
      held_transfers.push_back(collect_transfers(part.trace, m, share));
    }
    // Each process makes the cells of the pairs only it counted; the others' times travel.
    PairHolders holders;
    for (const PairTransfers& held : held_transfers)
      for (const auto& [pair, times] : held) ++holders[pair];
    PairTransfers transfers;
    std::vector<CommPair> cells;
    for (PairTransfers& held : held_transfers) {
      for (const CommPair& cell : take_unshared_cells(held, holders)) cells.push_back(cell);
      for (const auto& [pair, times] : held) EXPECT_GT(holders.at(pair), 1u);
      merge_transfers(transfers, std::move(held));
    }
    if (processes == 1) {
      EXPECT_TRUE(transfers.empty());
    }
    if (processes == whole.locations.size()) shared_pairs_seen = !transfers.empty();
    ASSERT_EQ(merged_times.size(), times.size());
    for (std::size_t l = 0; l < times.size(); ++l) {
      EXPECT_EQ(merged_times[l].mpi, times[l].mpi);
      EXPECT_EQ(merged_times[l].first_enter, times[l].first_enter);
      EXPECT_EQ(merged_times[l].last_leave, times[l].last_leave);
    }
    const std::vector<OperationStats> merged_operations = operation_stats(whole, tallies);
    ASSERT_EQ(merged_operations.size(), operations.size());
    for (std::size_t i = 0; i < operations.size(); ++i) {
      EXPECT_EQ(merged_operations[i].function, operations[i].function);
      EXPECT_EQ(merged_operations[i].count, operations[i].count);
      EXPECT_EQ(merged_operations[i].total_s, operations[i].total_s);
      EXPECT_EQ(merged_operations[i].percent_of_mpi_time, operations[i].percent_of_mpi_time);
    }
    ASSERT_EQ(merged_grains.size(), grains.size());
    for (std::size_t i = 0; i < grains.size(); ++i) {
      EXPECT_EQ(merged_grains[i].rank, grains[i].rank);
      EXPECT_EQ(merged_grains[i].median_s, grains[i].median_s);
      EXPECT_EQ(merged_grains[i].total_s, grains[i].total_s);
    }
    const std::vector<CommPair> merged_matrix =
        communication_matrix(std::move(transfers), std::move(cells));
    ASSERT_EQ(merged_matrix.size(), matrix.size());
    for (std::size_t i = 0; i < matrix.size(); ++i) {
      EXPECT_EQ(merged_matrix[i].sender, matrix[i].sender);
      EXPECT_EQ(merged_matrix[i].receiver, matrix[i].receiver);
      EXPECT_EQ(merged_matrix[i].messages, matrix[i].messages);
      EXPECT_EQ(merged_matrix[i].bytes, matrix[i].bytes);
      EXPECT_EQ(merged_matrix[i].transfer_min_s, matrix[i].transfer_min_s);
      EXPECT_EQ(merged_matrix[i].transfer_max_s, matrix[i].transfer_max_s);
      EXPECT_EQ(merged_matrix[i].transfer_median_s, matrix[i].transfer_median_s);
      EXPECT_EQ(merged_matrix[i].transfer_mean_s, matrix[i].transfer_mean_s);
      EXPECT_EQ(merged_matrix[i].transfer_stddev_s, matrix[i].transfer_stddev_s);
    }
  }
  // A pair counted at two processes (sends one way, gets the other) travels as times.
  EXPECT_TRUE(shared_pairs_seen);
}

TEST(DividedFindings, TravelAsBytesWithEveryPartOfTheResult) {
  const Trace whole = varied_trace();
  const Matching matching = match_trace(whole, 1);
  HeldResult held;
  held.findings = find_findings(whole, matching, {every_instance(), rules_that_run_divided()});
  held.findings.instances_below_min_wait = 7;
  // Fields the varied trace's findings leave empty: filled by hand.
  Finding& first = held.findings.findings.at(0);
  first.details.send_modes = {{"standard", 3}, {"synchronous", 1}};
  first.details.optimal_distance_s = 1.5e-6;
  first.details.related_call = SourceLocation{"MPI_Isend", "v.c", 11};
  first.peer_threads = {{0, 1}};
  held.counts = matching.counts;
  held.collectives = matching.collectives.size();
  held.times = location_times(whole);
  held.operations = tally_operations(whole);
  held.grains = compute_grains(whole);
  held.transfers = collect_transfers(whole, matching);
  held.cells = communication_matrix(whole, matching);
  held.reports.resize(2);
  held.reports[1] = {.events = 9, .missing = true, .messages = {"rank 1: damaged", "cut"}};
  held.archive_messages = {"the archive said so"};
  const std::vector<char> bytes = held_result_bytes(held);
  const HeldResult back = read_held_result(bytes);
  EXPECT_TRUE(back.findings.findings == held.findings.findings);
  EXPECT_EQ(back.findings.instances_below_min_wait, 7u);
  EXPECT_EQ(std::memcmp(&back.counts, &held.counts, sizeof held.counts), 0);
  EXPECT_EQ(back.collectives, held.collectives);
  ASSERT_EQ(back.times.size(), held.times.size());
  EXPECT_EQ(back.times.back().mpi, held.times.back().mpi);
  EXPECT_EQ(operation_stats(whole, back.operations).size(),
            operation_stats(whole, held.operations).size());
  EXPECT_EQ(back.operations.all_mpi, held.operations.all_mpi);
  ASSERT_EQ(back.grains.size(), held.grains.size());
  EXPECT_EQ(back.grains[3].median_s, held.grains[3].median_s);
  EXPECT_EQ(back.grains[3].histogram.size(), held.grains[3].histogram.size());
  ASSERT_EQ(back.transfers.size(), held.transfers.size());
  EXPECT_EQ(back.transfers.begin()->second.transfer_s, held.transfers.begin()->second.transfer_s);
  ASSERT_EQ(back.cells.size(), held.cells.size());
  EXPECT_EQ(std::memcmp(back.cells.data(), held.cells.data(), held.cells.size() * sizeof(CommPair)),
            0);
  ASSERT_EQ(back.reports.size(), 2u);
  EXPECT_EQ(back.reports[1].messages, held.reports[1].messages);
  EXPECT_TRUE(back.reports[1].missing);
  EXPECT_EQ(back.archive_messages, held.archive_messages);
  for (const std::size_t cut : {std::size_t{3}, bytes.size() / 2, bytes.size() - 1})
    EXPECT_THROW(read_held_result(std::span(bytes).first(cut)), std::runtime_error) << cut;

  // A report alone, as the gathered analysis sends it.
  const std::vector<char> report = location_report_bytes(held.reports[1]);
  EXPECT_EQ(read_location_report(report).messages, held.reports[1].messages);
  EXPECT_EQ(read_location_report(report).events, 9u);
  EXPECT_THROW(read_location_report(std::span(report).first(report.size() - 2)),
               std::runtime_error);
}

TEST(DividedTrafficTotals, TravelAsBytes) {
  const Trace whole = star_trace();
  const Matching matching = match_trace(whole, 1);
  const RuleOptions options = every_instance();
  const TrafficTotals totals = traffic_totals({whole, matching, options});
  ASSERT_EQ(totals.master.master, 0);
  ASSERT_FALSE(totals.master.results.empty());
  ASSERT_FALSE(totals.master.waits.empty());
  ASSERT_FALSE(totals.pairs.at({0, 3}).sites.empty());
  const std::vector<char> pairs = pair_traffic_bytes(totals.pairs);
  const std::vector<char> master = master_traffic_bytes(totals.master);
  EXPECT_TRUE(read_pair_traffic(pairs) == totals.pairs);
  EXPECT_TRUE(read_master_traffic(master) == totals.master);
  for (const std::size_t cut : {std::size_t{3}, pairs.size() / 2, pairs.size() - 1})
    EXPECT_THROW(read_pair_traffic(std::span(pairs).first(cut)), std::runtime_error) << cut;
  for (const std::size_t cut : {std::size_t{3}, master.size() / 2, master.size() - 1})
    EXPECT_THROW(read_master_traffic(std::span(master).first(cut)), std::runtime_error) << cut;
}

}  // namespace
}  // namespace collwrap
