// Turns what the user typed (an archive directory or its anchor file) into the anchor file's
// path, or explains what is wrong with it.
#pragma once

#include <string>

namespace collwrap {

// Returns the path of the anchor file (…/traces.otf2). Throws TraceUsageError when `path`
// is missing or names neither an anchor file nor a directory holding one.
std::string find_anchor_file(const std::string& path);

}  // namespace collwrap
