#include "finding_matching.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace collwrap {
namespace {

// What must agree exactly for a tolerated line shift: everything but the line.
auto site_without_line(const Finding& f) {
  return std::tie(f.pattern, f.rank, f.thread, f.file, f.function, f.mpi_function);
}
auto site(const Finding& f) {
  return std::tuple_cat(site_without_line(f), std::tie(f.line));
}

std::int64_t line_distance(const Finding& a, const Finding& b) {
  return static_cast<std::int64_t>(b.line) - static_cast<std::int64_t>(a.line);
}

// A shifted line says nothing when the call site is unknown: without a file, a function or a
// line, only an exact match counts.
bool may_shift(const Finding& f) {
  return !f.file.empty() && !f.function.empty() && f.line != 0;
}

}  // namespace

std::vector<FindingMatch> match_findings(std::span<const Finding> base,
                                         std::span<const Finding> current) {
  std::vector<std::int64_t> partner(base.size(), -1);  // index into current
  std::vector<bool> taken(current.size(), false);

  // Exact call sites first, so that a shifted match never steals an exact partner.
  std::multimap<decltype(site(current[0])), std::size_t> by_site;
  for (std::size_t j = 0; j < current.size(); ++j) by_site.emplace(site(current[j]), j);
  for (std::size_t i = 0; i < base.size(); ++i) {
    auto [first, last] = by_site.equal_range(site(base[i]));
    for (; first != last; ++first)
      if (!taken[first->second]) {
        partner[i] = static_cast<std::int64_t>(first->second);
        taken[first->second] = true;
        break;
      }
  }

  // Then shifted lines, nearest pairs first.
  struct Candidate {
    std::int64_t distance;
    std::size_t base, current;
  };
  std::vector<Candidate> candidates;
  for (std::size_t i = 0; i < base.size(); ++i) {
    if (partner[i] >= 0 || !may_shift(base[i])) continue;
    for (std::size_t j = 0; j < current.size(); ++j) {
      if (taken[j] || !may_shift(current[j])) continue;
      const std::int64_t d = std::abs(line_distance(base[i], current[j]));
      if (d <= kLineShiftTolerance && site_without_line(base[i]) == site_without_line(current[j]))
        candidates.push_back({d, i, j});
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.distance < b.distance; });
  for (const Candidate& c : candidates)
    if (partner[c.base] < 0 && !taken[c.current]) {
      partner[c.base] = static_cast<std::int64_t>(c.current);
      taken[c.current] = true;
    }

  std::vector<FindingMatch> matches;
  for (std::size_t i = 0; i < base.size(); ++i) {
    if (partner[i] < 0) {
      matches.push_back({.base = &base[i]});
      continue;
    }
    const Finding& c = current[static_cast<std::size_t>(partner[i])];
    matches.push_back({.base = &base[i], .current = &c, .line_shift = line_distance(base[i], c)});
  }
  for (std::size_t j = 0; j < current.size(); ++j)
    if (!taken[j]) matches.push_back({.current = &current[j]});
  return matches;
}

namespace {

// Peer ranks and their threads: the union of both, ranks ascending, threads ascending.
using PeerSet = std::map<std::int32_t, std::set<std::int32_t>>;
void add_peers(PeerSet& into, const Finding& f) {
  for (std::size_t i = 0; i < f.peers.size(); ++i) {
    std::set<std::int32_t>& threads = into[f.peers[i]];
    if (i < f.peer_threads.size())
      threads.insert(f.peer_threads[i].begin(), f.peer_threads[i].end());
  }
}

}  // namespace

std::vector<Finding> findings_summed_over_ranks(std::span<const Finding> findings) {
  std::vector<Finding> sums;
  std::vector<PeerSet> peers;  // parallel to sums
  std::map<std::tuple<std::string, std::string, std::uint32_t, std::string, std::string>,
           std::size_t>
      index;
  for (const Finding& f : findings) {
    const auto key = std::tuple(f.pattern, f.file, f.line, f.function, f.mpi_function);
    const auto [it, added] = index.try_emplace(key, sums.size());
    if (added) {
      Finding& s = sums.emplace_back(f);
      s.rank = s.thread = kAllRanks;
      s.node.clear();
      s.occurrences = 0;
      s.wait_time_s = s.max_wait_s = 0;
      s.top_instances.clear();
      peers.emplace_back();
    }
    Finding& s = sums[it->second];
    s.occurrences += f.occurrences;
    s.wait_time_s += f.wait_time_s;
    s.max_wait_s = std::max(s.max_wait_s, f.max_wait_s);
    add_peers(peers[it->second], f);
  }
  for (std::size_t i = 0; i < sums.size(); ++i) {
    sums[i].peers.clear();
    sums[i].peer_threads.clear();
    for (const auto& [rank, threads] : peers[i]) {
      sums[i].peers.push_back(rank);
      sums[i].peer_threads.emplace_back(threads.begin(), threads.end());
    }
  }
  std::stable_sort(sums.begin(), sums.end(), [](const Finding& a, const Finding& b) {
    return a.wait_time_s > b.wait_time_s;
  });
  return sums;
}

}  // namespace collwrap
