// analyzer --timings: each phase's wall time and the peak resident size when it ended.
#include "phase_timings.h"

#include <gtest/gtest.h>

#include <sstream>

namespace collwrap::testing {
namespace {

using std::chrono::milliseconds;

struct FakeProcess {
  PhaseTimings::Clock::time_point now{};
  std::uint64_t peak = 0;
  PhaseTimings timings{[this] { return now; }, [this] { return peak; }};
};

TEST(PhaseTimings, EachPhaseEndsWhereTheNextBegins) {
  FakeProcess p;
  p.timings.phase("reading");
  p.now += milliseconds(400);
  p.peak = 200 << 20;
  p.timings.phase("matching");
  p.now += milliseconds(100);
  p.peak = 300 << 20;
  p.timings.finish();
  ASSERT_EQ(p.timings.phases().size(), 2u);
  EXPECT_EQ(p.timings.phases()[0].name, "reading");
  EXPECT_DOUBLE_EQ(p.timings.phases()[0].seconds, 0.4);
  EXPECT_EQ(p.timings.phases()[0].peak_bytes, 200u << 20);
  EXPECT_DOUBLE_EQ(p.timings.phases()[1].seconds, 0.1);
  EXPECT_EQ(p.timings.phases()[1].peak_bytes, 300u << 20);
}

TEST(PhaseTimings, FinishingTwiceKeepsTheFirstEnd) {
  FakeProcess p;
  p.timings.phase("patterns");
  p.now += milliseconds(250);
  p.timings.finish();
  p.now += milliseconds(900);
  p.timings.finish();  // the error path and the normal end both finish
  EXPECT_DOUBLE_EQ(p.timings.phases()[0].seconds, 0.25);
}

TEST(PhaseTimings, WritesOneLinePerPhaseAndTheTotal) {
  FakeProcess p;
  p.timings.phase("reading");
  p.now += milliseconds(1500);
  p.peak = 100 << 20;
  p.timings.phase("patterns");
  p.now += milliseconds(500);
  p.peak = 150 << 20;
  p.timings.finish();
  std::ostringstream out;
  p.timings.write(out);
  EXPECT_EQ(out.str(),
            "analyzer: time and peak resident size of each phase\n"
            "  reading              1.50 s      100 MiB peak\n"
            "  patterns             0.50 s      150 MiB peak\n"
            "  total                2.00 s      150 MiB peak\n");
}

TEST(PhaseTimings, ThisProcessHasAPeak) { EXPECT_GT(peak_resident_bytes(), 0u); }

}  // namespace
}  // namespace collwrap::testing
