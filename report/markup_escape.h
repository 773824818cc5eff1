// Escaping of text from a trace (file names, function names) for XML, SVG and HTML output.
#pragma once

#include <string>
#include <string_view>

namespace collwrap {

// Replaces & < > " ' with character references, so that the text is safe both as element
// content and inside a quoted attribute.
std::string escape_markup(std::string_view text);

}  // namespace collwrap
