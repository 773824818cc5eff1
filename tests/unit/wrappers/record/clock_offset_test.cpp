#include "record/clock_offset.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace collwrap::tracer {
namespace {

// A synthetic peer whose clock reads reference time minus `skew` (so the true offset, to add to
// the peer's clock, is +skew), with one-way latencies chosen per exchange.
PingPongExchange exchange_with(Ticks ref_send, std::int64_t skew, Ticks there, Ticks back) {
  Ticks peer_reads_at = ref_send + there;  // reference time when the peer reads its clock
  return {ref_send, Ticks(std::int64_t(peer_reads_at) - skew), peer_reads_at + back};
}

TEST(EstimateOffset, SymmetricDelayGivesExactOffset) {
  OffsetEstimate e = estimate_offset(exchange_with(1'000'000, 5'000, 300, 300));
  EXPECT_EQ(e.offset, 5'000);
  EXPECT_EQ(e.rtt, 600u);
  EXPECT_EQ(e.peer_time, Ticks(1'000'300 - 5'000));
}

TEST(EstimateOffset, NegativeOffsetWhenPeerIsAhead) {
  OffsetEstimate e = estimate_offset(exchange_with(1'000'000, -70'000, 100, 100));
  EXPECT_EQ(e.offset, -70'000);
}

TEST(EstimateOffset, AsymmetryErrorIsBoundedByHalfTheRoundTrip) {
  OffsetEstimate e = estimate_offset(exchange_with(1'000'000, 5'000, 100, 900));
  EXPECT_LE(std::abs(e.offset - 5'000), std::int64_t(e.rtt / 2));
  EXPECT_NE(e.offset, 5'000);
}

TEST(MinRttEstimator, KeepsTheExchangeWithTheSmallestRoundTrip) {
  MinRttEstimator estimator(5, 100);
  estimator.add(exchange_with(1000, 42, 400, 900));
  estimator.add(exchange_with(5000, 42, 50, 50));  // the best: symmetric and short
  estimator.add(exchange_with(9000, 42, 700, 100));
  ASSERT_TRUE(estimator.best().has_value());
  EXPECT_EQ(estimator.best()->rtt, 100u);
  EXPECT_EQ(estimator.best()->offset, 42);
}

TEST(MinRttEstimator, StopsAfterPatienceRoundsWithoutImprovement) {
  MinRttEstimator estimator(3, 1000);
  estimator.add(exchange_with(0, 0, 100, 100));
  EXPECT_FALSE(estimator.done());
  estimator.add(exchange_with(1000, 0, 200, 200));
  estimator.add(exchange_with(2000, 0, 200, 200));
  EXPECT_FALSE(estimator.done());
  estimator.add(exchange_with(3000, 0, 50, 50));  // improvement resets the count
  estimator.add(exchange_with(4000, 0, 200, 200));
  estimator.add(exchange_with(5000, 0, 200, 200));
  EXPECT_FALSE(estimator.done());
  estimator.add(exchange_with(6000, 0, 200, 200));
  EXPECT_TRUE(estimator.done());
  EXPECT_EQ(estimator.exchanges(), 7u);
}

TEST(MinRttEstimator, StopsAtTheExchangeCap) {
  MinRttEstimator estimator(1000, 10);
  for (Ticks i = 0; i < 10; ++i) {
    EXPECT_FALSE(estimator.done());
    estimator.add(exchange_with(i * 1000, 0, 100 - i, 100 - i));  // always improving
  }
  EXPECT_TRUE(estimator.done());
}

TEST(MinRttEstimator, IgnoresExchangesWhereTheClockRanBackwards) {
  MinRttEstimator estimator(2, 100);
  estimator.add({5000, 10, 4000});
  EXPECT_FALSE(estimator.best().has_value());
  estimator.add(exchange_with(6000, 7, 10, 10));
  EXPECT_EQ(estimator.best()->offset, 7);
}

TEST(OffsetAt, InterpolatesLinearlyBetweenMeasurements) {
  std::vector<ClockOffsetSample> offsets{{1000, 100, 0}, {3000, 300, 0}};
  EXPECT_EQ(offset_at(offsets, 1000), 100);
  EXPECT_EQ(offset_at(offsets, 2000), 200);
  EXPECT_EQ(offset_at(offsets, 3000), 300);
}

TEST(OffsetAt, ExtendsTheOuterIntervalsLikeTheOtf2Reader) {
  std::vector<ClockOffsetSample> offsets{{1000, 100, 0}, {3000, 300, 0}, {5000, 300, 0}};
  EXPECT_EQ(offset_at(offsets, 0), 0);       // first interval's slope, backwards
  EXPECT_EQ(offset_at(offsets, 4000), 300);  // second interval is flat
  EXPECT_EQ(offset_at(offsets, 9000), 300);
  std::vector<ClockOffsetSample> rising{{1000, 100, 0}, {3000, 300, 0}};
  EXPECT_EQ(offset_at(rising, 9000), 900);
}

TEST(OffsetAt, OneRecordIsAConstantAndNoneIsZero) {
  std::vector<ClockOffsetSample> one{{1000, -70, 0}};
  EXPECT_EQ(offset_at(one, 0), -70);
  EXPECT_EQ(offset_at(one, 5000), -70);
  EXPECT_EQ(offset_at({}, 5), 0);
}

TEST(OffsetAt, RecoversDriftOfASkewedClock) {
  // A peer clock running 1000 ppm slow with a 5 s offset at 1 GHz: reference = 1.001 * peer + 5e9.
  auto reference = [](double peer) { return 1.001 * peer + 5e9; };
  std::vector<ClockOffsetSample> offsets{{1'000'000'000, std::int64_t(reference(1e9) - 1e9), 0},
                                         {61'000'000'000, std::int64_t(reference(61e9) - 61e9), 0}};
  Ticks mid = 31'000'000'000;
  EXPECT_NEAR(double(mid + offset_at(offsets, mid)), reference(double(mid)), 2.0);
}

}  // namespace
}  // namespace collwrap::tracer
