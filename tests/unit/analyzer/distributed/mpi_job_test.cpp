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

// Each environment, and whether the process joins a job in it.
TEST(MpiJob, JoinsOnlyWhenALauncherStartedSeveral) {
  const struct {
    std::map<std::string, std::string> environment;
    bool joins;
  } cases[] = {
      {{{"PATH", "/usr/bin"}}, false},           // no launcher
      {{{"OMPI_COMM_WORLD_SIZE", "4"}}, true},   // Open MPI started several
      {{{"OMPI_COMM_WORLD_SIZE", "1"}}, false},  // a job of one
      {{{"PMI_SIZE", "2"}}, true},               // a PMI launcher (Hydra, Slurm) started several
      {{{"PMI_SIZE", "1"}}, false},
  };
  for (const auto& c : cases) {
    environment = c.environment;
    EXPECT_EQ(launched_with_others(fake_getenv), c.joins)
        << c.environment.begin()->first << "=" << c.environment.begin()->second;
  }
}

}  // namespace
}  // namespace collwrap::testing
