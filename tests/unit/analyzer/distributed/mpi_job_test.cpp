// When the analyzer joins an MPI job: only when a launcher started it with other processes.
#include "mpi_job.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace collwrap::testing {
namespace {

std::map<std::string, std::string> environment;

const char* fake_getenv(const char* name) {
  const auto it = environment.find(name);
  return it == environment.end() ? nullptr : it->second.c_str();
}

TEST(MpiJob, AloneWithoutALauncher) {
  environment = {{"PATH", "/usr/bin"}};
  EXPECT_FALSE(launched_with_others(fake_getenv));
}

TEST(MpiJob, JoinsWhenOpenMpiStartedSeveral) {
  environment = {{"OMPI_COMM_WORLD_SIZE", "4"}};
  EXPECT_TRUE(launched_with_others(fake_getenv));
}

TEST(MpiJob, AloneInAJobOfOne) {
  environment = {{"OMPI_COMM_WORLD_SIZE", "1"}};
  EXPECT_FALSE(launched_with_others(fake_getenv));
}

TEST(MpiJob, JoinsWhenAPmiLauncherStartedSeveral) {
  environment = {{"PMI_SIZE", "2"}};
  EXPECT_TRUE(launched_with_others(fake_getenv));
  environment = {{"PMI_SIZE", "1"}};
  EXPECT_FALSE(launched_with_others(fake_getenv));
}

}  // namespace
}  // namespace collwrap::testing
