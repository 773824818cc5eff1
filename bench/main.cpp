// collwrap-bench SUBCOMMAND [options]: platform measurement programs that tell whether a wait
// is the program's fault or the machine's. Run under mpirun; `collwrap-bench SUBCOMMAND --help`
// describes each.
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <string_view>

#include "subcommands.h"

namespace {

struct Subcommand {
  const char* name;
  int (*run)(int, char**);
  const char* summary;
};

constexpr Subcommand kSubcommands[] = {
    {"coll", collwrap::bench::run_coll,
     "time every MPI collective with synchronized starts (MPIPerf)"},
    {"timer", collwrap::bench::run_timer,
     "check timer and clock offsets: WaitPatternNull / WaitPatternUp"},
    {"ops", collwrap::bench::run_ops, "basic-operations timing table (MPITEST)"},
    {"matrix", collwrap::bench::run_matrix,
     "pairwise latency/bandwidth matrices and heatmaps (network_test)"},
    {"noise", collwrap::bench::run_noise,
     "collect OS noise, analyze it and predict efficiency (NoM)"},
};

void usage(FILE* out) {
  std::fprintf(out,
               "usage: mpirun -np N collwrap-bench SUBCOMMAND [options]\n"
               "       collwrap-bench SUBCOMMAND --help\nsubcommands:\n");
  for (const Subcommand& s : kSubcommands) std::fprintf(out, "  %-8s %s\n", s.name, s.summary);
}

const Subcommand* find(std::string_view name) {
  for (const Subcommand& s : kSubcommands)
    if (name == s.name) return &s;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  // Usage errors are found before MPI_Init, so that `collwrap-bench` without mpirun still helps.
  if (argc < 2 || std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const Subcommand* subcommand = find(argv[1]);
  if (!subcommand) {
    std::fprintf(stderr, "collwrap-bench: unknown subcommand '%s'; choose one of:\n", argv[1]);
    usage(stderr);
    return 2;
  }
  MPI_Init(&argc, &argv);
  const int status = subcommand->run(argc - 1, argv + 1);
  MPI_Finalize();
  return status;
}
