// Ghosts between the processes of the analyzer's MPI job: each process sends every other the
// ghosts of its own locations that process needs (ghost_selection.h) and installs the ghosts
// the others send it (PartialTrace::install).
//
// Ghost columns travel as they are in memory, straight from the sender's copy into the
// receiver's columns: the processes exchange in K − 1 rounds, with one partner each way per
// round. A round first says how many ghosts come, then sends them one location at a time: a
// header of fixed length (the location and how long each column is), then every column in
// pieces below MPI's int counts. The sender copies its locations a batch at a time (one per
// thread) and frees each copy once sent, so that it holds a batch of copies beside the ghosts
// it received rather than every copy it sends.
#pragma once

#include "matching.h"
#include "partial_trace.h"
#include "process_map.h"

namespace collwrap {

// `links`: the request pairs of the held locations (link_requests). `self`: this process.
// `threads`: how many cores select and copy the ghosts (0: one per core); only the main thread
// calls MPI.
// `digested_comms`: the communicators whose collectives' members need not travel
// (select_ghosts), or null.
void exchange_ghosts(PartialTrace& part, const Matching& links, const ProcessMap& map,
                     unsigned self, unsigned threads,
                     const std::vector<std::uint8_t>* digested_comms = nullptr);

}  // namespace collwrap
