#include "ghost_location.h"

#include "event_sequence.h"

namespace collwrap {

GhostLocation extract_ghost(const Location& original, std::span<const std::uint32_t> ops,
                            std::span<const std::uint32_t> calls) {
  GhostLocation g;
  Location& e = g.events;
  e = original.definition_only();
  const bool requests = !original.op_request.empty();
  // Room once, not by doubling: at most a call per op. The ghost only lives until it is sent.
  for_each_call_column(e, [&](auto& column) { column.reserve(ops.size() + calls.size() + 1); });
  for_each_dense_op_column(e, [&](auto& column) { column.reserve(ops.size()); });
  g.origin_call.reserve(ops.size() + calls.size());
  g.origin_op.reserve(ops.size());
  // A call starts where the previous one's ops end.
  const auto add_call = [&](std::uint32_t call) {
    if (!g.origin_call.empty()) e.call_first_op.push_back(static_cast<std::uint32_t>(e.ops()));
    g.origin_call.push_back(call);
    e.call_enter.push_back(original.call_enter[call]);
    e.call_leave.push_back(original.call_leave[call]);
    e.call_region.push_back(original.call_region[call]);
    e.call_callsite.push_back(original.call_callsite[call]);
  };
  auto next_call = calls.begin();  // the calls without ops, merged in call order
  const auto add_calls_before = [&](std::uint32_t limit) {
    for (; next_call != calls.end() && *next_call < limit; ++next_call)
      if (g.origin_call.empty() || g.origin_call.back() != *next_call) add_call(*next_call);
  };
  for (const std::uint32_t op : ops) {
    // Ops are in call order (each call's ops are one range).
    const std::uint32_t call = original.op_call[op];
    add_calls_before(call);
    if (g.origin_call.empty() || g.origin_call.back() != call) add_call(call);
    const auto ghost_op = static_cast<std::uint32_t>(e.ops());
    g.origin_op.push_back(op);
    e.op_kind.push_back(original.op_kind[op]);
    e.op_coll.push_back(original.op_coll[op]);
    // The offset is from the call's Enter, which the copy keeps.
    e.op_time_offset.push_back(original.op_time_offset[op]);
    if (original.op_time_offset[op] == kWideTime)
      e.op_wide_time.append(ghost_op, original.op_wide_time.of(op, original.ops()));
    e.op_call.push_back(static_cast<std::uint32_t>(g.origin_call.size() - 1));
    e.op_peer.push_back(original.op_peer[op]);
    e.op_comm.push_back(original.op_comm[op]);
    e.op_tag.push_back(original.op_tag[op]);
    e.op_bytes_sent.push_back(0);
    e.set_bytes_sent(ghost_op, original.bytes_sent(op));
    if (requests) e.op_request.push_back(original.op_request[op]);
    e.op_bytes_received.append(ghost_op, original.bytes_received(op));
  }
  add_calls_before(kNone);
  if (!g.origin_call.empty()) e.call_first_op.push_back(static_cast<std::uint32_t>(e.ops()));
  return g;
}

std::vector<std::uint32_t> ghost_event_positions(const Location& original,
                                                 std::span<const std::uint32_t> origin_call,
                                                 std::span<const std::uint32_t> origin_op) {
  std::vector<std::uint32_t> positions;
  positions.reserve(2 * origin_call.size() + origin_op.size());
  std::size_t op = 0;
  for (const std::uint32_t call : origin_call) {
    positions.push_back(enter_position(original, call));
    for (; op < origin_op.size() && original.op_call[origin_op[op]] == call; ++op)
      positions.push_back(op_position(original, origin_op[op]));
    positions.push_back(leave_position(original, call));
  }
  return positions;
}

}  // namespace collwrap
