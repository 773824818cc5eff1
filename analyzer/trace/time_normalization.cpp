#include "time_normalization.h"

#include <algorithm>
#include <limits>

#include "parallel_for.h"

namespace collwrap {

TimeSpan time_span(const Trace& trace) {
  TimeSpan span{std::numeric_limits<TimeNs>::max(), std::numeric_limits<TimeNs>::min()};
  for (const Location& l : trace.locations) {
    if (l.calls() > 0) {
      span.first = std::min(span.first, l.call_enter.front());
      span.last = std::max(span.last, l.call_leave.back());
    }
    if (l.ops() > 0) {
      span.first = std::min(span.first, l.op_time(0));
      span.last = std::max(span.last, l.op_time(static_cast<std::uint32_t>(l.ops() - 1)));
    }
  }
  return span;
}

void start_time_at(Trace& trace, TimeSpan whole, unsigned threads) {
  if (whole.first > whole.last) {  // no events at all
    trace.begin = trace.end = 0;
    return;
  }
  const TimeNs first = whole.first;
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
  trace.end = whole.last - first;
}

void start_time_at_zero(Trace& trace, unsigned threads) {
  start_time_at(trace, time_span(trace), threads);
}

}  // namespace collwrap
