#include "share_transfer.h"

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "byte_exchange.h"
#include "byte_stream.h"
#include "held_result.h"

namespace collwrap {
namespace {

template <class T>
void send_vector(const std::vector<T>& v, int to) {
  static_assert(std::is_trivially_copyable_v<T>);
  send_bytes(v.data(), v.size() * sizeof(T), to);
}

template <class T>
void receive_vector(std::vector<T>& v, int from) {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::size_t bytes = receive_size(from);
  v.resize(bytes / sizeof(T));
  receive_pieces(v.data(), bytes, from);
}

void send_strings(const std::vector<std::string>& strings, int to) {
  std::vector<char> buffer;
  ByteWriter out(buffer);
  for (const std::string& s : strings) out.put_string(s);
  send_vector(buffer, to);
}

void receive_strings(std::vector<std::string>& strings, int from) {
  const std::vector<char> buffer = receive_bytes(from);
  ByteReader in(buffer, "the messages about the archive");
  while (!in.done()) in.get_string(strings.emplace_back());
}

}  // namespace

void send_share(const LocationsRead& read, const LocationRange& share, int to) {
  for (std::size_t i = share.first; i < share.end; ++i) {
    const Location& l = read.trace.locations[i];
    const auto send = [to](const auto& column) { send_vector(column, to); };
    for_each_call_column(l, send);
    for_each_op_column(l, send);
    send_vector(l.pcontrol, to);
    send_vector(location_report_bytes(read.reports[i]), to);
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
    read.reports[i] = read_location_report(receive_bytes(from));
  }
  receive_strings(read.trace.warnings.messages, from);
}

}  // namespace collwrap
