// collwrap-recover DIR: completes a trace whose ranks ended without MPI_Finalize.
#include <cstdio>
#include <cstring>
#include <string>

#include "record/archive_recovery.h"

int main(int argc, char** argv) {
  if (argc != 2 || std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0) {
    std::fprintf(argc == 2 ? stdout : stderr,
                 "usage: collwrap-recover TRACE_DIR\n"
                 "Completes a collwrap trace left by a program that called MPI_Abort or exited\n"
                 "without MPI_Finalize, using the collwrap-rank-*.sidecar files in TRACE_DIR.\n");
    return argc == 2 ? 0 : 2;
  }
  collwrap::tracer::RecoveryReport report = collwrap::tracer::recover_archive(argv[1]);
  for (const std::string& warning : report.warnings) {
    std::fprintf(stderr, "collwrap-recover: warning: %s\n", warning.c_str());
  }
  if (!report.ok) {
    std::fprintf(stderr, "collwrap-recover: %s\n", report.problem.c_str());
    return 1;
  }
  std::string missing;
  for (std::uint32_t rank = 0, i = 0; rank < report.world_size; ++rank) {
    if (i < report.ranks.size() && report.ranks[i] == rank) {
      ++i;
    } else {
      if (!missing.empty()) missing += ',';
      missing += std::to_string(rank);
    }
  }
  std::printf("collwrap-recover: wrote %s/traces.otf2 with %zu of %u ranks%s%s\n", argv[1],
              report.ranks.size(), report.world_size,
              missing.empty() ? "" : "; no data from ranks ", missing.c_str());
  return 0;
}
