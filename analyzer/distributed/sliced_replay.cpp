#include "sliced_replay.h"

#include <algorithm>
#include <stdexcept>

namespace collwrap {

std::size_t holder_of(const std::vector<LocationRange>& shares, std::uint32_t loc) {
  for (std::size_t p = 0; p < shares.size(); ++p)
    if (shares[p].contains(loc)) return p;
  throw std::invalid_argument("a location no process holds");
}

SliceIndex::SliceIndex(const WholeTraceFacts& facts, const SliceCuts& cuts)
    : facts_(facts), cuts_(cuts) {
  const std::uint32_t calls = facts.loc_first_call.empty() ? 0 : facts.loc_first_call.back();
  block_location_.resize((calls >> kBlockBits) + 1);
  for (std::size_t b = 0; b < block_location_.size(); ++b)
    block_location_[b] = facts.location_of(static_cast<std::uint32_t>(b << kBlockBits));
}

std::uint32_t SliceIndex::location_of(std::uint32_t g) const {
  const std::size_t block = g >> kBlockBits;
  if (block >= block_location_.size()) return facts_.location_of(g);
  // The last location whose first call is at or before g, as facts_.location_of finds.
  const std::vector<std::uint32_t>& first = facts_.loc_first_call;
  std::uint32_t loc = block_location_[block];
  while (loc + 1 < first.size() && first[loc + 1] <= g) ++loc;
  return loc;
}

std::uint32_t SliceIndex::slice_at(std::uint32_t g, std::uint32_t loc) const {
  // The last slice whose first call on the location is at or before g: the slices between
  // are empty there.
  std::size_t low = 0, high = cuts_.slices();  // row(low) <= g < row(high)
  while (high - low > 1) {
    const std::size_t mid = (low + high) / 2;
    (cuts_.row(mid)[loc] <= g ? low : high) = mid;
  }
  return static_cast<std::uint32_t>(low);
}

std::uint32_t SliceIndex::entered_in(std::uint32_t g) const {
  const std::uint32_t loc = location_of(g);
  return g == facts_.loc_first_call[loc] ? 0 : slice_at(g - 1, loc);
}

std::pair<std::uint32_t, std::uint32_t> SliceIndex::entered_calls(std::uint32_t s,
                                                                  std::uint32_t loc) const {
  const std::uint32_t first = cuts_.row(s)[loc], next = cuts_.row(s + 1)[loc];
  const std::uint32_t end = std::min(next + 1, location_end(loc));
  if (s == 0) return {first, end};         // with the location's first call, whatever its slice
  return {std::min(first + 1, end), end};  // empty where the slice has none of its calls
}

LeaveOf recorded_leaves(const Trace& trace, const WholeTraceFacts& facts) {
  return [&trace, &facts](std::uint32_t g) {
    const std::uint32_t loc = facts.location_of(g);
    return trace.locations[loc].call_leave[g - facts.loc_first_call[loc]];
  };
}

std::size_t sample_step(std::size_t count, std::size_t most) {
  return std::max<std::size_t>(1, (count + most - 1) / std::max<std::size_t>(most, 1));
}

std::vector<TimeNs> leave_samples(const WholeTraceFacts& facts, const LocationRange& held,
                                  const LeaveOf& leave_of, std::size_t most) {
  const std::size_t end = std::min(held.end, facts.loc_first_call.size() - 1);
  if (held.first >= end) return {};
  const std::uint32_t first = facts.loc_first_call[held.first], last = facts.loc_first_call[end];
  const std::size_t step = sample_step(last - first, most);
  std::vector<TimeNs> samples;
  for (std::uint32_t g = first; g < last; g += static_cast<std::uint32_t>(step))
    samples.push_back(leave_of(g));
  return samples;
}

std::vector<TimeNs> cut_instants(std::vector<TimeNs> samples, std::size_t slices) {
  std::sort(samples.begin(), samples.end());
  std::vector<TimeNs> instants;
  for (std::size_t s = 1; s < slices; ++s)
    instants.push_back(samples.empty() ? 0 : samples[s * samples.size() / slices]);
  return instants;
}

SliceCuts cut_held_locations(const WholeTraceFacts& facts, const LocationRange& held,
                             const std::vector<TimeNs>& instants, const LeaveOf& leave_of) {
  SliceCuts cuts;
  cuts.locations = facts.loc_first_call.size() - 1;
  const std::size_t slices = instants.size() + 1;
  cuts.first.assign((slices + 1) * cuts.locations, 0);
  for (std::size_t loc = held.first; loc < std::min(held.end, cuts.locations); ++loc)
    cut_location(cuts, loc, facts.loc_first_call[loc], facts.loc_first_call[loc + 1], instants,
                 leave_of);
  return cuts;
}

void merge_cuts(SliceCuts& into, const SliceCuts& part) {
  if (into.first.empty()) {
    into = part;
    return;
  }
  for (std::size_t k = 0; k < into.first.size(); ++k)
    into.first[k] = std::max(into.first[k], part.first[k]);
}

GatedSlices gated_slices(const GraphRows& rows, const SliceIndex& index, std::size_t instances) {
  GatedSlices gated;
  gated.lowest.assign(instances, kNone);
  gated.end.assign(instances, 0);
  // The rows' calls in order: the slice of each follows from the one before's.
  std::uint32_t loc = kNone, slice = 0, slice_end = 0;
  for (std::uint32_t r = 0; r < rows.calls(); ++r) {
    if (rows.gate_first[r] == rows.gate_first[r + 1]) continue;
    const std::uint32_t g = rows.first_call + r;
    if (loc == kNone || g >= index.location_end(loc)) {
      loc = index.location_of(g);
      slice = index.slice_of(g);
      slice_end = index.slice_end(slice, loc);
    }
    while (g >= slice_end) slice_end = index.slice_end(++slice, loc);
    for (std::uint32_t k = rows.gate_first[r]; k < rows.gate_first[r + 1]; ++k)
      if (rows.gates[k] & kCollectiveGate) {
        const std::uint32_t i = rows.gates[k] & ~kCollectiveGate;
        gated.lowest[i] = std::min(gated.lowest[i], slice);
        gated.end[i] = std::max(gated.end[i], slice + 1);
      }
  }
  return gated;
}

void merge_gated_slices(GatedSlices& into, const GatedSlices& part) {
  if (into.lowest.empty()) {
    into = part;
    return;
  }
  for (std::size_t i = 0; i < into.lowest.size(); ++i) {
    into.lowest[i] = std::min(into.lowest[i], part.lowest[i]);
    into.end[i] = std::max(into.end[i], part.end[i]);
  }
}

namespace {

// The rows of the calls [first, end) of `rows`.
GraphRows rows_between(const GraphRows& rows, std::uint32_t first, std::uint32_t end) {
  GraphRows out;
  out.first_call = first;
  const std::uint32_t r0 = first - rows.first_call, r1 = end - rows.first_call;
  out.call_costs.assign(rows.call_costs.begin() + r0, rows.call_costs.begin() + r1);
  out.long_segments = long_costs_between(rows.long_segments, first, end);
  out.long_own_costs = long_costs_between(rows.long_own_costs, first, end);
  if (!rows.segment_type.empty())
    out.segment_type.assign(rows.segment_type.begin() + r0, rows.segment_type.begin() + r1);
  out.gates.assign(rows.gates.begin() + rows.gate_first[r0],
                   rows.gates.begin() + rows.gate_first[r1]);
  for (std::uint32_t r = r0; r < r1; ++r)
    out.gate_first.push_back(rows.gate_first[r + 1] - rows.gate_first[r0]);
  return out;
}

}  // namespace

std::vector<std::pair<std::uint32_t, TimeNs>> long_costs_between(
    const std::vector<std::pair<std::uint32_t, TimeNs>>& list, std::uint32_t first,
    std::uint32_t end) {
  std::vector<std::pair<std::uint32_t, TimeNs>> kept;
  for (const auto& entry : list)
    if (entry.first >= first && entry.first < end) kept.push_back(entry);
  return kept;
}

std::pair<std::uint32_t, std::uint32_t> slice_calls(const SliceCuts& cuts, std::size_t s,
                                                    std::size_t loc) {
  const std::uint32_t first = cuts.row(s)[loc], next = cuts.row(s + 1)[loc];
  return {first, std::min(next + 1, cuts.row(cuts.slices())[loc])};
}

std::vector<GraphRows::Member> slice_members(const GraphRows& rows, const GatedSlices& gated,
                                             std::size_t s) {
  std::vector<GraphRows::Member> out;
  for (const GraphRows::Member& m : rows.members)
    if (gated.lowest[m.instance] <= s && s < gated.end[m.instance]) out.push_back(m);
  return out;
}

SliceRows rows_for_slice(const GraphRows& rows, const LocationRange& held, const SliceCuts& cuts,
                         const GatedSlices& gated, const SliceIndex& index, std::size_t s) {
  SliceRows out;
  out.begin = index.begin();
  out.locations.resize(cuts.locations);
  for (std::size_t loc = held.first; loc < std::min(held.end, cuts.locations); ++loc) {
    const auto [first, end] = slice_calls(cuts, s, loc);
    out.locations[loc] = rows_between(rows, first, end);
  }
  out.members = slice_members(rows, gated, s);
  return out;
}

void merge_slice_rows(SliceRows& into, SliceRows&& part, const LocationRange& held) {
  into.begin = part.begin;
  into.locations.resize(part.locations.size());
  for (std::size_t loc = held.first; loc < std::min(held.end, part.locations.size()); ++loc)
    into.locations[loc] = std::move(part.locations[loc]);
  merge_slice_members(into, part.members);
}

void merge_slice_members(SliceRows& into, std::span<const GraphRows::Member> part) {
  const std::size_t middle = into.members.size();
  into.members.insert(into.members.end(), part.begin(), part.end());
  std::inplace_merge(into.members.begin(),
                     into.members.begin() + static_cast<std::ptrdiff_t>(middle),
                     into.members.end());
}

namespace {

// Calls read(g, slice that enters g) for every call whose Enter slice s reads: the calls it
// leaves, the calls they wait for, and the members of the instances they wait for (each
// instance once: its members are many calls' gate). Each of its calls but a location's first
// in the slice is entered by the call before it, in the slice: no search for those.
template <typename Read>
void for_each_read_call(const SliceRows& rows, const SliceCuts& cuts, std::size_t s,
                        const SliceIndex& index, Read&& read) {
  const auto here = static_cast<std::uint32_t>(s);
  const auto read_other = [&](std::uint32_t g) { read(g, index.entered_in(g)); };
  // The instances waited for, marked rather than listed: every member's call lists its
  // instance, and a list of them all took longer to sort than the rest of this to read.
  std::vector<char> waited_for;
  for (std::size_t loc = 0; loc < cuts.locations; ++loc) {
    const GraphRows& r = rows.locations[loc];
    const std::uint32_t first = cuts.row(s)[loc], next = cuts.row(s + 1)[loc];
    for (std::uint32_t row = 0; row < r.calls() && r.first_call + row < next; ++row) {
      const std::uint32_t g = r.first_call + row;
      if (g == first)
        read_other(g);
      else
        read(g, here);
      for (std::uint32_t k = r.gate_first[row]; k < r.gate_first[row + 1]; ++k) {
        if (!(r.gates[k] & kCollectiveGate)) {
          read_other(r.gates[k]);
          continue;
        }
        const std::uint32_t i = r.gates[k] & ~kCollectiveGate;
        if (i >= waited_for.size())
          waited_for.resize(std::max<std::size_t>(i + 1, 2 * waited_for.size()));
        waited_for[i] = 1;
      }
    }
  }
  // The members, by instance.
  for (const GraphRows::Member& m : rows.members)
    if (m.instance < waited_for.size() && waited_for[m.instance] && m.call != kNone)
      read_other(m.call);
}

}  // namespace

EarlierReads earlier_reads(const SliceRows& rows, const SliceCuts& cuts, std::size_t s,
                           const SliceIndex& index) {
  EarlierReads out;
  for_each_read_call(rows, cuts, s, index, [&](std::uint32_t g, std::uint32_t entered) {
    out.replayable &= entered <= s;
    if (entered < s) out.entered_before.push_back(g);
  });
  std::sort(out.entered_before.begin(), out.entered_before.end());
  out.entered_before.erase(std::unique(out.entered_before.begin(), out.entered_before.end()),
                           out.entered_before.end());
  return out;
}

std::vector<std::uint32_t> handed_into(std::vector<std::uint32_t> needs,
                                       const std::vector<std::uint32_t>& into_next, std::size_t s,
                                       const SliceIndex& index) {
  std::vector<std::uint32_t> earlier;
  for (const std::uint32_t g : into_next)
    if (index.entered_in(g) < s) earlier.push_back(g);
  std::vector<std::uint32_t> out;
  std::set_union(needs.begin(), needs.end(), earlier.begin(), earlier.end(),
                 std::back_inserter(out));
  return out;
}

std::vector<HandedCall> segments_to_hand(const SliceRows& rows,
                                         std::span<const std::uint32_t> hand_on,
                                         const SliceIndex& index) {
  std::vector<HandedCall> out;
  for (const std::uint32_t g : hand_on) {
    HandedCall h{g, kNone, 0};
    const GraphRows& r = rows.locations[index.location_of(g)];
    if (g >= r.first_call && g - r.first_call < r.calls()) {
      const std::uint32_t row = g - r.first_call;
      h.segment = r.segment(g);
      if (!r.segment_type.empty()) h.segment_type = r.segment_type[row];
    } else {
      const auto it =
          std::lower_bound(rows.handed.begin(), rows.handed.end(), g,
                           [](const HandedCall& e, std::uint32_t c) { return e.call < c; });
      if (it != rows.handed.end() && it->call == g) h = *it;
    }
    out.push_back(h);
  }
  return out;
}

}  // namespace collwrap
