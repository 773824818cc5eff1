#include "page_recycler.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace collwrap {
namespace {

constexpr std::size_t kMiB = 1024 * 1024;

long page_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// Writes every page of the block; returns the page faults that took. Counted in small pages
// (transparent huge pages, where the system makes them without being asked, fault a block in
// 2 MiB at a time).
long touch(void* p, std::size_t bytes) {
  const auto address = reinterpret_cast<std::uintptr_t>(p) / 4096 * 4096;
  madvise(reinterpret_cast<void*>(address), reinterpret_cast<std::uintptr_t>(p) + bytes - address,
          MADV_NOHUGEPAGE);
  const long before = page_faults();
  std::memset(p, 0x5a, bytes);
  return page_faults() - before;
}

class PageRecycler : public ::testing::Test {
 protected:
  void SetUp() override { page_recycler::give_back_all(); }
  void TearDown() override { page_recycler::give_back_all(); }
};

TEST_F(PageRecycler, BlocksAreAlignedAndKnownFromHeapPointers) {
  void* block = page_recycler::allocate(kMiB);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(block) % 64, 0u);
  EXPECT_TRUE(page_recycler::owns(block));
  // A heap pointer at the same offset in its page as a block's, after bytes that are not a
  // block's header.
  void* page = std::aligned_alloc(4096, 8192);
  ASSERT_NE(page, nullptr);
  std::memset(page, 0, 8192);
  EXPECT_FALSE(page_recycler::owns(static_cast<char*>(page) + 64));
  EXPECT_FALSE(page_recycler::owns(page));
  EXPECT_FALSE(page_recycler::owns(nullptr));
  std::free(page);
  page_recycler::release(block);
}

TEST_F(PageRecycler, AFreedBlockServesTheNextWithoutPageFaults) {
  const std::size_t bytes = 8 * kMiB;
  void* first = page_recycler::allocate(bytes);
  ASSERT_NE(first, nullptr);
  EXPECT_GE(touch(first, bytes), static_cast<long>(bytes / 4096));  // fresh pages fault
  page_recycler::release(first);
  EXPECT_GE(page_recycler::kept_bytes(), bytes);

  void* second = page_recycler::allocate(bytes);
  ASSERT_NE(second, nullptr);
  EXPECT_LT(touch(second, bytes), 16);
  EXPECT_EQ(page_recycler::kept_bytes(), 0u);
  page_recycler::release(second);
}

TEST_F(PageRecycler, ABlockIsMadeOfSmallerFreedOnesAndFreedInTheirPieces) {
  const std::size_t piece = 2 * kMiB;
  std::vector<void*> pieces;
  for (int k = 0; k < 3; ++k) {
    pieces.push_back(page_recycler::allocate(piece));
    ASSERT_NE(pieces.back(), nullptr);
    touch(pieces.back(), piece);
  }
  for (void* p : pieces) page_recycler::release(p);
  const std::size_t kept = page_recycler::kept_bytes();
  EXPECT_GE(kept, 3 * piece);

  // Larger than any of them: made of all three, and fresh pages for the rest.
  void* whole = page_recycler::allocate(3 * piece + kMiB);
  ASSERT_NE(whole, nullptr);
  EXPECT_EQ(page_recycler::kept_bytes(), 0u);
  const long faults = touch(whole, 3 * piece + kMiB);
  EXPECT_LT(faults, static_cast<long>(2 * kMiB / 4096));  // about the fresh megabyte's 256
  EXPECT_GE(faults, static_cast<long>(kMiB / 4096) - 16);

  // Freed, its pieces are kept apart (each one mapping), so that they serve again.
  page_recycler::release(whole);
  EXPECT_GE(page_recycler::kept_bytes(), 3 * piece + kMiB);
  void* again = page_recycler::allocate(3 * piece + kMiB);
  ASSERT_NE(again, nullptr);
  EXPECT_LT(touch(again, 3 * piece + kMiB), 16);
  page_recycler::release(again);
}

TEST_F(PageRecycler, ABlockOfMorePiecesThanItMayHoldTakesFreshPagesForTheRest) {
  const std::size_t piece = page_recycler::kLargeBlock;
  std::vector<void*> pieces;
  for (int k = 0; k < 300; ++k) {
    pieces.push_back(page_recycler::allocate(piece));
    ASSERT_NE(pieces.back(), nullptr);
    touch(pieces.back(), piece);
  }
  // Freed in reverse, so that no two kept mappings lie next to each other in order.
  for (std::size_t k = pieces.size(); k-- > 0;) page_recycler::release(pieces[k]);
  const std::size_t kept = page_recycler::kept_bytes();
  void* whole = page_recycler::allocate(300 * piece);
  ASSERT_NE(whole, nullptr);
  const long faults = touch(whole, 300 * piece);
  EXPECT_GT(page_recycler::kept_bytes(), 0u);  // pieces beyond its share stay kept
  EXPECT_LT(page_recycler::kept_bytes(), kept);
  EXPECT_GT(faults, 16);  // and fresh pages stand in for them
  EXPECT_LT(faults, static_cast<long>(300 * piece / 4096));
  // Freed in its pieces and made again: no more fresh pages than the first time.
  page_recycler::release(whole);
  void* again = page_recycler::allocate(300 * piece);
  ASSERT_NE(again, nullptr);
  EXPECT_LE(touch(again, 300 * piece), faults);
  page_recycler::release(again);
}

TEST_F(PageRecycler, UntouchedPagesAreNotKept) {
  const std::size_t bytes = 16 * kMiB;
  void* block = page_recycler::allocate(bytes);
  ASSERT_NE(block, nullptr);
  touch(block, kMiB);  // a vector's size, the rest its capacity
  page_recycler::release(block);
  EXPECT_GE(page_recycler::kept_bytes(), kMiB);
  EXPECT_LE(page_recycler::kept_bytes(), kMiB + 8192);
}

TEST_F(PageRecycler, GivingBackAllKeepsNothing) {
  void* block = page_recycler::allocate(4 * kMiB);
  ASSERT_NE(block, nullptr);
  touch(block, 4 * kMiB);
  page_recycler::release(block);
  EXPECT_GT(page_recycler::kept_bytes(), 0u);
  page_recycler::give_back_all();
  EXPECT_EQ(page_recycler::kept_bytes(), 0u);
  void* fresh = page_recycler::allocate(4 * kMiB);
  ASSERT_NE(fresh, nullptr);
  EXPECT_GE(touch(fresh, 4 * kMiB), static_cast<long>(4 * kMiB / 4096));
  page_recycler::release(fresh);
}

}  // namespace
}  // namespace collwrap
