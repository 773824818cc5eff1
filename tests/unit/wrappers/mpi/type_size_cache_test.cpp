// TypeSizeCache: sizes are remembered per thread, and every remembered size goes stale when a
// datatype is freed, on any thread, because its handle may come back for another type.
#include "mpi/type_size_cache.h"

#include <gtest/gtest.h>

#include <thread>

#include "tracer_test_support.h"

namespace collwrap::tracer {
namespace {

using testing::fake_handle;
using testing::FakeMpi;

class TypeSizes : public ::testing::Test {
 protected:
  // Whether the next size of `type` comes from the cache (MPI was not asked for it).
  bool answered_from_cache(MPI_Datatype type) {
    mpi.queried_types.clear();
    cache.size(mpi, type);
    return !mpi.queried_types.contains(type);
  }

  FakeMpi mpi;
  TypeSizeCache cache;
  const MPI_Datatype derived = fake_handle<MPI_Datatype>(1);
};

TEST_F(TypeSizes, SecondLookupDoesNotAskMpi) {
  mpi.type_sizes[derived] = 12;
  EXPECT_EQ(cache.size(mpi, derived), 12u);
  EXPECT_TRUE(answered_from_cache(derived));
  EXPECT_EQ(cache.size(mpi, derived), 12u);
}

TEST_F(TypeSizes, FreedHandleReusedForAnotherTypeGetsItsNewSize) {
  mpi.type_sizes[derived] = 12;
  EXPECT_EQ(cache.size(mpi, derived), 12u);
  cache.forget_all();
  mpi.type_sizes[derived] = 40;  // MPI_Type_free, then a new type with the same handle
  EXPECT_EQ(cache.size(mpi, derived), 40u);
}

TEST_F(TypeSizes, FreeOnAnotherThreadMakesThisThreadsSizesStale) {
  mpi.type_sizes[derived] = 12;
  EXPECT_EQ(cache.size(mpi, derived), 12u);
  std::thread([&] { cache.forget_all(); }).join();
  mpi.type_sizes[derived] = 40;
  EXPECT_EQ(cache.size(mpi, derived), 40u);
}

TEST_F(TypeSizes, ThreadsRememberSizesSeparately) {
  mpi.type_sizes[derived] = 12;
  EXPECT_EQ(cache.size(mpi, derived), 12u);
  std::thread([&] { EXPECT_FALSE(answered_from_cache(derived)); }).join();
  EXPECT_TRUE(answered_from_cache(derived));
}

TEST_F(TypeSizes, ZeroSizesAreAskedAgain) {
  EXPECT_EQ(cache.size(mpi, derived), 0u);  // unknown to MPI: invalid or not yet created
  mpi.type_sizes[derived] = 8;
  EXPECT_EQ(cache.size(mpi, derived), 8u);
}

TEST_F(TypeSizes, ManyTypesSharingSlotsKeepTheirOwnSizes) {
  // More types than slots: some share a slot, and none may be given another's size.
  for (int round = 0; round < 2; ++round) {
    for (std::uintptr_t n = 1; n <= 40; ++n) {
      mpi.type_sizes[fake_handle<MPI_Datatype>(n)] = n;
      EXPECT_EQ(cache.size(mpi, fake_handle<MPI_Datatype>(n)), n);
    }
  }
}

TEST_F(TypeSizes, CachesDoNotAnswerForEachOther) {
  // Same handle, same number of changes: only generations unique across caches tell them apart.
  FakeMpi other_mpi;
  TypeSizeCache other;
  mpi.type_sizes[derived] = 12;
  other_mpi.type_sizes[derived] = 40;
  EXPECT_EQ(cache.size(mpi, derived), 12u);
  EXPECT_EQ(other.size(other_mpi, derived), 40u);
  EXPECT_EQ(cache.size(mpi, derived), 12u);
}

}  // namespace
}  // namespace collwrap::tracer
