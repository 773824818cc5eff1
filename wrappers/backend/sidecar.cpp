#include "backend/sidecar.h"

#include <cstdio>
#include <fstream>
#include <iterator>

namespace collwrap::tracer {
namespace {
constexpr std::uint32_t kSidecarMagic = 0x31534357;  // "WCS1"
}

std::vector<FunctionInfo> Sidecar::functions() const {
  std::vector<FunctionInfo> table;
  for (std::size_t i = 0; i < function_names.size(); ++i) {
    table.push_back({function_names[i].c_str(), function_roles[i]});
  }
  return table;
}

std::string sidecar_path(const std::string& directory, std::uint32_t rank) {
  return directory + "/collwrap-rank-" + std::to_string(rank) + ".sidecar";
}

bool is_sidecar_file_name(std::string_view name) {
  return name.starts_with("collwrap-rank-") && name.ends_with(".sidecar");
}

bool write_sidecar(const std::string& path, const LocalDefinitions& definitions,
                   std::span<const FunctionInfo> functions) {
  ByteWriter out;
  out.u32(kSidecarMagic);
  out.u32(std::uint32_t(functions.size()));
  for (const FunctionInfo& f : functions) {
    out.str(f.name);
    out.u8(f.role);
  }
  definitions.serialize(out);
  std::string temporary = path + ".tmp";
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char*>(out.bytes().data()),
               std::streamsize(out.bytes().size()));
    if (!file.flush()) return false;
  }
  return std::rename(temporary.c_str(), path.c_str()) == 0;
}

std::optional<Sidecar> read_sidecar(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return std::nullopt;
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                                  std::istreambuf_iterator<char>());
  ByteReader in(bytes);
  if (in.u32() != kSidecarMagic) return std::nullopt;
  Sidecar sidecar;
  std::uint32_t count = in.count(5);
  for (std::uint32_t i = 0; i < count; ++i) {
    sidecar.function_names.push_back(in.str());
    sidecar.function_roles.push_back(in.u8());
  }
  if (in.failed()) return std::nullopt;
  std::size_t consumed = bytes.size() - in.remaining();
  auto definitions = LocalDefinitions::deserialize(std::span(bytes).subspan(consumed));
  if (!definitions) return std::nullopt;
  sidecar.definitions = std::move(*definitions);
  return sidecar;
}

}  // namespace collwrap::tracer
