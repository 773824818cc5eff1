#include "otf2_definitions.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>
#include <unordered_map>

#include "topology.h"
#include "trace_reader.h"

namespace collwrap {

namespace {

// Above this a reference is not a dense numbering (a damaged file, or a writer we do not
// know); a vector indexed by it would need gigabytes.
constexpr std::uint64_t kMaxDenseRef = std::uint64_t{1} << 26;

// The definitions as OTF2 hands them over, one callback at a time and in any order; they are
// resolved into the Trace's tables once all have been read.
struct RawDefinitions {
  struct Node {
    OTF2_StringRef name;
  };
  struct LocationGroup {
    OTF2_SystemTreeNodeRef node;
  };
  struct LocationDef {
    OTF2_LocationRef ref;
    OTF2_LocationType type;
    std::uint64_t events;
    OTF2_LocationGroupRef group;
  };
  struct RegionDef {
    OTF2_RegionRef ref;
    OTF2_StringRef name;
    OTF2_RegionRole role;
    OTF2_Paradigm paradigm;
  };
  struct GroupDef {
    OTF2_GroupType type;
    OTF2_Paradigm paradigm;
    std::vector<std::uint64_t> members;
  };
  struct CommDef {
    OTF2_CommRef ref;
    OTF2_StringRef name;
    OTF2_GroupRef group;
  };
  struct WindowDef {
    OTF2_RmaWinRef ref;
    OTF2_CommRef comm;
  };
  struct SourceLocation {
    OTF2_StringRef file;
    std::uint32_t line;
  };
  struct ContextDef {
    OTF2_CallingContextRef ref;
    OTF2_RegionRef region;
    OTF2_SourceCodeLocationRef source;
    OTF2_CallingContextRef parent;
  };
  struct CartDimensionDef {
    std::uint32_t size;
    bool periodic;
  };
  struct CartTopologyDef {
    OTF2_CommRef comm;
    std::vector<OTF2_CartDimensionRef> dims;
  };
  struct CartCoordinateDef {
    OTF2_CartTopologyRef topology;
    std::uint32_t rank;
    std::vector<std::uint32_t> coords;
  };
  struct GroupPropertyDef {
    OTF2_LocationGroupRef location_group;
    OTF2_StringRef name;
    OTF2_GroupRef group;
  };
  struct AttributeDef {
    OTF2_AttributeRef ref;
    OTF2_StringRef name;
    OTF2_Type type;
  };

  std::unordered_map<OTF2_StringRef, std::string> strings;
  std::unordered_map<OTF2_SystemTreeNodeRef, Node> nodes;
  std::unordered_map<OTF2_LocationGroupRef, LocationGroup> location_groups;
  std::vector<LocationDef> locations;
  std::vector<RegionDef> regions;
  std::unordered_map<OTF2_GroupRef, GroupDef> groups;
  std::vector<CommDef> comms;
  std::vector<WindowDef> windows;
  std::unordered_map<OTF2_SourceCodeLocationRef, SourceLocation> source_locations;
  std::vector<ContextDef> contexts;
  std::vector<AttributeDef> attributes;
  std::unordered_map<OTF2_CartDimensionRef, CartDimensionDef> cart_dimensions;
  std::unordered_map<OTF2_CartTopologyRef, CartTopologyDef> cart_topologies;
  std::vector<CartCoordinateDef> cart_coordinates;
  std::vector<GroupPropertyDef> group_properties;  // LocationGroupProperty of type GROUP
  bool has_timer = false;
  TimerProperties timer;

  const std::string& string(OTF2_StringRef ref) const {
    static const std::string kEmpty;
    const auto it = strings.find(ref);
    return it == strings.end() ? kEmpty : it->second;
  }
};

// --- OTF2 callbacks: store, resolve later -------------------------------------------------

RawDefinitions& raw(void* user_data) {
  return *static_cast<RawDefinitions*>(user_data);
}

OTF2_CallbackCode on_clock_properties(void* d, std::uint64_t resolution, std::uint64_t offset,
                                      std::uint64_t length, std::uint64_t) {
  raw(d).has_timer = true;
  raw(d).timer = {resolution, offset, length};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_string(void* d, OTF2_StringRef self, const char* s) {
  raw(d).strings[self] = s ? s : "";
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_system_tree_node(void* d, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
                                      OTF2_StringRef, OTF2_SystemTreeNodeRef) {
  raw(d).nodes[self] = {name};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location_group(void* d, OTF2_LocationGroupRef self, OTF2_StringRef,
                                    OTF2_LocationGroupType, OTF2_SystemTreeNodeRef node,
                                    OTF2_LocationGroupRef) {
  raw(d).location_groups[self] = {node};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location(void* d, OTF2_LocationRef self, OTF2_StringRef,
                              OTF2_LocationType type, std::uint64_t events,
                              OTF2_LocationGroupRef group) {
  raw(d).locations.push_back({self, type, events, group});
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_region(void* d, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef,
                            OTF2_StringRef, OTF2_RegionRole role, OTF2_Paradigm paradigm,
                            OTF2_RegionFlag, OTF2_StringRef, std::uint32_t, std::uint32_t) {
  raw(d).regions.push_back({self, name, role, paradigm});
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_group(void* d, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type,
                           OTF2_Paradigm paradigm, OTF2_GroupFlag, std::uint32_t count,
                           const std::uint64_t* members) {
  raw(d).groups[self] = {type, paradigm, {members, members + count}};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_comm(void* d, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
                          OTF2_CommRef, OTF2_CommFlag) {
  raw(d).comms.push_back({self, name, group});
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_rma_win(void* d, OTF2_RmaWinRef self, OTF2_StringRef, OTF2_CommRef comm,
                             OTF2_RmaWinFlag) {
  raw(d).windows.push_back({self, comm});
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_source_code_location(void* d, OTF2_SourceCodeLocationRef self,
                                          OTF2_StringRef file, std::uint32_t line) {
  raw(d).source_locations[self] = {file, line};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_calling_context(void* d, OTF2_CallingContextRef self, OTF2_RegionRef region,
                                     OTF2_SourceCodeLocationRef source,
                                     OTF2_CallingContextRef parent) {
  raw(d).contexts.push_back({self, region, source, parent});
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_attribute(void* d, OTF2_AttributeRef self, OTF2_StringRef name, OTF2_StringRef,
                               OTF2_Type type) {
  raw(d).attributes.push_back({self, name, type});
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_cart_dimension(void* d, OTF2_CartDimensionRef self, OTF2_StringRef,
                                    std::uint32_t size, OTF2_CartPeriodicity periodicity) {
  raw(d).cart_dimensions[self] = {size, periodicity == OTF2_CART_PERIODIC_TRUE};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_cart_topology(void* d, OTF2_CartTopologyRef self, OTF2_StringRef,
                                   OTF2_CommRef comm, std::uint8_t count,
                                   const OTF2_CartDimensionRef* dims) {
  raw(d).cart_topologies[self] = {comm, {dims, dims + count}};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_cart_coordinate(void* d, OTF2_CartTopologyRef topology, std::uint32_t rank,
                                     std::uint8_t count, const std::uint32_t* coords) {
  raw(d).cart_coordinates.push_back({topology, rank, {coords, coords + count}});
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location_group_property(void* d, OTF2_LocationGroupRef group,
                                             OTF2_StringRef name, OTF2_Type type,
                                             OTF2_AttributeValue value) {
  if (type == OTF2_TYPE_GROUP) raw(d).group_properties.push_back({group, name, value.groupRef});
  return OTF2_CALLBACK_SUCCESS;
}

RawDefinitions read_raw_definitions(OTF2_Reader* reader) {
  OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader);
  if (!defs) throw TraceReadError("the archive's global definitions (traces.def) cannot be opened");
  OTF2_GlobalDefReaderCallbacks* cb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock_properties);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, on_system_tree_node);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, on_location_group);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, on_region);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, on_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, on_comm);
  OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(cb, on_rma_win);
  OTF2_GlobalDefReaderCallbacks_SetSourceCodeLocationCallback(cb, on_source_code_location);
  OTF2_GlobalDefReaderCallbacks_SetCallingContextCallback(cb, on_calling_context);
  OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, on_attribute);
  OTF2_GlobalDefReaderCallbacks_SetCartDimensionCallback(cb, on_cart_dimension);
  OTF2_GlobalDefReaderCallbacks_SetCartTopologyCallback(cb, on_cart_topology);
  OTF2_GlobalDefReaderCallbacks_SetCartCoordinateCallback(cb, on_cart_coordinate);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupPropertyCallback(cb, on_location_group_property);
  RawDefinitions out;
  OTF2_ErrorCode status = OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, cb, &out);
  OTF2_GlobalDefReaderCallbacks_Delete(cb);
  std::uint64_t count = 0;
  if (status == OTF2_SUCCESS) status = OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &count);
  OTF2_Reader_CloseGlobalDefReader(reader, defs);
  if (status != OTF2_SUCCESS)
    throw TraceReadError(
        std::string("the archive's global definitions (traces.def) are damaged: ") +
        OTF2_Error_GetDescription(status));
  return out;
}

// --- resolution into the Trace's tables -----------------------------------------------------

bool has_mpi_prefix(const std::string& name) {
  if (name.size() < 4) return false;
  std::string prefix = name.substr(0, 4);
  for (char& c : prefix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return prefix == "MPI_";
}

const RawDefinitions::GroupDef* find_world_locations(const RawDefinitions& raw) {
  for (const auto& [ref, group] : raw.groups)
    if (group.type == OTF2_GROUP_TYPE_COMM_LOCATIONS && group.paradigm == OTF2_PARADIGM_MPI)
      return &group;
  return nullptr;
}

// Locations: ranks from the COMM_LOCATIONS group (its n-th member is a location of world rank
// n, and every location of the same location group shares that rank); threads numbered by
// location id within each rank, so the thread that called MPI_Init (id = rank) is thread 0.
void resolve_locations(const RawDefinitions& raw, Trace& trace, Definitions& defs) {
  std::unordered_map<OTF2_LocationGroupRef, std::int32_t> rank_of_group;
  const RawDefinitions::GroupDef* world = find_world_locations(raw);
  if (world) {
    std::unordered_map<OTF2_LocationRef, OTF2_LocationGroupRef> group_of_location;
    for (const auto& l : raw.locations) group_of_location[l.ref] = l.group;
    for (std::size_t r = 0; r < world->members.size(); ++r) {
      const auto it = group_of_location.find(world->members[r]);
      if (it != group_of_location.end())
        rank_of_group.emplace(it->second, static_cast<std::int32_t>(r));
    }
    trace.world_size = static_cast<std::int32_t>(world->members.size());
  }

  struct Placed {
    std::int32_t rank;
    const RawDefinitions::LocationDef* def;
  };
  std::vector<Placed> placed;
  for (const auto& l : raw.locations) {
    if (l.type != OTF2_LOCATION_TYPE_CPU_THREAD) continue;
    std::int32_t rank;
    if (world) {
      const auto it = rank_of_group.find(l.group);
      if (it == rank_of_group.end()) {
        trace.warnings.messages.push_back("location " + std::to_string(l.ref) +
                                          " belongs to no MPI rank; its events are ignored");
        continue;
      }
      rank = it->second;
    } else {
      if (l.group > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) continue;
      rank = static_cast<std::int32_t>(l.group);  // no MPI: a process's group is its number
      trace.world_size = std::max(trace.world_size, rank + 1);
    }
    placed.push_back({rank, &l});
  }
  if (placed.empty()) throw TraceReadError("the archive defines no thread locations to analyze");
  std::sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.def->ref < b.def->ref;
  });

  std::unordered_map<OTF2_SystemTreeNodeRef, std::uint32_t> node_index;
  for (std::size_t i = 0; i < placed.size(); ++i) {
    const auto& def = *placed[i].def;
    Location loc;
    loc.rank = placed[i].rank;
    loc.thread = (i > 0 && placed[i - 1].rank == loc.rank) ? trace.locations.back().thread + 1 : 0;
    loc.otf2_id = def.ref;
    OTF2_SystemTreeNodeRef node_ref = OTF2_UNDEFINED_SYSTEM_TREE_NODE;
    if (const auto g = raw.location_groups.find(def.group); g != raw.location_groups.end())
      node_ref = g->second.node;
    auto [it, added] = node_index.emplace(node_ref, static_cast<std::uint32_t>(trace.nodes.size()));
    if (added) {
      const auto n = raw.nodes.find(node_ref);
      trace.nodes.push_back(n == raw.nodes.end() ? "unknown" : raw.string(n->second.name));
    }
    loc.node = it->second;
    trace.locations.push_back(std::move(loc));
    defs.expected_events.push_back(def.events);
  }
}

void resolve_regions(const RawDefinitions& raw, Trace& trace, Definitions& defs) {
  for (const auto& r : raw.regions) {
    const std::string& name = raw.string(r.name);
    defs.region.set(r.ref, static_cast<std::uint32_t>(trace.regions.size()));
    const bool pgas = r.paradigm == OTF2_PARADIGM_SHMEM || r.paradigm == OTF2_PARADIGM_UPC;
    const bool mpi = !pgas && (r.paradigm == OTF2_PARADIGM_MPI || has_mpi_prefix(name));
    defs.region_call.push_back(mpi || pgas);
    defs.region_mpi.push_back(mpi);
    trace.regions.push_back(pgas ? classify_pgas_region(name) : classify_region(name));
    trace.regions.back().role = static_cast<RegionRole>(r.role);
  }
}

void resolve_callsites(const RawDefinitions& raw, Trace& trace, Definitions& defs) {
  std::unordered_map<OTF2_RegionRef, OTF2_StringRef> region_name;
  for (const auto& r : raw.regions) region_name[r.ref] = r.name;
  for (const auto& c : raw.contexts) {
    CallSite site;
    if (const auto s = raw.source_locations.find(c.source); s != raw.source_locations.end()) {
      site.file = raw.string(s->second.file);
      site.line = s->second.line;
    }
    if (const auto r = region_name.find(c.region); r != region_name.end())
      site.function = raw.string(r->second);
    defs.callsite.set(c.ref, static_cast<std::uint32_t>(trace.callsites.size()));
    trace.callsites.push_back(std::move(site));
  }
  // Parents may be defined after their children; a parent that is missing or would close a
  // cycle (a damaged archive) ends the path.
  for (const auto& c : raw.contexts) {
    if (c.parent == OTF2_UNDEFINED_CALLING_CONTEXT) continue;
    const std::uint32_t self = defs.callsite[c.ref], parent = defs.callsite[c.parent];
    if (parent < trace.callsites.size() && parent != self) trace.callsites[self].caller = parent;
  }
  for (const auto& a : raw.attributes) {
    if (a.type == OTF2_TYPE_CALLING_CONTEXT && raw.string(a.name) == "CallSite")
      defs.callsite_attribute = a.ref;
    if (a.type == OTF2_TYPE_INT32 && raw.string(a.name) == "PcontrolLevel")
      defs.pcontrol_level_attribute = a.ref;
    if (a.type == OTF2_TYPE_UINT32 && raw.string(a.name) == "UpcSyncFlags")
      defs.upc_sync_flags_attribute = a.ref;
  }
}

// A COMM_GROUP's members are positions in the COMM_LOCATIONS group, i.e. world ranks.
void resolve_comms(const RawDefinitions& raw, Trace& trace, Definitions& defs) {
  for (const auto& c : raw.comms) {
    Communicator comm;
    comm.name = raw.string(c.name);
    const auto g = raw.groups.find(c.group);
    if (g == raw.groups.end() || (g->second.type != OTF2_GROUP_TYPE_COMM_GROUP &&
                                  g->second.type != OTF2_GROUP_TYPE_COMM_SELF)) {
      trace.warnings.messages.push_back("communicator \"" + comm.name +
                                        "\" has no member list; its messages cannot be matched");
    } else if (g->second.type == OTF2_GROUP_TYPE_COMM_GROUP) {
      for (std::uint64_t member : g->second.members) {
        if (member >= static_cast<std::uint64_t>(trace.world_size)) {
          trace.warnings.messages.push_back("communicator \"" + comm.name + "\" lists rank " +
                                            std::to_string(member) + ", beyond the world size");
          comm.world_ranks.clear();
          break;
        }
        comm.world_ranks.push_back(static_cast<std::int32_t>(member));
      }
    }
    defs.comm.set(c.ref, static_cast<std::uint32_t>(trace.comms.size()));
    if (defs.group[c.group] == kNone)
      defs.group.set(c.group, static_cast<std::uint32_t>(trace.comms.size()));
    trace.comms.push_back(std::move(comm));
  }
}

// Topologies (topology.h): Cartesian ones from OTF2's definitions, graphs from the neighbor
// lists the tracer writes as LocationGroupProperty "collwrap::in_neighbors::<Comm>" (and
// "out_neighbors") of type GROUP on each member's location group.
void resolve_topologies(const RawDefinitions& raw, Trace& trace, const Definitions& defs) {
  std::unordered_map<OTF2_CartTopologyRef, CartesianTopology> cartesian;
  for (const auto& [ref, t] : raw.cart_topologies) {
    const std::uint32_t comm = defs.comm[t.comm];
    if (comm == kNone) continue;
    CartesianTopology& topology = cartesian[ref];
    for (const OTF2_CartDimensionRef d : t.dims) {
      const auto dim = raw.cart_dimensions.find(d);
      topology.dims.push_back(dim == raw.cart_dimensions.end() ? 0 : dim->second.size);
      topology.periodic.push_back(dim != raw.cart_dimensions.end() && dim->second.periodic);
    }
    topology.coords.resize(trace.comms[comm].world_ranks.size());
  }
  for (const auto& c : raw.cart_coordinates) {
    const auto t = cartesian.find(c.topology);
    if (t != cartesian.end() && c.rank < t->second.coords.size())
      t->second.coords[c.rank] = c.coords;
  }
  for (const auto& [ref, topology] : cartesian) {
    Communicator& comm = trace.comms[defs.comm[raw.cart_topologies.at(ref).comm]];
    comm.in_neighbors = cartesian_neighbors(topology);
    comm.out_neighbors = comm.in_neighbors;
  }

  std::unordered_map<OTF2_LocationRef, std::int32_t> rank_of_location;
  for (const Location& l : trace.locations) rank_of_location.emplace(l.otf2_id, l.rank);
  std::unordered_map<OTF2_LocationGroupRef, std::int32_t> rank_of_group;
  for (const auto& l : raw.locations)
    if (const auto it = rank_of_location.find(l.ref); it != rank_of_location.end())
      rank_of_group.emplace(l.group, it->second);
  for (const auto& p : raw.group_properties) {
    const std::string& name = raw.string(p.name);
    const bool in = name.starts_with(kInNeighborsProperty);
    if (!in && !name.starts_with(kOutNeighborsProperty)) continue;
    const std::string id = name.substr((in ? kInNeighborsProperty : kOutNeighborsProperty).size());
    char* end = nullptr;
    const unsigned long long ref = std::strtoull(id.c_str(), &end, 10);
    const std::uint32_t comm = id.empty() || *end != '\0' ? kNone : defs.comm[ref];
    const auto group = raw.groups.find(p.group);
    const auto rank = rank_of_group.find(p.location_group);
    if (comm == kNone || group == raw.groups.end() || rank == rank_of_group.end()) continue;
    Communicator& c = trace.comms[comm];
    const auto self = std::find(c.world_ranks.begin(), c.world_ranks.end(), rank->second);
    if (self == c.world_ranks.end()) continue;
    NeighborLists& lists = in ? c.in_neighbors : c.out_neighbors;
    lists.resize(c.world_ranks.size());
    std::vector<std::int32_t> world(group->second.members.begin(), group->second.members.end());
    lists[static_cast<std::size_t>(self - c.world_ranks.begin())] = ranks_within(c, world);
  }
}

// A window's one-sided records name ranks of the window's communicator.
void resolve_windows(const RawDefinitions& raw, Definitions& defs) {
  for (const auto& w : raw.windows) defs.window.set(w.ref, defs.comm[w.comm]);
}

std::string archive_description(OTF2_Reader* reader) {
  char* description = nullptr;
  if (OTF2_Reader_GetDescription(reader, &description) != OTF2_SUCCESS || !description) return {};
  std::string out = description;
  std::free(description);
  return out;
}

}  // namespace

void RefIndex::set(std::uint64_t ref, std::uint32_t index) {
  if (ref >= kMaxDenseRef)
    throw TraceReadError("the archive's definitions use reference number " + std::to_string(ref) +
                         "; numbers above " + std::to_string(kMaxDenseRef - 1) +
                         " are not supported (the archive is probably damaged)");
  if (ref >= index_.size()) index_.resize(ref + 1, kNone);
  index_[ref] = index;
}

Definitions load_definitions(OTF2_Reader* reader, Trace& trace) {
  const RawDefinitions raw = read_raw_definitions(reader);
  if (!raw.has_timer || raw.timer.resolution == 0)
    throw TraceReadError("the archive's definitions have no timer resolution (ClockProperties)");
  Definitions defs;
  defs.timer = raw.timer;
  trace.program = archive_description(reader);
  resolve_locations(raw, trace, defs);
  resolve_regions(raw, trace, defs);
  resolve_callsites(raw, trace, defs);
  resolve_comms(raw, trace, defs);
  resolve_topologies(raw, trace, defs);
  resolve_windows(raw, defs);
  return defs;
}

}  // namespace collwrap
