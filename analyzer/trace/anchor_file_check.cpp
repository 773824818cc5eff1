#include "anchor_file_check.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <vector>

namespace collwrap {
namespace {

// An anchor file is far smaller; anything larger is not one.
constexpr std::size_t kMaxAnchorBytes = 1 << 20;

class AnchorCursor {
 public:
  explicit AnchorCursor(std::vector<unsigned char> bytes) : bytes_(std::move(bytes)) {}

  bool skip(std::size_t n) {
    if (bytes_.size() - pos_ < n) return false;
    pos_ += n;
    return true;
  }
  bool byte(unsigned char& out) {
    if (pos_ >= bytes_.size()) return false;
    out = bytes_[pos_++];
    return true;
  }
  bool u32(std::uint32_t& out, bool little_endian) {
    if (bytes_.size() - pos_ < 4) return false;
    out = 0;
    for (std::size_t i = 0; i < 4; ++i)
      out = (out << 8) | bytes_[pos_ + (little_endian ? 3 - i : i)];
    pos_ += 4;
    return true;
  }
  bool string() {  // NUL-terminated
    const auto begin = bytes_.begin() + static_cast<std::ptrdiff_t>(pos_);
    const auto nul = std::find(begin, bytes_.end(), 0);
    if (nul == bytes_.end()) return false;
    pos_ = static_cast<std::size_t>(nul - bytes_.begin()) + 1;
    return true;
  }
  std::size_t remaining() const { return bytes_.size() - pos_; }

 private:
  std::vector<unsigned char> bytes_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string check_anchor_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<unsigned char> bytes;
  for (std::istreambuf_iterator<char> it(in), end; it != end && bytes.size() <= kMaxAnchorBytes;
       ++it)
    bytes.push_back(static_cast<unsigned char>(*it));
  if (!in && !in.eof()) return "it cannot be read";
  if (bytes.size() > kMaxAnchorBytes) return "it is too large for an anchor file";

  AnchorCursor c(std::move(bytes));
  unsigned char header = 0, endianness = 0, anchor_format = 0, substrate = 0, compression = 0;
  // Buffer header: 0x03, then 0x42 (little endian) or 0x23 (big endian); then the magic.
  if (!c.byte(header) || !c.byte(endianness) || header != 0x03 ||
      (endianness != 0x42 && endianness != 0x23))
    return "it does not start like an OTF2 file";
  const bool little = endianness == 0x42;
  constexpr char kMagic[] = "OTF2";  // with its NUL
  for (char m : kMagic) {
    unsigned char b = 0;
    if (!c.byte(b) || b != static_cast<unsigned char>(m)) return "it has no OTF2 magic";
  }
  if (!c.byte(anchor_format) || anchor_format == 0) return "its format number is missing";
  // trace format, version (3 bytes), event and definition chunk sizes (8 each)
  if (!c.skip(1 + 3 + 8 + 8) || !c.byte(substrate) || !c.byte(compression))
    return "it is cut short";
  if (substrate > 3 || compression > 2) return "it names an unknown file substrate or compression";
  // number of locations, of global definitions; machine, creator, description
  if (!c.skip(8 + 8) || !c.string() || !c.string() || !c.string()) return "it is cut short";
  if (anchor_format > 1) {
    std::uint32_t properties = 0;
    if (!c.u32(properties, little)) return "it is cut short";
    if (properties > c.remaining() / 2) return "its property count is damaged";
    for (std::uint32_t p = 0; p < properties; ++p)
      if (!c.string() || !c.string()) return "its properties are damaged";
    if (!c.skip(8)) return "it is cut short";  // trace id
  }
  if (anchor_format > 2 && !c.skip(4 + 4)) return "it is cut short";  // snapshots, thumbnails
  return {};
}

}  // namespace collwrap
