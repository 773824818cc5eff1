#include "share_transfer.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace collwrap {
namespace {

constexpr int kTag = 7301;
constexpr std::size_t kPiece = std::size_t{1} << 30;  // bytes per MPI_Send: fits an int count

void send_bytes(const void* data, std::size_t bytes, int to) {
  std::uint64_t size = bytes;
  MPI_Send(&size, 1, MPI_UINT64_T, to, kTag, MPI_COMM_WORLD);
  const auto* p = static_cast<const char*>(data);
  for (std::size_t done = 0; done < bytes; done += kPiece)
    MPI_Send(p + done, static_cast<int>(std::min(kPiece, bytes - done)), MPI_BYTE, to, kTag,
             MPI_COMM_WORLD);
}

template <class T>
void send_vector(const std::vector<T>& v, int to) {
  static_assert(std::is_trivially_copyable_v<T>);
  send_bytes(v.data(), v.size() * sizeof(T), to);
}

template <class T>
void receive_vector(std::vector<T>& v, int from) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::uint64_t bytes = 0;
  MPI_Recv(&bytes, 1, MPI_UINT64_T, from, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  v.resize(bytes / sizeof(T));
  auto* p = reinterpret_cast<char*>(v.data());
  for (std::size_t done = 0; done < bytes; done += kPiece)
    MPI_Recv(p + done, static_cast<int>(std::min<std::size_t>(kPiece, bytes - done)), MPI_BYTE,
             from, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

// Strings as one buffer of (length, characters) entries.
void send_strings(const std::vector<std::string>& strings, int to) {
  std::vector<char> buffer;
  for (const std::string& s : strings) {
    const std::uint64_t length = s.size();
    buffer.insert(buffer.end(), reinterpret_cast<const char*>(&length),
                  reinterpret_cast<const char*>(&length) + sizeof length);
    buffer.insert(buffer.end(), s.begin(), s.end());
  }
  send_vector(buffer, to);
}

void receive_strings(std::vector<std::string>& strings, int from) {
  std::vector<char> buffer;
  receive_vector(buffer, from);
  for (std::size_t at = 0; at + sizeof(std::uint64_t) <= buffer.size();) {
    std::uint64_t length = 0;
    std::memcpy(&length, buffer.data() + at, sizeof length);
    at += sizeof length;
    strings.emplace_back(buffer.data() + at, length);
    at += length;
  }
}

// The report's numbers, as one trivially copyable record.
struct ReportCounts {
  std::uint64_t events, unclosed_calls, orphan_ops;
  double max_offset_stddev;
  std::uint32_t clock_offsets;
  std::uint8_t missing;
};

}  // namespace

void send_share(const LocationsRead& read, const LocationRange& share, int to) {
  for (std::size_t i = share.first; i < share.end; ++i) {
    const Location& l = read.trace.locations[i];
    const auto send = [to](const auto& column) { send_vector(column, to); };
    for_each_call_column(l, send);
    for_each_op_column(l, send);
    send_vector(l.pcontrol, to);
    const LocationReport& r = read.reports[i];
    const std::vector<ReportCounts> counts{{r.events, r.unclosed_calls, r.orphan_ops,
                                            r.max_offset_stddev, r.clock_offsets,
                                            static_cast<std::uint8_t>(r.missing)}};
    send_vector(counts, to);
    send_strings(r.messages, to);
  }
  send_strings(read.trace.warnings.messages, to);
}

void receive_share(LocationsRead& read, const LocationRange& share, int from) {
  for (std::size_t i = share.first; i < share.end; ++i) {
    Location& l = read.trace.locations[i];
    const auto receive = [from](auto& column) { receive_vector(column, from); };
    for_each_call_column(l, receive);
    for_each_op_column(l, receive);
    receive_vector(l.pcontrol, from);
    std::vector<ReportCounts> counts;
    receive_vector(counts, from);
    LocationReport& r = read.reports[i];
    const ReportCounts& c = counts.at(0);
    r.events = c.events;
    r.unclosed_calls = c.unclosed_calls;
    r.orphan_ops = c.orphan_ops;
    r.max_offset_stddev = c.max_offset_stddev;
    r.clock_offsets = c.clock_offsets;
    r.missing = c.missing != 0;
    receive_strings(r.messages, from);
  }
  receive_strings(read.trace.warnings.messages, from);
}

}  // namespace collwrap
