#include "time_normalization.h"

#include <algorithm>
#include <limits>

#include "parallel_for.h"

namespace collwrap {

void start_time_at_zero(Trace& trace, unsigned threads) {
  TimeNs first = std::numeric_limits<TimeNs>::max();
  TimeNs last = std::numeric_limits<TimeNs>::min();
  for (const Location& l : trace.locations) {
    if (l.calls() > 0) {
      first = std::min(first, l.call_enter.front());
      last = std::max(last, l.call_leave.back());
    }
    if (l.ops() > 0) {
      first = std::min(first, l.op_time(0));
      last = std::max(last, l.op_time(static_cast<std::uint32_t>(l.ops() - 1)));
    }
  }
  if (first > last) {  // no events at all
    trace.begin = trace.end = 0;
    return;
  }
  if (first != 0) {
    parallel_for(trace.locations.size(), threads, [&](std::size_t i) {
      Location& l = trace.locations[i];
      for (TimeNs& t : l.call_enter) t -= first;
      for (TimeNs& t : l.call_leave) t -= first;
      // Op times are offsets from their calls' Enters, but for the few kept whole.
      for (TimeNs& t : l.op_wide_time.values) t -= first;
    });
  }
  trace.begin = 0;
  trace.end = last - first;
}

}  // namespace collwrap
