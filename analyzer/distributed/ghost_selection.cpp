#include "ghost_selection.h"

#include <algorithm>
#include <map>
#include <span>

#include "collective_timing.h"

namespace collwrap {
namespace {

// What another process needs of one location, collected op by op.
class Selection {
 public:
  Selection(unsigned processes, unsigned holder) : needs_(processes), holder_(holder) {}

  // Adds `op`, and `partner` unless kNone, for every process in `to` but the holder.
  void add(std::span<const unsigned> to, std::uint32_t op, std::uint32_t partner = kNone) {
    for (const unsigned p : to) {
      if (p == holder_) continue;
      needs_[p].ops.push_back(op);
      if (partner != kNone) needs_[p].ops.push_back(partner);
    }
  }
  // Adds a call without records for every process in `to` but the holder.
  void add_call(std::span<const unsigned> to, std::uint32_t call) {
    for (const unsigned p : to)
      if (p != holder_) needs_[p].calls.push_back(call);
  }

  // Requests are completed after their post, so partners come out of order, and a key's two
  // ranks may both be held by one process (added twice): sorted, without repeats.
  std::vector<GhostSelection> take() {
    for (GhostSelection& needs : needs_)
      for (std::vector<std::uint32_t>* list : {&needs.ops, &needs.calls}) {
        std::sort(list->begin(), list->end());
        list->erase(std::unique(list->begin(), list->end()), list->end());
      }
    return std::move(needs_);
  }

 private:
  std::vector<GhostSelection> needs_;
  unsigned holder_;
};

// The general-active-target epochs open on a location, as its ops are walked: by window, the
// processes that hold a rank of the epoch's group, which need the epoch's opening and closing
// records and, of an access epoch, its transfers on the window (the GATS rules).
class OpenEpochs {
 public:
  OpenEpochs(const Trace& trace, const ProcessMap& map) : trace_(trace), map_(map) {}

  // The holders an RmaGroupSync record goes to: those of its group when it opens an epoch,
  // those of the epoch it closes.
  std::vector<unsigned> group_sync(const Location& l, std::uint32_t op) {
    const auto window = static_cast<std::uint32_t>(l.op_tag[op]);
    const RegionClass cls = trace_.regions[l.call_region[l.op_call[op]]].cls;
    if (cls == RegionClass::RmaStart || cls == RegionClass::RmaPost) {
      std::vector<unsigned>& holders = open_[window];
      holders.clear();
      if (l.op_comm[op] != kNone)
        for (const std::int32_t rank : trace_.comms[l.op_comm[op]].world_ranks)
          for (const unsigned p : map_.holders_of_rank(rank))
            if (std::find(holders.begin(), holders.end(), p) == holders.end()) holders.push_back(p);
      return holders;
    }
    const auto it = open_.find(window);
    if (it == open_.end()) return {};
    std::vector<unsigned> holders = std::move(it->second);
    open_.erase(it);
    return holders;
  }

  // The holders of the epoch open on `window`, if any.
  std::span<const unsigned> on(std::uint32_t window) const {
    const auto it = open_.find(window);
    return it == open_.end() ? std::span<const unsigned>{} : std::span(it->second);
  }

 private:
  const Trace& trace_;
  const ProcessMap& map_;
  std::map<std::uint32_t, std::vector<unsigned>> open_;
};

}  // namespace

std::vector<GhostSelection> select_ghosts(const Trace& trace, const Matching& links,
                                          std::uint32_t location, const ProcessMap& map,
                                          const std::vector<std::uint8_t>* digested_comms) {
  const Location& l = trace.locations[location];
  Selection selection(map.processes(), map.holder(location));
  OpenEpochs epochs(trace, map);
  for (std::uint32_t op = 0; op < l.ops(); ++op) {
    const std::uint32_t partner = links.partner_of(location, op);
    switch (l.op_kind[op]) {
      case OpKind::Send:
      case OpKind::Isend:  // with its completion (or cancellation)
      case OpKind::Recv:
      case OpKind::Irecv:  // with its post
        // The holders of either of the key's ranks: the peer's, and this rank's other threads'.
        selection.add(map.holders_of_rank(l.op_peer[op]), op, partner);
        selection.add(map.holders_of_rank(l.rank), op, partner);
        break;
      case OpKind::CollectiveEnd:
      case OpKind::NbcComplete:  // with its post
        if (digested(digested_comms, l.op_comm[op])) break;
        selection.add(map.holders_of_comm(l.op_comm[op]), op, partner);
        if (l.op_kind[op] == OpKind::CollectiveEnd && l.op_call[op] != kNone)
          if (const std::uint32_t notify = split_phase_notify(trace, location, l.op_call[op]);
              notify != kNone)
            selection.add_call(map.holders_of_comm(l.op_comm[op]), notify);
        break;
      case OpKind::RmaPut:
      case OpKind::RmaGet:
      case OpKind::RmaAtomic:
        // The target's holders: a put or atomic may release its wait (late_wait_until), any
        // transfer makes it a partner in a fence epoch (rma_early_fence); and those of an
        // access epoch's group, which read its last transfer (rma_late_complete).
        selection.add(map.holders_of_rank(l.op_peer[op]), op);
        selection.add(epochs.on(l.op_comm[op]), op);
        break;
      case OpKind::RmaGroupSync:
        if (l.op_call[op] != kNone) selection.add(epochs.group_sync(l, op), op);
        break;
      case OpKind::RmaLockAcquire:
      case OpKind::RmaLockRelease:
        selection.add(map.holders_of_comm(l.op_comm[op]), op);
        break;
      default:  // posts and completions come with the op they pair with
        break;
    }
  }
  return selection.take();
}

}  // namespace collwrap
