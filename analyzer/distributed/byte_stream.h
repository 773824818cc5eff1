// Values to bytes and back, for what analyzer processes send each other: both ends run the same
// binary on one kind of machine, so trivially copyable values go as they are in memory.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace collwrap {

class ByteWriter {
 public:
  explicit ByteWriter(std::vector<char>& bytes) : bytes_(bytes) {}

  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const char*>(&value);
    bytes_.insert(bytes_.end(), p, p + sizeof value);
  }
  template <class T>
  void put_vector(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    put(std::uint64_t{v.size()});
    const auto* p = reinterpret_cast<const char*>(v.data());
    bytes_.insert(bytes_.end(), p, p + v.size() * sizeof(T));
  }
  void put_string(const std::string& s) {
    put(std::uint64_t{s.size()});
    bytes_.insert(bytes_.end(), s.begin(), s.end());
  }

 private:
  std::vector<char>& bytes_;
};

// Reads what a ByteWriter wrote; bytes that end early throw std::runtime_error("<what> sent
// by another process end early").
class ByteReader {
 public:
  ByteReader(std::span<const char> bytes, const char* what) : bytes_(bytes), what_(what) {}
  bool done() const { return at_ == bytes_.size(); }
  std::size_t remaining() const { return bytes_.size() - at_; }
  [[noreturn]] void throw_truncated() const {
    throw std::runtime_error(std::string(what_) + " sent by another process end early");
  }

  template <class T>
  void get(T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::memcpy(&value, take(sizeof value), sizeof value);
  }
  template <class T>
  void get_vector(std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::uint64_t size = get_size(sizeof(T));
    v.resize(size);
    std::memcpy(v.data(), take(size * sizeof(T)), size * sizeof(T));
  }
  void get_string(std::string& s) {
    const std::uint64_t size = get_size(1);
    s.assign(take(size), size);
  }

 private:
  std::uint64_t get_size(std::size_t element) {
    std::uint64_t size = 0;
    get(size);
    if (size > (bytes_.size() - at_) / element) throw_truncated();
    return size;
  }
  const char* take(std::size_t n) {
    if (n > bytes_.size() - at_) throw_truncated();
    const char* p = bytes_.data() + at_;
    at_ += n;
    return p;
  }

  std::span<const char> bytes_;
  const char* what_;
  std::size_t at_ = 0;
};

}  // namespace collwrap
