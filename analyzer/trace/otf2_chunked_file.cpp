#include "otf2_chunked_file.h"

#include <fcntl.h>
#include <otf2/OTF2_GeneralDefinitions.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "otf2_buffer_format.h"

namespace collwrap {

ChunkedFile::ChunkedFile(const std::string& path, std::uint64_t chunk_size)
    : chunk_size_(chunk_size) {
  // OTF2's bounds: a size outside them comes from a damaged anchor file.
  if (chunk_size < OTF2_CHUNK_SIZE_MIN || chunk_size > OTF2_CHUNK_SIZE_MAX) return;
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) return;
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    ::close(fd_);
    fd_ = -1;
    return;
  }
  file_bytes_ = static_cast<std::uint64_t>(st.st_size);
  ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  // Default-initialised: a chunk is written before it is read, so it needs no zeroing.
  buffer_.reset(new std::uint8_t[chunk_size]);
}

ChunkedFile::~ChunkedFile() {
  if (fd_ >= 0) ::close(fd_);
}

bool ChunkedFile::load(std::uint64_t k) {
  bytes_ = 0;
  if (fd_ < 0 || k >= file_bytes_ / chunk_size_ + 1) return false;
  chunk_ = k;
  const std::uint64_t start = k * chunk_size_;
  const std::uint64_t want = std::min(chunk_size_, file_bytes_ - start);
  while (bytes_ < want) {
    const ssize_t got =
        ::pread(fd_, buffer_.get() + bytes_, want - bytes_, static_cast<off_t>(start + bytes_));
    if (got <= 0) return false;
    bytes_ += static_cast<std::uint64_t>(got);
  }
  using namespace otf2_format;
  if (bytes_ < kChunkHeaderBytes || buffer_[0] != kChunkHeader ||
      (buffer_[1] != kLittleEndian && buffer_[1] != kBigEndian))
    return false;
  big_endian_ = buffer_[1] == kBigEndian;
  return true;
}

}  // namespace collwrap
