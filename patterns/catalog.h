// Every pattern the analyzer knows, and the selection syntax of --patterns.
#pragma once

#include <array>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pattern.h"

namespace collwrap {

// Declared one per family file: p2p_blocking.cpp, wrong_order.cpp, early_wait.cpp,
// barrier.cpp, nxn.cpp, neighbor.cpp, rooted_collectives.cpp, sendrecv_candidate.cpp, and the
// one-sided (PGAS) rules lock_contention.cpp, late_wait_until.cpp, memory_sync_wait.cpp,
// frequent_small_communication.cpp, large_communication.cpp, unbalanced_communication.cpp,
// slow_workers.cpp, overloaded_master.cpp, and MPI's window synchronization rma_fence.cpp,
// rma_gats.cpp, rma_window.cpp. A new pattern is registered here: its declaration below
// and its place in kPatternCatalog.
extern const Pattern kLateSender;
extern const Pattern kLateReceiver;
extern const Pattern kWrongOrder;
extern const Pattern kEarlyWait;
extern const Pattern kWaitAtBarrier;
extern const Pattern kBarrierCompletion;
extern const Pattern kWaitAtNxN;
extern const Pattern kNxNCompletion;
extern const Pattern kWaitAtNeighbor;
extern const Pattern kLateBroadcast;
extern const Pattern kEarlyReduce;
extern const Pattern kEarlyScan;
extern const Pattern kSendrecvCandidate;
extern const Pattern kLockContention;
extern const Pattern kLateWaitUntil;
extern const Pattern kFrequentSmallCommunication;
extern const Pattern kMemorySyncWait;
extern const Pattern kRmaWaitAtFence;
extern const Pattern kRmaEarlyFence;
extern const Pattern kRmaLatePost;
extern const Pattern kRmaEarlyWait;
extern const Pattern kRmaLateComplete;
extern const Pattern kRmaWaitAtCreate;
extern const Pattern kRmaWaitAtFree;
extern const Pattern kLargeCommunication;
extern const Pattern kUnbalancedCommunication;
extern const Pattern kSlowWorkers;
extern const Pattern kOverloadedMaster;
extern const Pattern kUpcSyncOnEntry;  // upc_collective_sync.cpp
extern const Pattern kUpcSyncOnExit;
extern const Pattern kUpcWaitInsideCollective;  // upc_wait_inside_collective.cpp
extern const Pattern kUpcWaitAtAllAlloc;        // upc_all_alloc_wait.cpp

// All patterns, in the order reports list them.
inline constexpr auto kPatternCatalog = std::to_array<const Pattern*>(
    {&kLateSender,        &kLateReceiver,       &kWrongOrder,
     &kEarlyWait,         &kWaitAtBarrier,      &kBarrierCompletion,
     &kWaitAtNxN,         &kNxNCompletion,      &kWaitAtNeighbor,
     &kLateBroadcast,     &kEarlyReduce,        &kEarlyScan,
     &kSendrecvCandidate, &kLockContention,     &kLateWaitUntil,
     &kMemorySyncWait,    &kRmaWaitAtFence,     &kRmaEarlyFence,
     &kRmaLatePost,       &kRmaEarlyWait,       &kRmaLateComplete,
     &kRmaWaitAtCreate,   &kRmaWaitAtFree,      &kFrequentSmallCommunication,
     &kUpcSyncOnEntry,    &kUpcSyncOnExit,      &kUpcWaitInsideCollective,
     &kUpcWaitAtAllAlloc, &kLargeCommunication, &kUnbalancedCommunication,
     &kSlowWorkers,       &kOverloadedMaster});

std::span<const Pattern* const> pattern_catalog();

// The pattern with this id, or null.
const Pattern* find_pattern(std::string_view id);

// Whether the pattern's time is waiting that no other pattern also counts: not part of
// another pattern, not possibly including another's time, and idle time rather than a saving.
bool counts_separately(const Pattern& pattern);

// The overlaps between patterns in words, from the catalog, without a final period:
// "wrong_order is part of late_sender; early_wait can include late_sender or late_receiver time".
std::string pattern_overlap_note();

struct UnknownPatternError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;  // what() = the unknown id
};

// "all", or a comma-separated list of ids: the patterns in catalog order, each once.
// Throws UnknownPatternError for an id not in the catalog (or an empty list entry).
std::vector<const Pattern*> select_patterns(std::string_view spec);

}  // namespace collwrap
