#include "record/trace_directory.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "record/sidecar.h"

namespace collwrap::tracer {
namespace fs = std::filesystem;

std::string default_archive_dirname(std::string_view program, const std::tm& t) {
  std::string name = "collwrap-";
  for (char c : program) {
    bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '.' || c == '_' || c == '-';
    name += safe ? c : '_';
  }
  if (program.empty()) name += "program";
  char stamp[64];
  std::snprintf(stamp, sizeof stamp, "-%04d%02d%02d-%02d%02d%02d", t.tm_year + 1900, t.tm_mon + 1,
                t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec);
  return name + stamp;
}

std::string first_unused_name(const std::string& base,
                              const std::function<bool(const std::string&)>& exists) {
  if (!exists(base)) return base;
  for (unsigned i = 1;; ++i) {
    std::string candidate = base + "-" + std::to_string(i);
    if (!exists(candidate)) return candidate;
  }
}

std::string program_name() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && !exe.filename().empty()) return exe.filename().string();
  return program_invocation_short_name ? program_invocation_short_name : "";
}

namespace {

// Files of a previous archive in the same directory: OTF2's anchor, global definitions and
// per-location directory, collwrap's per-rank sidecars and what collwrap-recover set aside.
void remove_previous_archive(const fs::path& dir) {
  std::error_code ec;
  const std::string archive = kArchiveName;
  for (const char* suffix : {".otf2", ".def"}) fs::remove(dir / (archive + suffix), ec);
  for (const char* suffix : {"", ".events", ".unrecovered"})
    fs::remove_all(dir / (archive + suffix), ec);
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (is_sidecar_file_name(entry.path().filename().string())) fs::remove(entry, ec);
  }
}

}  // namespace

PreparedDirectory prepare_trace_directory(const std::string& configured_dir) {
  PreparedDirectory result;
  std::error_code ec;
  fs::path dir;
  if (configured_dir.empty()) {
    std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    std::string base = default_archive_dirname(program_name(), local);
    dir = fs::current_path(ec) / first_unused_name(base, [](const std::string& p) {
            std::error_code e;
            return fs::exists(p, e);
          });
  } else {
    dir = fs::absolute(configured_dir, ec);
  }
  result.path = dir.lexically_normal().string();
  if (ec) {
    result.problem = "cannot determine the trace directory: " + ec.message();
    return result;
  }
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) {
      result.problem = result.path + " exists and is not a directory";
      return result;
    }
    remove_previous_archive(dir);
  } else if (!fs::create_directories(dir, ec) && ec) {
    result.problem = "cannot create " + result.path + ": " + ec.message();
    return result;
  }
  fs::path probe = dir / ".collwrap-write-test";
  {
    std::ofstream out(probe);
    out << "x";
    if (!out.flush()) {
      result.problem = "cannot write into " + result.path + ": " + std::strerror(errno);
      return result;
    }
  }
  fs::remove(probe, ec);
  result.ok = true;
  return result;
}

}  // namespace collwrap::tracer
