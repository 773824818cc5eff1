#include "finding_bytes.h"

#include "byte_stream.h"

namespace collwrap {
namespace {

// The fields of each part of a finding, in one place for both directions: `io` is a ByteWriter
// with const parts or a ByteReader with mutable ones; `value` and `vector` and `text` move one
// field.
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

class Out {
 public:
  explicit Out(std::vector<char>& bytes) : w_(bytes) {}
  template <class T>
  void value(const T& v) {
    w_.put(v);
  }
  template <class T>
  void vector(const std::vector<T>& v) {
    w_.put_vector(v);
  }
  void text(const std::string& s) { w_.put_string(s); }
  template <class Container>
  void count(const Container& c) {
    w_.put(std::uint64_t{c.size()});
  }
  template <class T>
  void optional_value(const std::optional<T>& v) {
    presence(v);
    if (v) w_.put(*v);
  }
  template <class T>
  void presence(const std::optional<T>& v) {
    w_.put(std::uint8_t{v.has_value()});
  }

 private:
  ByteWriter w_;
};

class In {
 public:
  explicit In(std::span<const char> bytes) : r_(bytes, "the findings") {}
  template <class T>
  void value(T& v) {
    r_.get(v);
  }
  template <class T>
  void vector(std::vector<T>& v) {
    r_.get_vector(v);
  }
  void text(std::string& s) { r_.get_string(s); }
  // Sizes a container whose elements follow, each at least a byte: a count beyond the bytes
  // left is damage, not a huge allocation.
  template <class Container>
  void count(Container& c) {
    std::uint64_t n = 0;
    r_.get(n);
    if (n > r_.remaining()) r_.throw_truncated();
    c.resize(n);
  }
  template <class T>
  void optional_value(std::optional<T>& v) {
    presence(v);
    if (v) r_.get(*v);
  }
  template <class T>
  void presence(std::optional<T>& v) {
    std::uint8_t present = 0;
    r_.get(present);
    if (present) v.emplace();
  }

 private:
  ByteReader r_;
};

}  // namespace

std::vector<char> finding_bytes(const FoundAtHeld& found) {
  std::vector<char> bytes;
  Out out(bytes);
  out.value(found.counts);
  out.value(found.findings.instances_below_min_wait);
  out.count(found.findings.findings);
  for (const Finding& f : found.findings.findings) finding_fields(out, f);
  return bytes;
}

FoundAtHeld read_finding_bytes(std::span<const char> bytes) {
  FoundAtHeld found;
  In in(bytes);
  in.value(found.counts);
  in.value(found.findings.instances_below_min_wait);
  in.count(found.findings.findings);
  for (Finding& f : found.findings.findings) finding_fields(in, f);
  return found;
}

}  // namespace collwrap
