#include "ghost_exchange.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "byte_exchange.h"
#include "ghost_selection.h"
#include "parallel_for.h"

namespace collwrap {
namespace {

// Every column of a ghost, origin indexes included, in the order both ends visit them.
template <class Ghost, class F>
void for_each_ghost_column(Ghost& g, F&& f) {
  for_each_call_column(g.events, f);
  for_each_op_column(g.events, f);
  f(g.origin_call);
  f(g.origin_op);
}

// What a header says of each ghost: its location and identity, then its columns' lengths.
std::vector<std::uint64_t> header_of(const std::vector<ReceivedGhost>& ghosts) {
  std::vector<std::uint64_t> header{ghosts.size()};
  for (const ReceivedGhost& g : ghosts) {
    const Location& e = g.ghost.events;
    header.insert(header.end(), {g.location, static_cast<std::uint32_t>(e.rank),
                                 static_cast<std::uint32_t>(e.thread), e.node, e.otf2_id});
    for_each_ghost_column(g.ghost, [&](const auto& column) { header.push_back(column.size()); });
  }
  return header;
}

// The ghosts a header announces, with their columns sized for the bytes to come.
std::vector<ReceivedGhost> ghosts_of(const std::vector<std::uint64_t>& header,
                                     std::uint32_t locations) {
  std::size_t at = 0;
  const auto next = [&]() {
    if (at >= header.size())
      throw std::runtime_error("the ghost locations sent by another process are damaged");
    return header[at++];
  };
  std::vector<ReceivedGhost> ghosts(next());
  for (ReceivedGhost& g : ghosts) {
    g.location = static_cast<std::uint32_t>(next());
    if (g.location >= locations)
      throw std::runtime_error("another process sent a ghost of a location the archive lacks");
    Location& e = g.ghost.events;
    e.rank = static_cast<std::int32_t>(next());
    e.thread = static_cast<std::int32_t>(next());
    e.node = static_cast<std::uint32_t>(next());
    e.otf2_id = next();
    for_each_ghost_column(g.ghost, [&](auto& column) { column.resize(next()); });
  }
  return ghosts;
}

}  // namespace

void exchange_ghosts(PartialTrace& part, const Matching& links, const ProcessMap& map,
                     unsigned self, unsigned threads) {
  const Trace& trace = part.trace;
  const unsigned processes = map.processes();
  const std::size_t first = part.held.first;
  const std::size_t end = std::min(part.held.end, trace.locations.size());
  // What each process needs of each held location: 4 bytes per op or call sent.
  const std::size_t held = end > first ? end - first : 0;
  std::vector<std::vector<GhostSelection>> selected(held);
  parallel_for(held, threads, [&](std::size_t i) {
    selected[i] = select_ghosts(trace, links, static_cast<std::uint32_t>(first + i), map);
  });

  for (unsigned round = 1; round < processes; ++round) {
    const unsigned to = (self + round) % processes;
    const unsigned from = (self + processes - round) % processes;
    std::vector<ReceivedGhost> copies(held);
    parallel_for(held, threads, [&](std::size_t i) {
      GhostSelection& needs = selected[i][to];
      if (needs.empty()) return;
      copies[i] = {static_cast<std::uint32_t>(first + i),
                   extract_ghost(trace.locations[first + i], needs.ops, needs.calls)};
      needs = {};
    });
    std::vector<ReceivedGhost> outgoing;
    for (std::size_t i = 0; i < held; ++i)
      if (!copies[i].ghost.origin_call.empty()) outgoing.push_back(std::move(copies[i]));
    copies.clear();
    ExchangeRound messages;
    const std::vector<std::uint64_t> header = header_of(outgoing);
    const std::vector<std::uint64_t> header_size{header.size()};
    messages.send(header_size, static_cast<int>(to));
    std::vector<std::uint64_t> incoming_size(1);
    messages.receive(incoming_size, static_cast<int>(from));
    messages.wait();
    messages.send(header, static_cast<int>(to));
    std::vector<std::uint64_t> incoming_header(incoming_size[0]);
    messages.receive(incoming_header, static_cast<int>(from));
    messages.wait();

    std::vector<ReceivedGhost> incoming =
        ghosts_of(incoming_header, static_cast<std::uint32_t>(trace.locations.size()));
    for (ReceivedGhost& g : incoming)
      for_each_ghost_column(
          g.ghost, [&](auto& column) { messages.receive(column, static_cast<int>(from)); });
    for (const ReceivedGhost& g : outgoing)
      for_each_ghost_column(
          g.ghost, [&](const auto& column) { messages.send(column, static_cast<int>(to)); });
    messages.wait();
    outgoing.clear();
    for (ReceivedGhost& g : incoming) part.install(std::move(g));
  }
}

}  // namespace collwrap
