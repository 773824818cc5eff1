#include "job_read.h"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <new>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include "share_transfer.h"

namespace collwrap {
namespace {

enum class Failure : int { None = 0, Usage, Read, Other };

// What one process's read ended with.
struct Outcome {
  Failure failure = Failure::None;
  std::string why;
};

Outcome read_share(const MpiJob& job, const std::string& path, const ReadOptions& options,
                   const ReadProgress& progress, LocationsRead& read) {
  try {
    read = read_locations(path, {options.threads, job.rank(), job.size()},
                          job.leads() ? progress : ReadProgress{});
    return {};
  } catch (const TraceUsageError& e) {
    return {Failure::Usage, e.what()};
  } catch (const TraceReadError& e) {
    return {Failure::Read, e.what()};
  } catch (const std::bad_alloc&) {
    return {Failure::Other,
            "out of memory while reading its share of the locations; start more processes, "
            "on more nodes, so that each holds fewer events"};
  } catch (const std::exception& e) {
    return {Failure::Other, e.what()};
  }
}

// The message of process `from`, to every process.
std::string broadcast_text(std::string text, unsigned from) {
  unsigned long long length = text.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, static_cast<int>(from), MPI_COMM_WORLD);
  text.resize(length);
  MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, static_cast<int>(from),
            MPI_COMM_WORLD);
  return text;
}

[[noreturn]] void throw_failure(Failure failure, const std::string& message) {
  switch (failure) {
    case Failure::Usage:
      throw TraceUsageError(message);
    case Failure::Read:
      throw TraceReadError(message);
    default:
      throw std::runtime_error(message);
  }
}

}  // namespace

LocationsRead read_share_in_job(const MpiJob& job, const std::string& path,
                                const ReadOptions& options, const ReadProgress& progress) {
  LocationsRead read;
  Outcome outcome;
  // The share is read while MPI_Init waits for the other processes: Open MPI 4.1's took
  // 0.24 s on a node, 0.03 s of it on the CPU, which the analysis then waited out.
  const auto read_it = [&] { outcome = read_share(job, path, options, progress, read); };
  std::thread reading;
  try {
    reading = std::thread(read_it);
  } catch (const std::system_error&) {  // no thread to be had: one step after the other
  }
  job.join();
  if (reading.joinable())
    reading.join();
  else
    read_it();

  // Every process learns whether any failed before any waits for another's events.
  std::vector<int> failures(job.size());
  const int failure = static_cast<int>(outcome.failure);
  MPI_Allgather(&failure, 1, MPI_INT, failures.data(), 1, MPI_INT, MPI_COMM_WORLD);
  const auto failed = std::find_if(failures.begin(), failures.end(), [](int f) { return f != 0; });
  if (failed != failures.end()) {
    const auto process = static_cast<unsigned>(failed - failures.begin());
    const std::string why = broadcast_text(outcome.why, process);
    throw_failure(static_cast<Failure>(*failed), "process " + std::to_string(process) + " of " +
                                                     std::to_string(job.size()) + ": " + why);
  }
  return read;
}

void end_job_after(const MpiJob& job, const std::string& doing, const std::exception& e) {
  job.join();  // MPI_Abort needs MPI
  // The other processes are sending or receiving: only ending the job frees them.
  std::cerr << "analyzer: process " << job.rank() << " of " << job.size() << ": cannot " << doing
            << " (" << (dynamic_cast<const std::bad_alloc*>(&e) ? "out of memory" : e.what())
            << "); start more processes, on more nodes\n";
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();  // MPI_Abort does not return
}

std::optional<Trace> read_trace_in_job(const MpiJob& job, const std::string& path,
                                       const ReadOptions& options, const ReadProgress& progress) {
  LocationsRead read = read_share_in_job(job, path, options, progress);
  try {
    if (!job.leads()) {
      send_share(read, read.shares.at(job.rank()), 0);
      return std::nullopt;
    }
    for (unsigned p = 1; p < job.size(); ++p)
      receive_share(read, read.shares.at(p), static_cast<int>(p));
  } catch (const std::exception& e) {
    end_job_after(job, "move the trace's locations between processes", e);
  }
  return finish_trace(std::move(read), options.threads);
}

}  // namespace collwrap
