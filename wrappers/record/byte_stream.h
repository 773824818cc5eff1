// A minimal binary encoding for what ranks exchange with PMPI (configuration, local
// definitions, id mappings) and for the per-rank sidecar files. Fixed-width little-endian
// integers and length-prefixed strings; all ranks run the same binary, so no versioning
// beyond a leading magic number is needed.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace collwrap::tracer {

class ByteWriter {
 public:
  void u8(std::uint8_t v) { bytes_.push_back(v); }
  void u32(std::uint32_t v) { put(&v, sizeof v); }
  void u64(std::uint64_t v) { put(&v, sizeof v); }
  void i64(std::int64_t v) { put(&v, sizeof v); }
  void f64(double v) { put(&v, sizeof v); }
  void str(std::string_view s);

  const std::vector<std::uint8_t>& bytes() const { return bytes_; }
  std::vector<std::uint8_t> take() { return std::move(bytes_); }

 private:
  void put(const void* p, std::size_t n);
  std::vector<std::uint8_t> bytes_;
};

// Reads what ByteWriter wrote. Reading past the end does not throw: it sets failed() and
// returns zeros, so a truncated sidecar is detected by one check at the end.
class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  std::uint8_t u8();
  std::uint32_t u32();
  std::uint64_t u64();
  std::int64_t i64();
  double f64();
  std::string str();

  // A count read from the stream, rejected (failed() set, 0 returned) when the remaining bytes
  // cannot hold that many elements of at least `min_element_size` bytes each.
  std::uint32_t count(std::size_t min_element_size);

  bool failed() const { return failed_; }
  bool at_end() const { return pos_ == bytes_.size(); }
  std::size_t remaining() const { return bytes_.size() - pos_; }

 private:
  bool get(void* p, std::size_t n);
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
  bool failed_ = false;
};

}  // namespace collwrap::tracer
