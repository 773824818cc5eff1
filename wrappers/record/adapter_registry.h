// What the paradigm adapters registered (recorder.h): their region tables, in registration
// order (RegionRefs [0, region_count()) are their entries, one after the other), and the
// sources of their groups and windows.
#pragma once

#include <cstdint>
#include <vector>

#include "record/recorder.h"

namespace collwrap::tracer {

std::vector<RegionTable> registered_region_tables();

// Number of RegionRefs the tables hold.
std::uint32_t region_count() noexcept;

// The name of a registered region ("?" for a ref outside the tables).
const char* region_name(RegionRef region) noexcept;

// Every registered source's groups and windows, concatenated. May throw (out of memory).
AdapterDefinitions collect_adapter_definitions();

}  // namespace collwrap::tracer
