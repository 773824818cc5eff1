// OpenSHMEM and UPC functions by name: the ones the pattern rules treat like MPI's init,
// finalize and blocking collectives. One-sided operations, locks and waits are recognized by
// their records (OpKind::Rma*), not by name.
#include <string_view>

#include "trace_model.h"

namespace collwrap {
namespace {

bool contains(std::string_view name, std::string_view part) {
  return name.find(part) != std::string_view::npos;
}

RegionClass pgas_class(std::string_view name) {
  if (name == "shmem_init" || name == "shmem_init_thread" || name == "upc_init")
    return RegionClass::Init;
  if (name == "shmem_finalize" || name == "upc_finalize") return RegionClass::Finalize;
  if (name == "shmem_barrier_all" || name == "shmem_barrier" || name == "shmem_sync_all" ||
      name == "shmem_sync" || name == "upc_barrier" || name == "upc_all_alloc")
    return RegionClass::Collective;
  if (name.starts_with("upc_all_")) return RegionClass::Collective;
  if (name.starts_with("shmem_") && (contains(name, "broadcast") || contains(name, "collect") ||
                                     contains(name, "alltoall") || name.ends_with("_to_all")))
    return RegionClass::Collective;
  return RegionClass::Other;
}

}  // namespace

RegionInfo classify_pgas_region(const std::string& name) {
  return {name, pgas_class(name), SendMode::None};
}

}  // namespace collwrap
