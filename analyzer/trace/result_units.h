// Conversions from the trace's integers to the units and names of the analysis result.
#pragma once

#include <string>

#include "trace_model.h"

namespace collwrap {

inline double seconds(TimeNs ns) {
  return static_cast<double>(ns) * 1e-9;
}

// The host name of a location; empty when the archive did not name it.
inline std::string node_name(const Trace& trace, const Location& l) {
  return l.node < trace.nodes.size() ? trace.nodes[l.node] : std::string();
}

}  // namespace collwrap
