#include "record/location_registry.h"

#include <algorithm>

#include "record/diagnostics.h"
#include "record/event_log_writer.h"
#include "record/location_id.h"

namespace collwrap::tracer {

constinit std::atomic<bool> detail::g_recording{false};
constinit thread_local ThreadRecorder* detail::t_recorder = nullptr;

namespace {
using detail::g_recording;
using detail::t_recorder;
}  // namespace

void set_recording(bool on) noexcept {
  g_recording.store(on, std::memory_order_release);
}

void recording_failed(OTF2_ErrorCode status) noexcept {
  set_recording(false);
  report_problem_once(
      "cannot record events (%s: %s); tracing stops for this process, the "
      "program continues",
      OTF2_Error_GetName(status), OTF2_Error_GetDescription(status));
}

ThreadRecorder* detail::attach_thread_recorder() noexcept {
  return location_registry().attach_current_thread();
}

LocationRegistry& location_registry() noexcept {
  static LocationRegistry registry;
  return registry;
}

bool ThreadRecorder::State::drain() noexcept {
  if (log.begin == nullptr) return false;
  OTF2_ErrorCode status = write_event_log(writer, attributes, last_time, log.begin, log.next);
  log.next = log.begin;
  if (status != OTF2_SUCCESS) [[unlikely]] {
    log = EventLog{};
    recording_failed(status);
    return false;
  }
  return true;
}

std::uint64_t* ThreadRecorder::State::make_room(Ticks t) noexcept {
  if (!drain()) return nullptr;
  if (t < last_time) t = last_time;
  last_time = t;
  if (OTF2_ErrorCode status = OTF2_EvtWriter_BufferFlush(writer, nullptr, t, now());
      status != OTF2_SUCCESS) {
    log = EventLog{};
    recording_failed(status);
    return nullptr;
  }
  return log.next;
}

void LocationRegistry::start(OTF2_Archive* archive, std::uint32_t world_rank,
                             std::size_t log_bytes) {
  std::lock_guard lock(mutex_);
  archive_ = archive;
  world_rank_ = world_rank;
  log_words_ = std::max(log_bytes / sizeof(std::uint64_t), 4 * kMaxLogRecord);
  recorders_.clear();
  states_.clear();
}

ThreadRecorder* LocationRegistry::attach_current_thread() noexcept {
  try {
    std::lock_guard lock(mutex_);
    if (t_recorder != nullptr) return t_recorder;
    auto thread_index = std::uint32_t(recorders_.size());
    auto state = std::make_unique<ThreadRecorder::State>();
    state->thread_index = thread_index;
    state->writer =
        OTF2_Archive_GetEvtWriter(archive_, pack_location_id(thread_index, world_rank_));
    state->attributes = OTF2_AttributeList_New();
    const bool have_log = state->log_storage.allocate(log_words_);
    if (state->writer == nullptr || state->attributes == nullptr || !have_log) {
      if (state->attributes) OTF2_AttributeList_Delete(state->attributes);
      recording_failed(OTF2_ERROR_MEM_ALLOC_FAILED);
      return nullptr;
    }
    state->log.begin = state->log_storage.data();
    state->log.next = state->log.begin;
    state->log.limit = state->log.begin + (log_words_ - kMaxLogRecord);
    auto recorder = std::make_unique<ThreadRecorder>();
    recorder->state = state.get();
    states_.push_back(std::move(state));
    recorders_.push_back(std::move(recorder));
    t_recorder = recorders_.back().get();
    return t_recorder;
  } catch (...) {
    recording_failed(OTF2_ERROR_MEM_ALLOC_FAILED);
    return nullptr;
  }
}

void LocationRegistry::close_all() noexcept {
  std::lock_guard lock(mutex_);
  for (auto& state : states_) {
    if (state->writer == nullptr) continue;
    state->drain();
    state->log = EventLog{};
    OTF2_EvtWriter_GetNumberOfEvents(state->writer, &state->events);
    OTF2_EvtWriter* writer = state->writer;
    state->writer = nullptr;
    if (OTF2_ErrorCode status = OTF2_Archive_CloseEvtWriter(archive_, writer);
        status != OTF2_SUCCESS) {
      recording_failed(status);
    }
    OTF2_AttributeList_Delete(state->attributes);
    state->attributes = nullptr;
    state->log_storage.release();
  }
}

std::vector<LocalLocation> LocationRegistry::locations() {
  std::lock_guard lock(mutex_);
  std::vector<LocalLocation> result;
  for (const auto& state : states_) result.push_back({state->thread_index, state->events});
  return result;
}

}  // namespace collwrap::tracer
