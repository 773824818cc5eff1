#include "noise_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>

#include "noise_prediction.h"
#include "text_format.h"

namespace collwrap::noise {
namespace {

using Json = nlohmann::ordered_json;

Json bound_or_null(double s) {
  return std::isfinite(s) ? Json(s) : Json(nullptr);
}

std::string fixed(double value, int decimals) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string column(std::string text, std::size_t width) {
  // "µ" is two bytes but one column.
  const auto shown = std::size_t(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
  if (shown < width) text.append(width - shown, ' ');
  return text;
}

std::string band_name(const BandMetrics& b) {
  return format_duration(b.low_s) + " - " +
         (std::isfinite(b.high_s) ? format_duration(b.high_s) : std::string("∞"));
}

GrainPrediction predict(const NoiseRecord& record, const NoiseAnalysis& analysis,
                        const std::vector<RankBursts>& bursts, double grain_s) {
  GrainPrediction g;
  g.grain_s = grain_s;
  const bool enough_ranks = analysis.processes <= record.ranks.size();
  if (enough_ranks) g.formula1 = formula1_efficiency(analysis.bands, grain_s);
  const std::vector<RankBursts> all = record.bursts(record.ranks.size());
  g.formula2 = formula2_efficiency(fit_grain_delay(all, record.duration_s, grain_s), grain_s,
                                   double(analysis.processes));
  if (!enough_ranks) return g;
  // Noise stretches the runs, so fewer than kSimulatedRuns may fit: halve k until they do
  // (or k is 1).
  for (g.grains_per_run =
           std::max<std::size_t>(1, std::size_t(record.duration_s / (kSimulatedRuns * grain_s)));
       ; g.grains_per_run /= 2) {
    const std::vector<double> grains(g.grains_per_run, grain_s);
    g.simulated_time_s = simulate_runs(bursts, record.duration_s, grains);
    if (g.simulated_time_s.size() >= kSimulatedRuns || g.grains_per_run == 1) break;
  }
  std::vector<double> efficiency;
  // A run without noise can come out an ulp faster than k·t from rounding; E stays ≤ 1.
  for (double t : g.simulated_time_s)
    efficiency.push_back(std::min(1.0, double(g.grains_per_run) * grain_s / t));
  g.simulated_efficiency = summarize(efficiency);
  return g;
}

// 1, 2, 4, … below n, then n.
std::vector<std::size_t> process_counts(std::size_t n) {
  std::vector<std::size_t> counts;
  for (std::size_t p = 1; p < n; p *= 2) counts.push_back(p);
  if (n > 0) counts.push_back(n);
  return counts;
}

Json band_json(const BandMetrics& b) {
  return {{"low_s", b.low_s},
          {"high_s", bound_or_null(b.high_s)},
          {"bursts", b.bursts},
          {"d_s", b.mean_duration_s},
          {"D_by_rank_s", b.total_by_rank_s},
          {"g_s", bound_or_null(b.mean_gap_s)},
          {"U_s", b.union_s},
          {"C", b.coverage},
          {"S", b.synchronicity}};
}

Json optional_json(const std::optional<double>& v) {
  return v ? Json(*v) : Json(nullptr);
}

}  // namespace

NoiseAnalysis analyze_noise(const NoiseRecord& record, const NoiseAnalysisOptions& options) {
  NoiseAnalysis a;
  a.processes = options.processes == 0 ? record.ranks.size() : options.processes;
  a.metric_processes = std::min(a.processes, record.ranks.size());
  const std::vector<RankBursts> bursts = record.bursts(a.metric_processes);
  const std::vector<double> edges = band_edges(record.threshold_s, options.upper_edges_s);
  a.bands = all_bands(bursts, record.duration_s, edges);
  a.integral = band_metrics(bursts, record.duration_s, record.threshold_s, kNoUpperBound);
  for (std::size_t p : process_counts(record.ranks.size()))
    a.integral_by_processes.emplace_back(
        p, band_metrics(record.bursts(p), record.duration_s, record.threshold_s, kNoUpperBound));
  for (double grain : options.grains_s) a.predictions.push_back(predict(record, a, bursts, grain));
  return a;
}

void write_noise_table(const NoiseRecord& record, const NoiseAnalysis& a, std::ostream& out) {
  const std::set<std::string> hosts = [&] {
    std::set<std::string> h;
    for (const RankRecord& r : record.ranks) h.insert(r.host);
    return h;
  }();
  std::uint64_t bursts = 0;
  for (const RankRecord& r : record.ranks) bursts += r.bursts.size();
  out << "Noise collection (NoM): " << record.ranks.size() << " ranks on " << hosts.size()
      << (hosts.size() == 1 ? " host" : " hosts") << ", timer " << record.timer
      << ", T = " << format_duration(record.duration_s) << ", quantum "
      << format_duration(record.quantum_s) << ", threshold " << format_duration(record.threshold_s)
      << ", " << bursts << " bursts\n";
  for (std::size_t r = 0; r < record.ranks.size(); ++r) {
    const RankRecord& rank = record.ranks[r];
    out << "  rank " << column(std::to_string(r), 4) << column(rank.host, 16) << rank.quanta
        << " quanta, fastest " << format_duration(rank.min_quantum_s) << ", " << rank.bursts.size()
        << " bursts\n";
  }
  out << "\nBands over p = " << a.metric_processes << " processes (d: mean burst, g: mean gap "
      << "on one process, C: coverage, S: synchronicity, 1 to 1/p):\n";
  out << "  " << column("band", 22) << column("bursts", 10) << column("d_j", 10)
      << column("g_j", 10) << column("C_j,p", 12) << "S_j,p\n";
  for (const BandMetrics& b : a.bands) {
    if (b.bursts == 0) continue;
    out << "  " << column(band_name(b), 22) << column(std::to_string(b.bursts), 10)
        << column(format_duration(b.mean_duration_s), 10)
        << column(format_duration(b.mean_gap_s), 10) << column(fixed(b.coverage, 6), 12)
        << fixed(b.synchronicity, 3) << '\n';
  }
  out << "  integral: C = " << fixed(a.integral.coverage, 6)
      << ", S = " << fixed(a.integral.synchronicity, 3) << '\n';
  out << "  integral over the first p ranks:";
  for (const auto& [p, m] : a.integral_by_processes)
    out << "  p = " << p << ": C " << fixed(m.coverage, 4) << ", S " << fixed(m.synchronicity, 3);
  out << "\n\n";

  out << "Predicted efficiency E_p for p = " << a.processes
      << " (grains ending in a synchronization of all p; 1 = noise costs nothing):\n";
  out << "  " << column("grain", 10) << column("formula (1)", 13) << column("formula (2)", 13)
      << column("simulated min / mean / max", 30) << "runs × grains\n";
  for (const GrainPrediction& g : a.predictions) {
    const SampleSummary& s = g.simulated_efficiency;
    out << "  " << column(format_duration(g.grain_s), 10)
        << column(g.formula1 ? fixed(*g.formula1, 4) : "-", 13) << column(fixed(g.formula2, 4), 13)
        << column(s.n ? fixed(s.min, 4) + " / " + fixed(s.mean, 4) + " / " + fixed(s.max, 4) : "-",
                  30)
        << (s.n ? std::to_string(s.n) + " × " + std::to_string(g.grains_per_run) : "-") << '\n';
  }
  if (a.processes > record.ranks.size())
    out << "  (formula (1) and the simulation need the noise of p ranks; the record has "
        << record.ranks.size() << ")\n";
}

Json noise_analysis_json(const NoiseRecord& record, const NoiseAnalysis& a) {
  Json ranks = Json::array();
  for (std::size_t r = 0; r < record.ranks.size(); ++r)
    ranks.push_back({{"rank", r},
                     {"host", record.ranks[r].host},
                     {"quanta", record.ranks[r].quanta},
                     {"min_quantum_s", record.ranks[r].min_quantum_s},
                     {"bursts", record.ranks[r].bursts.size()}});
  Json bands = Json::array();
  for (const BandMetrics& b : a.bands) bands.push_back(band_json(b));
  Json by_processes = Json::array();
  for (const auto& [p, m] : a.integral_by_processes)
    by_processes.push_back({{"processes", p}, {"C", m.coverage}, {"S", m.synchronicity}});
  Json predictions = Json::array();
  for (const GrainPrediction& g : a.predictions) {
    const SampleSummary& s = g.simulated_efficiency;
    predictions.push_back({{"grain_s", g.grain_s},
                           {"formula1_efficiency", optional_json(g.formula1)},
                           {"formula2_efficiency", g.formula2},
                           {"simulated", s.n == 0 ? Json(nullptr)
                                                  : Json{{"runs", s.n},
                                                         {"grains_per_run", g.grains_per_run},
                                                         {"time_s", g.simulated_time_s},
                                                         {"efficiency_min", s.min},
                                                         {"efficiency_mean", s.mean},
                                                         {"efficiency_max", s.max}}}});
  }
  return {{"timer", record.timer},
          {"clock_sync", record.clock_sync},
          {"quantum_s", record.quantum_s},
          {"quantum_iterations", record.quantum_iterations},
          {"duration_s", record.duration_s},
          {"threshold_s", record.threshold_s},
          {"ranks", ranks},
          {"processes", a.processes},
          {"metric_processes", a.metric_processes},
          {"bands", bands},
          {"integral", band_json(a.integral)},
          {"integral_by_processes", by_processes},
          {"predictions", predictions}};
}

}  // namespace collwrap::noise
