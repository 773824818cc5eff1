#include "shmem/active_sets.h"

#include <mutex>
#include <string>
#include <vector>

namespace collwrap::tracer {
namespace {

struct ActiveSet {
  std::uint64_t key;
  std::vector<std::int32_t> members;
};

struct Registry {
  std::mutex mutex;
  int n_pes = 0;
  std::vector<ActiveSet> sets;  // index i: GroupRef and WindowRef kShmemFirstRef + i
};

Registry& registry() {
  static Registry r;
  return r;
}

std::string set_name(const ActiveSet& set, std::size_t index) {
  if (index == 0) return "SHMEM world";
  return "SHMEM active set " + std::to_string(set.members.front()) + "+" +
         std::to_string(set.members.size());
}

WindowRef add_locked(Registry& r, std::uint64_t key, int pe_start, int log_pe_stride, int pe_size) {
  for (std::size_t i = 0; i < r.sets.size(); ++i)
    if (r.sets[i].key == key) return WindowRef(kShmemFirstRef + i);
  ActiveSet set{key, {}};
  for (int i = 0; i < pe_size; ++i) set.members.push_back(pe_start + (i << log_pe_stride));
  r.sets.push_back(std::move(set));
  return WindowRef(kShmemFirstRef + r.sets.size() - 1);
}

}  // namespace

std::uint64_t active_set_key(int pe_start, int log_pe_stride, int pe_size) noexcept {
  return (std::uint64_t(std::uint32_t(pe_start)) << 32) |
         (std::uint64_t(std::uint32_t(log_pe_stride) & 0xff) << 24) |
         (std::uint64_t(std::uint32_t(pe_size)) & 0xffffff);
}

void start_active_sets(int /*my_pe*/, int n_pes) noexcept {
  Registry& r = registry();
  try {
    std::lock_guard lock(r.mutex);
    r.n_pes = n_pes;
    r.sets.clear();
    add_locked(r, active_set_key(0, 0, n_pes), 0, 0, n_pes);
  } catch (...) {
    // Out of memory: the archive lacks the window; the recorder reports the broken reference.
  }
}

WindowRef active_set_window(int pe_start, int log_pe_stride, int pe_size) noexcept {
  Registry& r = registry();
  if (pe_start == 0 && log_pe_stride == 0 && pe_size == r.n_pes) return kShmemWorldWindow;
  if (pe_size <= 0 || log_pe_stride < 0 || log_pe_stride > 30) return kShmemWorldWindow;
  try {
    std::lock_guard lock(r.mutex);
    return add_locked(r, active_set_key(pe_start, log_pe_stride, pe_size), pe_start, log_pe_stride,
                      pe_size);
  } catch (...) {
    return kShmemWorldWindow;
  }
}

AdapterDefinitions shmem_definitions() {
  Registry& r = registry();
  AdapterDefinitions d;
  std::lock_guard lock(r.mutex);
  for (std::size_t i = 0; i < r.sets.size(); ++i) {
    const ActiveSet& set = r.sets[i];
    const auto ref = std::uint32_t(kShmemFirstRef + i);
    d.groups.push_back({ref, Paradigm::Shmem, set.key, set_name(set, i), set.members});
    d.windows.push_back(
        {ref, set.key, (i == 0 ? "symmetric heap" : set_name(set, i) + " heap"), ref});
  }
  return d;
}

}  // namespace collwrap::tracer
