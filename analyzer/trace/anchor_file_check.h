// Checks an anchor file's layout before OTF2 parses it.
//
// OTF2 3.0's anchor parser trusts the property count it reads and can write past the end of
// its allocation when the count is damaged, so the file is walked here first, field by field
// and within its size, the way OTF2 reads it (anchor format 1 to 3).
#pragma once

#include <string>

namespace collwrap {

// An empty string when the anchor file is well formed; otherwise what is wrong with it.
std::string check_anchor_file(const std::string& path);

}  // namespace collwrap
