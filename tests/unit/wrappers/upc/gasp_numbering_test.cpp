// The GASP adapter's tables: Berkeley UPC's event tags read as GNU UPC's, and each runtime's
// upc_flag_t decoded into the UpcSyncFlags attribute the analyzer reads.
#include <gtest/gtest.h>

#include "upc/gasp.h"

namespace collwrap::tracer::gasp {
namespace {

// Values from Berkeley UPC's gasp_upc.h (_GASP_UPC_SYSEVT_START = 1000).
TEST(BerkeleyTags, SystemEventsMapToGnuTags) {
  EXPECT_EQ(berkeley_tag(1000 + 2), kAllAlloc);
  EXPECT_EQ(berkeley_tag(1000 + 14), kLock);
  EXPECT_EQ(berkeley_tag(1000 + 31), kMemput);
  EXPECT_EQ(berkeley_tag(1000 + 100), kNotify);
  EXPECT_EQ(berkeley_tag(1000 + 101), kWait);
  EXPECT_EQ(berkeley_tag(1000 + 110), kPut);
  EXPECT_EQ(berkeley_tag(1000 + 300), kAllBroadcast);
  EXPECT_EQ(berkeley_tag(1000 + 340), kAllExchange);
  EXPECT_EQ(berkeley_tag(1000 + 410), kAllPrefixReduce);
}

TEST(BerkeleyTags, UserEventsAndUnknownTags) {
  EXPECT_EQ(berkeley_tag(100), kUserEventFirst);
  EXPECT_EQ(berkeley_tag(999), kUserEventFirst + 899);
  // Berkeley's non-blocking and static-shared events have no GNU counterpart; GNU's own
  // numbers mean nothing to a Berkeley program.
  EXPECT_EQ(berkeley_tag(1000 + 120), 0u);
  EXPECT_EQ(berkeley_tag(kBarrier), 0u);
  EXPECT_EQ(berkeley_tag(1000 + 200), 0u);
}

TEST(SyncFlags, ClassicEncoding) {
  // GNU UPC 4 and Berkeley UPC: IN_NOSYNC 1, IN_MYSYNC 2, OUT_NOSYNC 4, OUT_MYSYNC 8, ALLSYNC 0
  // (Berkeley: IN_ALLSYNC 16, OUT_ALLSYNC 32).
  EXPECT_EQ(kClassicFlags.decode(0), sync_flags(kAllSync, kAllSync));
  EXPECT_EQ(kClassicFlags.decode(16 | 32), sync_flags(kAllSync, kAllSync));
  EXPECT_EQ(kClassicFlags.decode(1 | 8), sync_flags(kNoSync, kMySync));
  EXPECT_EQ(kClassicFlags.decode(2 | 4), sync_flags(kMySync, kNoSync));
  EXPECT_EQ(sync_flags(kNoSync, kAllSync), 13u);
}

TEST(SyncFlags, Upc13Encoding) {
  // UPC 1.3: IN_ALLSYNC 1, IN_MYSYNC 2, IN_NOSYNC 4, OUT_ALLSYNC 8, OUT_MYSYNC 16, OUT_NOSYNC 32.
  EXPECT_EQ(kUpc13Flags.decode(1 | 8), sync_flags(kAllSync, kAllSync));
  EXPECT_EQ(kUpc13Flags.decode(0), sync_flags(kAllSync, kAllSync));
  EXPECT_EQ(kUpc13Flags.decode(4 | 16), sync_flags(kNoSync, kMySync));
  EXPECT_EQ(kUpc13Flags.decode(2 | 32), sync_flags(kMySync, kNoSync));
}

}  // namespace
}  // namespace collwrap::tracer::gasp
