#include "record/callsite_capture.h"

#include <unwind.h>

#include <atomic>
#include <memory>
#include <new>

#include "record/tracer_config.h"

namespace collwrap::tracer {
namespace {

std::atomic<std::uint32_t> g_depth{1};

// Deeper call stacks are collected by unwinding from here. The innermost frames belong to the
// tracer (this function, the wrapper); the chain starts at the wrapper's return address.
struct UnwindState {
  std::uintptr_t start = 0;
  std::uint32_t wanted = 0;
  std::uint32_t skipped = 0;
  std::uint32_t count = 0;
  std::uintptr_t frames[TracerConfig::kMaxCallsiteDepth];
};

constexpr std::uint32_t kMaxTracerFrames = 8;

_Unwind_Reason_Code collect_frame(_Unwind_Context* context, void* arg) {
  auto* s = static_cast<UnwindState*>(arg);
  std::uintptr_t ip = _Unwind_GetIP(context);
  if (s->count == 0) {
    if (ip != s->start) return ++s->skipped > kMaxTracerFrames ? _URC_END_OF_STACK : _URC_NO_REASON;
  }
  if (ip == 0) return _URC_END_OF_STACK;
  s->frames[s->count++] = ip;
  return s->count == s->wanted ? _URC_END_OF_STACK : _URC_NO_REASON;
}

CallSiteRef intern_single(std::uintptr_t address) {
  static thread_local std::unique_ptr<AddressCache> cache;
  if (cache) {
    if (CallSiteRef id = cache->find(address); id != kNoCallSite) return id;
  } else {
    cache.reset(new (std::nothrow) AddressCache);
  }
  std::uintptr_t frame[1] = {address};
  CallSiteRef id = process_callsites().intern(frame);
  if (cache) cache->put(address, id);
  return id;
}

CallSiteRef intern_chain(std::uintptr_t address, std::uint32_t depth) {
  UnwindState state{};
  state.start = address;
  state.wanted = depth;
  _Unwind_Backtrace(collect_frame, &state);
  if (state.count == 0) {
    // The wrapper's frame was not found (no unwind info): keep the one frame we know.
    state.frames[0] = address;
    state.count = 1;
  }
  return process_callsites().intern(std::span(state.frames, state.count));
}

}  // namespace

CallSiteTable& process_callsites() noexcept {
  static CallSiteTable table;
  return table;
}

void set_callsite_depth(std::uint32_t depth) noexcept {
  g_depth.store(depth < TracerConfig::kMaxCallsiteDepth ? depth : TracerConfig::kMaxCallsiteDepth,
                std::memory_order_relaxed);
}

bool callsite_is_return_address() noexcept {
  return g_depth.load(std::memory_order_relaxed) <= 1;
}

CallSiteRef intern_callsite(void* return_address) noexcept {
  std::uint32_t depth = g_depth.load(std::memory_order_relaxed);
  if (depth == 0 || return_address == nullptr) return kNoCallSite;
  try {
    auto address = reinterpret_cast<std::uintptr_t>(return_address);
    return depth == 1 ? intern_single(address) : intern_chain(address, depth);
  } catch (...) {
    return kNoCallSite;  // out of memory: this event goes without a call site
  }
}

}  // namespace collwrap::tracer
