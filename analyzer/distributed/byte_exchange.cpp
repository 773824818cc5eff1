#include "byte_exchange.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>

namespace collwrap {
namespace {

constexpr int kTag = 7301;
constexpr std::size_t kPiece = std::size_t{1} << 30;  // bytes per message: fits an int count

}  // namespace

int process_count() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

int this_process() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

void send_bytes(const void* data, std::size_t bytes, int to) {
  const std::uint64_t size = bytes;
  MPI_Send(&size, 1, MPI_UINT64_T, to, kTag, MPI_COMM_WORLD);
  const auto* p = static_cast<const char*>(data);
  for (std::size_t done = 0; done < bytes; done += kPiece)
    MPI_Send(p + done, static_cast<int>(std::min(kPiece, bytes - done)), MPI_BYTE, to, kTag,
             MPI_COMM_WORLD);
}

std::size_t receive_size(int from) {
  std::uint64_t size = 0;
  MPI_Recv(&size, 1, MPI_UINT64_T, from, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return size;
}

void receive_pieces(void* data, std::size_t bytes, int from) {
  auto* p = static_cast<char*>(data);
  for (std::size_t done = 0; done < bytes; done += kPiece)
    MPI_Recv(p + done, static_cast<int>(std::min(kPiece, bytes - done)), MPI_BYTE, from, kTag,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

bool bytes_waiting(int from) {
  int waiting = 0;
  MPI_Iprobe(from, kTag, MPI_COMM_WORLD, &waiting, MPI_STATUS_IGNORE);
  return waiting != 0;
}

std::vector<char> receive_bytes(int from) {
  std::vector<char> bytes(receive_size(from));
  receive_pieces(bytes.data(), bytes.size(), from);
  return bytes;
}

void PendingSend::start(std::vector<char> bytes, int to) {
  wait();
  sent_ = new Sent{bytes.size(), std::move(bytes)};
  requests_.emplace_back();
  MPI_Isend(&sent_->size, 1, MPI_UINT64_T, to, kTag, MPI_COMM_WORLD, &requests_.back());
  const std::vector<char>& b = sent_->bytes;
  for (std::size_t done = 0; done < b.size(); done += kPiece) {
    requests_.emplace_back();
    MPI_Isend(b.data() + done, static_cast<int>(std::min(kPiece, b.size() - done)), MPI_BYTE, to,
              kTag, MPI_COMM_WORLD, &requests_.back());
  }
}

void PendingSend::wait() {
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  requests_.clear();
  delete sent_;
  sent_ = nullptr;
}

PendingSend::~PendingSend() {
  if (requests_.empty()) delete sent_;
}

std::vector<std::vector<char>> gather_bytes(std::vector<char> mine) {
  const int processes = process_count(), self = this_process();
  if (self != 0) {
    send_bytes(mine.data(), mine.size(), 0);
    return {};
  }
  std::vector<std::vector<char>> all(processes);
  all[0] = std::move(mine);
  for (int p = 1; p < processes; ++p) all[p] = receive_bytes(p);
  return all;
}

void ExchangeRound::pieces(void* data, std::size_t bytes, int peer, bool sending) {
  auto* p = static_cast<char*>(data);
  for (std::size_t done = 0; done < bytes; done += kPiece) {
    const int n = static_cast<int>(std::min(kPiece, bytes - done));
    MPI_Request& r = requests_.emplace_back();
    if (sending)
      MPI_Isend(p + done, n, MPI_BYTE, peer, kTag, MPI_COMM_WORLD, &r);
    else
      MPI_Irecv(p + done, n, MPI_BYTE, peer, kTag, MPI_COMM_WORLD, &r);
  }
}

void ExchangeRound::wait() {
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  requests_.clear();
}

std::vector<char> swap_bytes(const std::vector<char>& mine, int to, int from) {
  std::uint64_t size = mine.size(), incoming = 0;
  MPI_Sendrecv(&size, 1, MPI_UINT64_T, to, kTag, &incoming, 1, MPI_UINT64_T, from, kTag,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  std::vector<char> theirs(incoming);
  ExchangeRound round;
  round.receive(theirs, from);
  round.send(mine, to);
  round.wait();
  return theirs;
}

void broadcast_bytes(std::vector<char>& bytes) {
  std::uint64_t size = bytes.size();
  MPI_Bcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  bytes.resize(size);
  for (std::size_t done = 0; done < size; done += kPiece)
    MPI_Bcast(bytes.data() + done, static_cast<int>(std::min<std::size_t>(kPiece, size - done)),
              MPI_BYTE, 0, MPI_COMM_WORLD);
}

}  // namespace collwrap
