// The clock repair of a divided trace: each process repairs the locations it holds, its ghosts
// take their holders' shifts after every pass, and every time comes out as the whole trace's
// repair gives it, held or ghost, for every way of dividing the locations. The processes are
// threads here, sharing through one board between barriers as the job's do through MPI.
#include <gtest/gtest.h>

#include <barrier>
#include <thread>
#include <vector>

#include "clock_repair.h"
#include "divided_trace.h"

namespace collwrap {
namespace {

class ThreadJob;

// One process's side of the job.
class ThreadShares : public ClockRepairShares {
 public:
  ThreadShares(ThreadJob& job, unsigned self) : job_(job), self_(self) {}
  LocationRange held() const override;
  void share(std::vector<std::vector<std::uint16_t>>& shifts) override { take(shifts); }
  void share(std::vector<std::vector<std::uint32_t>>& shifts) override { take(shifts); }
  void share(std::vector<std::vector<TimeNs>>& shifts) override { take(shifts); }
  std::uint64_t sum(std::uint64_t value) override;
  TimeNs max(TimeNs value) override;
  bool all(bool value) override { return sum(value ? 0 : 1) == 0; }

 private:
  template <class Shift>
  void take(std::vector<std::vector<Shift>>& shifts);

  ThreadJob& job_;
  unsigned self_;
};

// What the processes post for each other, between two barriers.
class ThreadJob {
 public:
  explicit ThreadJob(std::vector<PartialTrace>& parts)
      : parts(parts),
        barrier(static_cast<std::ptrdiff_t>(parts.size())),
        posted(parts.size()),
        values(parts.size()) {}
  unsigned holder(std::uint32_t location) const {
    for (unsigned p = 0; p < parts.size(); ++p)
      if (parts[p].holds(location)) return p;
    return 0;
  }
  std::vector<PartialTrace>& parts;
  std::barrier<> barrier;
  std::vector<void*> posted;  // each process's shifts
  std::vector<TimeNs> values;
};

LocationRange ThreadShares::held() const {
  return job_.parts[self_].held;
}

template <class Shift>
void ThreadShares::take(std::vector<std::vector<Shift>>& shifts) {
  job_.posted[self_] = &shifts;
  job_.barrier.arrive_and_wait();
  const PartialTrace& part = job_.parts[self_];
  for (std::uint32_t loc = 0; loc < shifts.size(); ++loc) {
    if (part.holds(loc) || part.origin_call[loc].empty()) continue;
    const unsigned holder = job_.holder(loc);
    const auto& from = (*static_cast<std::vector<std::vector<Shift>>*>(job_.posted[holder]))[loc];
    const std::vector<std::uint32_t> positions = ghost_event_positions(
        job_.parts[holder].trace.locations[loc], part.origin_call[loc], part.origin_op[loc]);
    ASSERT_EQ(positions.size(), shifts[loc].size());
    for (std::size_t i = 0; i < positions.size(); ++i) shifts[loc][i] = from[positions[i]];
  }
  job_.barrier.arrive_and_wait();  // nobody writes a held location's shifts before all read
}

std::uint64_t ThreadShares::sum(std::uint64_t value) {
  job_.values[self_] = static_cast<TimeNs>(value);
  job_.barrier.arrive_and_wait();
  std::uint64_t total = 0;
  for (const TimeNs v : job_.values) total += static_cast<std::uint64_t>(v);
  job_.barrier.arrive_and_wait();
  return total;
}

TimeNs ThreadShares::max(TimeNs value) {
  job_.values[self_] = value;
  job_.barrier.arrive_and_wait();
  TimeNs most = value;
  for (const TimeNs v : job_.values) most = std::max(most, v);
  job_.barrier.arrive_and_wait();
  return most;
}

void expect_same_times(const Location& got, const Location& expected,
                       const std::vector<std::uint32_t>& origin_call,
                       const std::vector<std::uint32_t>& origin_op, const std::string& what) {
  const bool ghost = !origin_call.empty();
  ASSERT_EQ(got.calls(), ghost ? origin_call.size() : expected.calls()) << what;
  for (std::uint32_t c = 0; c < got.calls(); ++c) {
    const std::uint32_t original = ghost ? origin_call[c] : c;
    EXPECT_EQ(got.call_enter[c], expected.call_enter[original]) << what << " call " << c;
    EXPECT_EQ(got.call_leave[c], expected.call_leave[original]) << what << " call " << c;
  }
  for (std::uint32_t op = 0; op < got.ops(); ++op)
    EXPECT_EQ(got.op_time(op), expected.op_time(ghost ? origin_op[op] : op))
        << what << " op " << op;
}

TEST(DividedClockRepair, EveryProcessRepairsItsLocationsAndGhostsAsTheWholeTrace) {
  const Trace whole = varied_trace();
  Trace repaired = whole;
  const ClockRepairReport serial = repair_clocks(repaired, match_trace(repaired, 1));
  ASSERT_GT(serial.violations_before, 0u);
  ASSERT_GT(serial.passes, 0u);
  ASSERT_GT(serial.max_shift, 0);
  for (unsigned processes = 2; processes <= whole.locations.size(); ++processes) {
    SCOPED_TRACE(std::to_string(processes) + " processes");
    const std::vector<LocationRange> shares =
        split_locations(events_per_location(whole), processes);
    // The clock repair reads every collective's members: the job repairs without digests.
    auto [parts, matchings, digests] = divide(whole, shares, Digests::None);
    ThreadJob job(parts);
    std::vector<ClockRepairReport> reports(processes);
    std::vector<std::thread> threads;
    for (unsigned self = 0; self < processes; ++self)
      threads.emplace_back([&, self] {
        ThreadShares mine(job, self);
        reports[self] = repair_clocks(parts[self].trace, matchings[self], {}, 1, &mine);
      });
    for (std::thread& t : threads) t.join();
    for (unsigned self = 0; self < processes; ++self) {
      EXPECT_EQ(reports[self].violations_before, serial.violations_before);
      EXPECT_EQ(reports[self].violations_after, serial.violations_after);
      EXPECT_EQ(reports[self].passes, serial.passes);
      EXPECT_EQ(reports[self].max_shift, serial.max_shift);
      EXPECT_EQ(parts[self].trace.end, repaired.end);
      for (std::uint32_t loc = 0; loc < whole.locations.size(); ++loc)
        expect_same_times(parts[self].trace.locations[loc], repaired.locations[loc],
                          parts[self].origin_call[loc], parts[self].origin_op[loc],
                          "process " + std::to_string(self) + " location " + std::to_string(loc));
    }
  }
}

}  // namespace
}  // namespace collwrap
