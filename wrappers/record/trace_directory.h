// Where the archive goes: $COLLWRAP_TRACE_DIR, or a new collwrap-<program>-<date>-<time>
// directory in the working directory. Rank 0 decides and prepares it; the others are told.
#pragma once

#include <ctime>
#include <functional>
#include <string>
#include <string_view>

namespace collwrap::tracer {

inline constexpr const char* kArchiveName = "traces";  // anchor file: traces.otf2

// "collwrap-<program>-<YYYYMMDD>-<HHMMSS>"; characters of `program` outside [A-Za-z0-9._-]
// become '_' so the name is safe in any shell.
std::string default_archive_dirname(std::string_view program, const std::tm& local_time);

// `base` if it does not exist, else base-1, base-2, ... (two runs started in the same second
// must not write into one directory).
std::string first_unused_name(const std::string& base,
                              const std::function<bool(const std::string&)>& exists);

// The executable's file name (for the default directory name and the archive description).
std::string program_name();

struct PreparedDirectory {
  bool ok = false;
  std::string path;     // absolute
  std::string problem;  // why not, for the user
};

// Creates the directory (with parents) or, for an explicit COLLWRAP_TRACE_DIR that already
// holds an archive, removes that previous archive's files (only files OTF2 and collwrap name;
// nothing else in the directory is touched). Then checks that a file can be created there.
PreparedDirectory prepare_trace_directory(const std::string& configured_dir);

}  // namespace collwrap::tracer
