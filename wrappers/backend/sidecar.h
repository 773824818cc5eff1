// Per-rank sidecar files: a rank that cannot take part in the collective finalize (MPI_Abort,
// exit without MPI_Finalize) closes its event files and saves its local definitions here, with
// the MPI function table, so that collwrap-recover can later write the definitions and the
// anchor file the archive lacks without access to the traced program.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backend/local_definitions.h"
#include "recorder.h"

namespace collwrap::tracer {

struct Sidecar {
  LocalDefinitions definitions;
  std::vector<std::string> function_names;  // index = RegionRef
  std::vector<std::uint8_t> function_roles;

  // FunctionInfo views of the table (valid while this Sidecar lives).
  std::vector<FunctionInfo> functions() const;
};

// <directory>/collwrap-rank-<rank>.sidecar
std::string sidecar_path(const std::string& directory, std::uint32_t rank);

// True for file names sidecar_path() produces.
bool is_sidecar_file_name(std::string_view name);

// Writes via a temporary file and rename, so a reader never sees half a sidecar.
bool write_sidecar(const std::string& path, const LocalDefinitions& definitions,
                   std::span<const FunctionInfo> functions);

std::optional<Sidecar> read_sidecar(const std::string& path);

}  // namespace collwrap::tracer
