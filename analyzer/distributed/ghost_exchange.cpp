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

// A ghost's header: its location and identity, then its columns' lengths; as long for every
// ghost, so that a receiver knows how much comes before it knows which ghost.
constexpr std::size_t kIdentityFields = 5;
std::size_t header_length() {
  GhostLocation ghost;
  std::size_t columns = 0;
  for_each_ghost_column(ghost, [&](const auto&) { ++columns; });
  return kIdentityFields + columns;
}

std::vector<std::uint64_t> header_of(const ReceivedGhost& g) {
  const Location& e = g.ghost.events;
  std::vector<std::uint64_t> header{g.location, static_cast<std::uint32_t>(e.rank),
                                    static_cast<std::uint32_t>(e.thread), e.node, e.otf2_id};
  for_each_ghost_column(g.ghost, [&](const auto& column) { header.push_back(column.size()); });
  return header;
}

// The ghost a header announces, with its columns sized for the bytes to come.
ReceivedGhost ghost_of(const std::vector<std::uint64_t>& header, std::uint32_t locations) {
  std::size_t at = 0;
  const auto next = [&]() {
    if (at >= header.size())
      throw std::runtime_error("the ghost locations sent by another process are damaged");
    return header[at++];
  };
  ReceivedGhost g;
  g.location = static_cast<std::uint32_t>(next());
  if (g.location >= locations)
    throw std::runtime_error("another process sent a ghost of a location the archive lacks");
  Location& e = g.ghost.events;
  e.rank = static_cast<std::int32_t>(next());
  e.thread = static_cast<std::int32_t>(next());
  e.node = static_cast<std::uint32_t>(next());
  e.otf2_id = next();
  for_each_ghost_column(g.ghost, [&](auto& column) { column.resize(next()); });
  return g;
}

}  // namespace

void exchange_ghosts(PartialTrace& part, const Matching& links, const ProcessMap& map,
                     unsigned self, unsigned threads,
                     const std::vector<std::uint8_t>* digested_comms) {
  const Trace& trace = part.trace;
  const unsigned processes = map.processes();
  const std::size_t first = part.held.first;
  const std::size_t end = std::min(part.held.end, trace.locations.size());
  // What each process needs of each held location: 4 bytes per op or call sent.
  const std::size_t held = end > first ? end - first : 0;
  std::vector<std::vector<GhostSelection>> selected(held);
  parallel_for(held, threads, [&](std::size_t i) {
    selected[i] =
        select_ghosts(trace, links, static_cast<std::uint32_t>(first + i), map, digested_comms);
  });
  const auto locations = static_cast<std::uint32_t>(trace.locations.size());

  for (unsigned round = 1; round < processes; ++round) {
    const unsigned to = (self + round) % processes;
    const unsigned from = (self + processes - round) % processes;
    std::vector<std::size_t> going;  // the held locations (from `first`) `to` needs
    for (std::size_t i = 0; i < held; ++i)
      if (!selected[i][to].empty()) going.push_back(i);
    ExchangeRound counts;
    const std::vector<std::uint64_t> sending{going.size()};
    std::vector<std::uint64_t> coming(1);
    counts.send(sending, static_cast<int>(to));
    counts.receive(coming, static_cast<int>(from));
    counts.wait();

    // One ghost each way per step. The copies are made a batch at a time (side by side on
    // `threads`) and freed once sent, so that only a batch of them is held beside the ghosts
    // received, not every copy this process sends.
    const std::size_t batch = worker_count(threads, std::max<std::size_t>(1, going.size()));
    std::vector<ReceivedGhost> copies(batch);
    const std::size_t steps = std::max<std::size_t>(going.size(), coming[0]);
    for (std::size_t step = 0; step < steps; ++step) {
      if (step % batch == 0 && step < going.size()) {
        const std::size_t made = std::min(batch, going.size() - step);
        parallel_for(made, threads, [&](std::size_t k) {
          const std::size_t i = going[step + k];
          GhostSelection& needs = selected[i][to];
          copies[k] = {static_cast<std::uint32_t>(first + i),
                       extract_ghost(trace.locations[first + i], needs.ops, needs.calls)};
          needs = {};
        });
      }
      ReceivedGhost* out = step < going.size() ? &copies[step % batch] : nullptr;
      const bool in = step < coming[0];
      ExchangeRound headers;
      std::vector<std::uint64_t> header_out, header_in;
      if (out) {
        header_out = header_of(*out);
        headers.send(header_out, static_cast<int>(to));
      }
      if (in) {
        header_in.resize(header_length());
        headers.receive(header_in, static_cast<int>(from));
      }
      headers.wait();
      ExchangeRound columns;
      ReceivedGhost incoming;
      if (in) {
        incoming = ghost_of(header_in, locations);
        for_each_ghost_column(
            incoming.ghost, [&](auto& column) { columns.receive(column, static_cast<int>(from)); });
      }
      if (out)
        for_each_ghost_column(
            out->ghost, [&](const auto& column) { columns.send(column, static_cast<int>(to)); });
      columns.wait();
      if (out) *out = {};
      if (in) part.install(std::move(incoming));
    }
  }
}

}  // namespace collwrap
