#include "traffic_totals_bytes.h"

#include "byte_stream.h"

namespace collwrap {

std::vector<char> pair_traffic_bytes(const PairTraffics& pairs) {
  std::vector<char> bytes;
  ByteWriter w(bytes);
  w.put(std::uint64_t{pairs.size()});
  for (const auto& [key, p] : pairs) {
    w.put(key.first);
    w.put(key.second);
    w.put(p.bytes);
    w.put(p.transfers);
    w.put(p.time);
    w.put(std::uint64_t{p.sites.size()});
    for (const auto& [where, site] : p.sites) {
      w.put(where.first);
      w.put(where.second);
      w.put(site.first_call);
      w.put(site.bytes);
    }
  }
  return bytes;
}

PairTraffics read_pair_traffic(std::span<const char> bytes) {
  ByteReader r(bytes, "pair traffic totals");
  PairTraffics pairs;
  std::uint64_t count = 0;
  r.get(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    std::pair<std::int32_t, std::int32_t> key;
    r.get(key.first);
    r.get(key.second);
    PairTraffic& p = pairs[key];
    r.get(p.bytes);
    r.get(p.transfers);
    r.get(p.time);
    std::uint64_t sites = 0;
    r.get(sites);
    for (std::uint64_t s = 0; s < sites; ++s) {
      std::pair<std::uint32_t, std::uint32_t> where;
      r.get(where.first);
      r.get(where.second);
      SiteTraffic& site = p.sites[where];
      r.get(site.first_call);
      r.get(site.bytes);
    }
  }
  return pairs;
}

std::vector<char> master_traffic_bytes(const MasterTraffic& traffic) {
  std::vector<char> bytes;
  ByteWriter w(bytes);
  w.put(traffic.master);
  w.put(std::uint64_t{traffic.handouts.size()});
  for (const auto& [worker, starts] : traffic.handouts) {
    w.put(worker);
    w.put_vector(starts);
  }
  // Field by field: a Result's padding is not to travel.
  w.put(std::uint64_t{traffic.results.size()});
  for (const MasterTraffic::Result& result : traffic.results) {
    w.put(result.done);
    w.put(result.from);
  }
  w.put_vector(traffic.waits);
  return bytes;
}

MasterTraffic read_master_traffic(std::span<const char> bytes) {
  ByteReader r(bytes, "master traffic totals");
  MasterTraffic traffic;
  r.get(traffic.master);
  std::uint64_t count = 0;
  r.get(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    std::int32_t worker = kNoWorldRank;
    r.get(worker);
    r.get_vector(traffic.handouts[worker]);
  }
  r.get(count);
  if (count > r.remaining() / (sizeof(TimeNs) + sizeof(std::int32_t))) r.throw_truncated();
  traffic.results.resize(count);
  for (MasterTraffic::Result& result : traffic.results) {
    r.get(result.done);
    r.get(result.from);
  }
  r.get_vector(traffic.waits);
  return traffic;
}

}  // namespace collwrap
