#include "mpi_job.h"

#include <mpi.h>

#include <cstdlib>
#include <iostream>
#include <utility>

namespace collwrap {
namespace {

const char* environment(const char* name) {
  return std::getenv(name);
}

// MPI_Init_thread, and this process's rank and size in MPI_COMM_WORLD.
std::pair<unsigned, unsigned> init_mpi() {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  // An error in any process ends the job with a message instead of leaving the others
  // waiting (the default already; said here because the analyzer relies on it).
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return {static_cast<unsigned>(rank), static_cast<unsigned>(size)};
}

}  // namespace

std::unique_ptr<MpiJob> MpiJob::of_launcher() {
  const LauncherPlace place = launcher_place(environment);
  if (place.size <= 1) return nullptr;
  if (place.rank) return std::unique_ptr<MpiJob>(new MpiJob(*place.rank, place.size));
  const auto [rank, size] = init_mpi();
  std::unique_ptr<MpiJob> job(new MpiJob(rank, size));
  job->joined_ = true;
  return job;
}

std::unique_ptr<MpiJob> MpiJob::join_if_launched() {
  std::unique_ptr<MpiJob> job = of_launcher();
  if (job) job->join();
  return job;
}

void MpiJob::join() const {
  if (joined_) return;
  joined_ = true;
  const auto [rank, size] = init_mpi();
  if (rank == rank_ && size == size_) return;
  std::cerr << "analyzer: the launcher's environment made this process " << rank_ << " of " << size_
            << ", MPI makes it " << rank << " of " << size
            << "; start the analyzer with the launcher of the MPI it was built with\n";
  MPI_Abort(MPI_COMM_WORLD, 1);
}

MpiJob::~MpiJob() {
  join();
  MPI_Finalize();
}

}  // namespace collwrap
