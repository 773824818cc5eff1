// The communication matrix: per sender × receiver rank, how many point-to-point messages went
// and how long they took from the start of the send to the completion of the receive. One-sided
// transfers (OpenSHMEM, UPC) count too, in the direction the data moved: a put or an atomic's
// operand from the origin to the target, a get or an atomic's result from the target to the
// origin, each taking the duration of its call.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "analysis_result.h"
#include "matching.h"
#include "trace_model.h"

namespace collwrap {

// One cell per (sender, receiver) pair that exchanged at least one matched message or one-sided
// transfer, ordered by sender then receiver.
std::vector<CommPair> communication_matrix(const Trace& trace, const Matching& matching);

// The same in steps, for processes that divide a trace (distributed/): each collects the
// transfers counted at its locations (for_each_transfer's `at`), process 0 merges them and
// summarizes. A pair's times are summarized sorted, so the order they come in does not matter.
struct PairTimes {
  std::uint64_t bytes = 0;
  std::vector<double> transfer_s;
};
using PairTransfers = std::map<std::pair<std::int32_t, std::int32_t>, PairTimes>;
PairTransfers collect_transfers(const Trace& trace, const Matching& matching,
                                const LocationRange& at = {});
void merge_transfers(PairTransfers& into, PairTransfers&& from);
// How many processes counted transfers of each pair. A transfer counts where it was issued, so
// that two processes may count one pair: sends from one rank and gets by the other, or the
// threads of a rank that two processes hold.
using PairHolders = std::map<std::pair<std::int32_t, std::int32_t>, std::uint32_t>;
// The cells of the pairs in `pairs` that no other process counted (1 in `holders`), made from
// their times and taken out of `pairs`: a process sends those cells rather than every
// transfer's time (8 bytes per message), and the times of the other pairs.
std::vector<CommPair> take_unshared_cells(PairTransfers& pairs, const PairHolders& holders);
// The cells of `pairs`, with the cells `made` already, ordered by sender then receiver.
std::vector<CommPair> communication_matrix(PairTransfers pairs, std::vector<CommPair> made = {});

}  // namespace collwrap
