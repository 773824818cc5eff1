#include "mpi/pmpi_queries.h"

#include <numeric>
#include <vector>

namespace collwrap::tracer {
namespace {

// Frees an MPI group or communicator on every path out of a query.
class ScopedGroup {
 public:
  ScopedGroup() = default;
  ScopedGroup(const ScopedGroup&) = delete;
  ScopedGroup& operator=(const ScopedGroup&) = delete;
  ~ScopedGroup() {
    if (group != MPI_GROUP_NULL) PMPI_Group_free(&group);
  }
  MPI_Group group = MPI_GROUP_NULL;
};

class ScopedComm {
 public:
  ScopedComm() = default;
  ScopedComm(const ScopedComm&) = delete;
  ScopedComm& operator=(const ScopedComm&) = delete;
  ~ScopedComm() {
    if (comm != MPI_COMM_NULL) PMPI_Comm_free(&comm);
  }
  MPI_Comm comm = MPI_COMM_NULL;
};

int group_size(MPI_Group group) {
  int size = 0;
  PMPI_Group_size(group, &size);
  return size;
}

// Ranks 0..n-1 of `from`, translated into `to`; MPI_UNDEFINED becomes -1.
std::vector<std::int32_t> translate(MPI_Group from, MPI_Group to) {
  const int n = group_size(from);
  std::vector<int> ranks(static_cast<std::size_t>(n));
  std::iota(ranks.begin(), ranks.end(), 0);
  std::vector<int> translated(ranks.size(), MPI_UNDEFINED);
  PMPI_Group_translate_ranks(from, n, ranks.data(), to, translated.data());
  std::vector<std::int32_t> result(translated.size());
  for (std::size_t i = 0; i < translated.size(); ++i) {
    result[i] = translated[i] == MPI_UNDEFINED ? -1 : translated[i];
  }
  return result;
}

std::vector<std::int32_t> world_ranks_of(MPI_Group group) {
  ScopedGroup world;
  PMPI_Comm_group(MPI_COMM_WORLD, &world.group);
  return translate(group, world.group);
}

// Neighbor slots of the neighborhood collectives, in MPI's order: for each Cartesian dimension
// the negative then the positive neighbor; for graphs the listed neighbors. Also the topology
// itself: dimensions, periods and coordinates, or the neighbors' ranks.
void describe_neighbors(MPI_Comm comm, CommFacts& facts) {
  int topology = MPI_UNDEFINED;
  PMPI_Topo_test(comm, &topology);
  GroupTopology& t = facts.topology;
  if (topology == MPI_CART) {
    int dims = 0;
    PMPI_Cartdim_get(comm, &dims);
    std::vector<int> sizes(static_cast<std::size_t>(dims)), periods(sizes.size()),
        coords(sizes.size());
    PMPI_Cart_get(comm, dims, sizes.data(), periods.data(), coords.data());
    t.kind = GroupTopology::Kind::Cartesian;
    t.dims.assign(sizes.begin(), sizes.end());
    for (const int p : periods) t.periodic.push_back(p != 0);
    t.coords.assign(coords.begin(), coords.end());
    for (int d = 0; d < dims; ++d) {
      int source = MPI_PROC_NULL, dest = MPI_PROC_NULL;
      PMPI_Cart_shift(comm, d, 1, &source, &dest);
      facts.in_neighbors.push_back(source != MPI_PROC_NULL);
      facts.in_neighbors.push_back(dest != MPI_PROC_NULL);
    }
    facts.out_neighbors = facts.in_neighbors;
  } else if (topology == MPI_GRAPH) {
    int count = 0;
    PMPI_Graph_neighbors_count(comm, facts.rank, &count);
    std::vector<int> neighbors(static_cast<std::size_t>(count));
    PMPI_Graph_neighbors(comm, facts.rank, count, neighbors.data());
    t.kind = GroupTopology::Kind::Graph;
    t.in_neighbors.assign(neighbors.begin(), neighbors.end());
    t.out_neighbors = t.in_neighbors;
    facts.in_neighbors.assign(static_cast<std::size_t>(count), true);
    facts.out_neighbors = facts.in_neighbors;
  } else if (topology == MPI_DIST_GRAPH) {
    int in = 0, out = 0, weighted = 0;
    PMPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
    std::vector<int> sources(static_cast<std::size_t>(in)),
        destinations(static_cast<std::size_t>(out));
    // The weights are not recorded, but a weighted graph must be asked with weight arrays.
    std::vector<int> in_weights(weighted ? sources.size() : 0),
        out_weights(weighted ? destinations.size() : 0);
    PMPI_Dist_graph_neighbors(comm, in, sources.data(),
                              weighted ? in_weights.data() : MPI_UNWEIGHTED, out,
                              destinations.data(), weighted ? out_weights.data() : MPI_UNWEIGHTED);
    t.kind = GroupTopology::Kind::Graph;
    t.in_neighbors.assign(sources.begin(), sources.end());
    t.out_neighbors.assign(destinations.begin(), destinations.end());
    facts.in_neighbors.assign(static_cast<std::size_t>(in), true);
    facts.out_neighbors.assign(static_cast<std::size_t>(out), true);
  }
}

// Size, rank and kind: local calls only.
CommFacts basic_facts(MPI_Comm comm) {
  CommFacts facts;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  facts.inter = inter != 0;
  PMPI_Comm_size(comm, &facts.size);
  PMPI_Comm_rank(comm, &facts.rank);
  if (facts.inter) PMPI_Comm_remote_size(comm, &facts.remote_size);
  return facts;
}

CommFacts describe_intra(MPI_Comm comm) {
  CommFacts facts = basic_facts(comm);
  ScopedGroup group;
  PMPI_Comm_group(comm, &group.group);
  facts.world_ranks = world_ranks_of(group.group);
  describe_neighbors(comm, facts);
  return facts;
}

}  // namespace

int PmpiQueries::world_rank() {
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

std::uint64_t PmpiQueries::type_size(MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) return 0;
  MPI_Count size = 0;
  if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size < 0 || size == MPI_UNDEFINED) {
    return 0;
  }
  return static_cast<std::uint64_t>(size);
}

std::uint64_t PmpiQueries::received_bytes(const MPI_Status& status) {
#ifdef OPEN_MPI
  // Open MPI keeps the received size in bytes in the status itself (what MPI_Get_elements_x
  // with MPI_BYTE returns); reading it directly spares every receive a library call.
  return static_cast<std::uint64_t>(status._ucount);
#else
  // Counted in MPI_BYTE: the receive's datatype may already be freed when the request completes.
  MPI_Count bytes = 0;
  if (PMPI_Get_elements_x(&status, MPI_BYTE, &bytes) != MPI_SUCCESS || bytes < 0 ||
      bytes == MPI_UNDEFINED) {
    return 0;
  }
  return static_cast<std::uint64_t>(bytes);
#endif
}

bool PmpiQueries::cancelled(const MPI_Status& status) {
#ifdef OPEN_MPI
  // Open MPI's MPI_Test_cancelled reads this field; every completed request asks.
  return status._cancelled != 0;
#else
  int flag = 0;
  PMPI_Test_cancelled(&status, &flag);
  return flag != 0;
#endif
}

CommFacts PmpiQueries::describe(MPI_Comm comm) {
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (!inter) return describe_intra(comm);

  CommFacts facts = basic_facts(comm);
  ScopedGroup local, remote;
  PMPI_Comm_group(comm, &local.group);
  PMPI_Comm_remote_group(comm, &remote.group);
  facts.world_ranks = world_ranks_of(local.group);
  for (const std::int32_t world_rank : world_ranks_of(remote.group)) {
    facts.remote_index.push_back(static_cast<std::uint32_t>(facts.world_ranks.size()));
    facts.world_ranks.push_back(world_rank);
  }
  return facts;
}

AgreedComm PmpiQueries::describe_new(MPI_Comm comm, std::uint64_t key_proposal) {
  // The collective steps come first and allocate nothing, so that every member reaches them.
  AgreedComm agreed;
  agreed.key = key_proposal;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (!inter) {
    PMPI_Bcast(&agreed.key, 1, MPI_UINT64_T, 0, comm);
    agreed.facts = describe_intra(comm);
    return agreed;
  }

  // Both groups merge into one communicator whose group order every member sees the same way.
  ScopedComm merged;
  PMPI_Intercomm_merge(comm, 0, &merged.comm);
  PMPI_Bcast(&agreed.key, 1, MPI_UINT64_T, 0, merged.comm);
  agreed.facts = basic_facts(comm);
  ScopedGroup merged_group, remote;
  PMPI_Comm_group(merged.comm, &merged_group.group);
  PMPI_Comm_remote_group(comm, &remote.group);
  agreed.facts.world_ranks = world_ranks_of(merged_group.group);
  for (const std::int32_t index : translate(remote.group, merged_group.group)) {
    agreed.facts.remote_index.push_back(index < 0 ? kUndefinedRank
                                                  : static_cast<std::uint32_t>(index));
  }
  return agreed;
}

}  // namespace collwrap::tracer
