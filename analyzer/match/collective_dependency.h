// The clock condition of a collective instance: which entry a member must follow with its exit.
// The matcher counts violations with it and the clock repair enforces it, so that both apply
// exactly the same rule (collective_family in trace_model.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "trace_model.h"

namespace collwrap {

// The family whose dependencies (for_each_collective_dependency) an instance's clock condition
// follows, or CollFamily::Other when its members may leave in any order relative to the others'
// entries. The matcher's check and the clock repair both derive the condition here.
//
// MPI and OpenSHMEM collectives (upc_sync 0) synchronize as their family says, except that
// collectives moving no data need not synchronize at all; barriers always do.
//
// UPC relocalization collectives follow their sync modes (UPC Collectives Library
// specification, "Synchronization options" of upc_flag_t):
//   UPC_IN_ALLSYNC   data is read or written only after all threads have entered (a barrier on
//                    entry, as implementations realize it and upc_sync_on_entry measures it);
//   UPC_OUT_ALLSYNC  a thread returns only after all threads have entered;
//     either one: every member's Exit follows every member's Enter (a barrier's condition);
//   UPC_IN_MYSYNC    only data with affinity to threads that have entered is read or written;
//   UPC_OUT_MYSYNC   a thread returns only after all reads and writes of its data are done;
//     both: a member leaves after the members whose data it receives have entered (the family);
//   UPC_IN_NOSYNC    data may be read or written as soon as the first thread has entered;
//   UPC_OUT_NOSYNC   data may be read or written until the last thread has returned;
//     otherwise nothing orders a member's Exit after another's Enter.
constexpr CollFamily clock_dependency_family(CollFamily family, bool moves_data,
                                             std::int32_t upc_sync) {
  const UpcSync entry = upc_entry_sync(upc_sync), exit = upc_exit_sync(upc_sync);
  if (entry == UpcSync::Unspecified && exit == UpcSync::Unspecified)
    return moves_data || family == CollFamily::Barrier ? family : CollFamily::Other;
  if (entry == UpcSync::All || exit == UpcSync::All) return CollFamily::Barrier;
  if (entry == UpcSync::My && exit == UpcSync::My) return family;
  return CollFamily::Other;
}

// Whether `call` is a upc_wait: the end of a split-phase barrier, which a thread joined at its
// upc_notify before (split_phase_notify in patterns/collective_timing.h).
inline bool split_phase_wait(const Trace& trace, const Location& l, std::uint32_t call) {
  return trace.regions[l.call_region[call]].name == "upc_wait";
}

// A collective member op's UPC sync modes (kept in a CollectiveEnd's tag), or 0.
inline std::int32_t upc_sync_of(const Location& l, std::uint32_t op) {
  return l.op_kind[op] == OpKind::CollectiveEnd ? l.op_tag[op] : 0;
}

// Calls depends(i, entered) for every member i of an instance that cannot have left before
// `entered`, the latest entry among the members it waits for. Members are indexed 0..count−1 in
// rank-in-communicator order (which the prefix family relies on); enter(i) is member i's entry
// time; root is the root's index, or any value ≥ count when the instance has none.
// in_neighbors (neighborhood collectives) lists each rank's in-neighbors; without a list for
// every member the instance states no dependency.
template <typename EnterOf, typename Depends>
void for_each_collective_dependency(CollFamily family, std::uint32_t count, std::uint32_t root,
                                    const NeighborLists* in_neighbors, EnterOf enter,
                                    Depends depends) {
  TimeNs last = std::numeric_limits<TimeNs>::min();
  switch (family) {
    case CollFamily::Prefix:
      for (std::uint32_t i = 0; i < count; ++i) {
        last = std::max(last, enter(i));
        depends(i, last);
      }
      break;
    case CollFamily::Barrier:
    case CollFamily::NxN:
      for (std::uint32_t i = 0; i < count; ++i) last = std::max(last, enter(i));
      for (std::uint32_t i = 0; i < count; ++i) depends(i, last);
      break;
    case CollFamily::OneToN:
      if (root >= count) break;
      for (std::uint32_t i = 0; i < count; ++i)
        if (i != root) depends(i, enter(root));
      break;
    case CollFamily::NToOne:
      if (root >= count) break;
      for (std::uint32_t i = 0; i < count; ++i) last = std::max(last, enter(i));
      depends(root, last);
      break;
    case CollFamily::Neighbor:
      if (in_neighbors == nullptr || in_neighbors->size() != count) break;
      for (std::uint32_t i = 0; i < count; ++i) {
        const std::vector<std::uint32_t>& sources = (*in_neighbors)[i];
        if (sources.empty()) continue;
        TimeNs latest = std::numeric_limits<TimeNs>::min();
        for (const std::uint32_t j : sources)
          if (j < count) latest = std::max(latest, enter(j));
        if (latest != std::numeric_limits<TimeNs>::min()) depends(i, latest);
      }
      break;
    case CollFamily::Fence:
    case CollFamily::WindowCreate:
    case CollFamily::WindowFree:
    case CollFamily::Other:
      break;
  }
}

}  // namespace collwrap
