#include "p2p_matching.h"

#include <algorithm>

#include "flat_map.h"
#include "group_by_key.h"
#include "op_count.h"
#include "parallel_for.h"

namespace collwrap {
namespace {

// MPI's non-overtaking rule holds per (communicator, sender, receiver, tag): messages with
// one key are received in the order they were sent.
struct MessageKey {
  std::uint32_t comm;
  std::int32_t sender;
  std::int32_t receiver;
  std::int32_t tag;
  friend bool operator==(const MessageKey&, const MessageKey&) = default;
};

struct MessageKeyHash {
  std::uint64_t operator()(const MessageKey& k) const {
    const auto a = (std::uint64_t{k.comm} << 32) | static_cast<std::uint32_t>(k.sender);
    const auto b = (std::uint64_t{static_cast<std::uint32_t>(k.receiver)} << 32) |
                   static_cast<std::uint32_t>(k.tag);
    return mix_bits(a ^ mix_bits(b));
  }
};

// Numbers keys in the order they first come.
class KeyNumbers {
 public:
  std::uint32_t number(const MessageKey& key) {
    const auto next = static_cast<std::uint32_t>(keys_.size());
    const std::uint32_t n = map_.insert(key, next);
    if (n == next) keys_.push_back(key);
    return n;
  }
  std::size_t size() const { return keys_.size(); }
  const MessageKey& key(std::uint32_t number) const { return keys_[number]; }

 private:
  FlatMap<MessageKey, MessageKeyHash> map_{1024};
  std::vector<MessageKey> keys_;  // by number
};

// One side of a message, tagged with its key's number: a Send/Isend or a Recv/Irecv op of
// location `loc`. There are as many as messages, twice: they hold only what cannot be looked
// up in the trace.
struct Endpoint {
  std::uint32_t key;
  std::uint32_t loc;
  std::uint32_t op;
};

bool valid_p2p(const Location& l, std::uint32_t op, std::size_t comms) {
  return l.op_comm[op] < comms && l.op_peer[op] != kNoWorldRank;
}

// Sends in post order per location; cancelled nonblocking sends never happened.
std::vector<Endpoint> collect_sends(const Trace& trace, const Matching& m, KeyNumbers& keys,
                                    std::uint64_t& invalid) {
  std::vector<Endpoint> sends;
  sends.reserve(count_ops(trace, {OpKind::Send, OpKind::Isend}));
  for (std::uint32_t li = 0; li < trace.locations.size(); ++li) {
    const Location& l = trace.locations[li];
    for (std::uint32_t op = 0; op < l.ops(); ++op) {
      const OpKind kind = l.op_kind[op];
      if (kind != OpKind::Send && kind != OpKind::Isend) continue;
      const std::uint32_t done = kind == OpKind::Send ? op : m.partner_of(li, op);
      if (done != kNone && l.op_kind[done] == OpKind::RequestCancelled) continue;
      if (!valid_p2p(l, op, trace.comms.size())) {
        ++invalid;
        continue;
      }
      const MessageKey key{l.op_comm[op], l.rank, l.op_peer[op], l.op_tag[op]};
      sends.push_back({keys.number(key), li, op});
    }
  }
  return sends;
}

// Receives in posting order per location: a blocking Recv where it is, a nonblocking one where
// its IrecvRequest is, with the key (actual source and tag) from its completing Irecv.
std::vector<Endpoint> collect_receives(const Trace& trace, const Matching& m, KeyNumbers& keys,
                                       std::uint64_t& invalid) {
  std::vector<Endpoint> receives;
  receives.reserve(count_ops(trace, {OpKind::Recv, OpKind::Irecv}));
  for (std::uint32_t li = 0; li < trace.locations.size(); ++li) {
    const Location& l = trace.locations[li];
    for (std::uint32_t op = 0; op < l.ops(); ++op) {
      std::uint32_t recv;
      switch (l.op_kind[op]) {
        case OpKind::Recv:
          recv = op;
          break;
        case OpKind::IrecvRequest:  // posted here; completed (or cancelled) at its partner
          recv = m.partner_of(li, op);
          if (recv == kNone || l.op_kind[recv] != OpKind::Irecv) continue;
          break;
        case OpKind::Irecv:  // already emitted at its IrecvRequest, unless it has none
          if (m.partner_of(li, op) != kNone) continue;
          recv = op;
          break;
        default:
          continue;
      }
      if (!valid_p2p(l, recv, trace.comms.size())) {
        ++invalid;
        continue;
      }
      const MessageKey key{l.op_comm[recv], l.op_peer[recv], l.rank, l.op_tag[recv]};
      receives.push_back({keys.number(key), li, recv});
    }
  }
  return receives;
}

// Groups endpoints by key; `post_of` gives the op whose time orders an endpoint when threads
// of one rank share a key.
template <class PostOf>
KeyGroups group_endpoints(const Trace& trace, const std::vector<Endpoint>& endpoints,
                          std::size_t keys, PostOf post_of) {
  return group_by_key(
      endpoints, keys, [](const Endpoint& e) { return e.key; },
      [](const Endpoint& e) { return e.loc; },
      [&](const Endpoint& e) { return trace.locations[e.loc].op_time[post_of(e)]; });
}

// The op that posted a receive: the IrecvRequest paired with an Irecv, else the receive itself.
std::uint32_t receive_post(const Matching& m, const Endpoint& e) {
  const std::uint32_t post = m.partner_of(e.loc, e.op);
  return post == kNone ? e.op : post;
}

}  // namespace

void match_messages(const Trace& trace, Matching& m, MatchCounts& counts, unsigned threads) {
  // Sends and receives are collected side by side, each side numbering its keys. The receives'
  // keys then take the sends' numbers, and those only receives have are numbered after them in
  // the order they first came: the numbers collecting both in turn would give.
  KeyNumbers keys, receive_keys;
  std::vector<Endpoint> sends, receives;
  std::uint64_t invalid_receives = 0;
  parallel_for(2, threads, [&](std::size_t task) {
    if (task == 0)
      sends = collect_sends(trace, m, keys, counts.invalid_ops);
    else
      receives = collect_receives(trace, m, receive_keys, invalid_receives);
  });
  counts.invalid_ops += invalid_receives;
  std::vector<std::uint32_t> renumbered(receive_keys.size());
  for (std::uint32_t k = 0; k < receive_keys.size(); ++k)
    renumbered[k] = keys.number(receive_keys.key(k));
  for (Endpoint& r : receives) r.key = renumbered[r.key];

  KeyGroups send_groups, recv_groups;
  m.message_of_op.resize(trace.locations.size());
  parallel_for(3, threads, [&](std::size_t task) {
    if (task == 0) {
      send_groups =
          group_endpoints(trace, sends, keys.size(), [](const Endpoint& e) { return e.op; });
    } else if (task == 1) {
      recv_groups = group_endpoints(trace, receives, keys.size(),
                                    [&](const Endpoint& e) { return receive_post(m, e); });
    } else {
      // Only locations with sends or receives get a table: the others' ops have no message
      // (and message_of answers so for an empty table).
      std::vector<std::uint8_t> has_messages(trace.locations.size(), 0);
      for (const Endpoint& e : sends) has_messages[e.loc] = 1;
      for (const Endpoint& e : receives) has_messages[e.loc] = 1;
      for (std::size_t li = 0; li < trace.locations.size(); ++li)
        if (has_messages[li]) m.message_of_op[li].assign(trace.locations[li].ops(), kNone);
    }
  });
  m.messages.reserve(std::min(sends.size(), receives.size()));

  for (std::size_t k = 0; k < keys.size(); ++k) {
    const std::uint32_t n = std::min(send_groups.size(k), recv_groups.size(k));
    counts.unmatched_sends += send_groups.size(k) - n;
    counts.unmatched_receives += recv_groups.size(k) - n;
    for (std::uint32_t i = 0; i < n; ++i) {
      const Endpoint& send = sends[send_groups.at(k, i)];
      const Endpoint& recv = receives[recv_groups.at(k, i)];
      // Clock condition: a message cannot be received before it was sent.
      if (trace.locations[recv.loc].op_time[recv.op] < trace.locations[send.loc].op_time[send.op])
        ++counts.clock_violations;
      const auto index = static_cast<std::uint32_t>(m.messages.size());
      m.message_of_op[send.loc][send.op] = index;
      m.message_of_op[recv.loc][recv.op] = index;
      m.messages.push_back({{send.loc, send.op}, {recv.loc, recv.op}});
    }
  }
  counts.messages = m.messages.size();
}

}  // namespace collwrap
