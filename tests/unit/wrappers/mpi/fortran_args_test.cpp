// The Fortran wrappers' argument views (wrappers/mpi/fortran_args.h) that need no MPI runtime:
// strings, indices, buffers, handle arrays, the nesting flag. The conversions that call MPI
// (statuses) are tested in pmpi_queries_test.cpp, which initializes MPI.
#include "mpi/fortran_args.h"

#include <gtest/gtest.h>

namespace collwrap::tracer {
namespace {

TEST(FortranArgs, StringsLoseTheirBlankPadding) {
  const char padded[] = "halo exchange      ";
  EXPECT_EQ(fortran_string(padded, sizeof padded - 1), "halo exchange");
  EXPECT_EQ(fortran_string("   ", 3), "");
  EXPECT_EQ(fortran_string("  a", 3), "  a");    // leading blanks are part of the name
  EXPECT_EQ(fortran_string("ab\0cd", 5), "ab");  // a C string passed where Fortran's goes
  EXPECT_EQ(fortran_string(nullptr, 4), "");
}

TEST(FortranArgs, IndicesBecomeZeroBased) {
  EXPECT_EQ(c_index(1), 0);
  EXPECT_EQ(c_index(7), 6);
  EXPECT_EQ(c_index(MPI_UNDEFINED), MPI_UNDEFINED);
  const MPI_Fint fortran[4] = {3, 1, 4, 99};
  FortranIndices indices(fortran, 4);
  indices.refresh(3);  // only outcount entries are meaningful
  ASSERT_NE(indices.get(), nullptr);
  EXPECT_EQ(indices.get()[0], 2);
  EXPECT_EQ(indices.get()[1], 0);
  EXPECT_EQ(indices.get()[2], 3);
}

TEST(FortranArgs, IntegersAreReadThroughThePointer) {
  const MPI_Fint value = -42;
  EXPECT_EQ(fortran_int(&value), -42);
}

TEST(FortranArgs, OrdinaryBuffersAreNotSentinels) {
  int data[2] = {};
  EXPECT_EQ(c_buffer(data), data);
  EXPECT_EQ(c_buffer(nullptr), nullptr);
  EXPECT_FALSE(is_fortran_in_place(data));
  EXPECT_FALSE(is_fortran_status_ignore(data));
  EXPECT_FALSE(is_fortran_statuses_ignore(nullptr));
}

TEST(FortranArgs, EmptyHandleArraysGiveNoPointer) {
  FortranRequests none(nullptr, 3);
  EXPECT_EQ(none.get(), nullptr);
  const MPI_Fint handles[1] = {0};
  FortranRequests zero(handles, 0);
  EXPECT_EQ(zero.get(), nullptr);
}

TEST(FortranArgs, NestingFlagLastsForTheScope) {
  EXPECT_FALSE(inside_fortran_call());
  {
    FortranCallScope scope;
    EXPECT_TRUE(inside_fortran_call());
  }
  EXPECT_FALSE(inside_fortran_call());
}

TEST(FortranArgs, MissingEntryPointsResolveToNothing) {
  const char* const names[] = {"collwrap_no_such_entry_", "collwrap_no_such_entry", nullptr};
  EXPECT_EQ(resolve_fortran_entry(names), nullptr);
}

}  // namespace
}  // namespace collwrap::tracer
