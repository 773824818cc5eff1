// Bytes between the processes of the analyzer's MPI job, of any size: in pieces small enough
// for MPI's int counts. Only the main thread calls these (MpiJob).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace collwrap {

// This process's rank in the job, and the job's process count.
int this_process();
int process_count();

void send_bytes(const void* data, std::size_t bytes, int to);
// Whether bytes from process `from` have come and wait to be received.
bool bytes_waiting(int from);
std::vector<char> receive_bytes(int from);
// receive_bytes in two steps, for a receiver that sizes its own buffer: how many bytes come,
// then the bytes themselves.
std::size_t receive_size(int from);
void receive_pieces(void* data, std::size_t bytes, int from);

// send_bytes without waiting for the receiver to take them, for a receiver that may ask for
// them much later: the bytes are kept until wait(), which must come before the next bytes for
// the same process. Not waited for when destroyed, as when an error ends the job: then the
// bytes are left to the job's end rather than freed under a send.
class PendingSend {
 public:
  PendingSend() = default;
  PendingSend(const PendingSend&) = delete;
  PendingSend& operator=(const PendingSend&) = delete;
  ~PendingSend();
  void start(std::vector<char> bytes, int to);
  void wait();

 private:
  struct Sent {
    std::uint64_t size = 0;
    std::vector<char> bytes;
  };
  Sent* sent_ = nullptr;  // what MPI reads until the sends complete
  std::vector<MPI_Request> requests_;
};

// Process 0 gets every process's bytes, by process (its own moved in); the others get nothing.
std::vector<std::vector<char>> gather_bytes(std::vector<char> mine);

// The messages of one round of an exchange, all started before any is waited for: vectors
// sized by both ends beforehand, in pieces below MPI's int counts.
class ExchangeRound {
 public:
  template <class T>
  void send(std::span<const T> v, int to) {
    static_assert(std::is_trivially_copyable_v<T>);
    pieces(const_cast<T*>(v.data()), v.size() * sizeof(T), to, true);
  }
  template <class T>
  void receive(std::span<T> v, int from) {
    static_assert(std::is_trivially_copyable_v<T>);
    pieces(v.data(), v.size() * sizeof(T), from, false);
  }
  template <class T>
  void send(const std::vector<T>& v, int to) {
    send(std::span<const T>(v), to);
  }
  template <class T>
  void receive(std::vector<T>& v, int from) {
    receive(std::span<T>(v), from);
  }
  void wait();

 private:
  void pieces(void* data, std::size_t bytes, int peer, bool sending);

  std::vector<MPI_Request> requests_;
};

// Sends `mine` to process `to` while receiving what process `from` sends this way: the bytes
// of one round of an exchange in which every process sends and receives at once.
std::vector<char> swap_bytes(const std::vector<char>& mine, int to, int from);

// Every process gets process 0's bytes (the others' `bytes` are replaced).
void broadcast_bytes(std::vector<char>& bytes);

// Every process's `values` combined element by element by `op` (MPI_Allreduce), in place.
template <class T>
void allreduce(std::vector<T>& values, MPI_Datatype type, MPI_Op op) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), type, op,
                MPI_COMM_WORLD);
}

}  // namespace collwrap
