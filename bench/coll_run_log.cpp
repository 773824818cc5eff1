#include "coll_run_log.h"

#include <algorithm>

namespace collwrap::bench {

void RunLog::add_stage(std::span<const double> times_us, std::span<const int> invalid) {
  for (std::size_t run = 0; run < invalid.size(); ++run) {
    ++total_;
    if (invalid[run]) continue;
    const auto ranks = times_us.subspan(run * std::size_t(ranks_), std::size_t(ranks_));
    valid_times_.push_back(rule_ == RunTimeRule::MaxOverRanks
                               ? *std::max_element(ranks.begin(), ranks.end())
                               : ranks[0]);
    for (int r = 0; r < ranks_; ++r) rank_sums_[std::size_t(r)] += ranks[std::size_t(r)];
  }
}

std::vector<double> RunLog::per_rank_mean_us() const {
  std::vector<double> means(rank_sums_);
  if (valid() > 0)
    for (double& m : means) m /= valid();
  return means;
}

}  // namespace collwrap::bench
