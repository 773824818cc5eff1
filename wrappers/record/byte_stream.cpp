#include "record/byte_stream.h"

#include <cstring>

namespace collwrap::tracer {

void ByteWriter::put(const void* p, std::size_t n) {
  const auto* b = static_cast<const std::uint8_t*>(p);
  bytes_.insert(bytes_.end(), b, b + n);
}

void ByteWriter::str(std::string_view s) {
  u32(std::uint32_t(s.size()));
  put(s.data(), s.size());
}

bool ByteReader::get(void* p, std::size_t n) {
  if (failed_ || bytes_.size() - pos_ < n) {
    failed_ = true;
    std::memset(p, 0, n);
    return false;
  }
  std::memcpy(p, bytes_.data() + pos_, n);
  pos_ += n;
  return true;
}

std::uint8_t ByteReader::u8() {
  std::uint8_t v;
  get(&v, sizeof v);
  return v;
}
std::uint32_t ByteReader::u32() {
  std::uint32_t v;
  get(&v, sizeof v);
  return v;
}
std::uint64_t ByteReader::u64() {
  std::uint64_t v;
  get(&v, sizeof v);
  return v;
}
std::int64_t ByteReader::i64() {
  std::int64_t v;
  get(&v, sizeof v);
  return v;
}
double ByteReader::f64() {
  double v;
  get(&v, sizeof v);
  return v;
}

std::uint32_t ByteReader::count(std::size_t min_element_size) {
  std::uint32_t n = u32();
  if (failed_ || (min_element_size > 0 && n > (bytes_.size() - pos_) / min_element_size)) {
    failed_ = true;
    return 0;
  }
  return n;
}

std::string ByteReader::str() {
  std::uint32_t n = count(1);
  std::string s(n, '\0');
  if (n > 0) get(s.data(), n);
  return s;
}

}  // namespace collwrap::tracer
