// The runs of one measurement (one collective, one message size), free of MPI. Each stage
// delivers every rank's time for each of its runs and which runs were invalid; the log keeps
// the run times that count and what each rank contributed to them.
#pragma once

#include <span>
#include <vector>

namespace collwrap::bench {

// How a run's time follows from its ranks' times.
enum class RunTimeRule {
  MaxOverRanks,  // the collective is done when its last rank is (window and barrier methods)
  RankZero,      // what a benchmark timing only rank 0 reports (the naive method)
};

class RunLog {
 public:
  RunLog(int ranks, RunTimeRule rule) : ranks_(ranks), rule_(rule), rank_sums_(ranks, 0.0) {}

  // times_us[l·ranks + r] is rank r's time in run l; invalid[l] ≠ 0 drops run l.
  void add_stage(std::span<const double> times_us, std::span<const int> invalid);

  int total() const { return total_; }
  int valid() const { return int(valid_times_.size()); }
  int failed() const { return total_ - valid(); }
  const std::vector<double>& valid_times_us() const { return valid_times_; }
  // Each rank's mean time over the valid runs; zeros before any.
  std::vector<double> per_rank_mean_us() const;

 private:
  int ranks_;
  RunTimeRule rule_;
  int total_ = 0;
  std::vector<double> valid_times_;
  std::vector<double> rank_sums_;
};

}  // namespace collwrap::bench
