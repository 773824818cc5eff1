// Every pattern the analyzer knows, and the selection syntax of --patterns.
#pragma once

#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "pattern.h"

namespace collwrap {

// Defined one per family file: p2p_blocking.cpp, wrong_order.cpp, early_wait.cpp,
// barrier.cpp, nxn.cpp, rooted_collectives.cpp, sendrecv_candidate.cpp.
extern const Pattern kLateSender;
extern const Pattern kLateReceiver;
extern const Pattern kWrongOrder;
extern const Pattern kEarlyWait;
extern const Pattern kWaitAtBarrier;
extern const Pattern kBarrierCompletion;
extern const Pattern kWaitAtNxN;
extern const Pattern kNxNCompletion;
extern const Pattern kLateBroadcast;
extern const Pattern kEarlyReduce;
extern const Pattern kEarlyScan;
extern const Pattern kSendrecvCandidate;

// All patterns, in the order reports list them.
std::span<const Pattern* const> pattern_catalog();

// The pattern with this id, or null.
const Pattern* find_pattern(std::string_view id);

struct UnknownPatternError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;  // what() = the unknown id
};

// "all", or a comma-separated list of ids: the patterns in catalog order, each once.
// Throws UnknownPatternError for an id not in the catalog (or an empty list entry).
std::vector<const Pattern*> select_patterns(std::string_view spec);

}  // namespace collwrap
