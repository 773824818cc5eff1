// collwrap-bench timer (placeholder until the subcommand lands).
#include <cstdio>

#include "subcommands.h"

namespace collwrap::bench {

int run_timer(int, char**) {
  std::fprintf(stderr, "collwrap-bench: 'timer' is not available in this build\n");
  return 1;
}

}  // namespace collwrap::bench
