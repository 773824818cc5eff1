#include "record/adapter_registry.h"

#include <array>
#include <atomic>

namespace collwrap::tracer {
namespace {

// A fixed array: registration runs in static initializers, where an allocation failure
// could not be reported.
struct Registry {
  std::array<RegionTable, 8> tables{};
  std::atomic<std::uint32_t> count{0};
  std::uint32_t regions = 0;
  std::array<DefinitionsSource, 8> sources{};
  std::atomic<std::uint32_t> source_count{0};
};

Registry& registry() noexcept {
  static Registry r;
  return r;
}

}  // namespace

RegionRef register_regions(Paradigm paradigm, std::span<const RegionInfo> regions) noexcept {
  Registry& r = registry();
  const std::uint32_t index = r.count.load();
  const RegionRef first = r.regions;
  if (index == r.tables.size()) return first;  // cannot happen with the adapters that exist
  r.tables[index] = {paradigm, regions};
  r.regions += std::uint32_t(regions.size());
  r.count.store(index + 1);
  return first;
}

std::vector<RegionTable> registered_region_tables() {
  const Registry& r = registry();
  return {r.tables.begin(), r.tables.begin() + r.count.load()};
}

std::uint32_t region_count() noexcept {
  return registry().regions;
}

const char* region_name(RegionRef region) noexcept {
  const Registry& r = registry();
  for (std::uint32_t i = 0; i < r.count.load(); ++i) {
    const auto& regions = r.tables[i].regions;
    if (region < regions.size()) return regions[region].name;
    region -= RegionRef(regions.size());
  }
  return "?";
}

void register_definitions_source(DefinitionsSource source) noexcept {
  Registry& r = registry();
  const std::uint32_t index = r.source_count.load();
  if (index == r.sources.size()) return;
  r.sources[index] = source;
  r.source_count.store(index + 1);
}

AdapterDefinitions collect_adapter_definitions() {
  const Registry& r = registry();
  AdapterDefinitions all;
  for (std::uint32_t i = 0; i < r.source_count.load(); ++i) {
    AdapterDefinitions d = r.sources[i]();
    all.groups.insert(all.groups.end(), d.groups.begin(), d.groups.end());
    all.windows.insert(all.windows.end(), d.windows.begin(), d.windows.end());
  }
  return all;
}

}  // namespace collwrap::tracer
