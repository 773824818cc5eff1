#include "record/group_collectives.h"

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "record/byte_stream.h"

namespace collwrap::tracer {
namespace {

using Bytes = std::vector<std::uint8_t>;

std::size_t type_size(OTF2_Type type) {
  switch (type) {
    case OTF2_TYPE_UINT8:
    case OTF2_TYPE_INT8:
      return 1;
    case OTF2_TYPE_UINT16:
    case OTF2_TYPE_INT16:
      return 2;
    case OTF2_TYPE_UINT32:
    case OTF2_TYPE_INT32:
    case OTF2_TYPE_FLOAT:
      return 4;
    default:
      return 8;
  }
}

ProcessGroup& group_of(void* user_data) {
  return *static_cast<ProcessGroup*>(user_data);
}

Bytes bytes_of(const void* data, std::size_t size) {
  const auto* first = static_cast<const std::uint8_t*>(data);
  return size == 0 ? Bytes{} : Bytes(first, first + size);
}

// `root`'s bytes on every process.
Bytes from_root(ProcessGroup& g, int root, Bytes mine) {
  if (root != 0) {
    auto parts = g.gather(g.rank() == root ? mine : Bytes{});
    mine = g.rank() == 0 ? std::move(parts[std::size_t(root)]) : Bytes{};
  }
  g.broadcast(mine);
  return mine;
}

void put_blob(ByteWriter& out, const Bytes& blob) {
  out.str(std::string_view(reinterpret_cast<const char*>(blob.data()), blob.size()));
}

std::vector<Bytes> get_blobs(const Bytes& packed, int count) {
  ByteReader in(packed);
  std::vector<Bytes> blobs;
  for (int i = 0; i < count; ++i) {
    std::string s = in.str();
    blobs.emplace_back(s.begin(), s.end());
  }
  return blobs;
}

// Every process's bytes, by rank, on `root` (empty elsewhere).
std::vector<Bytes> gather_at(ProcessGroup& g, int root, const Bytes& mine) {
  auto parts = g.gather(mine);
  if (root == 0) return parts;
  ByteWriter out;
  for (const Bytes& part : parts) put_blob(out, part);
  Bytes all = from_root(g, 0, out.take());
  if (g.rank() != root) return {};
  return get_blobs(all, g.size());
}

// Process i's part of `parts` (given on `root`).
Bytes scatter_from(ProcessGroup& g, int root, const std::vector<Bytes>& parts) {
  if (root == 0) return g.scatter(parts);
  ByteWriter out;
  if (g.rank() == root)
    for (const Bytes& part : parts) put_blob(out, part);
  auto gathered = g.gather(out.take());
  std::vector<Bytes> at_zero;
  if (g.rank() == 0) at_zero = get_blobs(gathered[std::size_t(root)], g.size());
  return g.scatter(at_zero);
}

void copy_out(const Bytes& bytes, void* out) {
  if (!bytes.empty()) std::memcpy(out, bytes.data(), bytes.size());
}

template <typename F>
OTF2_CallbackCode guarded(F&& f) {
  try {
    f();
    return OTF2_CALLBACK_SUCCESS;
  } catch (...) {
    return OTF2_CALLBACK_ERROR;
  }
}

OTF2_CallbackCode get_size(void* user_data, OTF2_CollectiveContext*, std::uint32_t* size) {
  *size = std::uint32_t(group_of(user_data).size());
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode get_rank(void* user_data, OTF2_CollectiveContext*, std::uint32_t* rank) {
  *rank = std::uint32_t(group_of(user_data).rank());
  return OTF2_CALLBACK_SUCCESS;
}

// Local communicators only serve the SIONlib substrate, which the tracer does not use.
OTF2_CallbackCode create_local_comm(void*, OTF2_CollectiveContext**, OTF2_CollectiveContext*,
                                    std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t,
                                    std::uint32_t, std::uint32_t) {
  return OTF2_CALLBACK_ERROR;
}

OTF2_CallbackCode free_local_comm(void*, OTF2_CollectiveContext*) {
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode barrier(void* user_data, OTF2_CollectiveContext*) {
  return guarded([&] { group_of(user_data).barrier(); });
}

OTF2_CallbackCode bcast(void* user_data, OTF2_CollectiveContext*, void* data, std::uint32_t n,
                        OTF2_Type type, std::uint32_t root) {
  return guarded([&] {
    ProcessGroup& g = group_of(user_data);
    const std::size_t size = n * type_size(type);
    Bytes mine = g.rank() == int(root) ? bytes_of(data, size) : Bytes{};
    Bytes all = from_root(g, int(root), std::move(mine));
    if (all.size() == size) copy_out(all, data);
  });
}

OTF2_CallbackCode gatherv(void* user_data, OTF2_CollectiveContext*, const void* in,
                          std::uint32_t in_n, void* out, const std::uint32_t*, OTF2_Type type,
                          std::uint32_t root) {
  return guarded([&] {
    ProcessGroup& g = group_of(user_data);
    auto parts = gather_at(g, int(root), bytes_of(in, in_n * type_size(type)));
    auto* cursor = static_cast<std::uint8_t*>(out);
    for (const Bytes& part : parts) {
      copy_out(part, cursor);
      cursor += part.size();
    }
  });
}

OTF2_CallbackCode gather(void* user_data, OTF2_CollectiveContext* context, const void* in,
                         void* out, std::uint32_t n, OTF2_Type type, std::uint32_t root) {
  return gatherv(user_data, context, in, n, out, nullptr, type, root);
}

OTF2_CallbackCode scatterv(void* user_data, OTF2_CollectiveContext*, const void* in,
                           const std::uint32_t* in_n, void* out, std::uint32_t out_n,
                           OTF2_Type type, std::uint32_t root) {
  return guarded([&] {
    ProcessGroup& g = group_of(user_data);
    const std::size_t element = type_size(type);
    std::vector<Bytes> parts;
    if (g.rank() == int(root)) {
      const auto* cursor = static_cast<const std::uint8_t*>(in);
      for (int i = 0; i < g.size(); ++i) {
        const std::size_t size = in_n[i] * element;
        parts.push_back(bytes_of(cursor, size));
        cursor += size;
      }
    }
    Bytes mine = scatter_from(g, int(root), parts);
    if (mine.size() == out_n * element) copy_out(mine, out);
  });
}

OTF2_CallbackCode scatter(void* user_data, OTF2_CollectiveContext* context, const void* in,
                          void* out, std::uint32_t n, OTF2_Type type, std::uint32_t root) {
  std::vector<std::uint32_t> counts(std::size_t(group_of(user_data).size()), n);
  return scatterv(user_data, context, in, counts.data(), out, n, type, root);
}

void release(void*, OTF2_CollectiveContext*, OTF2_CollectiveContext*) {}

constexpr OTF2_CollectiveCallbacks kCallbacks{
    release, get_size, get_rank, create_local_comm, free_local_comm, barrier,
    bcast,   gather,   gatherv,  scatter,           scatterv,
};

}  // namespace

OTF2_ErrorCode attach_group_collectives(OTF2_Archive* archive, ProcessGroup& group) {
  // OTF2 hands the context back to the callbacks only; they find the group in the user data.
  auto* context = reinterpret_cast<OTF2_CollectiveContext*>(&group);
  return OTF2_Archive_SetCollectiveCallbacks(archive, &kCallbacks, &group, context, nullptr);
}

}  // namespace collwrap::tracer
