// Wording shared by the human-readable texts: durations, rank lists, source places.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace collwrap {

// Three significant digits in a unit that fits: "1.23 s", "45.6 ms", "12.0 µs", "850 ns".
std::string format_duration(double seconds);

// "rank 3", "ranks 1 and 2", "ranks 1, 2 and 5"; long lists end with "and N more".
std::string format_ranks(std::span<const std::int32_t> ranks);

// Peer ranks with the threads of each that were waited for (parallel lists, as in Finding):
// "rank 0 (thread 2)", "ranks 0 (thread 2) and 1 (threads 0 and 1)"; as format_ranks when
// every thread is the main one (a rank's thread 0) or unknown.
std::string format_peers(std::span<const std::int32_t> ranks,
                         std::span<const std::vector<std::int32_t>> threads);

// "file.c:42", "file.c" without a line, "unknown location" without a file.
std::string format_place(const std::string& file, std::uint32_t line);

// Columns of terminal text count characters, not bytes: "µs" is three bytes of UTF-8 but two
// columns.
std::size_t display_width(const std::string& text);

// `text` with spaces appended up to `width` columns.
std::string padded(std::string text, std::size_t width);

}  // namespace collwrap
