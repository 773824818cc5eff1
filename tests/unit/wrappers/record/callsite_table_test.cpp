#include "record/callsite_table.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

namespace collwrap::tracer {
namespace {

TEST(CallSiteTable, SameChainSameId) {
  CallSiteTable table;
  std::uintptr_t a[] = {0x401000};
  std::uintptr_t b[] = {0x401000};
  EXPECT_EQ(table.intern(a), table.intern(b));
  EXPECT_EQ(table.chains().size(), 1u);
}

TEST(CallSiteTable, DistinctChainsGetDenseIds) {
  CallSiteTable table;
  std::uintptr_t a[] = {0x401000};
  std::uintptr_t b[] = {0x401000, 0x402000};  // same caller, reached from elsewhere
  std::uintptr_t c[] = {0x401004};
  EXPECT_EQ(table.intern(a), 0u);
  EXPECT_EQ(table.intern(b), 1u);
  EXPECT_EQ(table.intern(c), 2u);
  EXPECT_EQ(table.intern(b), 1u);
  auto chains = table.chains();
  ASSERT_EQ(chains.size(), 3u);
  EXPECT_EQ(chains[1], (FrameChain{0x401000, 0x402000}));
}

TEST(CallSiteTable, ConcurrentInterningAgreesOnIds) {
  CallSiteTable table;
  constexpr int kThreads = 4, kSites = 500;
  std::vector<std::vector<CallSiteRef>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kSites; ++i) {
        std::uintptr_t frame[] = {std::uintptr_t(0x10000 + 16 * ((i * 7 + t) % kSites))};
        seen[t].push_back(table.intern(frame));
      }
    });
  }
  for (auto& th : threads) th.join();
  auto chains = table.chains();
  ASSERT_EQ(chains.size(), std::size_t(kSites));
  std::set<CallSiteRef> ids;
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kSites; ++i) {
      CallSiteRef id = seen[t][i];
      ids.insert(id);
      EXPECT_EQ(chains[id][0], std::uintptr_t(0x10000 + 16 * ((i * 7 + t) % kSites)));
    }
  }
  EXPECT_EQ(ids.size(), std::size_t(kSites));
}

TEST(AddressCache, HitsAfterPut) {
  AddressCache cache;
  EXPECT_EQ(cache.find(0x401000), kNoCallSite);
  cache.put(0x401000, 7);
  EXPECT_EQ(cache.find(0x401000), 7u);
  EXPECT_EQ(cache.find(0x401010), kNoCallSite);
}

TEST(AddressCache, CallsAFewBytesApartKeepTheirEntries) {
  // A loop's call sites: return addresses of calls in a row, 5 bytes apart (call rel32).
  AddressCache cache;
  for (std::uint32_t k = 0; k < 8; ++k) cache.put(0x401000 + 5 * k, k);
  for (std::uint32_t k = 0; k < 8; ++k) EXPECT_EQ(cache.find(0x401000 + 5 * k), k);
}

TEST(AddressCache, ACollidingAddressReplacesTheEntry) {
  // Find an address that maps to the same slot as 0x401000.
  std::uintptr_t colliding = 0x401010;
  for (;; colliding += 16) {
    AddressCache probe;
    probe.put(0x401000, 1);
    probe.put(colliding, 2);
    if (probe.find(0x401000) == kNoCallSite) break;
  }
  AddressCache cache;
  cache.put(0x401000, 7);
  cache.put(colliding, 9);
  EXPECT_EQ(cache.find(colliding), 9u);
  EXPECT_EQ(cache.find(0x401000), kNoCallSite);
}

}  // namespace
}  // namespace collwrap::tracer
