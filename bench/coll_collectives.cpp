#include "coll_collectives.h"

#include <algorithm>

namespace collwrap::bench {

CollCall::CollCall(MPI_Comm c, int root_rank, std::size_t bytes)
    : comm(c),
      root(root_rank),
      count(int(bytes)),
      floats(bytes ? int(std::max<std::size_t>(1, bytes / 4)) : 0) {
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // Reductions need floats·size floats; the byte collectives bytes·size bytes.
  const std::size_t capacity =
      std::max(bytes, std::size_t(floats) * sizeof(float)) * std::size_t(size);
  send.assign(std::max<std::size_t>(capacity, 1), 1);
  recv.assign(std::max<std::size_t>(capacity, 1), 0);
  for (int r = 0; r < size; ++r) {
    counts.push_back(count);
    displacements.push_back(r * count);
    float_counts.push_back(floats);
  }
  types.assign(std::size_t(size), MPI_BYTE);
}

namespace {

float* fsend(CollCall& c) {
  return reinterpret_cast<float*>(c.send.data());
}
float* frecv(CollCall& c) {
  return reinterpret_cast<float*>(c.recv.data());
}

// A nonblocking collective measured to completion: started, then waited for.
void complete(MPI_Request request) {
  MPI_Wait(&request, MPI_STATUS_IGNORE);
}

constexpr Collective kCollectives[] = {
    {"barrier", "MPI_Barrier", false, [](CollCall& c) { MPI_Barrier(c.comm); }},
    {"bcast", "MPI_Bcast", true,
     [](CollCall& c) { MPI_Bcast(c.send.data(), c.count, MPI_BYTE, c.root, c.comm); }},
    {"gather", "MPI_Gather", true,
     [](CollCall& c) {
       MPI_Gather(c.send.data(), c.count, MPI_BYTE, c.recv.data(), c.count, MPI_BYTE, c.root,
                  c.comm);
     }},
    {"gatherv", "MPI_Gatherv", true,
     [](CollCall& c) {
       MPI_Gatherv(c.send.data(), c.count, MPI_BYTE, c.recv.data(), c.counts.data(),
                   c.displacements.data(), MPI_BYTE, c.root, c.comm);
     }},
    {"scatter", "MPI_Scatter", true,
     [](CollCall& c) {
       MPI_Scatter(c.send.data(), c.count, MPI_BYTE, c.recv.data(), c.count, MPI_BYTE, c.root,
                   c.comm);
     }},
    {"scatterv", "MPI_Scatterv", true,
     [](CollCall& c) {
       MPI_Scatterv(c.send.data(), c.counts.data(), c.displacements.data(), MPI_BYTE, c.recv.data(),
                    c.count, MPI_BYTE, c.root, c.comm);
     }},
    {"allgather", "MPI_Allgather", false,
     [](CollCall& c) {
       MPI_Allgather(c.send.data(), c.count, MPI_BYTE, c.recv.data(), c.count, MPI_BYTE, c.comm);
     }},
    {"allgatherv", "MPI_Allgatherv", false,
     [](CollCall& c) {
       MPI_Allgatherv(c.send.data(), c.count, MPI_BYTE, c.recv.data(), c.counts.data(),
                      c.displacements.data(), MPI_BYTE, c.comm);
     }},
    {"alltoall", "MPI_Alltoall", false,
     [](CollCall& c) {
       MPI_Alltoall(c.send.data(), c.count, MPI_BYTE, c.recv.data(), c.count, MPI_BYTE, c.comm);
     }},
    {"alltoallv", "MPI_Alltoallv", false,
     [](CollCall& c) {
       MPI_Alltoallv(c.send.data(), c.counts.data(), c.displacements.data(), MPI_BYTE,
                     c.recv.data(), c.counts.data(), c.displacements.data(), MPI_BYTE, c.comm);
     }},
    {"alltoallw", "MPI_Alltoallw", false,
     [](CollCall& c) {
       MPI_Alltoallw(c.send.data(), c.counts.data(), c.displacements.data(), c.types.data(),
                     c.recv.data(), c.counts.data(), c.displacements.data(), c.types.data(),
                     c.comm);
     }},
    {"reduce", "MPI_Reduce", true,
     [](CollCall& c) {
       MPI_Reduce(fsend(c), frecv(c), c.floats, MPI_FLOAT, MPI_SUM, c.root, c.comm);
     }},
    {"allreduce", "MPI_Allreduce", false,
     [](CollCall& c) { MPI_Allreduce(fsend(c), frecv(c), c.floats, MPI_FLOAT, MPI_SUM, c.comm); }},
    {"reduce_scatter", "MPI_Reduce_scatter", false,
     [](CollCall& c) {
       MPI_Reduce_scatter(fsend(c), frecv(c), c.float_counts.data(), MPI_FLOAT, MPI_SUM, c.comm);
     }},
    {"reduce_scatter_block", "MPI_Reduce_scatter_block", false,
     [](CollCall& c) {
       MPI_Reduce_scatter_block(fsend(c), frecv(c), c.floats, MPI_FLOAT, MPI_SUM, c.comm);
     }},
    {"scan", "MPI_Scan", false,
     [](CollCall& c) { MPI_Scan(fsend(c), frecv(c), c.floats, MPI_FLOAT, MPI_SUM, c.comm); }},
    {"exscan", "MPI_Exscan", false,
     [](CollCall& c) { MPI_Exscan(fsend(c), frecv(c), c.floats, MPI_FLOAT, MPI_SUM, c.comm); }},

    {"ibarrier", "MPI_Ibarrier", false,
     [](CollCall& c) {
       MPI_Request r;
       MPI_Ibarrier(c.comm, &r);
       complete(r);
     }},
    {"ibcast", "MPI_Ibcast", true,
     [](CollCall& c) {
       MPI_Request r;
       MPI_Ibcast(c.send.data(), c.count, MPI_BYTE, c.root, c.comm, &r);
       complete(r);
     }},
    {"igather", "MPI_Igather", true,
     [](CollCall& c) {
       MPI_Request r;
       MPI_Igather(c.send.data(), c.count, MPI_BYTE, c.recv.data(), c.count, MPI_BYTE, c.root,
                   c.comm, &r);
       complete(r);
     }},
    {"igatherv", "MPI_Igatherv", true,
     [](CollCall& c) {
       MPI_Request r;
       MPI_Igatherv(c.send.data(), c.count, MPI_BYTE, c.recv.data(), c.counts.data(),
                    c.displacements.data(), MPI_BYTE, c.root, c.comm, &r);
       complete(r);
     }},
    {"iscatter", "MPI_Iscatter", true,
     [](CollCall& c) {
       MPI_Request r;
       MPI_Iscatter(c.send.data(), c.count, MPI_BYTE, c.recv.data(), c.count, MPI_BYTE, c.root,
                    c.comm, &r);
       complete(r);
     }},
    {"iscatterv", "MPI_Iscatterv", true,
     [](CollCall& c) {
       MPI_Request r;
       MPI_Iscatterv(c.send.data(), c.counts.data(), c.displacements.data(), MPI_BYTE,
                     c.recv.data(), c.count, MPI_BYTE, c.root, c.comm, &r);
       complete(r);
     }},
    {"iallgather", "MPI_Iallgather", false,
     [](CollCall& c) {
       MPI_Request r;
       MPI_Iallgather(c.send.data(), c.count, MPI_BYTE, c.recv.data(), c.count, MPI_BYTE, c.comm,
                      &r);
       complete(r);
     }},
    {"iallgatherv", "MPI_Iallgatherv", false,
     [](CollCall& c) {
       MPI_Request r;
       MPI_Iallgatherv(c.send.data(), c.count, MPI_BYTE, c.recv.data(), c.counts.data(),
                       c.displacements.data(), MPI_BYTE, c.comm, &r);
       complete(r);
     }},
    {"ialltoall", "MPI_Ialltoall", false,
     [](CollCall& c) {
       MPI_Request r;
       MPI_Ialltoall(c.send.data(), c.count, MPI_BYTE, c.recv.data(), c.count, MPI_BYTE, c.comm,
                     &r);
       complete(r);
     }},
    {"ialltoallv", "MPI_Ialltoallv", false,
     [](CollCall& c) {
       MPI_Request r;
       MPI_Ialltoallv(c.send.data(), c.counts.data(), c.displacements.data(), MPI_BYTE,
                      c.recv.data(), c.counts.data(), c.displacements.data(), MPI_BYTE, c.comm, &r);
       complete(r);
     }},
    {"ialltoallw", "MPI_Ialltoallw", false,
     [](CollCall& c) {
       MPI_Request r;
       MPI_Ialltoallw(c.send.data(), c.counts.data(), c.displacements.data(), c.types.data(),
                      c.recv.data(), c.counts.data(), c.displacements.data(), c.types.data(),
                      c.comm, &r);
       complete(r);
     }},
    {"ireduce", "MPI_Ireduce", true,
     [](CollCall& c) {
       MPI_Request r;
       MPI_Ireduce(fsend(c), frecv(c), c.floats, MPI_FLOAT, MPI_SUM, c.root, c.comm, &r);
       complete(r);
     }},
    {"iallreduce", "MPI_Iallreduce", false,
     [](CollCall& c) {
       MPI_Request r;
       MPI_Iallreduce(fsend(c), frecv(c), c.floats, MPI_FLOAT, MPI_SUM, c.comm, &r);
       complete(r);
     }},
    {"ireduce_scatter", "MPI_Ireduce_scatter", false,
     [](CollCall& c) {
       MPI_Request r;
       MPI_Ireduce_scatter(fsend(c), frecv(c), c.float_counts.data(), MPI_FLOAT, MPI_SUM, c.comm,
                           &r);
       complete(r);
     }},
    {"ireduce_scatter_block", "MPI_Ireduce_scatter_block", false,
     [](CollCall& c) {
       MPI_Request r;
       MPI_Ireduce_scatter_block(fsend(c), frecv(c), c.floats, MPI_FLOAT, MPI_SUM, c.comm, &r);
       complete(r);
     }},
    {"iscan", "MPI_Iscan", false,
     [](CollCall& c) {
       MPI_Request r;
       MPI_Iscan(fsend(c), frecv(c), c.floats, MPI_FLOAT, MPI_SUM, c.comm, &r);
       complete(r);
     }},
    {"iexscan", "MPI_Iexscan", false,
     [](CollCall& c) {
       MPI_Request r;
       MPI_Iexscan(fsend(c), frecv(c), c.floats, MPI_FLOAT, MPI_SUM, c.comm, &r);
       complete(r);
     }},
};

// Every nonblocking name is its blocking name with an "i" in front; no blocking name starts so.
bool nonblocking(const Collective& c) {
  return c.name[0] == 'i';
}

}  // namespace

std::span<const Collective> all_collectives() {
  return kCollectives;
}

bool moves_data(const Collective& collective) {
  return !std::string_view(collective.name).ends_with("barrier");
}

std::vector<const Collective*> select_collectives(std::string_view list, std::string& unknown) {
  std::vector<const Collective*> chosen;
  if (list == "all" || list == "blocking" || list == "nonblocking") {
    for (const Collective& c : kCollectives)
      if (list == "all" || nonblocking(c) == (list == "nonblocking")) chosen.push_back(&c);
    return chosen;
  }
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    const std::string_view name = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    const auto found = std::find_if(std::begin(kCollectives), std::end(kCollectives),
                                    [&](const Collective& c) { return name == c.name; });
    if (found == std::end(kCollectives)) {
      unknown = std::string(name);
      return {};
    }
    chosen.push_back(&*found);
  }
  return chosen;
}

}  // namespace collwrap::bench
