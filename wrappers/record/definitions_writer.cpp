#include "record/definitions_writer.h"

#include <cmath>

namespace collwrap::tracer {
namespace {

// Runs OTF2 calls in order and keeps the first error; later calls are skipped.
class ErrorChain {
 public:
  template <typename Call>
  ErrorChain& operator<<(Call call) {
    if (status_ == OTF2_SUCCESS) status_ = call();
    return *this;
  }
  OTF2_ErrorCode status() const { return status_; }

 private:
  OTF2_ErrorCode status_ = OTF2_SUCCESS;
};

OTF2_ErrorCode write_mapping(OTF2_DefWriter* writer, OTF2_MappingType type,
                             const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs) {
  if (pairs.empty()) return OTF2_SUCCESS;
  OTF2_IdMap* map = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, pairs.size());
  if (map == nullptr) return OTF2_ERROR_MEM_ALLOC_FAILED;
  OTF2_ErrorCode status = OTF2_SUCCESS;
  for (auto [local, global] : pairs) {
    if (status == OTF2_SUCCESS) status = OTF2_IdMap_AddIdPair(map, local, global);
  }
  if (status == OTF2_SUCCESS) status = OTF2_DefWriter_WriteMappingTable(writer, type, map);
  OTF2_IdMap_Free(map);
  return status;
}

}  // namespace

OTF2_ErrorCode write_global_definitions(OTF2_GlobalDefWriter* w, const GlobalDefinitions& g) {
  ErrorChain chain;
  chain << [&] {
    return OTF2_GlobalDefWriter_WriteClockProperties(
        w, std::uint64_t(std::llround(g.timer_resolution)), g.global_offset, g.trace_length,
        g.realtime_ns > 0 ? std::uint64_t(g.realtime_ns) : OTF2_UNDEFINED_TIMESTAMP);
  };
  for (std::size_t i = 0; i < g.strings.size(); ++i) {
    chain << [&] {
      return OTF2_GlobalDefWriter_WriteString(w, OTF2_StringRef(i), g.strings[i].c_str());
    };
  }
  for (const auto& p : g.paradigms) {
    chain << [&] {
      return OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_Paradigm(p.paradigm), p.name,
                                                OTF2_PARADIGM_CLASS_PROCESS);
    };
  }
  chain << [&] {
    return OTF2_GlobalDefWriter_WriteAttribute(w, kCallSiteAttribute, g.callsite_name,
                                               g.callsite_description, OTF2_TYPE_CALLING_CONTEXT);
  } << [&] {
    return OTF2_GlobalDefWriter_WriteAttribute(w, kPcontrolLevelAttribute, g.pcontrol_level_name,
                                               g.pcontrol_level_description, OTF2_TYPE_INT32);
  } << [&] {
    return OTF2_GlobalDefWriter_WriteAttribute(w, kUpcSyncFlagsAttribute, g.upc_sync_flags_name,
                                               g.upc_sync_flags_description, OTF2_TYPE_UINT32);
  };

  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const auto& n = g.nodes[i];
    chain << [&] {
      return OTF2_GlobalDefWriter_WriteSystemTreeNode(
          w, OTF2_SystemTreeNodeRef(i), n.name, n.class_name,
          n.parent == kUndefinedRef ? OTF2_UNDEFINED_SYSTEM_TREE_NODE : n.parent);
    } << [&] {
      return OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(
          w, OTF2_SystemTreeNodeRef(i),
          n.is_host ? OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY : OTF2_SYSTEM_TREE_DOMAIN_MACHINE);
    };
  }
  for (const auto& lg : g.location_groups) {
    chain << [&] {
      return OTF2_GlobalDefWriter_WriteLocationGroup(w, lg.rank, lg.name,
                                                     OTF2_LOCATION_GROUP_TYPE_PROCESS, lg.node,
                                                     OTF2_UNDEFINED_LOCATION_GROUP);
    };
  }
  for (const auto& l : g.locations) {
    chain << [&] {
      return OTF2_GlobalDefWriter_WriteLocation(w, l.id, l.name, OTF2_LOCATION_TYPE_CPU_THREAD,
                                                l.events, l.group);
    };
  }
  for (std::size_t i = 0; i < g.regions.size(); ++i) {
    const auto& r = g.regions[i];
    chain << [&] {
      return OTF2_GlobalDefWriter_WriteRegion(
          w, OTF2_RegionRef(i), r.name, r.canonical_name, g.empty, OTF2_RegionRole(r.role),
          OTF2_Paradigm(r.paradigm), OTF2_REGION_FLAG_NONE, r.file, r.begin_line, 0);
    };
  }
  for (std::size_t i = 0; i < g.groups.size(); ++i) {
    const auto& gr = g.groups[i];
    bool locations = gr.kind == GlobalDefinitions::GroupKind::CommLocations;
    chain << [&] {
      return OTF2_GlobalDefWriter_WriteGroup(
          w, OTF2_GroupRef(i), gr.name,
          locations ? OTF2_GROUP_TYPE_COMM_LOCATIONS : OTF2_GROUP_TYPE_COMM_GROUP,
          OTF2_Paradigm(gr.paradigm), OTF2_GROUP_FLAG_NONE, std::uint32_t(gr.members.size()),
          gr.members.data());
    };
  }
  for (std::size_t i = 0; i < g.comms.size(); ++i) {
    const auto& c = g.comms[i];
    chain << [&] {
      return OTF2_GlobalDefWriter_WriteComm(w, OTF2_CommRef(i), c.name, c.group,
                                            OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    };
  }
  for (std::size_t i = 0; i < g.cart_dimensions.size(); ++i) {
    const auto& d = g.cart_dimensions[i];
    chain << [&] {
      return OTF2_GlobalDefWriter_WriteCartDimension(
          w, OTF2_CartDimensionRef(i), d.name, d.size,
          d.periodic ? OTF2_CART_PERIODIC_TRUE : OTF2_CART_PERIODIC_FALSE);
    };
  }
  for (std::size_t i = 0; i < g.cart_topologies.size(); ++i) {
    const auto& t = g.cart_topologies[i];
    chain << [&] {
      return OTF2_GlobalDefWriter_WriteCartTopology(w, OTF2_CartTopologyRef(i), t.name, t.comm,
                                                    std::uint8_t(t.dimensions.size()),
                                                    t.dimensions.data());
    };
  }
  for (const auto& c : g.cart_coordinates) {
    chain << [&] {
      return OTF2_GlobalDefWriter_WriteCartCoordinate(
          w, c.topology, c.rank, std::uint8_t(c.coordinates.size()), c.coordinates.data());
    };
  }
  for (const auto& p : g.neighbor_properties) {
    chain << [&] {
      OTF2_AttributeValue value;
      value.groupRef = p.group;
      return OTF2_GlobalDefWriter_WriteLocationGroupProperty(w, p.location_group, p.name,
                                                             OTF2_TYPE_GROUP, value);
    };
  }
  for (std::size_t i = 0; i < g.windows.size(); ++i) {
    const auto& win = g.windows[i];
    chain << [&] {
      return OTF2_GlobalDefWriter_WriteRmaWin(w, OTF2_RmaWinRef(i), win.name, win.comm,
                                              OTF2_RMA_WIN_FLAG_NONE);
    };
  }
  for (std::size_t i = 0; i < g.source_code_locations.size(); ++i) {
    const auto& s = g.source_code_locations[i];
    chain << [&] {
      return OTF2_GlobalDefWriter_WriteSourceCodeLocation(w, OTF2_SourceCodeLocationRef(i), s.file,
                                                          s.line);
    };
  }
  for (std::size_t i = 0; i < g.calling_contexts.size(); ++i) {
    const auto& c = g.calling_contexts[i];
    chain << [&] {
      return OTF2_GlobalDefWriter_WriteCallingContext(
          w, OTF2_CallingContextRef(i), c.region, c.source_code_location,
          c.parent == kUndefinedRef ? OTF2_UNDEFINED_CALLING_CONTEXT : c.parent);
    };
  }
  return chain.status();
}

OTF2_ErrorCode write_local_definitions(OTF2_DefWriter* writer, const RankMapping& mapping,
                                       std::span<const ClockOffsetSample> offsets) {
  ErrorChain chain;
  chain << [&] { return write_mapping(writer, OTF2_MAPPING_COMM, mapping.comms); } << [&] {
    return write_mapping(writer, OTF2_MAPPING_CALLING_CONTEXT, mapping.callsites);
  } << [&] { return write_mapping(writer, OTF2_MAPPING_RMA_WIN, mapping.windows); };
  // Only RMA records name a Group (RmaGroupSync), and they need a window: without windows the
  // Group mapping would be an unused table.
  if (!mapping.windows.empty()) {
    chain << [&] { return write_mapping(writer, OTF2_MAPPING_GROUP, mapping.groups); };
  }
  for (const ClockOffsetSample& o : offsets) {
    chain << [&] {
      return OTF2_DefWriter_WriteClockOffset(writer, o.local_time, o.offset, o.stddev_ticks);
    };
  }
  return chain.status();
}

}  // namespace collwrap::tracer
