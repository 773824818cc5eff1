// collwrap-bench noise (placeholder until the subcommand lands).
#include <cstdio>

#include "subcommands.h"

namespace collwrap::bench {

int run_noise(int, char**) {
  std::fprintf(stderr, "collwrap-bench: 'noise' is not available in this build\n");
  return 1;
}

}  // namespace collwrap::bench
