#include "finding_text.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "text_format.h"

namespace collwrap {
namespace {

std::string basename_place(const std::string& file, std::uint32_t line) {
  return format_place(std::filesystem::path(file).filename().string(), line);
}

std::string who(const Finding& f) {
  std::string text = "Rank " + std::to_string(f.rank);
  if (f.thread != 0) text += " (thread " + std::to_string(f.thread) + ")";
  return text;
}

std::string worst_instances(const Finding& f) {
  std::string text;
  for (const InstanceSample& s : f.top_instances) {
    text += text.empty() ? "Worst: " : "; ";
    text += format_duration(s.wait_s) + " at t=" + format_duration(s.time_s);
    if (!s.peers.empty()) text += " (" + format_peers(s.peers, s.peer_threads) + ")";
  }
  return text.empty() ? text : text + ".";
}

std::string send_modes(const FindingDetails& d) {
  if (d.send_modes.empty()) return "";
  std::string text = d.send_modes.size() == 1 ? "Send mode: " : "Send modes: ";
  for (std::size_t i = 0; i < d.send_modes.size(); ++i) {
    if (i > 0) text += ", ";
    text += d.send_modes[i].first + " (" + std::to_string(d.send_modes[i].second) + ")";
  }
  return text + ".";
}

std::string message_order(const FindingDetails& d) {
  if (d.same_source == 0 && d.different_source == 0) return "";
  return "The message that had already arrived came from the same sender in " +
         std::to_string(d.same_source) + " of these waits and from another rank in " +
         std::to_string(d.different_source) + ".";
}

std::string related_call(const FindingDetails& d, const Pattern& pattern) {
  if (!d.related_call || pattern.related_role.empty()) return "";
  return std::string(pattern.related_role) + " " + d.related_call->function + " at " +
         basename_place(d.related_call->file, d.related_call->line) + ".";
}

// "3.2×"
std::string factor_text(double factor) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f×", factor);
  return buffer;
}

std::string transfers(const Finding& f) {
  const FindingDetails& d = f.details;
  if (d.transfers == 0) return "";
  if (d.mean_pair_bytes == 0)
    return std::to_string(d.transfers) + " one-sided transfers, " +
           std::to_string(d.transfer_bytes) + " bytes in all.";
  // unbalanced_communication: one pair per peer.
  const double pairs = static_cast<double>(std::max<std::size_t>(1, f.peers.size()));
  return std::to_string(d.transfer_bytes) + " bytes in " + std::to_string(d.transfers) +
         " transfers, " +
         factor_text(static_cast<double>(d.transfer_bytes) / pairs /
                     static_cast<double>(d.mean_pair_bytes)) +
         " the mean of " + std::to_string(d.mean_pair_bytes) +
         " bytes per communicating process pair.";
}

void append_sentence(std::string& text, const std::string& sentence) {
  if (sentence.empty()) return;
  if (!text.empty()) text += ' ';
  text += sentence;
}

}  // namespace

std::string finding_comment(const Finding& f, const Pattern& pattern) {
  std::string text = who(f) + " idled " + format_duration(f.wait_time_s) + " in " +
                     std::to_string(f.occurrences) +
                     (f.occurrences == 1 ? " call to " : " calls to ") + f.mpi_function + " at " +
                     basename_place(f.file, f.line) + ".";
  append_sentence(text, std::string(pattern.description));
  if (!f.peers.empty())
    append_sentence(text, std::string(f.peers.size() == 1 ? "Peer" : "Peers") + " (" +
                              std::string(pattern.peer_role) +
                              "): " + format_peers(f.peers, f.peer_threads) + ".");
  append_sentence(text, worst_instances(f));
  append_sentence(text, send_modes(f.details));
  append_sentence(text, message_order(f.details));
  append_sentence(text, related_call(f.details, pattern));
  append_sentence(text, transfers(f));
  return text;
}

std::string finding_recommendation(const Finding& f, const Pattern& pattern) {
  std::string text(pattern.recommendation);
  const FindingDetails& d = f.details;
  if (d.optimal_distance_s && d.current_distance_s) {
    const std::string call = d.related_call ? d.related_call->function : "the nonblocking call";
    const double missing = std::max(0.0, *d.optimal_distance_s - *d.current_distance_s);
    append_sentence(text, "Here the wait starts on average " +
                              format_duration(*d.current_distance_s) + " after " + call +
                              "; the estimated optimal distance is " +
                              format_duration(*d.optimal_distance_s) + ", so about " +
                              format_duration(missing) + " of independent work fits in between.");
  }
  return text;
}

}  // namespace collwrap
