// analyzer --timings: each phase's wall time and the peak resident size while it ran.
#include "phase_timings.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstring>
#include <initializer_list>
#include <sstream>

namespace collwrap::testing {
namespace {

using std::chrono::milliseconds;

struct FakeProcess {
  PhaseTimings::Clock::time_point now{};
  std::uint64_t peak = 0;
  int resets = 0;
  PhaseTimings timings{[this] { return now; }, [this] { return peak; },
                       [this] { return ++resets, true; }};

  // Runs the phases in turn, each lasting its time and leaving the peak at its MiB.
  struct Step {
    const char* name;
    int ms;
    std::uint64_t peak_mib;
  };
  void run(std::initializer_list<Step> steps) {
    for (const Step& step : steps) {
      timings.phase(step.name);
      now += milliseconds(step.ms);
      peak = step.peak_mib << 20;
    }
    timings.finish();
  }
};

TEST(PhaseTimings, EachPhaseEndsWhereTheNextBegins) {
  FakeProcess p;
  p.run({{"reading", 400, 200}, {"matching", 100, 300}});
  ASSERT_EQ(p.timings.phases().size(), 2u);
  EXPECT_EQ(p.timings.phases()[0].name, "reading");
  EXPECT_DOUBLE_EQ(p.timings.phases()[0].seconds, 0.4);
  EXPECT_EQ(p.timings.phases()[0].peak_bytes, 200u << 20);
  EXPECT_DOUBLE_EQ(p.timings.phases()[1].seconds, 0.1);
  EXPECT_EQ(p.timings.phases()[1].peak_bytes, 300u << 20);
}

TEST(PhaseTimings, EachPhaseStartsThePeakOver) {
  FakeProcess p;
  p.run({{"reading", 1, 1}, {"matching", 1, 2}, {"patterns", 1, 3}});
  EXPECT_EQ(p.resets, 3);
}

TEST(PhaseTimings, FinishingTwiceKeepsTheFirstEnd) {
  FakeProcess p;
  p.run({{"patterns", 250, 10}});
  p.now += milliseconds(900);
  p.timings.finish();  // the error path and the normal end both finish
  EXPECT_DOUBLE_EQ(p.timings.phases()[0].seconds, 0.25);
}

TEST(PhaseTimings, WritesOneLinePerPhaseAndTheTotal) {
  FakeProcess p;
  p.run({{"reading", 1500, 100}, {"patterns", 500, 150}});
  std::ostringstream out;
  p.timings.write(out);
  EXPECT_EQ(out.str(),
            "analyzer: time and peak resident size of each phase\n"
            "  reading              1.50 s      100 MiB peak\n"
            "  patterns             0.50 s      150 MiB peak\n"
            "  total                2.00 s      150 MiB peak\n");
}

TEST(PhaseTimings, ThisProcessHasAPeak) {
  EXPECT_GT(peak_resident_bytes(), 0u);
}

TEST(PhaseTimings, ThisProcessCanStartItsPeakOver) {
  // 256 MiB mapped, touched and unmapped, then the peak started over: it no longer counts them.
  constexpr std::size_t kBytes = std::size_t{256} << 20;
  void* block = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(block, MAP_FAILED);
  std::memset(block, 1, kBytes);
  const std::uint64_t with_block = peak_resident_bytes();
  munmap(block, kBytes);
  if (!reset_peak_resident_bytes()) GTEST_SKIP() << "the system does not reset the peak";
  EXPECT_LT(peak_resident_bytes() + (kBytes / 2), with_block);
}

}  // namespace
}  // namespace collwrap::testing
