// What a wait-state pattern is: its definition, the instances it finds, and where they go.
//
// A rule reads the Trace and the Matching and reports each occurrence (an Instance: one MPI
// call that lost time) to an InstanceSink. It does not aggregate, filter by --min-wait or
// format text: the sink does (see run_patterns.h and finding_aggregator.h).
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <span>
#include <string_view>

#include "matching.h"
#include "rule_options.h"
#include "trace_model.h"

namespace collwrap {

struct Pattern;
struct TrafficTotals;

// wrong_order: whether the message that had already arrived came from the awaited sender.
enum class MessageOrder : std::uint8_t { None, SameSource, DifferentSource };

// Pattern-specific facts about one instance; fields a pattern does not use keep their defaults.
struct InstanceDetail {
  SendMode send_mode = SendMode::None;      // late_sender, late_receiver: mode of the send
  MessageOrder order = MessageOrder::None;  // wrong_order
  // early_wait: the nonblocking call whose request was waited for; nonblocking collectives:
  // the posting call (MPI_Iallreduce, …); sendrecv_candidate: the second call of the pair.
  std::uint32_t related_call = kNone;
  TimeNs optimal_distance = -1;  // early_wait: O_D of Akopyan and Andreev
  TimeNs actual_distance = -1;   // early_wait: Enter(wait) − Enter(nonblocking call)
  // frequent_small_communication, large_communication, unbalanced_communication: the
  // transfers in the instance and their bytes.
  std::uint64_t transfers = 0;
  std::uint64_t transfer_bytes = 0;
  std::uint64_t mean_pair_bytes = 0;  // unbalanced_communication: mean over communicating pairs
};

// A peer of an instance: the world rank responsible and the thread of it whose call made the
// instance wait (that sent the message, joined the collective, held the lock), or
// kUnknownThread when no call of the peer is involved (the target of a put).
inline constexpr std::int32_t kUnknownThread = -1;
struct Peer {
  std::int32_t rank = kNoWorldRank;
  std::int32_t thread = kUnknownThread;
  friend auto operator<=>(const Peer&, const Peer&) = default;
};

// One MPI call that lost time.
struct Instance {
  const Pattern* pattern = nullptr;
  std::uint32_t loc = kNone;    // index into Trace::locations
  std::uint32_t call = kNone;   // the call in which the time was lost
  TimeNs idle = 0;              // > 0
  std::span<const Peer> peers;  // responsible, valid during add() only
  InstanceDetail detail;
};

class InstanceSink {
 public:
  virtual ~InstanceSink() = default;
  virtual void add(const Instance& instance) = 0;
};

struct RuleContext {
  const Trace& trace;
  const Matching& matching;
  const RuleOptions& options;
  // The whole trace's traffic totals (traffic_totals.h), when the processes of a job that
  // divide the trace added them up; else a rule that reads them makes them.
  const TrafficTotals* totals = nullptr;
  // The kinds of the trace's ops (op_kinds_in): a rule that needs none of them is not run.
  OpKindSet present = OpKindSet::all();
};

// What a rule reads besides the location it reports at, which says whether the processes of
// a job that divide a trace's locations (distributed/) can each run it on their own share,
// with the ghosts of the other locations that ghost_selection.h gives them.
enum class RuleReach : std::uint8_t {
  WholeTrace,   // anything: it runs where the whole trace is
  OwnLocation,  // only the location itself
  // Besides, the other ends of the location's messages, the other members of its
  // collectives, the request records of both, the one-sided transfers to its rank, the holds
  // of the locks it takes and the epochs of the windows it opens: what ghosts hold.
  Partners,
  // Besides its partners, the whole trace's traffic totals (traffic_totals.h), which the
  // processes add up from their shares.
  Totals,
};

// Whether the processes of a job that divide a trace can run the rule on their shares.
inline bool runs_divided(RuleReach reach) {
  return reach == RuleReach::OwnLocation || reach == RuleReach::Partners ||
         reach == RuleReach::Totals;
}

// A pattern, declared in one place with everything a reader of the report needs. Its relation
// to other patterns is data here, as PARENT is in Scalasca's pattern specifications, so that
// every report derives its overlap notes and totals from it (see catalog.h).
struct Pattern {
  std::string_view id{};      // stable snake_case id, used on the command line and in reports
  std::string_view parent{};  // the pattern whose instances include all of this one's, or empty
  // Patterns whose idle time an instance of this one can include (partly the same time).
  std::array<std::string_view, 2> may_include{};
  bool waiting = true;                // false: the time is a possible saving, not idle time
  std::string_view description{};     // one line: what the pattern is
  std::string_view formula{};         // how its time is computed, in Enter/Exit terms
  std::string_view peer_role{};       // what the reported peers are, e.g. "late sender"
  std::string_view related_role{};    // introduces InstanceDetail::related_call, or empty
  std::string_view recommendation{};  // what to change in the program
  void (*find)(const RuleContext& context, InstanceSink& sink) = nullptr;
  // The op kinds without one of which in the trace the rule finds nothing (empty: it may find
  // something in any trace), so that a rule of a paradigm the program did not use costs no
  // pass over the trace.
  OpKindSet needs{};
  RuleReach reach = RuleReach::WholeTrace;
  bool may_find_in(OpKindSet present) const { return needs.empty() || needs.intersects(present); }
};

}  // namespace collwrap
