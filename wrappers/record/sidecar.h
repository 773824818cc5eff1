// Per-rank sidecar files: a rank that cannot take part in the collective finalize (an abort, an
// exit without the paradigm's finalize) closes its event files and saves its local definitions
// here, with the region tables, so that collwrap-recover can later write the definitions and
// the anchor file the archive lacks without access to the traced program.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "record/local_definitions.h"
#include "record/recorder.h"

namespace collwrap::tracer {

struct Sidecar {
  struct Table {
    Paradigm paradigm;
    std::vector<std::string> names;
    std::vector<RegionInfo> regions;  // names point into `names`
  };
  LocalDefinitions definitions;
  std::vector<Table> tables;

  Sidecar() = default;
  Sidecar(const Sidecar&) = delete;  // `regions` point into `names`
  Sidecar(Sidecar&&) = default;
  Sidecar& operator=(Sidecar&&) = default;

  // RegionTable views of the tables (valid while this Sidecar lives).
  std::vector<RegionTable> region_tables() const;
};

// <directory>/collwrap-rank-<rank>.sidecar
std::string sidecar_path(const std::string& directory, std::uint32_t rank);

// True for file names sidecar_path() produces.
bool is_sidecar_file_name(std::string_view name);

// Writes via a temporary file and rename, so a reader never sees half a sidecar.
bool write_sidecar(const std::string& path, const LocalDefinitions& definitions,
                   std::span<const RegionTable> tables);

std::optional<Sidecar> read_sidecar(const std::string& path);

}  // namespace collwrap::tracer
