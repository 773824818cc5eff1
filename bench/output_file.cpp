#include "output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace collwrap::bench {

bool write_output_file(const char* subcommand, const std::string& path,
                       const std::string& content) {
  if (path == "-") {
    std::fwrite(content.data(), 1, content.size(), stdout);
    return true;
  }
  FILE* out = std::fopen(path.c_str(), "w");
  bool ok = out && std::fwrite(content.data(), 1, content.size(), out) == content.size();
  const int error = errno;
  if (out && std::fclose(out) != 0) ok = false;
  if (!ok)
    std::fprintf(stderr, "collwrap-bench %s: cannot write %s: %s; choose a writable path\n",
                 subcommand, path.c_str(), std::strerror(error ? error : errno));
  return ok;
}

}  // namespace collwrap::bench
