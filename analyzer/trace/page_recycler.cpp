#include "page_recycler.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <mutex>

namespace collwrap::page_recycler {
namespace {

constexpr std::size_t kPage = 4096;
// The block's first 64 bytes say what it is: a heap pointer never has this offset in its page
// together with the check word, so that owns() tells the two apart reading p's own page.
constexpr std::size_t kHeader = 64;
constexpr std::uint64_t kMagic = 0x636f6c6c77726170;  // "collwrap"

struct Header {
  std::uint64_t check;   // kMagic ^ the block's address
  std::uint64_t bytes;   // of its mapping
  std::uint64_t pieces;  // in the table of pieces, or 0 when the block is one mapping
};

struct Kept {
  char* base;
  std::size_t bytes;
};

// A block made of several mappings: mremap moves pages within one mapping only, so that its
// mappings are kept apart when it is freed.
struct Piece {
  char* block;
  std::size_t offset, bytes;
};

// Fixed tables, not std::vectors: allocating here must not come back into allocate(). A
// whole-trace table of 10^8 events is made of up to a few hundred freed per-location columns;
// the pieces of all blocks, each a mapping, stay well below the system's limit of mappings per
// process (vm.max_map_count, 65,530 by default).
constexpr std::size_t kMaxKept = 4096;
constexpr std::size_t kMaxPieces = 16384;
constexpr std::size_t kMaxPiecesPerBlock = 256;

class Recycler {
 public:
  void* allocate(std::size_t wanted) {
    if (wanted > SIZE_MAX - kHeader - kPage) return nullptr;
    const std::size_t bytes = (wanted + kHeader + kPage - 1) / kPage * kPage;
    std::lock_guard lock(mutex_);
    const std::size_t pieces_before = piece_count_;
    char* base = take_whole(bytes);
    if (base == nullptr) base = assemble(bytes);
    if (base == nullptr) return nullptr;
    *reinterpret_cast<Header*>(base) = {kMagic ^ reinterpret_cast<std::uintptr_t>(base), bytes,
                                        piece_count_ - pieces_before};
    return base + kHeader;
  }

  void release(void* p) {
    char* base = static_cast<char*>(p) - kHeader;
    const Header header = *reinterpret_cast<const Header*>(base);
    std::lock_guard lock(mutex_);
    if (header.pieces == 0) {
      keep(base, header.bytes);
      return;
    }
    // Only a block made of several mappings looks for its pieces.
    std::size_t left = header.pieces;
    for (std::size_t k = piece_count_; k-- > 0 && left > 0;)
      if (pieces_[k].block == base) {
        keep(base + pieces_[k].offset, pieces_[k].bytes);
        pieces_[k] = pieces_[--piece_count_];
        --left;
      }
  }

  void give_back_all() {
    std::lock_guard lock(mutex_);
    unmap_all();
  }

  std::size_t kept_bytes() {
    std::lock_guard lock(mutex_);
    return kept_bytes_;
  }

 private:
  // The smallest kept block that holds `bytes`, cut to size (the rest stays kept), or nullptr.
  char* take_whole(std::size_t bytes) {
    std::size_t best = count_;
    for (std::size_t k = 0; k < count_; ++k)
      if (kept_[k].bytes >= bytes && (best == count_ || kept_[k].bytes < kept_[best].bytes))
        best = k;
    if (best == count_) return nullptr;
    char* base = kept_[best].base;
    cut_front(best, bytes);
    return base;
  }

  // A new mapping of `bytes`, made of kept pages moved into it, newest first, and fresh pages
  // for the rest. The address range is reserved without access first, which counts neither
  // towards the data segment nor the memory in use, so that moving pages in never holds them
  // twice.
  char* assemble(std::size_t bytes) {
    void* range =
        mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (range == MAP_FAILED) {
      unmap_all();
      range = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (range == MAP_FAILED) return nullptr;
    }
    char* base = static_cast<char*>(range);
    std::size_t filled = 0, moved = 0;
    // Each mapping moved in is a piece of the block, and so are the fresh pages after them.
    const std::size_t room = std::min(kMaxPiecesPerBlock, kMaxPieces - piece_count_);
    const std::size_t first_piece = piece_count_;
    while (filled < bytes && count_ > 0 && moved + 2 <= room) {
      const std::size_t k = count_ - 1;
      const std::size_t part = std::min(kept_[k].bytes, bytes - filled);
      if (mremap(kept_[k].base, part, part, MREMAP_MAYMOVE | MREMAP_FIXED, base + filled) ==
          MAP_FAILED)
        break;
      pieces_[piece_count_++] = {base, filled, part};
      cut_front(k, part);
      filled += part;
      ++moved;
    }
    if (filled < bytes) {
      if (!make_fresh(base + filled, bytes - filled)) {
        unmap_all();
        if (!make_fresh(base + filled, bytes - filled)) {
          piece_count_ = first_piece;
          munmap(base, bytes);
          return nullptr;
        }
      }
      if (moved > 0) pieces_[piece_count_++] = {base, filled, bytes - filled};
    }
    if (moved == 1 && filled == bytes) piece_count_ = first_piece;  // one mapping after all
    return base;
  }

  // Keeps the pages of [base, base + bytes) that were used; the untouched ones after them (a
  // vector's capacity beyond its size), which are not resident, go back at once: kept, they
  // would serve a new block no better than fresh ones, while used pages waited beside it.
  void keep(char* base, std::size_t bytes) {
    const std::size_t used = used_bytes(base, bytes);
    if (used < bytes) munmap(base + used, bytes - used);
    bytes = used;
    if (bytes == 0) return;
    if (count_ == kMaxKept) {
      munmap(base, bytes);
      return;
    }
    kept_[count_++] = {base, bytes};
    kept_bytes_ += bytes;
  }

  // The bytes up to the end of the last resident page of [base, base + bytes).
  static std::size_t used_bytes(char* base, std::size_t bytes) {
    constexpr std::size_t kBatch = 4096;  // pages asked about at a time
    unsigned char resident[kBatch];
    const std::size_t pages = bytes / kPage;
    std::size_t used = 0;
    for (std::size_t first = 0; first < pages; first += kBatch) {
      const std::size_t count = std::min(kBatch, pages - first);
      if (mincore(base + first * kPage, count * kPage, resident) != 0) return bytes;
      for (std::size_t k = count; k-- > 0;)
        if (resident[k] & 1) {
          used = (first + k + 1) * kPage;
          break;
        }
    }
    return used;
  }

  static bool make_fresh(char* at, std::size_t bytes) {
    return mprotect(at, bytes, PROT_READ | PROT_WRITE) == 0;
  }

  // Removes the first `bytes` of kept block k from the table (they are in use now).
  void cut_front(std::size_t k, std::size_t bytes) {
    kept_bytes_ -= bytes;
    if (kept_[k].bytes == bytes) {
      kept_[k] = kept_[--count_];
      return;
    }
    kept_[k].base += bytes;
    kept_[k].bytes -= bytes;
  }

  void unmap(std::size_t k) {
    munmap(kept_[k].base, kept_[k].bytes);
    kept_bytes_ -= kept_[k].bytes;
    kept_[k] = kept_[--count_];
  }
  void unmap_all() {
    while (count_ > 0) unmap(count_ - 1);
  }

  std::mutex mutex_;
  Kept kept_[kMaxKept]{};
  std::size_t count_ = 0;
  Piece pieces_[kMaxPieces]{};
  std::size_t piece_count_ = 0;
  std::size_t kept_bytes_ = 0;
};

// Constant-initialized and trivially destroyed: blocks may be allocated before main and freed
// after it returns.
constinit Recycler the_recycler;
Recycler& recycler() {
  return the_recycler;
}

}  // namespace

void* allocate(std::size_t bytes) noexcept {
  return recycler().allocate(bytes);
}

bool owns(const void* p) noexcept {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  if (p == nullptr || address % kPage != kHeader) return false;
  const auto* header = reinterpret_cast<const Header*>(address - kHeader);
  return header->check == (kMagic ^ (address - kHeader));
}

void release(void* p) noexcept {
  recycler().release(p);
}

void give_back_all() noexcept {
  recycler().give_back_all();
}

std::size_t kept_bytes() noexcept {
  return recycler().kept_bytes();
}

}  // namespace collwrap::page_recycler
