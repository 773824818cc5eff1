#include "record/sidecar.h"

#include <cstdio>
#include <fstream>
#include <iterator>

namespace collwrap::tracer {
namespace {
constexpr std::uint32_t kSidecarMagic = 0x32534357;  // "WCS2"
}

std::vector<RegionTable> Sidecar::region_tables() const {
  std::vector<RegionTable> views;
  for (const Table& t : tables) views.push_back({t.paradigm, t.regions});
  return views;
}

std::string sidecar_path(const std::string& directory, std::uint32_t rank) {
  return directory + "/collwrap-rank-" + std::to_string(rank) + ".sidecar";
}

bool is_sidecar_file_name(std::string_view name) {
  return name.starts_with("collwrap-rank-") && name.ends_with(".sidecar");
}

bool write_sidecar(const std::string& path, const LocalDefinitions& definitions,
                   std::span<const RegionTable> tables) {
  ByteWriter out;
  out.u32(kSidecarMagic);
  out.u32(std::uint32_t(tables.size()));
  for (const RegionTable& t : tables) {
    out.u8(std::uint8_t(t.paradigm));
    out.u32(std::uint32_t(t.regions.size()));
    for (const RegionInfo& f : t.regions) {
      out.str(f.name);
      out.u8(f.role);
    }
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
  sidecar.tables.resize(in.count(5));
  for (Sidecar::Table& t : sidecar.tables) {
    t.paradigm = Paradigm(in.u8());
    std::vector<std::uint8_t> roles;
    std::uint32_t count = in.count(5);
    for (std::uint32_t i = 0; i < count; ++i) {
      t.names.push_back(in.str());
      roles.push_back(in.u8());
    }
    for (std::uint32_t i = 0; i < count; ++i) t.regions.push_back({t.names[i].c_str(), roles[i]});
  }
  if (in.failed()) return std::nullopt;
  std::size_t consumed = bytes.size() - in.remaining();
  auto definitions = LocalDefinitions::deserialize(std::span(bytes).subspan(consumed));
  if (!definitions) return std::nullopt;
  sidecar.definitions = std::move(*definitions);
  return sidecar;
}

}  // namespace collwrap::tracer
