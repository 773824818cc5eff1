// collwrap-bench matrix (placeholder until the subcommand lands).
#include <cstdio>

#include "subcommands.h"

namespace collwrap::bench {

int run_matrix(int, char**) {
  std::fprintf(stderr, "collwrap-bench: 'matrix' is not available in this build\n");
  return 1;
}

}  // namespace collwrap::bench
