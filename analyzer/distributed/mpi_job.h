// The analyzer started as K processes of one MPI job (`mpirun -np K analyzer TRACE …`).
//
// The same binary runs alone or under mpirun: it joins MPI only when a launcher started it
// with other processes, so that running it alone needs no MPI runtime at all. Only the main
// thread calls MPI (MPI_THREAD_FUNNELED); the analysis's own threads never do.
#pragma once

#include <cstdlib>
#include <memory>

namespace collwrap {

class MpiJob {
 public:
  // Joins the job (MPI_Init_thread) when an MPI launcher started this process with others;
  // null when it runs alone (no launcher, or a job of one process).
  static std::unique_ptr<MpiJob> join_if_launched(int* argc, char*** argv);
  ~MpiJob();  // MPI_Finalize
  MpiJob(const MpiJob&) = delete;
  MpiJob& operator=(const MpiJob&) = delete;

  unsigned rank() const { return rank_; }
  unsigned size() const { return size_; }
  bool leads() const { return rank_ == 0; }  // process 0 gathers, reports and speaks

 private:
  MpiJob(unsigned rank, unsigned size) : rank_(rank), size_(size) {}
  unsigned rank_, size_;
};

// Whether the environment says an MPI launcher started this process as one of several:
// Open MPI's OMPI_COMM_WORLD_SIZE, or the PMI_SIZE of MPICH's Hydra and Slurm's PMI.
// `getenv` reads the environment (std::getenv; a table in tests).
inline bool launched_with_others(const char* (*getenv)(const char*)) {
  for (const char* size_variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* value = getenv(size_variable)) return std::strtol(value, nullptr, 10) > 1;
  return false;
}

}  // namespace collwrap
