#include "noise_bursts.h"

#include <gtest/gtest.h>

namespace collwrap::noise {
namespace {

TEST(NoiseBursts, ExcessOverTheFastestQuantumAboveTheThresholdIsABurst) {
  BurstDetector detector(/*threshold_ticks=*/20);
  // Quanta back to back from tick 1000: durations 100 100 150 100 99 300 121.
  std::int64_t t = 1000;
  for (std::int64_t d : {100, 100, 150, 100, 99, 300, 121}) {
    detector.add(t, d);
    t += d;
  }
  const DetectedBursts out = detector.finish(/*origin=*/1000, /*ticks_per_second=*/1e6);
  EXPECT_EQ(out.quanta, 7u);
  EXPECT_DOUBLE_EQ(out.min_quantum_s, 99e-6);
  // 150 − 99 = 51 (quantum starting at 1200), 300 − 99 = 201 (at 1549), 121 − 99 = 22 (at 1849);
  // the 100s exceed the minimum by 1.
  ASSERT_EQ(out.bursts.size(), 3u);
  EXPECT_DOUBLE_EQ(out.bursts[0].start_s, 200e-6);
  EXPECT_DOUBLE_EQ(out.bursts[0].duration_s, 51e-6);
  EXPECT_DOUBLE_EQ(out.bursts[1].start_s, 549e-6);
  EXPECT_DOUBLE_EQ(out.bursts[1].duration_s, 201e-6);
  EXPECT_DOUBLE_EQ(out.bursts[2].duration_s, 22e-6);
}

TEST(NoiseBursts, CandidatesAreMeasuredAgainstTheFinalMinimum) {
  BurstDetector detector(20);
  detector.add(0, 130);    // a candidate only once the minimum has fallen: lost, as documented
  detector.add(130, 150);  // 150 − 130 = 20 is not above the threshold either
  detector.add(280, 100);
  detector.add(380, 125);  // 25 above the final minimum
  const DetectedBursts out = detector.finish(0, 1e9);
  ASSERT_EQ(out.bursts.size(), 1u);
  EXPECT_DOUBLE_EQ(out.bursts[0].duration_s, 25e-9);

  BurstDetector warmed(20);
  warmed.observe(100);  // the warm-up found the fastest quantum before recording
  warmed.add(0, 130);
  warmed.add(130, 150);
  const DetectedBursts both = warmed.finish(0, 1e9);
  ASSERT_EQ(both.bursts.size(), 2u);
  EXPECT_DOUBLE_EQ(both.bursts[0].duration_s, 30e-9);
  EXPECT_DOUBLE_EQ(both.bursts[1].duration_s, 50e-9);
  EXPECT_EQ(both.quanta, 2u);  // warm-up quanta are not counted
}

TEST(NoiseBursts, NoQuantaNoBursts) {
  const DetectedBursts out = BurstDetector(10).finish(0, 1e9);
  EXPECT_EQ(out.quanta, 0u);
  EXPECT_TRUE(out.bursts.empty());
}

}  // namespace
}  // namespace collwrap::noise
