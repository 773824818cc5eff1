#include "held_result.h"

#include "byte_fields.h"

namespace collwrap {
namespace {

// The fields of each part, in one place for both directions (byte_fields.h).
template <class Io, class SourceLocationT>
void source_fields(Io& io, SourceLocationT& s) {
  io.text(s.function);
  io.text(s.file);
  io.value(s.line);
}

template <class Io, class Ranks, class Threads>
void peer_fields(Io& io, Ranks& peers, Threads& threads) {
  io.vector(peers);
  io.count(threads);
  for (auto& of_rank : threads) io.vector(of_rank);
}

template <class Io, class FindingT>
void finding_fields(Io& io, FindingT& f) {
  io.text(f.pattern);
  io.value(f.rank);
  io.value(f.thread);
  io.text(f.node);
  io.text(f.file);
  io.value(f.line);
  io.text(f.function);
  io.text(f.mpi_function);
  peer_fields(io, f.peers, f.peer_threads);
  io.value(f.occurrences);
  io.value(f.wait_time_s);
  io.value(f.max_wait_s);
  io.text(f.comment);
  io.text(f.recommendation);
  auto& d = f.details;
  io.count(d.send_modes);
  for (auto& [mode, instances] : d.send_modes) {
    io.text(mode);
    io.value(instances);
  }
  io.value(d.same_source);
  io.value(d.different_source);
  io.optional_value(d.optimal_distance_s);
  io.optional_value(d.current_distance_s);
  io.presence(d.related_call);
  if (d.related_call) source_fields(io, *d.related_call);
  io.value(d.transfers);
  io.value(d.transfer_bytes);
  io.value(d.mean_pair_bytes);
  io.count(f.top_instances);
  for (auto& sample : f.top_instances) {
    io.value(sample.time_s);
    io.value(sample.wait_s);
    peer_fields(io, sample.peers, sample.peer_threads);
  }
}

// The other parts, with the same `io`.
template <class Io, class GrainT>
void grain_fields(Io& io, GrainT& g) {
  io.value(g.rank);
  io.value(g.thread);
  io.value(g.count);
  io.value(g.total_s);
  io.value(g.min_s);
  io.value(g.median_s);
  io.value(g.mean_s);
  io.value(g.max_s);
  io.count(g.histogram);
  for (auto& bin : g.histogram) {
    io.value(bin.low_s);
    io.optional_value(bin.high_s);
    io.value(bin.count);
    io.value(bin.total_s);
  }
}

template <class Io, class ReportT>
void report_fields(Io& io, ReportT& r) {
  io.value(r.events);
  io.value(r.missing);
  io.value(r.unclosed_calls);
  io.value(r.orphan_ops);
  io.value(r.clock_offsets);
  io.value(r.max_offset_stddev);
  io.texts(r.messages);
}

template <class Io, class HeldT>
void held_fields(Io& io, HeldT& held) {
  io.value(held.counts);
  io.value(held.collectives);
  io.value(held.findings.instances_below_min_wait);
  io.count(held.findings.findings);
  for (auto& f : held.findings.findings) finding_fields(io, f);
  io.vector(held.times);
  io.value(held.operations.all_mpi);
  io.map(held.operations.groups, [&io](auto& tally) { io.value(tally); });
  io.count(held.grains);
  for (auto& g : held.grains) grain_fields(io, g);
  io.vector(held.noise);
  io.vector(held.cells);
  io.map(held.transfers, [&io](auto& times) {
    io.value(times.bytes);
    io.vector(times.transfer_s);
  });
  io.count(held.reports);
  for (auto& r : held.reports) report_fields(io, r);
  io.texts(held.archive_messages);
}

}  // namespace

std::vector<char> held_result_bytes(const HeldResult& held) {
  return to_bytes(held, [](auto& io, auto& v) { held_fields(io, v); });
}

HeldResult read_held_result(std::span<const char> bytes) {
  return from_bytes<HeldResult>(bytes, "the analysis of a share",
                                [](auto& io, auto& v) { held_fields(io, v); });
}

std::vector<char> location_report_bytes(const LocationReport& report) {
  return to_bytes(report, [](auto& io, auto& v) { report_fields(io, v); });
}

LocationReport read_location_report(std::span<const char> bytes) {
  return from_bytes<LocationReport>(bytes, "the analysis of a share",
                                    [](auto& io, auto& v) { report_fields(io, v); });
}

}  // namespace collwrap
