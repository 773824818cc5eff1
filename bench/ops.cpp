// collwrap-bench ops (placeholder until the subcommand lands).
#include <cstdio>

#include "subcommands.h"

namespace collwrap::bench {

int run_ops(int, char**) {
  std::fprintf(stderr, "collwrap-bench: 'ops' is not available in this build\n");
  return 1;
}

}  // namespace collwrap::bench
