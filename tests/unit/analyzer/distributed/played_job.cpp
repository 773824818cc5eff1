#include "played_job.h"

#include <gtest/gtest.h>

#include "synthetic_runs.h"

namespace collwrap {

std::vector<Trace> sliced_test_traces() {
  std::vector<Trace> traces = divided_test_traces();
  traces.push_back(testing::delay_chain());
  traces.push_back(testing::imbalance_before_allreduce({5'000'000'000, 100, 300, 100}));
  traces.push_back(testing::moving_imbalance());
  traces.push_back(testing::neighbours_and_collectives());
  return traces;
}

PlayedJob play_job(const Trace& whole, const std::vector<LocationRange>& shares, Digests digests,
                   const ReplayOptions& options, const std::vector<TimeNs>* cut_at) {
  PlayedJob job;
  const std::size_t processes = shares.size();
  job.shares = shares;
  job.divided = std::make_unique<DividedTrace>(divide(whole, shares, digests));
  const DividedTrace& divided = *job.divided;
  HolderFacts all;
  for (std::size_t p = 0; p < processes; ++p)
    merge_facts(all, holder_facts(divided.parts[p].trace, divided.matchings[p], shares[p]));
  job.facts = whole_trace_facts(all);
  std::vector<GraphRows>& rows = job.rows;
  std::vector<TimeNs> samples;
  for (std::size_t p = 0; p < processes; ++p) {
    const PartialTrace& part = divided.parts[p];
    rows.push_back(
        graph_rows(part.trace, divided.matchings[p], job.facts, shares[p], part.origin_call));
    for (const TimeNs t :
         leave_samples(job.facts, shares[p], recorded_leaves(part.trace, job.facts), 8))
      samples.push_back(t);
  }
  const std::vector<TimeNs> instants = cut_at ? *cut_at : cut_instants(samples, processes);
  for (std::size_t p = 0; p < processes; ++p)
    merge_cuts(job.cuts, cut_held_locations(job.facts, shares[p], instants,
                                            recorded_leaves(divided.parts[p].trace, job.facts)));
  const SliceIndex index(job.facts, job.cuts);
  GatedSlices gated;
  for (std::size_t p = 0; p < processes; ++p)
    merge_gated_slices(gated, gated_slices(rows[p], index, job.facts.instances()));
  std::vector<SliceRows> slice_rows(processes);
  for (std::size_t p = 0; p < processes; ++p) {
    for (std::size_t s = 0; s < processes; ++s)
      merge_slice_rows(slice_rows[s], rows_for_slice(rows[p], shares[p], job.cuts, gated, index, s),
                       shares[p]);
  }
  std::vector<EarlierReads> reads;
  for (std::size_t s = 0; s < processes; ++s) {
    reads.push_back(earlier_reads(slice_rows[s], job.cuts, s, index));
    job.refused |= !reads.back().replayable;
  }
  if (job.refused) return job;

  // From the last slice to the first: what each hands the next (handed[s]: into slice s).
  std::vector<std::vector<std::uint32_t>>& handed = job.handed;
  handed.resize(processes + 1);
  for (std::size_t s = processes; s-- > 0;)
    handed[s] = handed_into(std::move(reads[s].entered_before), handed[s + 1], s, index);
  EXPECT_TRUE(handed[0].empty());
  // From the first to the last: the segments of the handed calls, then each slice's graph.
  job.slices = std::vector<ReplaySlice>(processes);
  for (std::size_t s = 0; s < processes; ++s) {
    const auto segments = segments_to_hand(slice_rows[s], handed[s + 1], index);
    job.slices[s].part = slice_graph_from_rows(job.cuts, s, std::move(slice_rows[s]));
    if (s + 1 < processes) slice_rows[s + 1].handed = segments;
  }
  SliceHandover in;
  for (std::size_t s = 0; s < processes; ++s)
    in = replay_slice(job.slices[s], options, in, handed[s + 1]);
  return job;
}

}  // namespace collwrap
