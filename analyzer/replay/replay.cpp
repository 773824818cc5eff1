#include "replay.h"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>

#include "replayer.h"

namespace collwrap {
namespace {

using replay_engine::LaneTimes;
using replay_engine::Replayer;

template <std::size_t L>
void replay_lanes(const ReplayGraph& graph, std::span<const std::span<const ScaledSegment>> scaled,
                  std::span<TimeNs> ends, std::span<std::vector<TimeNs>> enter) {
  std::array<std::span<const ScaledSegment>, L> lanes{};
  std::copy(scaled.begin(), scaled.end(), lanes.begin());
  const LaneTimes<L> end =
      Replayer<L>(graph, NetworkModel::AsRecorded, lanes, enter.template first<L>(), nullptr).run();
  std::copy_n(end.begin(), ends.size(), ends.begin());
}

}  // namespace

void ReplaySchedule::reset(std::size_t locations) {
  loc_bits = std::max(1u, static_cast<unsigned>(std::bit_width(locations)));
  if (loc_bits > 24) throw std::invalid_argument("replay schedule: more than 2^24 locations");
  runs.clear();
  broken.clear();
  calls = 0;
}

void replay_into(const ReplayGraph& graph, const ReplayOptions& options, ReplayTimes& times) {
  const std::array<std::span<const ScaledSegment>, 1> scaled{options.scaled_segments};
  times.end = Replayer<1>(graph, options.network, scaled,
                          std::span<std::vector<TimeNs>, 1>(&times.enter, 1), &times)
                  .run()[0];
}

void replay_ends(const ReplayGraph& graph, std::span<const std::span<const ScaledSegment>> scaled,
                 std::span<TimeNs> ends, std::span<std::vector<TimeNs>> enter) {
  if (scaled.size() != ends.size() || enter.size() < ends.size())
    throw std::invalid_argument(
        "replay_ends: a list of scaled segments and an Enter table per lane");
  if (ends.empty()) return;
  replay_engine::with_lanes(ends.size(), "replay_ends", [&](auto lanes) {
    replay_lanes<decltype(lanes)::value>(graph, scaled, ends, enter);
  });
}

void replay_recorded_and_ideal(const ReplayGraph& graph, ReplayTimes& recorded,
                               ReplayTimes& ideal) {
  const LaneTimes<2> end =
      Replayer<2>(graph, {NetworkModel::AsRecorded, NetworkModel::Ideal}, {&recorded, &ideal})
          .run();
  recorded.end = end[0];
  ideal.end = end[1];
}

ReplayTimes replay_trace(const ReplayGraph& graph, const ReplayOptions& options) {
  ReplayTimes times;
  replay_into(graph, options, times);
  return times;
}

}  // namespace collwrap
