// The analyzer started as K processes of one MPI job (`mpirun -np K analyzer TRACE …`).
//
// The same binary runs alone or under mpirun: it joins MPI only when a launcher started it
// with other processes, so that running it alone needs no MPI runtime at all. Only the main
// thread calls MPI (MPI_THREAD_FUNNELED); the analysis's own threads never do.
//
// A process knows its place in the job from the launcher's environment before it joins MPI,
// so that it can read its share of the trace while MPI_Init waits for the others (join()).
#pragma once

#include <cstdlib>
#include <memory>
#include <optional>

namespace collwrap {

class MpiJob {
 public:
  // This process's place in the job when an MPI launcher started it with others; null when it
  // runs alone (no launcher, or a job of one process). MPI is joined by join(), at once only
  // where the environment does not say the process's rank.
  static std::unique_ptr<MpiJob> of_launcher();
  // of_launcher(), then join(): for programs that call MPI from the start.
  static std::unique_ptr<MpiJob> join_if_launched();
  ~MpiJob();  // join() if not yet, as the launcher expects of every process; MPI_Finalize

  MpiJob(const MpiJob&) = delete;
  MpiJob& operator=(const MpiJob&) = delete;

  // MPI_Init_thread, once, on the calling thread, which must be the main thread. Ends the job
  // with a message when MPI gives this process another rank or size than the environment did.
  void join() const;

  unsigned rank() const { return rank_; }
  unsigned size() const { return size_; }
  bool leads() const { return rank_ == 0; }  // process 0 gathers, reports and speaks

 private:
  MpiJob(unsigned rank, unsigned size) : rank_(rank), size_(size) {}
  unsigned rank_, size_;
  mutable bool joined_ = false;
};

// What the environment says of this process's place in a job: Open MPI's
// OMPI_COMM_WORLD_SIZE and OMPI_COMM_WORLD_RANK, or the PMI_SIZE and PMI_RANK of MPICH's Hydra
// and Slurm's PMI. A size of 1 when no launcher started it; no rank when the launcher does not
// say it (or says one outside the job). `getenv` reads the environment (std::getenv; a table
// in tests).
struct LauncherPlace {
  unsigned size = 1;
  std::optional<unsigned> rank;
};
inline LauncherPlace launcher_place(const char* (*getenv)(const char*)) {
  constexpr struct {
    const char* size;
    const char* rank;
  } kLaunchers[] = {{"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"}, {"PMI_SIZE", "PMI_RANK"}};
  for (const auto& variables : kLaunchers) {
    const char* size = getenv(variables.size);
    if (!size) continue;
    LauncherPlace place;
    const long n = std::strtol(size, nullptr, 10);
    if (n > 1) place.size = static_cast<unsigned>(n);
    char* end = nullptr;
    const char* rank = getenv(variables.rank);
    const long r = rank ? std::strtol(rank, &end, 10) : -1;
    if (rank && *rank != '\0' && *end == '\0' && r >= 0 && r < n)
      place.rank = static_cast<unsigned>(r);
    return place;
  }
  return {};
}

}  // namespace collwrap
