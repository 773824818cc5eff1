#include "p2p_matching.h"

#include <algorithm>

#include "flat_map.h"
#include "group_by_key.h"
#include "parallel_for.h"
#include "recent_lookups.h"

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
  // The number of a key numbered before.
  const std::uint32_t* find_number(const MessageKey& key) const { return map_.find(key); }
  std::size_t size() const { return keys_.size(); }
  const MessageKey& key(std::uint32_t number) const { return keys_[number]; }

 private:
  FlatMap<MessageKey, MessageKeyHash> map_{1024};
  std::vector<MessageKey> keys_;  // by number
};

bool valid_p2p(const Location& l, std::uint32_t op, std::size_t comms) {
  return l.op_comm[op] < comms && l.op_peer[op] != kNoWorldRank;
}

// Visits the sends in post order per location as send(loc, op, key), and each send whose peer
// or communicator is unknown as invalid(loc). Cancelled nonblocking sends never happened.
template <class Visit, class Invalid>
void for_each_send(const Trace& trace, const Matching& m, Visit&& send, Invalid&& invalid) {
  for (std::uint32_t li = 0; li < trace.locations.size(); ++li) {
    const Location& l = trace.locations[li];
    for (std::uint32_t op = 0; op < l.ops(); ++op) {
      const OpKind kind = l.op_kind[op];
      if (kind != OpKind::Send && kind != OpKind::Isend) continue;
      const std::uint32_t done = kind == OpKind::Send ? op : m.partner_of(li, op);
      if (done != kNone && l.op_kind[done] == OpKind::RequestCancelled) continue;
      if (!valid_p2p(l, op, trace.comms.size())) {
        invalid(li);
        continue;
      }
      send(li, op, MessageKey{l.op_comm[op], l.rank, l.op_peer[op], l.op_tag[op]});
    }
  }
}

// Visits the receives in posting order per location as receive(loc, op, key): a blocking Recv
// where it is, a nonblocking one where its IrecvRequest is, with the key (actual source and
// tag) from its completing Irecv, which is the op visited.
template <class Visit, class Invalid>
void for_each_receive(const Trace& trace, const Matching& m, Visit&& receive, Invalid&& invalid) {
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
        case OpKind::Irecv:  // already visited at its IrecvRequest, unless it has none
          if (m.partner_of(li, op) != kNone) continue;
          recv = op;
          break;
        default:
          continue;
      }
      if (!valid_p2p(l, recv, trace.comms.size())) {
        invalid(li);
        continue;
      }
      receive(li, recv, MessageKey{l.op_comm[recv], l.op_peer[recv], l.rank, l.op_tag[recv]});
    }
  }
}

// The op that posted a receive: the IrecvRequest paired with an Irecv, else the receive itself.
std::uint32_t receive_post(const Matching& m, std::uint32_t loc, std::uint32_t recv) {
  const std::uint32_t post = m.partner_of(loc, recv);
  return post == kNone ? recv : post;
}

// One side's endpoints per key, from the first scan: how many, and whether several locations
// (threads of one rank) share the key, whose endpoints are then put in time order.
struct KeyTally {
  std::uint32_t count = 0;
  std::uint32_t first_loc = kNone;
  bool mixed = false;

  void add(std::uint32_t loc) {
    ++count;
    if (first_loc == kNone) first_loc = loc;
    mixed |= first_loc != loc;
  }
};

// First scan of one side: numbers its keys in the order they first come and tallies them;
// marks the locations that have endpoints and counts the invalid ones at `counted` locations.
template <class ForEach>
std::vector<KeyTally> tally_side(ForEach for_each, KeyNumbers& keys, const LocationRange& counted,
                                 std::uint64_t& invalid, std::vector<std::uint8_t>& has_endpoints) {
  std::vector<KeyTally> tallies;
  RecentLookups<MessageKey, std::uint32_t> recent;
  for_each(
      [&](std::uint32_t loc, std::uint32_t, const MessageKey& key) {
        const std::uint32_t k =
            recent.get(key, [&](const MessageKey& k) { return keys.number(k); });
        if (k == tallies.size()) tallies.emplace_back();
        tallies[k].add(loc);
        has_endpoints[loc] = 1;
      },
      [&](std::uint32_t loc) { invalid += counted.contains(loc); });
  return tallies;
}

// Second scan of one side: the i-th endpoint of key k (in recorded order, or for a mixed key
// in time_of order) takes part in message first_message[k] + i if i < matched[k];
// place(message, loc, op) records it there. Returns how many endpoints at `counted` locations
// have no message.
template <class ForEach, class TimeOf, class Place>
std::uint64_t place_side(ForEach for_each, const KeyNumbers& keys,
                         const std::vector<KeyTally>& tallies,
                         const std::vector<std::uint32_t>& first_message,
                         const std::vector<std::uint32_t>& matched, const LocationRange& counted,
                         TimeOf time_of, Place place) {
  std::vector<std::uint32_t> ordinal(keys.size(), 0);
  struct Entry {  // an endpoint of a mixed key, placed once its key's order is known
    std::uint32_t key, loc, op;
  };
  std::vector<Entry> mixed;
  std::uint64_t unmatched = 0;
  const auto take = [&](std::uint32_t k, std::uint32_t loc, std::uint32_t op) {
    const std::uint32_t i = ordinal[k]++;
    if (i < matched[k])
      place(first_message[k] + i, loc, op);
    else
      unmatched += counted.contains(loc);
  };
  RecentLookups<MessageKey, std::uint32_t> recent;
  for_each(
      [&](std::uint32_t loc, std::uint32_t op, const MessageKey& key) {
        // Every key was numbered.
        const std::uint32_t k =
            recent.get(key, [&](const MessageKey& k) { return *keys.find_number(k); });
        if (tallies[k].mixed)
          mixed.push_back({k, loc, op});
        else
          take(k, loc, op);
      },
      [](std::uint32_t) {});
  if (mixed.empty()) return unmatched;
  const KeyGroups groups = group_by_key(
      mixed, keys.size(), [](const Entry& e) { return e.key; },
      [](const Entry& e) { return e.loc; }, [&](const Entry& e) { return time_of(e.loc, e.op); });
  for (const std::uint32_t i : groups.index) take(mixed[i].key, mixed[i].loc, mixed[i].op);
  return unmatched;
}

}  // namespace

void match_messages(const Trace& trace, Matching& m, MatchCounts& counts, unsigned threads,
                    const LocationRange& counted) {
  // Two scans over the ops, with nothing kept per endpoint in between: the first numbers the
  // keys and counts each key's sends and receives, so that every matched message's place is
  // known (the messages of key 0, then of key 1, …); the second puts each endpoint in its
  // place. Sends and receives are scanned side by side, each side numbering its keys; the
  // receives' keys then take the sends' numbers, and those only receives have are numbered
  // after them in the order they first came: the numbers scanning both in turn would give.
  const auto sends = [&](auto&& visit, auto&& invalid) { for_each_send(trace, m, visit, invalid); };
  const auto receives = [&](auto&& visit, auto&& invalid) {
    for_each_receive(trace, m, visit, invalid);
  };
  KeyNumbers keys, receive_keys;
  std::vector<KeyTally> send_tallies, receive_tallies;
  std::uint64_t invalid_receives = 0;
  const std::size_t locations = trace.locations.size();
  std::vector<std::uint8_t> has_sends(locations, 0), has_receives(locations, 0);
  parallel_for(2, threads, [&](std::size_t task) {
    if (task == 0)
      send_tallies = tally_side(sends, keys, counted, counts.invalid_ops, has_sends);
    else
      receive_tallies = tally_side(receives, receive_keys, counted, invalid_receives, has_receives);
  });
  counts.invalid_ops += invalid_receives;
  for (std::uint32_t k = 0; k < receive_keys.size(); ++k) keys.number(receive_keys.key(k));
  send_tallies.resize(keys.size());
  std::vector<KeyTally> receive_tally_of(keys.size());
  for (std::uint32_t k = 0; k < receive_keys.size(); ++k)
    receive_tally_of[*keys.find_number(receive_keys.key(k))] = receive_tallies[k];
  receive_tallies = std::move(receive_tally_of);
  receive_keys = {};

  std::vector<std::uint32_t> first_message(keys.size()), matched(keys.size());
  std::uint32_t messages = 0;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    matched[k] = std::min(send_tallies[k].count, receive_tallies[k].count);
    first_message[k] = messages;
    messages += matched[k];
  }
  // Only locations with sends or receives get a table: the others' ops have no message (and
  // message_of answers so for an empty table).
  m.message_of_op.resize(locations);
  for (std::size_t li = 0; li < locations; ++li)
    if (has_sends[li] || has_receives[li])
      m.message_of_op[li].assign(trace.locations[li].ops(), kNone);
  m.messages.resize(messages);

  // The two sides write different members of each message and different ops' entries.
  std::uint64_t unmatched_receives = 0;
  parallel_for(2, threads, [&](std::size_t task) {
    if (task == 0)
      counts.unmatched_sends += place_side(
          sends, keys, send_tallies, first_message, matched, counted,
          [&](std::uint32_t loc, std::uint32_t op) { return trace.locations[loc].op_time(op); },
          [&](std::uint32_t message, std::uint32_t loc, std::uint32_t op) {
            m.messages[message].send = {loc, op};
            m.message_of_op[loc][op] = message;
          });
    else
      unmatched_receives = place_side(
          receives, keys, receive_tallies, first_message, matched, counted,
          [&](std::uint32_t loc, std::uint32_t op) {
            return trace.locations[loc].op_time(receive_post(m, loc, op));
          },
          [&](std::uint32_t message, std::uint32_t loc, std::uint32_t op) {
            m.messages[message].recv = {loc, op};
            m.message_of_op[loc][op] = message;
          });
  });
  counts.unmatched_receives += unmatched_receives;
  // Clock condition: a message cannot be received before it was sent. Messages count at
  // their receive.
  for (const Message& msg : m.messages) {
    if (!counted.contains(msg.recv.loc)) continue;
    ++counts.messages;
    counts.clock_violations += trace.locations[msg.recv.loc].op_time(msg.recv.op) <
                               trace.locations[msg.send.loc].op_time(msg.send.op);
  }
}

}  // namespace collwrap
