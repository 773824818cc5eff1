// The analyzer's progress line: silent for the first two seconds, when disabled and when
// standard error is not a terminal; redrawn in place at most once per interval (at once on a
// new phase); erased by finish().
#include "progress.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <sstream>
#include <string>
#include <thread>

namespace collwrap {
namespace {

using namespace std::chrono_literals;

// A clock the test moves by hand.
struct FakeClock {
  ProgressReporter::Clock::time_point now{};
  ProgressReporter::Options options(bool enabled = true) {
    ProgressReporter::Options o;
    o.enabled = enabled;
    o.delay = 2s;
    o.interval = 200ms;
    o.now = [this] { return now; };
    return o;
  }
};

TEST(ProgressReporter, TellsTheTimingsOfEveryPhaseEvenWhenSilent) {
  FakeClock clock;
  PhaseTimings timings([&] { return clock.now; }, [] { return std::uint64_t{1} << 20; },
                       [] { return true; });
  std::ostringstream out;
  ProgressReporter::Options options = clock.options(false);
  options.timings = &timings;
  ProgressReporter reporter(out, 2, options);
  reporter.phase("reading");
  clock.now += 300ms;
  reporter.phase("matching");
  clock.now += 100ms;
  reporter.finish();
  EXPECT_EQ(out.str(), "");  // disabled: nothing drawn
  ASSERT_EQ(timings.phases().size(), 2u);
  EXPECT_DOUBLE_EQ(timings.phases()[0].seconds, 0.3);
  EXPECT_EQ(timings.phases()[1].name, "matching");
  EXPECT_DOUBLE_EQ(timings.phases()[1].seconds, 0.1);
}

TEST(ProgressLine, Format) {
  EXPECT_EQ(ProgressReporter::line(1, 5, "reading", 0.42, 3500ms),
            "analyzer: [1/5] reading 42% (3 s)");
  EXPECT_EQ(ProgressReporter::line(2, 5, "matching", std::nullopt, 12s),
            "analyzer: [2/5] matching (12 s)");
  EXPECT_EQ(ProgressReporter::line(1, 4, "reading", 1.7, 2s), "analyzer: [1/4] reading 100% (2 s)");
  EXPECT_EQ(ProgressReporter::line(1, 4, "reading", -1, 2s), "analyzer: [1/4] reading 0% (2 s)");
}

TEST(ProgressLine, SilentForTheFirstTwoSeconds) {
  FakeClock clock;
  std::ostringstream out;
  ProgressReporter p(out, 5, clock.options());
  p.phase("reading");
  for (int i = 0; i < 19; ++i) {
    clock.now += 100ms;
    p.progress(i / 20.0);
    p.tick();
  }
  p.phase("matching");
  p.finish();
  EXPECT_EQ(out.str(), "");  // a short analysis never shows a line, nor erases one
}

TEST(ProgressLine, ShownAfterTwoSecondsAndRedrawnInPlace) {
  FakeClock clock;
  std::ostringstream out;
  ProgressReporter p(out, 5, clock.options());
  p.phase("reading");
  clock.now += 2100ms;
  p.progress(0.5);
  EXPECT_EQ(out.str(), "\ranalyzer: [1/5] reading 50% (2 s)");
  out.str("");
  clock.now += 50ms;  // within the interval: no redraw
  p.progress(0.6);
  p.tick();
  EXPECT_EQ(out.str(), "");
  clock.now += 200ms;
  p.tick();  // the fraction given in between shows now
  EXPECT_EQ(out.str(), "\ranalyzer: [1/5] reading 60% (2 s)");
  out.str("");
  clock.now += 10ms;
  p.phase("matching");  // a new phase shows at once, padded over the longer old line
  EXPECT_EQ(out.str(), "\ranalyzer: [2/5] matching (2 s)   ");
  out.str("");
  p.finish();
  EXPECT_EQ(out.str(), "\r" + std::string(30, ' ') + "\r");
  out.str("");
  clock.now += 1s;
  p.tick();  // nothing after finish()
  p.finish();
  EXPECT_EQ(out.str(), "");
}

TEST(ProgressLine, DisabledPrintsNothing) {
  FakeClock clock;
  std::ostringstream out;
  ProgressReporter p(out, 5, clock.options(false));
  p.phase("reading");
  clock.now += 10s;
  p.progress(0.5);
  p.tick();
  p.phase("writing reports");
  p.finish();
  EXPECT_EQ(out.str(), "");
}

TEST(ProgressLine, DestructorErasesTheLine) {
  FakeClock clock;
  std::ostringstream out;
  {
    ProgressReporter p(out, 4, clock.options());
    clock.now += 3s;
    p.phase("patterns");
  }
  EXPECT_EQ(out.str(), "\ranalyzer: [1/4] patterns (3 s)\r" + std::string(30, ' ') + "\r");
}

TEST(ProgressLine, TickerRedrawsWhileAPhaseRuns) {
  std::ostringstream out;
  std::atomic<int> clock_reads{0};
  ProgressReporter::Options o;
  o.delay = 0ms;
  o.interval = 0ms;
  o.now = [&] {
    ++clock_reads;
    return ProgressReporter::Clock::now();
  };
  ProgressReporter p(out, 1, o);
  p.phase("matching");
  const std::size_t after_phase = out.str().size();
  const int reads_before = clock_reads;
  {
    ProgressTicker ticker(p, 1ms);
    // Until the ticker has redrawn twice (bounded, for a loaded machine).
    for (int i = 0; i < 5000 && clock_reads < reads_before + 2; ++i)
      std::this_thread::sleep_for(1ms);
  }
  const std::size_t after_ticks = out.str().size();  // the ticker has stopped: safe to read
  EXPECT_GT(after_ticks, after_phase);
  p.finish();
}

TEST(ProgressWanted, OnlyOnATerminalAndNotQuiet) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  EXPECT_FALSE(progress_wanted(false, pipe_fds[1]));  // standard error redirected to a pipe
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
  const int null = ::open("/dev/null", O_WRONLY);
  ASSERT_GE(null, 0);
  EXPECT_FALSE(progress_wanted(false, null));
  ::close(null);

  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0)
    GTEST_SKIP() << "no pseudo-terminal available";
  const int terminal = ::open(::ptsname(master), O_RDWR | O_NOCTTY);
  ASSERT_GE(terminal, 0);
  EXPECT_TRUE(progress_wanted(false, terminal));
  EXPECT_FALSE(progress_wanted(true, terminal));  // --quiet
  ::close(terminal);
  ::close(master);
}

}  // namespace
}  // namespace collwrap
