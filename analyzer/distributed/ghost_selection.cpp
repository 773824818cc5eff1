#include "ghost_selection.h"

#include <algorithm>

namespace collwrap {
namespace {

// The ops of one location that another process needs, collected op by op.
class Selection {
 public:
  Selection(unsigned processes, unsigned holder) : ops_(processes), holder_(holder) {}

  // Adds `op`, and `partner` unless kNone, for every process in `to` but the holder.
  void add(std::span<const unsigned> to, std::uint32_t op, std::uint32_t partner = kNone) {
    for (const unsigned p : to) {
      if (p == holder_) continue;
      ops_[p].push_back(op);
      if (partner != kNone) ops_[p].push_back(partner);
    }
  }

  // Requests are completed after their post, so partners come out of order, and a key's two
  // ranks may both be held by one process (added twice): sorted, without repeats.
  std::vector<std::vector<std::uint32_t>> take() {
    for (std::vector<std::uint32_t>& ops : ops_) {
      std::sort(ops.begin(), ops.end());
      ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    }
    return std::move(ops_);
  }

 private:
  std::vector<std::vector<std::uint32_t>> ops_;
  unsigned holder_;
};

}  // namespace

std::vector<std::vector<std::uint32_t>> select_ghost_ops(const Trace& trace, const Matching& links,
                                                         std::uint32_t location,
                                                         const ProcessMap& map) {
  const Location& l = trace.locations[location];
  Selection selection(map.processes(), map.holder(location));
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
        selection.add(map.holders_of_comm(l.op_comm[op]), op, partner);
        break;
      case OpKind::RmaPut:
      case OpKind::RmaAtomic:
        selection.add(map.holders_of_rank(l.op_peer[op]), op);
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
