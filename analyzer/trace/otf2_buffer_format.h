// The byte layout of OTF2's buffer files (event files and local definition files, POSIX
// substrate, no compression), as libotf2 3.x writes and reads them: what the event file check
// and the analyzer's own decoders (otf2_event_decoder.h, otf2_local_definitions.h) share.
//
// A file is a sequence of chunks of the archive's chunk size; chunk k starts at byte
// k × chunk size and the last one is short. Each chunk starts with a header:
//   [0x03][byte order: 0x42 little / 0x23 big][first record number: u64][last record number: u64]
// and every multi-byte number in the chunk is in that byte order. Records follow, each a type
// byte and its fields, until END_OF_CHUNK (the rest of the chunk is padding) or END_OF_FILE.
// A finished file ends with END_OF_FILE and END_OF_BUFFER.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace collwrap::otf2_format {

constexpr std::uint8_t kEndOfChunk = 0x00;
constexpr std::uint8_t kEndOfBuffer = 0x01;
constexpr std::uint8_t kEndOfFile = 0x02;
constexpr std::uint8_t kChunkHeader = 0x03;
constexpr std::uint8_t kTimestamp = 0x05;      // then the time in ticks: u64, full width
constexpr std::uint8_t kAttributeList = 0x06;  // attributes of the event record that follows
constexpr std::uint8_t kLittleEndian = 0x42;
constexpr std::uint8_t kBigEndian = 0x23;
constexpr std::size_t kChunkHeaderBytes = 18;
// A record's length is one byte, or this byte followed by the length as a full-width u64.
constexpr std::uint8_t kLongLength = 0xFF;
// In a compressed integer's length byte: the value is all ones (OTF2's "undefined").
constexpr std::uint8_t kAllOnes = 0xFF;

// The `n` bytes at `p` (1 to 8) as an unsigned number in the given byte order.
inline std::uint64_t load_uint(const std::uint8_t* p, unsigned n, bool big_endian) {
  if (n == 8) {  // timestamps: one load, and a byte swap when the orders differ
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    return big_endian == (std::endian::native == std::endian::big) ? word : __builtin_bswap64(word);
  }
  std::uint64_t v = 0;
  if (big_endian) {
    for (unsigned i = 0; i < n; ++i) v = (v << 8) | p[i];
  } else {
    for (unsigned i = n; i-- > 0;) v = (v << 8) | p[i];
  }
  return v;
}

// Reads a compressed integer at `p` and moves `p` past it: a length byte s, then the s
// least significant bytes of the value (s ≤ max_bytes: 4 for 32-bit fields, 8 for 64-bit),
// or s = 0xFF for all ones. False when s is invalid or the bytes pass `end`.
inline bool read_compressed(const std::uint8_t*& p, const std::uint8_t* end, bool big_endian,
                            unsigned max_bytes, std::uint64_t& value) {
  if (p >= end) return false;
  const unsigned s = *p;
  if (s == kAllOnes) {
    value = max_bytes == 8 ? ~std::uint64_t{0} : 0xFFFFFFFFu;
    ++p;
    return true;
  }
  if (s > max_bytes || end - p <= static_cast<std::ptrdiff_t>(s)) return false;
  if (!big_endian && std::endian::native == std::endian::little && end - p > 8) {
    // The common case: one load, the bytes above the value masked off.
    std::uint64_t word;
    std::memcpy(&word, p + 1, 8);
    value = s == 8 ? word : word & ((std::uint64_t{1} << (8 * s)) - 1);
  } else {
    value = s == 0 ? 0 : load_uint(p + 1, s, big_endian);
  }
  p += 1 + s;
  return true;
}

// Reads a record's length at `p` and moves `p` to the record's data: with libotf2's checks
// (the record must end before the chunk does, at least one byte before it), made against the
// bytes the file holds (`end`) rather than the nominal chunk size, so never weaker.
inline bool read_record_length(const std::uint8_t*& p, const std::uint8_t* end, bool big_endian,
                               std::uint64_t& length) {
  if (end - p <= 1) return false;
  length = *p++;
  if (length == kLongLength) {
    if (end - p <= 8) return false;
    length = load_uint(p, 8, big_endian);
    p += 8;
  }
  return static_cast<std::uint64_t>(end - p) > length;
}

// Reads a record's fields in order, never past `end` (the end of the record's length): each
// read is false when its field would pass it or is malformed.
struct FieldReader {
  const std::uint8_t* p;
  const std::uint8_t* end;
  bool big_endian;

  bool byte(std::uint8_t& v) {
    if (p >= end) return false;
    v = *p++;
    return true;
  }
  bool full(unsigned bytes, std::uint64_t& v) {  // `bytes` raw bytes: 2, 4 or 8
    if (end - p < static_cast<std::ptrdiff_t>(bytes)) return false;
    v = load_uint(p, bytes, big_endian);
    p += bytes;
    return true;
  }
  bool compressed32(std::uint64_t& v) { return read_compressed(p, end, big_endian, 4, v); }
  bool compressed64(std::uint64_t& v) { return read_compressed(p, end, big_endian, 8, v); }
};

}  // namespace collwrap::otf2_format
