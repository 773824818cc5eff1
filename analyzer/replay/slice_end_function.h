// The end of a slice's replay as a function of the Enters handed to it, found before they
// arrive.
//
// A replay is max-plus arithmetic on integers: a call is entered at the Leave before it plus a
// segment, and left at the latest of its Enter and the Enters it waits for, plus its own cost.
// So the slice's latest Leave is the latest, over the Enters handed to it (and the trace's
// start, for locations that begin in the slice), of that Enter plus the longest path of
// segments and own costs from it to a Leave that ends a location's part of the slice. Those
// path lengths need nothing from the slices before: one pass backwards over the slice finds
// them all, in the reverse of the order in which a replay processed its calls
// (ReplaySchedule), which takes every call after all that read its Enter or its Leave. The end
// is then a maximum over the handed Enters, equal to the forward replay's to the nanosecond.
//
// So the last process of a divided analysis need not wait for the Enters of a what-if question
// before replaying its slice: it walks its slice backwards while the processes before replay
// theirs forwards, and has the end as soon as the Enters come.
#pragma once

#include <span>
#include <vector>

#include "replay.h"
#include "replay_slices.h"

namespace collwrap {

struct SliceEndFunction {
  TimeNs constant = 0;  // the end whatever is handed in
  // By handed call (global id), in the order given: the longest path from its Enter to the end.
  std::vector<std::pair<std::uint32_t, TimeNs>> to_end;

  // The slice's latest Leave in a replay as recorded from the Enters `in` of the calls it was
  // made for, in their order: what replay_slice_ends gives from them.
  TimeNs operator()(const SliceHandover& in) const;
};

// The end functions of replays as recorded of slice `part`, up to kReplayLanes in one pass,
// each with its changed segments scaled[i] (by global call), of the Enters of `handed` (global
// ids, the calls the slice before hands on). `schedule` is the order in which a replay of the
// slice processed its calls (replay_slice).
std::vector<SliceEndFunction> slice_end_functions(
    const SliceGraph& part, const ReplaySchedule& schedule,
    std::span<const std::span<const ScaledSegment>> scaled, std::span<const std::uint32_t> handed);

}  // namespace collwrap
