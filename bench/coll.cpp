// collwrap-bench coll (placeholder until the subcommand lands).
#include <cstdio>

#include "subcommands.h"

namespace collwrap::bench {

int run_coll(int, char**) {
  std::fprintf(stderr, "collwrap-bench: 'coll' is not available in this build\n");
  return 1;
}

}  // namespace collwrap::bench
