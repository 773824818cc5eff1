#include "traffic_totals_bytes.h"

#include "byte_fields.h"

namespace collwrap {
namespace {

// The fields of each part, in one place for both directions (byte_fields.h).
template <class Io, class Pairs>
void pair_fields(Io& io, Pairs& pairs) {
  io.map(pairs, [&io](auto& p) {
    io.value(p.bytes);
    io.value(p.transfers);
    io.value(p.time);
    io.map(p.sites, [&io](auto& site) {
      io.value(site.first_call);
      io.value(site.bytes);
    });
  });
}

template <class Io, class Traffic>
void master_fields(Io& io, Traffic& traffic) {
  io.value(traffic.master);
  io.map(traffic.handouts, [&io](auto& starts) { io.vector(starts); });
  // Field by field: a Result's padding is not to travel.
  io.count(traffic.results);
  for (auto& result : traffic.results) {
    io.value(result.done);
    io.value(result.from);
  }
  io.vector(traffic.waits);
}

}  // namespace

std::vector<char> pair_traffic_bytes(const PairTraffics& pairs) {
  return to_bytes(pairs, [](auto& io, auto& v) { pair_fields(io, v); });
}

PairTraffics read_pair_traffic(std::span<const char> bytes) {
  return from_bytes<PairTraffics>(bytes, "pair traffic totals",
                                  [](auto& io, auto& v) { pair_fields(io, v); });
}

std::vector<char> master_traffic_bytes(const MasterTraffic& traffic) {
  return to_bytes(traffic, [](auto& io, auto& v) { master_fields(io, v); });
}

MasterTraffic read_master_traffic(std::span<const char> bytes) {
  return from_bytes<MasterTraffic>(bytes, "master traffic totals",
                                   [](auto& io, auto& v) { master_fields(io, v); });
}

}  // namespace collwrap
