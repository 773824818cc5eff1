// What the check programs of a job measure of a process: its peak resident size and the time
// since a start.
#pragma once

#include <sys/resource.h>

#include <chrono>

namespace collwrap::testing {

// Peak resident size of this process, in MiB.
inline double peak_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace collwrap::testing
