#include "trace_model.h"

#include <algorithm>
#include <array>

namespace collwrap {

template <class Value>
Value SparseOpValues<Value>::of(std::uint32_t op, std::size_t all_ops) const {
  const std::size_t n = ops.size();
  if (n == 0) return Value{};
  // The kept ops are taken to be spread evenly among all of them; from that guess the search
  // gallops to a range that holds `op`'s place. On a collective-heavy trace, where nearly every
  // op is kept and callers ask op after op, the range is a few entries wide.
  const std::size_t guess = std::min(
      n - 1, static_cast<std::size_t>(std::uint64_t{op} * n / std::max<std::size_t>(all_ops, 1)));
  std::size_t lo = 0, hi = n;
  if (ops[guess] < op) {
    std::size_t below = guess;  // ops[below] < op
    for (std::size_t step = 1;; step *= 2) {
      if (below + step >= n) break;
      if (ops[below + step] >= op) {
        hi = below + step + 1;
        break;
      }
      below += step;
    }
    lo = below + 1;
  } else {
    std::size_t at_or_above = guess;  // ops[at_or_above] >= op
    for (std::size_t step = 1;; step *= 2) {
      if (step > at_or_above) break;
      if (ops[at_or_above - step] < op) {
        lo = at_or_above - step + 1;
        break;
      }
      at_or_above -= step;
    }
    hi = at_or_above + 1;
  }
  const auto it = std::lower_bound(ops.begin() + static_cast<std::ptrdiff_t>(lo),
                                   ops.begin() + static_cast<std::ptrdiff_t>(hi), op);
  return it != ops.end() && *it == op ? values[static_cast<std::size_t>(it - ops.begin())]
                                      : Value{};
}

template <class Value>
void SparseOpValues<Value>::append(std::uint32_t op, Value value) {
  if (value == Value{}) return;
  ops.push_back(op);
  values.push_back(value);
}

template <class Value>
void SparseOpValues<Value>::set(std::uint32_t op, Value value) {
  const auto it = std::lower_bound(ops.begin(), ops.end(), op);
  const auto at = it - ops.begin();
  if (it != ops.end() && *it == op) {
    values[static_cast<std::size_t>(at)] = value;
    return;
  }
  ops.insert(it, op);
  values.insert(values.begin() + at, value);
}

template struct SparseOpValues<std::uint64_t>;
template struct SparseOpValues<TimeNs>;

void Trace::finish_indexes() {
  rank_main_location.assign(world_size > 0 ? static_cast<std::size_t>(world_size) : 0, kNone);
  for (std::uint32_t i = 0; i < locations.size(); ++i) {
    const Location& l = locations[i];
    if (l.thread == 0 && l.rank >= 0 && l.rank < world_size) rank_main_location[l.rank] = i;
  }
}

void Trace::release_request_ids() {
  for (Location& l : locations) std::vector<std::uint64_t>().swap(l.op_request);
}

void Trace::release_op_details(bool keep_op_call) {
  for (Location& l : locations) {
    for_each_op_column(l, [&](auto& column) {
      const void* c = &column;
      if (c == &l.op_kind || c == &l.op_peer || (keep_op_call && c == &l.op_call)) return;
      std::remove_reference_t<decltype(column)>().swap(column);
    });
  }
}

OpKindSet op_kinds_in(const Trace& trace) {
  // A table of the byte values seen, then the set: one store per op, no branch.
  std::array<bool, 256> seen{};
  for (const Location& l : trace.locations)
    for (const OpKind k : l.op_kind) seen[static_cast<std::uint8_t>(k)] = true;
  OpKindSet kinds;
  for (std::size_t k = 0; k <= static_cast<std::size_t>(OpKind::RmaGroupSync); ++k)
    if (seen[k]) kinds.add(static_cast<OpKind>(k));
  return kinds;
}

}  // namespace collwrap
