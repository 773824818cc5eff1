#include "mpi/mpi_process_group.h"

// OTF2's MPI collectives header is header-only; with OTF2_MPI_USE_PMPI it calls PMPI_* so the
// tracer never records its own communication.
#define OTF2_MPI_USE_PMPI
#include <otf2/OTF2_MPI_Collectives.h>

namespace collwrap::tracer {
namespace {

constexpr int kWordsTag = 0x636c;  // on the private communicator

}  // namespace

MpiProcessGroup::MpiProcessGroup(MPI_Comm comm) {
  PMPI_Comm_dup(comm, &comm_);
  PMPI_Comm_rank(comm_, &rank_);
  PMPI_Comm_size(comm_, &size_);
}

MpiProcessGroup::~MpiProcessGroup() {
  if (comm_ != MPI_COMM_NULL) PMPI_Comm_free(&comm_);
}

void MpiProcessGroup::barrier() {
  PMPI_Barrier(comm_);
}

bool MpiProcessGroup::all(bool mine) {
  int local = mine ? 1 : 0, every = 0;
  PMPI_Allreduce(&local, &every, 1, MPI_INT, MPI_MIN, comm_);
  return every == 1;
}

void MpiProcessGroup::broadcast(std::vector<std::uint8_t>& bytes) {
  std::uint64_t size = bytes.size();
  PMPI_Bcast(&size, 1, MPI_UINT64_T, 0, comm_);
  bytes.resize(size);
  PMPI_Bcast(bytes.data(), int(size), MPI_BYTE, 0, comm_);
}

std::vector<std::vector<std::uint8_t>> MpiProcessGroup::gather(std::span<const std::uint8_t> mine) {
  int size = int(mine.size());
  std::vector<int> sizes(rank_ == 0 ? size_ : 0), displacements(sizes.size());
  PMPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, comm_);
  std::vector<std::uint8_t> all;
  if (rank_ == 0) {
    int total = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      displacements[i] = total;
      total += sizes[i];
    }
    all.resize(std::size_t(total));
  }
  PMPI_Gatherv(mine.data(), size, MPI_BYTE, all.data(), sizes.data(), displacements.data(),
               MPI_BYTE, 0, comm_);
  std::vector<std::vector<std::uint8_t>> parts;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    auto first = all.begin() + displacements[i];
    parts.emplace_back(first, first + sizes[i]);
  }
  return parts;
}

std::vector<std::uint8_t> MpiProcessGroup::scatter(
    const std::vector<std::vector<std::uint8_t>>& parts) {
  std::vector<int> sizes, displacements;
  std::vector<std::uint8_t> all;
  if (rank_ == 0) {
    for (const auto& part : parts) {
      sizes.push_back(int(part.size()));
      displacements.push_back(int(all.size()));
      all.insert(all.end(), part.begin(), part.end());
    }
    sizes.resize(std::size_t(size_));  // a missing part is empty
    displacements.resize(std::size_t(size_), int(all.size()));
  }
  int size = 0;
  PMPI_Scatter(sizes.data(), 1, MPI_INT, &size, 1, MPI_INT, 0, comm_);
  std::vector<std::uint8_t> mine(static_cast<std::size_t>(size));
  PMPI_Scatterv(all.data(), sizes.data(), displacements.data(), MPI_BYTE, mine.data(), size,
                MPI_BYTE, 0, comm_);
  return mine;
}

void MpiProcessGroup::send_words(int peer, std::span<const std::int64_t> words) {
  PMPI_Send(words.data(), int(words.size()), MPI_INT64_T, peer, kWordsTag, comm_);
}

void MpiProcessGroup::receive_words(int peer, std::span<std::int64_t> words) {
  PMPI_Recv(words.data(), int(words.size()), MPI_INT64_T, peer, kWordsTag, comm_,
            MPI_STATUS_IGNORE);
}

OTF2_ErrorCode MpiProcessGroup::attach_to_archive(OTF2_Archive* archive) {
  return OTF2_MPI_Archive_SetCollectiveCallbacks(archive, comm_, MPI_COMM_NULL);
}

}  // namespace collwrap::tracer
