// analyzer --list-patterns: the pattern catalog as text or JSON, the one list that the README,
// the man page and the report schema are checked against (tests/unit/patterns).
#pragma once

#include <ostream>

namespace collwrap {

enum class PatternListFormat { Text, Json };

void write_pattern_list(PatternListFormat format, std::ostream& out);

}  // namespace collwrap
