// classify_region(): what an MPI function means to the analyzer, looked up by name in the table
// the tracer's spec gives.
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

// What each function is, from the tracer's spec (wrappers/mpi/wrapper_spec.py), generated at
// build time by gen_function_classes.py, sorted by name (checked once, below) so that lookups
// can use binary search.
constexpr auto kFunctionClasses = std::to_array<FunctionClass>({
#include "mpi_function_classes.inc"
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
