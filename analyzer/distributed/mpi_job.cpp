#include "mpi_job.h"

#include <mpi.h>

#include <cstdlib>

namespace collwrap {

std::unique_ptr<MpiJob> MpiJob::join_if_launched(int* argc, char*** argv) {
  if (!launched_with_others([](const char* name) -> const char* { return std::getenv(name); }))
    return nullptr;
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  // An error in any process ends the job with a message instead of leaving the others
  // waiting (the default already; said here because the analyzer relies on it).
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return std::unique_ptr<MpiJob>(
      new MpiJob(static_cast<unsigned>(rank), static_cast<unsigned>(size)));
}

MpiJob::~MpiJob() {
  MPI_Finalize();
}

}  // namespace collwrap
