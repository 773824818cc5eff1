#include "archive_path.h"

#include <filesystem>
#include <system_error>

#include "trace_reader.h"

namespace collwrap {
namespace fs = std::filesystem;

namespace {
constexpr const char* kAnchorName = "traces.otf2";
constexpr const char* kWhatToGive =
    "give the archive directory that libcollwrap wrote (collwrap-<program>-<date>-<time>, or "
    "$COLLWRAP_TRACE_DIR) or the traces.otf2 file inside it";
}  // namespace

std::string find_anchor_file(const std::string& path) {
  if (path.empty()) throw TraceUsageError(std::string("no trace given: ") + kWhatToGive);
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status))
    throw TraceUsageError(path + ": no such file or directory; " + kWhatToGive);
  if (fs::is_directory(status)) {
    const fs::path anchor = fs::path(path) / kAnchorName;
    if (!fs::is_regular_file(anchor, ec))
      throw TraceUsageError(path + " is not a trace archive (it has no " + kAnchorName + "); " +
                            kWhatToGive);
    return anchor.string();
  }
  if (!fs::is_regular_file(status) || fs::path(path).extension() != ".otf2")
    throw TraceUsageError(path + " is not an OTF2 anchor file (*.otf2); " + kWhatToGive);
  return path;
}

}  // namespace collwrap
