// Reads one of an archive's chunked OTF2 files (otf2_buffer_format.h) a chunk at a time into
// one buffer of the chunk size, so that reading a file of any size holds one chunk in memory.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace collwrap {

class ChunkedFile {
 public:
  ChunkedFile(const std::string& path, std::uint64_t chunk_size);
  ~ChunkedFile();
  ChunkedFile(const ChunkedFile&) = delete;
  ChunkedFile& operator=(const ChunkedFile&) = delete;

  bool is_open() const { return fd_ >= 0; }
  // Reads chunk `k`. False when the file holds no header of it (it ends before), or the header
  // is not a valid chunk header.
  bool load(std::uint64_t k);

  // The chunk read last: from its header to the end of the bytes the file holds of it (the
  // last chunk of a file is short).
  const std::uint8_t* begin() const { return buffer_.get(); }
  const std::uint8_t* end() const { return buffer_.get() + bytes_; }
  bool big_endian() const { return big_endian_; }
  std::uint64_t chunk() const { return chunk_; }  // the chunk read last
  // Whether the chunk read last is the file's last.
  bool is_last_chunk() const { return (chunk_ + 1) * chunk_size_ >= file_bytes_; }
  std::uint64_t chunk_size() const { return chunk_size_; }

 private:
  int fd_ = -1;
  std::uint64_t file_bytes_ = 0;
  std::uint64_t chunk_size_;
  std::unique_ptr<std::uint8_t[]> buffer_;
  std::uint64_t chunk_ = 0;  // the chunk read last
  std::uint64_t bytes_ = 0;
  bool big_endian_ = false;
};

}  // namespace collwrap
