// Loads an archive's global definitions into the Trace's tables (nodes, regions, call sites,
// communicators in world ranks, locations sorted by (rank, thread)) and keeps what the event
// loader needs to turn OTF2 references into indexes of those tables.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <string>
#include <vector>

#include "timestamp_plausibility.h"
#include "trace_model.h"

namespace collwrap {

// OTF2 reference → index in one of the Trace's tables. A unified archive numbers each kind
// of definition 0, 1, 2, …, so a plain vector indexed by the reference is the fastest map
// for the one lookup per event that the loader does.
class RefIndex {
 public:
  // Throws TraceReadError for references too large to be a dense numbering.
  void set(std::uint64_t ref, std::uint32_t index);
  std::uint32_t operator[](std::uint64_t ref) const {
    return ref < index_.size() ? index_[ref] : kNone;
  }

 private:
  std::vector<std::uint32_t> index_;
};

struct Definitions {
  RefIndex region;                        // Region → Trace::regions
  std::vector<std::uint8_t> region_call;  // per Trace::regions: 1 if it makes a call (MPI)
  std::vector<std::uint8_t> region_mpi;   // per Trace::regions: 1 for an MPI function
  RefIndex callsite;                      // CallingContext → Trace::callsites
  RefIndex comm;                          // Comm → Trace::comms
  RefIndex window;                        // RmaWin → Trace::comms (the window's communicator)
  RefIndex group;  // Group → Trace::comms (the first communicator over it; RmaGroupSync)
  OTF2_AttributeRef callsite_attribute = OTF2_UNDEFINED_ATTRIBUTE;
  OTF2_AttributeRef pcontrol_level_attribute = OTF2_UNDEFINED_ATTRIBUTE;
  OTF2_AttributeRef upc_sync_flags_attribute = OTF2_UNDEFINED_ATTRIBUTE;
  std::vector<std::uint64_t> expected_events;  // per Trace::locations, from Location
  TimerProperties timer;
};

// Reads the global definitions through `reader` and fills the Trace's definition tables,
// locations (without events), world_size, program and warnings. Throws TraceReadError when the
// definitions cannot be read or describe no location at all.
Definitions load_definitions(OTF2_Reader* reader, Trace& trace);

}  // namespace collwrap
