// classify_region(): what an MPI function means to the analyzer, looked up by name.
//
// Region names come from the tracer's function table ("MPI_Send") but other OTF2 producers
// may spell them differently ("MPI_SEND" from Fortran bindings, "mpi_send"), so the lookup
// first brings a name to the C binding's spelling: "MPI_" + one capital + lower case.
#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "trace_model.h"

namespace collwrap {
namespace {

struct FunctionClass {
  std::string_view name;
  RegionClass cls;
  SendMode mode = SendMode::None;
};

using RC = RegionClass;
using SM = SendMode;

// Sorted by name (checked once, below) so that lookups can use binary search.
constexpr auto kFunctionClasses = std::to_array<FunctionClass>({
    {"MPI_Allgather", RC::Collective},
    {"MPI_Allgatherv", RC::Collective},
    {"MPI_Allreduce", RC::Collective},
    {"MPI_Alltoall", RC::Collective},
    {"MPI_Alltoallv", RC::Collective},
    {"MPI_Alltoallw", RC::Collective},
    {"MPI_Barrier", RC::Collective},
    {"MPI_Bcast", RC::Collective},
    {"MPI_Bsend", RC::BlockingSend, SM::Buffered},
    {"MPI_Bsend_init", RC::NonblockingP2P, SM::Buffered},
    {"MPI_Exscan", RC::Collective},
    {"MPI_Finalize", RC::Finalize},
    {"MPI_Gather", RC::Collective},
    {"MPI_Gatherv", RC::Collective},
    {"MPI_Iallgather", RC::NonblockingCollective},
    {"MPI_Iallgatherv", RC::NonblockingCollective},
    {"MPI_Iallreduce", RC::NonblockingCollective},
    {"MPI_Ialltoall", RC::NonblockingCollective},
    {"MPI_Ialltoallv", RC::NonblockingCollective},
    {"MPI_Ialltoallw", RC::NonblockingCollective},
    {"MPI_Ibarrier", RC::NonblockingCollective},
    {"MPI_Ibcast", RC::NonblockingCollective},
    {"MPI_Ibsend", RC::NonblockingP2P, SM::Buffered},
    {"MPI_Iexscan", RC::NonblockingCollective},
    {"MPI_Igather", RC::NonblockingCollective},
    {"MPI_Igatherv", RC::NonblockingCollective},
    {"MPI_Improbe", RC::Probe},
    {"MPI_Imrecv", RC::NonblockingP2P},
    {"MPI_Ineighbor_allgather", RC::NonblockingCollective},
    {"MPI_Ineighbor_allgatherv", RC::NonblockingCollective},
    {"MPI_Ineighbor_alltoall", RC::NonblockingCollective},
    {"MPI_Ineighbor_alltoallv", RC::NonblockingCollective},
    {"MPI_Ineighbor_alltoallw", RC::NonblockingCollective},
    {"MPI_Init", RC::Init},
    {"MPI_Init_thread", RC::Init},
    {"MPI_Iprobe", RC::Probe},
    {"MPI_Irecv", RC::NonblockingP2P},
    {"MPI_Ireduce", RC::NonblockingCollective},
    {"MPI_Ireduce_scatter", RC::NonblockingCollective},
    {"MPI_Ireduce_scatter_block", RC::NonblockingCollective},
    {"MPI_Irsend", RC::NonblockingP2P, SM::Ready},
    {"MPI_Iscan", RC::NonblockingCollective},
    {"MPI_Iscatter", RC::NonblockingCollective},
    {"MPI_Iscatterv", RC::NonblockingCollective},
    {"MPI_Isend", RC::NonblockingP2P, SM::Standard},
    {"MPI_Issend", RC::NonblockingP2P, SM::Synchronous},
    {"MPI_Mprobe", RC::Probe},
    {"MPI_Mrecv", RC::BlockingRecv},
    {"MPI_Neighbor_allgather", RC::Collective},
    {"MPI_Neighbor_allgatherv", RC::Collective},
    {"MPI_Neighbor_alltoall", RC::Collective},
    {"MPI_Neighbor_alltoallv", RC::Collective},
    {"MPI_Neighbor_alltoallw", RC::Collective},
    {"MPI_Probe", RC::Probe},
    {"MPI_Recv", RC::BlockingRecv},
    {"MPI_Recv_init", RC::NonblockingP2P},
    {"MPI_Reduce", RC::Collective},
    {"MPI_Reduce_scatter", RC::Collective},
    {"MPI_Reduce_scatter_block", RC::Collective},
    {"MPI_Rsend", RC::BlockingSend, SM::Ready},
    {"MPI_Rsend_init", RC::NonblockingP2P, SM::Ready},
    {"MPI_Scan", RC::Collective},
    {"MPI_Scatter", RC::Collective},
    {"MPI_Scatterv", RC::Collective},
    {"MPI_Send", RC::BlockingSend, SM::Standard},
    {"MPI_Send_init", RC::NonblockingP2P, SM::Standard},
    {"MPI_Sendrecv", RC::Sendrecv, SM::Standard},
    {"MPI_Sendrecv_replace", RC::Sendrecv, SM::Standard},
    {"MPI_Ssend", RC::BlockingSend, SM::Synchronous},
    {"MPI_Ssend_init", RC::NonblockingP2P, SM::Synchronous},
    {"MPI_Start", RC::NonblockingP2P},
    {"MPI_Startall", RC::NonblockingP2P},
    {"MPI_Test", RC::Test},
    {"MPI_Testall", RC::Test},
    {"MPI_Testany", RC::Test},
    {"MPI_Testsome", RC::Test},
    {"MPI_Wait", RC::Wait},
    {"MPI_Waitall", RC::Wait},
    {"MPI_Waitany", RC::Wait},
    {"MPI_Waitsome", RC::Wait},
});

static_assert(std::is_sorted(kFunctionClasses.begin(), kFunctionClasses.end(),
                             [](const FunctionClass& a, const FunctionClass& b) {
                               return a.name < b.name;
                             }));

// "mpi_SEND_INIT" → "MPI_Send_init"; names without the MPI_ prefix stay as they are.
std::string c_binding_spelling(const std::string& name) {
  std::string s = name;
  if (s.size() <= 4) return s;
  for (std::size_t i = 0; i < 4; ++i) s[i] = static_cast<char>(std::toupper(s[i]));
  if (s.compare(0, 4, "MPI_") != 0) return name;
  s[4] = static_cast<char>(std::toupper(s[4]));
  for (std::size_t i = 5; i < s.size(); ++i) s[i] = static_cast<char>(std::tolower(s[i]));
  return s;
}

}  // namespace

RegionInfo classify_region(const std::string& name) {
  RegionInfo info;
  info.name = name;
  const std::string key = c_binding_spelling(name);
  const auto it = std::lower_bound(
      kFunctionClasses.begin(), kFunctionClasses.end(), key,
      [](const FunctionClass& entry, const std::string& k) { return entry.name < k; });
  if (it != kFunctionClasses.end() && it->name == key) {
    info.cls = it->cls;
    info.mode = it->mode;
  }
  return info;
}

}  // namespace collwrap
