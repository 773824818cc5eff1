#include "matrix_exchange.h"

#include <algorithm>
#include <vector>

namespace collwrap::bench {
namespace {

constexpr int kDataTag = 1;
constexpr int kAckTag = 2;
constexpr int kNoiseTag = 3;
constexpr int kWarmUp = -1;  // repeat index of the untimed first exchange

// Message buffers of one length; receives that are in flight together get their own slots.
struct Buffers {
  Buffers(std::size_t length, std::size_t receive_slots)
      : length(length),
        send(std::max<std::size_t>(length, 1)),
        receive(std::max<std::size_t>(length, 1) * std::max<std::size_t>(receive_slots, 1)) {}
  char* slot(std::size_t i) { return receive.data() + i * std::max<std::size_t>(length, 1); }
  int count() const { return int(length); }

  std::size_t length;
  std::vector<char> send;
  std::vector<char> receive;
};

// one_to_one, async_one_to_one and the noise modes' pair: the receiver times its receive; its
// acknowledgement releases the sender's next message, so repeats do not overlap.
void time_one_way(bool async, RankPair pair, int me, int repeats, Buffers& b, PeerSamples& samples,
                  MPI_Comm comm) {
  int ack = 0;
  for (int r = kWarmUp; r < repeats; ++r) {
    if (me == pair.sender) {
      if (async) {
        MPI_Request request;
        MPI_Isend(b.send.data(), b.count(), MPI_BYTE, pair.receiver, kDataTag, comm, &request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
      } else {
        MPI_Send(b.send.data(), b.count(), MPI_BYTE, pair.receiver, kDataTag, comm);
      }
      MPI_Recv(&ack, 1, MPI_INT, pair.receiver, kAckTag, comm, MPI_STATUS_IGNORE);
      continue;
    }
    const double start = MPI_Wtime();
    if (async) {
      MPI_Request request;
      MPI_Irecv(b.slot(0), b.count(), MPI_BYTE, pair.sender, kDataTag, comm, &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(b.slot(0), b.count(), MPI_BYTE, pair.sender, kDataTag, comm, MPI_STATUS_IGNORE);
    }
    const double elapsed = MPI_Wtime() - start;
    MPI_Send(&ack, 1, MPI_INT, pair.sender, kAckTag, comm);
    if (r != kWarmUp) samples.add(pair.sender, elapsed);
  }
}

// send_recv_and_recv_send: the sender sends and receives an equally long reply; half the round
// trip is the one-way delay.
void time_round_trip(RankPair pair, int me, int repeats, Buffers& b, PeerSamples& samples,
                     MPI_Comm comm) {
  for (int r = kWarmUp; r < repeats; ++r) {
    if (me == pair.sender) {
      const double start = MPI_Wtime();
      MPI_Send(b.send.data(), b.count(), MPI_BYTE, pair.receiver, kDataTag, comm);
      MPI_Recv(b.slot(0), b.count(), MPI_BYTE, pair.receiver, kDataTag, comm, MPI_STATUS_IGNORE);
      const double elapsed = MPI_Wtime() - start;
      if (r != kWarmUp) samples.add(pair.receiver, elapsed / 2);
    } else {
      MPI_Recv(b.slot(0), b.count(), MPI_BYTE, pair.sender, kDataTag, comm, MPI_STATUS_IGNORE);
      MPI_Send(b.send.data(), b.count(), MPI_BYTE, pair.sender, kDataTag, comm);
    }
  }
}

// A noise rank: `messages` rounds of MPI_Isend/MPI_Irecv with every other noise rank, untimed.
void make_noise(const std::vector<int>& noise, int me, int messages, Buffers& b, MPI_Comm comm) {
  std::vector<int> partners;
  for (int rank : noise)
    if (rank != me) partners.push_back(rank);
  std::vector<MPI_Request> requests(2 * partners.size());
  for (int m = 0; m < messages && !partners.empty(); ++m) {
    for (std::size_t i = 0; i < partners.size(); ++i) {
      MPI_Irecv(b.slot(i), b.count(), MPI_BYTE, partners[i], kNoiseTag, comm, &requests[2 * i]);
      MPI_Isend(b.send.data(), b.count(), MPI_BYTE, partners[i], kNoiseTag, comm,
                &requests[2 * i + 1]);
    }
    MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  }
}

// all_to_all: every rank posts all its receives and sends at once; each receive's time runs
// from the posting to MPI_Waitany reporting it. A barrier starts every repeat together.
void time_all_to_all(int me, int world_size, int repeats, Buffers& b, PeerSamples& samples,
                     MPI_Comm comm) {
  std::vector<MPI_Request> receives(std::size_t(world_size), MPI_REQUEST_NULL);
  std::vector<MPI_Request> sends(std::size_t(world_size), MPI_REQUEST_NULL);
  for (int r = kWarmUp; r < repeats; ++r) {
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    for (int peer = 0; peer < world_size; ++peer) {
      if (peer == me) continue;
      MPI_Irecv(b.slot(std::size_t(peer)), b.count(), MPI_BYTE, peer, kDataTag, comm,
                &receives[std::size_t(peer)]);
      MPI_Isend(b.send.data(), b.count(), MPI_BYTE, peer, kDataTag, comm,
                &sends[std::size_t(peer)]);
    }
    for (int done = 0; done < world_size - 1; ++done) {
      int peer = MPI_UNDEFINED;
      MPI_Waitany(world_size, receives.data(), &peer, MPI_STATUS_IGNORE);
      const double elapsed = MPI_Wtime() - start;
      if (r != kWarmUp && peer != MPI_UNDEFINED) samples.add(peer, elapsed);
    }
    MPI_Waitall(world_size, sends.data(), MPI_STATUSES_IGNORE);
  }
}

}  // namespace

PeerSamples measure_length(const MatrixOptions& options, std::size_t length, int noise_ranks,
                           NoiseRankChooser& chooser, MPI_Comm comm) {
  int me = 0, world_size = 0;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &world_size);
  PeerSamples samples(world_size);
  if (!measures_one_pair_at_a_time(options.mode)) {
    Buffers b(length, std::size_t(world_size));
    time_all_to_all(me, world_size, options.repeats, b, samples, comm);
    return samples;
  }
  Buffers pair_buffers(length, 1);
  Buffers noise_buffers(has_noise(options.mode) ? options.noise_length : 0,
                        has_noise(options.mode) ? std::size_t(noise_ranks) : 0);
  for (const RankPair pair : ordered_pairs(world_size)) {
    // Every rank draws, so that every rank's generator stays in step.
    const std::vector<int> noise = has_noise(options.mode)
                                       ? chooser.choose(world_size, pair, noise_ranks)
                                       : std::vector<int>{};
    MPI_Barrier(comm);  // one pair (and its noise) at a time
    if (me == pair.sender || me == pair.receiver) {
      if (options.mode == MatrixMode::SendRecvAndRecvSend)
        time_round_trip(pair, me, options.repeats, pair_buffers, samples, comm);
      else
        time_one_way(nonblocking(options.mode), pair, me, options.repeats, pair_buffers, samples,
                     comm);
    } else if (std::binary_search(noise.begin(), noise.end(), me)) {
      make_noise(noise, me, options.noise_messages, noise_buffers, comm);
    }
  }
  return samples;
}

}  // namespace collwrap::bench
