#include "record/definitions_unifier.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>

#include "record/clock_offset.h"
#include "record/location_id.h"

namespace collwrap::tracer {
namespace {

// OTF2_REGION_ROLE_FUNCTION and OTF2_PARADIGM_USER: user functions that contain traced calls.
constexpr std::uint8_t kRoleFunction = 1;
constexpr std::uint8_t kParadigmUser = 1;

class StringTable {
 public:
  explicit StringTable(std::vector<std::string>& strings) : strings_(strings) {}
  std::uint32_t operator()(const std::string& s) {
    auto [it, added] = ids_.try_emplace(s, std::uint32_t(strings_.size()));
    if (added) strings_.push_back(s);
    return it->second;
  }

 private:
  std::vector<std::string>& strings_;
  std::unordered_map<std::string, std::uint32_t> ids_;
};

// Deduplicates values of type T (compared with <) and assigns dense ids in insertion order.
template <typename Key>
class Interner {
 public:
  template <typename Make>
  std::uint32_t operator()(const Key& key, Make make) {
    auto it = ids_.find(key);
    if (it != ids_.end()) return it->second;
    std::uint32_t id = make();
    ids_.emplace(key, id);
    return id;
  }

 private:
  std::map<Key, std::uint32_t> ids_;
};

std::string location_name(std::uint32_t thread) {
  return thread == 0 ? "Master thread" : "Thread " + std::to_string(thread);
}

void unify_clock(std::span<const LocalDefinitions> ranks, GlobalDefinitions& g,
                 std::vector<std::string>& warnings) {
  const LocalDefinitions* reference = &ranks.front();
  for (const LocalDefinitions& r : ranks)
    if (r.world_rank == 0) reference = &r;
  if (reference->timer_resolution > 0) g.timer_resolution = reference->timer_resolution;

  std::int64_t begin = INT64_MAX, end = INT64_MIN;
  for (const LocalDefinitions& r : ranks) {
    begin = std::min(begin, std::int64_t(r.first_time + offset_at(r.offsets, r.first_time)));
    end = std::max(end, std::int64_t(r.last_time + offset_at(r.offsets, r.last_time)));
    bool both_calibrated_long =
        r.calibration_span_ns >= 100'000'000 && reference->calibration_span_ns >= 100'000'000;
    double mismatch = std::abs(r.timer_resolution / g.timer_resolution - 1.0);
    if (both_calibrated_long && mismatch > kMaxTimerRateMismatch) {
      warnings.push_back("rank " + std::to_string(r.world_rank) + "'s timer runs at " +
                         std::to_string(r.timer_resolution) + " ticks/s, rank 0's at " +
                         std::to_string(g.timer_resolution) +
                         "; timestamps of that rank may drift (use COLLWRAP_TIMER=monotonic)");
    }
  }
  g.global_offset = std::uint64_t(std::max<std::int64_t>(begin, 0));
  g.trace_length = end > begin ? std::uint64_t(end - begin) : 0;
  if (reference->realtime_anchor_ns != 0) {
    double since_anchor_s =
        (double(g.global_offset) - double(reference->realtime_anchor_ticks)) / g.timer_resolution;
    g.realtime_ns = reference->realtime_anchor_ns + std::int64_t(since_anchor_s * 1e9);
  }
}

// Adds the topology definitions of group `c` as rank `r` sees it; `comm` is the group's global
// Comm, `intern_group` gives the global Group of a list of world ranks.
class TopologyUnifier {
 public:
  TopologyUnifier(GlobalDefinitions& g, StringTable& string) : g_(g), string_(string) {}

  template <typename InternGroup>
  void add(const LocalDefinitions& r, const GroupInfo& c, std::uint32_t comm,
           InternGroup intern_group) {
    const GroupTopology& t = c.topology;
    const auto self = std::find(c.members.begin(), c.members.end(), std::int32_t(r.world_rank));
    if (t.kind == GroupTopology::Kind::None || self == c.members.end()) return;
    const auto rank = std::uint32_t(self - c.members.begin());
    if (t.kind == GroupTopology::Kind::Cartesian) {
      // OTF2 counts a topology's dimensions in 8 bits.
      if (t.coords.size() != t.dims.size() || t.periodic.size() != t.dims.size() ||
          t.dims.size() > 255)
        return;
      g_.cart_coordinates.push_back({cart_topology(c, comm), rank, t.coords});
      return;
    }
    const std::string id = std::to_string(comm);
    g_.neighbor_properties.push_back({r.world_rank, string_(kInNeighborsProperty + id),
                                      intern_group(world_ranks(c, t.in_neighbors))});
    g_.neighbor_properties.push_back({r.world_rank, string_(kOutNeighborsProperty + id),
                                      intern_group(world_ranks(c, t.out_neighbors))});
  }

 private:
  // The CartTopology of `comm`, defined by the first member that shows it.
  std::uint32_t cart_topology(const GroupInfo& c, std::uint32_t comm) {
    auto [it, added] = cart_of_comm_.try_emplace(comm, std::uint32_t(g_.cart_topologies.size()));
    if (!added) return it->second;
    GlobalDefinitions::CartTopology topology{string_(c.name), comm, {}};
    for (std::size_t d = 0; d < c.topology.dims.size(); ++d) {
      topology.dimensions.push_back(std::uint32_t(g_.cart_dimensions.size()));
      g_.cart_dimensions.push_back({string_(c.name + " dimension " + std::to_string(d)),
                                    c.topology.dims[d], c.topology.periodic[d] != 0});
    }
    g_.cart_topologies.push_back(std::move(topology));
    return it->second;
  }

  // Ranks in the group → world ranks; ranks outside it are left out.
  static std::vector<std::int32_t> world_ranks(const GroupInfo& c,
                                               const std::vector<std::int32_t>& ranks) {
    std::vector<std::int32_t> world;
    for (const std::int32_t rank : ranks)
      if (rank >= 0 && std::size_t(rank) < c.members.size()) world.push_back(c.members[rank]);
    return world;
  }

  GlobalDefinitions& g_;
  StringTable& string_;
  std::map<std::uint32_t, std::uint32_t> cart_of_comm_;
};

}  // namespace

const char* paradigm_name(Paradigm paradigm) {
  switch (paradigm) {
    case Paradigm::Mpi:
      return "MPI";
    case Paradigm::Shmem:
      return "SHMEM";
    case Paradigm::Upc:
      return "UPC";
  }
  return "?";
}

UnifiedDefinitions unify_definitions(std::span<const LocalDefinitions> ranks,
                                     std::span<const RegionTable> tables) {
  UnifiedDefinitions result;
  GlobalDefinitions& g = result.global;
  result.mappings.resize(ranks.size());
  if (ranks.empty()) return result;
  StringTable string(g.strings);
  // A paradigm counts when some process defined a group of it (an MPI program defines
  // MPI_COMM_WORLD, an OpenSHMEM program its world): a pure MPI run of a library that also wraps
  // OpenSHMEM gets no SHMEM paradigm. Without any group, every registered paradigm counts.
  auto used = [&](Paradigm paradigm) {
    for (const LocalDefinitions& r : ranks)
      for (const GroupInfo& c : r.groups)
        if (c.paradigm == paradigm) return true;
    return false;
  };
  const bool any_used =
      std::ranges::any_of(tables, [&](const RegionTable& t) { return used(t.paradigm); });
  for (const RegionTable& t : tables) {
    auto known = [&](const auto& p) { return p.paradigm == t.paradigm; };
    if ((!any_used || used(t.paradigm)) && std::ranges::none_of(g.paradigms, known)) {
      g.paradigms.push_back({t.paradigm, string(paradigm_name(t.paradigm))});
    }
  }
  g.callsite_name = string("CallSite");
  g.callsite_description = string("source call site of the MPI call");
  g.empty = string("");
  g.pcontrol_level_name = string("PcontrolLevel");
  g.pcontrol_level_description = string("level argument of MPI_Pcontrol");
  g.upc_sync_flags_name = string("UpcSyncFlags");
  g.upc_sync_flags_description = string(
      "UPC collective synchronization: bits 0-1 on entry, 2-3 on exit; "
      "1 NOSYNC, 2 MYSYNC, 3 ALLSYNC");

  unify_clock(ranks, g, result.warnings);

  // System tree: the machine, then each host in order of its lowest rank. LocationGroup ids
  // are world ranks and must be dense, and COMM_LOCATIONS names one location per rank, so a
  // rank without definitions (its sidecar is missing after an abort) still gets its group,
  // directly under the machine, with an empty main location.
  g.nodes.push_back({string("machine"), string("machine"), kUndefinedRef, false});
  std::uint32_t world_size = 0;
  for (const LocalDefinitions& r : ranks) {
    world_size = std::max({world_size, r.world_size, r.world_rank + 1});
  }
  std::vector<const LocalDefinitions*> by_rank(world_size, nullptr);
  for (const LocalDefinitions& r : ranks) by_rank[r.world_rank] = &r;
  std::map<std::string, std::uint32_t> host_nodes;
  const std::string& process_label = ranks.front().process_label;
  for (std::uint32_t rank = 0; rank < world_size; ++rank) {
    std::uint32_t group_name = string(process_label + " " + std::to_string(rank));
    const LocalDefinitions* r = by_rank[rank];
    if (r == nullptr) {
      g.location_groups.push_back({rank, group_name, 0});
      g.locations.push_back({pack_location_id(0, rank), string(location_name(0)), 0, rank});
      continue;
    }
    auto [it, added] = host_nodes.try_emplace(r->host, std::uint32_t(g.nodes.size()));
    if (added) g.nodes.push_back({string(r->host), string("node"), 0, true});
    g.location_groups.push_back({rank, group_name, it->second});
    std::vector<LocalLocation> threads = r->locations;
    std::sort(threads.begin(), threads.end(),
              [](auto& a, auto& b) { return a.thread_index < b.thread_index; });
    for (const LocalLocation& l : threads) {
      g.locations.push_back({pack_location_id(l.thread_index, rank),
                             string(location_name(l.thread_index)), l.events, rank});
    }
  }

  for (const RegionTable& t : tables) {
    std::uint32_t file = string(paradigm_name(t.paradigm));
    for (const RegionInfo& f : t.regions) {
      std::uint32_t name = string(f.name);
      g.regions.push_back({name, name, file, 0, std::uint8_t(t.paradigm), f.role});
    }
  }

  // COMM_LOCATIONS of each paradigm: member i is world rank i's main location, whose id is i.
  for (const auto& p : g.paradigms) {
    GlobalDefinitions::Group world{
        GlobalDefinitions::GroupKind::CommLocations, p.paradigm, g.empty, {}};
    for (std::uint32_t rank = 0; rank < world_size; ++rank) world.members.push_back(rank);
    g.groups.push_back(std::move(world));
  }

  Interner<std::pair<Paradigm, std::vector<std::int32_t>>> groups;
  Interner<std::pair<Paradigm, std::uint64_t>> comms;
  Interner<std::uint64_t> windows;
  Interner<std::tuple<std::string, std::string, std::string, std::uint32_t>> regions;
  Interner<std::pair<std::string, std::uint32_t>> locations;
  Interner<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>> contexts;

  auto intern_group = [&](Paradigm paradigm, const std::vector<std::int32_t>& members) {
    return groups({paradigm, members}, [&] {
      GlobalDefinitions::Group gr{GlobalDefinitions::GroupKind::CommGroup, paradigm, g.empty, {}};
      for (std::int32_t w : members) gr.members.push_back(std::uint64_t(w));
      g.groups.push_back(std::move(gr));
      return std::uint32_t(g.groups.size() - 1);
    });
  };
  TopologyUnifier topologies(g, string);

  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const LocalDefinitions& r = ranks[i];
    RankMapping& mapping = result.mappings[i];

    std::map<std::uint32_t, std::uint32_t> comm_of;  // this rank's GroupRef -> global Comm
    for (const GroupInfo& c : r.groups) {
      if (c.members.empty()) continue;
      std::uint32_t group = intern_group(c.paradigm, c.members);
      std::uint32_t comm = comms({c.paradigm, c.key}, [&] {
        g.comms.push_back({string(c.name), group});
        return std::uint32_t(g.comms.size() - 1);
      });
      topologies.add(r, c, comm, [&](const std::vector<std::int32_t>& world) {
        return intern_group(c.paradigm, world);
      });
      mapping.comms.emplace_back(c.id, comm);
      mapping.groups.emplace_back(c.id, group);
      comm_of[c.id] = comm;
    }
    for (const WindowInfo& w : r.windows) {
      auto comm = comm_of.find(w.group);
      if (comm == comm_of.end()) continue;  // over a group this rank did not define
      std::uint32_t window = windows(w.key, [&] {
        g.windows.push_back({string(w.name), comm->second});
        return std::uint32_t(g.windows.size() - 1);
      });
      mapping.windows.emplace_back(w.id, window);
    }

    for (const LocalCallSite& site : r.callsites) {
      if (site.frames.empty()) continue;
      // Build the chain from the outermost frame inwards so parents are defined first.
      std::uint32_t parent = kUndefinedRef;
      for (auto f = site.frames.rbegin(); f != site.frames.rend(); ++f) {
        std::uint32_t region =
            regions({f->function, f->linkage_name, f->function_file, f->function_line}, [&] {
              g.regions.push_back({string(f->function), string(f->linkage_name),
                                   string(f->function_file), f->function_line, kParadigmUser,
                                   kRoleFunction});
              return std::uint32_t(g.regions.size() - 1);
            });
        std::uint32_t scl = locations({f->file, f->line}, [&] {
          g.source_code_locations.push_back({string(f->file), f->line});
          return std::uint32_t(g.source_code_locations.size() - 1);
        });
        parent = contexts({region, scl, parent}, [&] {
          g.calling_contexts.push_back({region, scl, parent});
          return std::uint32_t(g.calling_contexts.size() - 1);
        });
      }
      mapping.callsites.emplace_back(site.id, parent);
    }
  }
  return result;
}

}  // namespace collwrap::tracer
