#include "noise_file.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

namespace collwrap::noise {
namespace {

using Json = nlohmann::ordered_json;

Json bound_or_null(double s) {
  return std::isfinite(s) ? Json(s) : Json(nullptr);
}

Json bands_json(const std::vector<BandMetrics>& bands) {
  Json out = Json::array();
  for (const BandMetrics& b : bands)
    out.push_back({{"low_s", b.low_s},
                   {"high_s", bound_or_null(b.high_s)},
                   {"bursts", b.bursts},
                   {"d_s", b.mean_duration_s},
                   {"g_s", bound_or_null(b.mean_gap_s)},
                   {"C", b.coverage},
                   {"S", b.synchronicity}});
  return out;
}

RankRecord rank_from_json(const Json& j, double duration_s) {
  RankRecord r;
  r.host = j.at("host").get<std::string>();
  r.quanta = j.at("quanta").get<std::uint64_t>();
  r.min_quantum_s = j.at("min_quantum_s").get<double>();
  for (const Json& pair : j.at("bursts")) {
    const Burst b{pair.at(0).get<double>(), pair.at(1).get<double>()};
    if (!(b.duration_s > 0) || b.start_s < 0 || b.start_s > duration_s)
      throw NoiseFileError("a burst lies outside the collection or has no duration");
    r.bursts.push_back(b);
  }
  if (!std::is_sorted(r.bursts.begin(), r.bursts.end(),
                      [](const Burst& a, const Burst& b) { return a.start_s < b.start_s; }))
    throw NoiseFileError("the bursts of a rank are not in order of their start");
  return r;
}

}  // namespace

std::vector<RankBursts> NoiseRecord::bursts(std::size_t p) const {
  std::vector<RankBursts> out;
  for (std::size_t r = 0; r < std::min(p, ranks.size()); ++r) out.push_back(ranks[r].bursts);
  return out;
}

void write_noise_file(const std::string& path, const NoiseRecord& record,
                      std::span<const double> upper_edges_s) {
  const std::vector<BandMetrics> bands =
      all_bands(record.bursts(record.ranks.size()), record.duration_s,
                band_edges(record.threshold_s, upper_edges_s));
  Json ranks = Json::array(), hosts = Json::array();
  for (std::size_t r = 0; r < record.ranks.size(); ++r) {
    const RankRecord& rank = record.ranks[r];
    Json bursts = Json::array();
    for (const Burst& b : rank.bursts) bursts.push_back({b.start_s, b.duration_s});
    ranks.push_back({{"rank", r},
                     {"host", rank.host},
                     {"quanta", rank.quanta},
                     {"min_quantum_s", rank.min_quantum_s},
                     {"bursts", std::move(bursts)}});
    hosts.push_back(rank.host);
  }
  const Json file = {{"format", kNoiseFileFormat},
                     {"version", kNoiseFileVersion},
                     {"hosts", hosts},
                     {"timer", record.timer},
                     {"clock_sync", record.clock_sync},
                     {"quantum_s", record.quantum_s},
                     {"quantum_iterations", record.quantum_iterations},
                     {"duration_s", record.duration_s},
                     {"threshold_s", record.threshold_s},
                     {"ranks", std::move(ranks)},
                     {"bands", bands_json(bands)}};
  std::ofstream out(path);
  if (out) out << file.dump(1, ' ', false, Json::error_handler_t::replace) << '\n';
  out.close();
  if (!out) throw NoiseFileError(std::strerror(errno));
}

NoiseRecord read_noise_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw NoiseFileError(std::strerror(errno));
  try {
    const Json j = Json::parse(in);
    if (!j.is_object() || j.value("format", "") != kNoiseFileFormat)
      throw NoiseFileError("not a noise file (no \"format\": \"collwrap-noise\")");
    if (j.at("version").get<int>() != kNoiseFileVersion)
      throw NoiseFileError("noise file version " + j.at("version").dump() +
                           ", this build reads version " + std::to_string(kNoiseFileVersion));
    NoiseRecord r;
    r.timer = j.at("timer").get<std::string>();
    r.clock_sync = j.at("clock_sync").get<std::string>();
    r.quantum_s = j.at("quantum_s").get<double>();
    r.quantum_iterations = j.at("quantum_iterations").get<std::uint64_t>();
    r.duration_s = j.at("duration_s").get<double>();
    r.threshold_s = j.at("threshold_s").get<double>();
    if (!(r.duration_s > 0) || !(r.threshold_s >= 0))
      throw NoiseFileError("the duration must be positive and the threshold not negative");
    for (const Json& rank : j.at("ranks")) r.ranks.push_back(rank_from_json(rank, r.duration_s));
    if (r.ranks.empty()) throw NoiseFileError("the file holds no rank");
    return r;
  } catch (const Json::exception& e) {
    throw NoiseFileError(std::string("malformed: ") + e.what());
  }
}

}  // namespace collwrap::noise
