// When the analyzer joins an MPI job: only when a launcher started it with other processes.
#include "mpi_job.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
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
    EXPECT_EQ(launcher_place(fake_getenv).size > 1, c.joins)
        << c.environment.begin()->first << "=" << c.environment.begin()->second;
  }
}

// Each environment, and the place in the job it gives: the rank only when the launcher that
// gave the size gives one within it.
TEST(MpiJob, PlaceFromTheLaunchersEnvironment) {
  const struct {
    std::map<std::string, std::string> environment;
    unsigned size;
    std::optional<unsigned> rank;
  } cases[] = {
      {{{"PATH", "/usr/bin"}}, 1, std::nullopt},
      {{{"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_RANK", "3"}}, 4, 3},
      {{{"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_RANK", "0"}}, 4, 0},
      {{{"OMPI_COMM_WORLD_SIZE", "4"}}, 4, std::nullopt},  // MPI_Init must say the rank
      {{{"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_RANK", "4"}}, 4, std::nullopt},
      {{{"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_RANK", "-1"}}, 4, std::nullopt},
      {{{"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_RANK", "2x"}}, 4, std::nullopt},
      {{{"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_RANK", ""}}, 4, std::nullopt},
      {{{"PMI_SIZE", "3"}, {"PMI_RANK", "1"}}, 3, 1},
      // Another launcher's rank does not count.
      {{{"OMPI_COMM_WORLD_SIZE", "2"}, {"PMI_RANK", "1"}}, 2, std::nullopt},
      {{{"OMPI_COMM_WORLD_SIZE", "1"}, {"OMPI_COMM_WORLD_RANK", "0"}}, 1, 0},
  };
  for (const auto& c : cases) {
    environment = c.environment;
    const LauncherPlace place = launcher_place(fake_getenv);
    std::string said;
    for (const auto& [name, value] : c.environment) said += name + "=" + value + " ";
    EXPECT_EQ(place.size, c.size) << said;
    EXPECT_EQ(place.rank, c.rank) << said;
  }
}

}  // namespace
}  // namespace collwrap::testing
