// Values to bytes and back with their fields named once for both directions: a `fields(io,
// value)` function moves each field with one call of `io`, an Out (const values, to bytes) or
// an In (mutable ones, from bytes), so that what goes and what comes cannot drift apart. For
// what analyzer processes send each other (byte_stream.h).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "byte_stream.h"

namespace collwrap {

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
  void texts(const std::vector<std::string>& v) {
    count(v);
    for (const std::string& s : v) text(s);
  }
  // Entries of a map keyed by a trivially copyable value or a pair of them, each value moved
  // by `fields`.
  template <class Map, class Fields>
  void map(const Map& m, Fields fields) {
    count(m);
    for (const auto& [key, v] : m) {
      if constexpr (requires { key.first, key.second; }) {
        w_.put(key.first);
        w_.put(key.second);
      } else {
        w_.put(key);
      }
      fields(v);
    }
  }

 private:
  ByteWriter w_;
};

class In {
 public:
  // `what`: what the bytes are, for the message when they end early.
  In(std::span<const char> bytes, const char* what) : r_(bytes, what) {}
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
  void texts(std::vector<std::string>& v) {
    count(v);
    for (std::string& s : v) text(s);
  }
  template <class Map, class Fields>
  void map(Map& m, Fields fields) {
    std::uint64_t n = 0;
    r_.get(n);
    if (n > r_.remaining()) r_.throw_truncated();
    for (std::uint64_t i = 0; i < n; ++i) {
      typename Map::key_type key{};
      if constexpr (requires { key.first, key.second; }) {
        r_.get(key.first);
        r_.get(key.second);
      } else {
        r_.get(key);
      }
      fields(m[key]);
    }
  }

 private:
  ByteReader r_;
};

// A value to bytes and back, its fields named once by `fields(io, value)`. Reading throws
// std::runtime_error("<what> sent by another process end early") on bytes cut short.
template <class T, class Fields>
std::vector<char> to_bytes(const T& value, Fields fields) {
  std::vector<char> bytes;
  Out out(bytes);
  fields(out, value);
  return bytes;
}

template <class T, class Fields>
T from_bytes(std::span<const char> bytes, const char* what, Fields fields) {
  T value;
  In in(bytes, what);
  fields(in, value);
  return value;
}

}  // namespace collwrap
