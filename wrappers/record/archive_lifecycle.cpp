// The archive's lifecycle (recorder.h): init_enter/init_leave open the archive and synchronize
// clocks, finalize_enter synchronizes again, unifies definitions and closes the archive, and
// abort_enter or an exit without the paradigm's finalize save what this rank has for a later
// repair. All communication goes through the adapter's ProcessGroup.
//
// Every collective step is preceded by an agreement on success (ProcessGroup::all), so a rank
// that fails locally turns tracing off everywhere instead of leaving the others in a
// collective: the application must never deadlock or abort because of the tracer.
#include <otf2/otf2.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "record/adapter_registry.h"
#include "record/byte_stream.h"
#include "record/callsite_capture.h"
#include "record/callsite_resolver.h"
#include "record/clock_sync.h"
#include "record/definitions_unifier.h"
#include "record/definitions_writer.h"
#include "record/diagnostics.h"
#include "record/location_id.h"
#include "record/location_registry.h"
#include "record/otf2_archive.h"
#include "record/process_group.h"
#include "record/sidecar.h"
#include "record/timer.h"
#include "record/trace_directory.h"
#include "record/tracer_config.h"

namespace collwrap::tracer {
namespace {

enum class Phase { Idle, Recording, Finished };
std::atomic<Phase> g_phase{Phase::Idle};

struct Session {
  TracerConfig config;
  std::vector<std::string> config_problems;
  int rank = 0;
  int size = 1;
  std::unique_ptr<ProcessGroup> group;  // the adapter's, for the tracer's own communication
  OTF2_Archive* archive = nullptr;
  std::string directory;
  std::string host;
  std::string program;
  TimerSample calibration_start;
  RegionRef init_region = 0;
  std::string finalize_call = "the paradigm's finalize";
  CallSiteRef init_site = kNoCallSite;
  Ticks init_enter_time = 0;
  Ticks realtime_anchor_ticks = 0;
  std::int64_t realtime_anchor_ns = 0;
  // Measured at init, at checkpoints (COLLWRAP_CLOCKSYNC_INTERVAL), then at finalize.
  std::vector<OffsetEstimate> offsets;
  std::int64_t last_sync_ns = 0;  // CLOCK_MONOTONIC at the end of the last measurement
};

Session& session() {
  static Session s;
  return s;
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

double current_resolution(const Session& s) {
  double resolution = timer::resolution(s.calibration_start, timer::sample());
  return resolution > 0 ? resolution : 1e9;
}

void synchronize_clocks(Session& s, const char* when) {
  auto synchronizer =
      make_clock_synchronizer(s.config.clocksync, s.config.clocksync_rounds, s.size);
  std::int64_t start_ns = timer::monotonic_ns();
  ClockSyncResult result = synchronizer->synchronize(*s.group);
  s.last_sync_ns = timer::monotonic_ns();
  double elapsed_ms = double(s.last_sync_ns - start_ns) / 1e6;
  s.offsets.push_back(result.own);
  if (!s.config.verbose || s.rank != 0) return;
  double us_per_tick = 1e6 / current_resolution(s);
  double worst_us = 0;
  int worst_rank = 0;
  for (std::size_t r = 0; r < result.by_rank.size(); ++r) {
    double residual_us = double(result.by_rank[r].rtt) / 2 * us_per_tick;
    if (residual_us > worst_us) {
      worst_us = residual_us;
      worst_rank = int(r);
    }
  }
  print_line("clock sync (%s, at %s): %d ranks in %.1f ms; largest residual +-%.2f us (rank %d)",
             synchronizer->name(), when, s.size, elapsed_ms, worst_us, worst_rank);
}

// Rank 0 names every rank whose calibrated timer rate differs from its own by more than 0.01 %:
// that rank's timestamps drift against rank 0's between the two synchronizations.
void warn_rate_mismatches(const Session& s) {
  ByteWriter out;
  out.f64(current_resolution(s));
  std::vector<double> rates;
  for (const auto& bytes : s.group->gather(out.bytes())) {
    ByteReader in(bytes);
    rates.push_back(in.f64());
  }
  for (int r : rate_mismatches(rates)) {
    print_line(
        "rank %d's timer runs at %.0f ticks/s, %.4f %% off rank 0's %.0f; its timestamps "
        "drift against rank 0's",
        r, rates[std::size_t(r)], (rates[std::size_t(r)] / rates[0] - 1) * 100, rates[0]);
  }
}

// This rank's definitions, with call sites resolved to source (or, if !resolve, as addresses).
// May throw (out of memory).
LocalDefinitions collect_local_definitions(const Session& s, Ticks last_time, bool resolve) {
  LocalDefinitions d;
  d.world_rank = std::uint32_t(s.rank);
  d.world_size = std::uint32_t(s.size);
  d.host = s.host;
  d.program = s.program;
  d.process_label = s.group->process_label();
  TimerSample end = timer::sample();
  d.timer_resolution = current_resolution(s);
  d.calibration_span_ns = end.monotonic_ns - s.calibration_start.monotonic_ns;
  d.first_time = s.init_enter_time;
  d.last_time = last_time;
  d.realtime_anchor_ticks = s.realtime_anchor_ticks;
  d.realtime_anchor_ns = s.realtime_anchor_ns;
  for (const OffsetEstimate& o : s.offsets) {
    d.offsets.push_back({o.peer_time, o.offset, double(o.rtt) / 2});
  }
  d.locations = location_registry().locations();
  AdapterDefinitions adapters = collect_adapter_definitions();
  d.groups = std::move(adapters.groups);
  d.windows = std::move(adapters.windows);
  auto chains = process_callsites().chains();
  d.callsites = resolve ? resolve_callsites(chains) : unresolved_callsites(chains);
  return d;
}

// Rank 0: unify every rank's definitions; returns each rank's mapping (serialized, by rank).
std::vector<std::vector<std::uint8_t>> unify_on_root(
    const std::vector<std::vector<std::uint8_t>>& parts, GlobalDefinitions& global) {
  std::vector<LocalDefinitions> ranks;
  std::vector<std::size_t> source;
  for (std::size_t r = 0; r < parts.size(); ++r) {
    if (auto d = LocalDefinitions::deserialize(parts[r])) {
      ranks.push_back(std::move(*d));
      source.push_back(r);
    } else {
      print_line("rank %zu sent no usable definitions; its events cannot be read", r);
    }
  }
  UnifiedDefinitions unified = unify_definitions(ranks, registered_region_tables());
  for (const std::string& warning : unified.warnings) print_line("%s", warning.c_str());
  std::vector<std::vector<std::uint8_t>> mappings(parts.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    ByteWriter out;
    unified.mappings[i].serialize(out);
    mappings[source[i]] = out.take();
  }
  global = std::move(unified.global);
  return mappings;
}

void write_local_definition_files(Session& s, const RankMapping& mapping,
                                  const std::vector<LocalLocation>& locations,
                                  const std::vector<ClockOffsetSample>& offsets) {
  for (const LocalLocation& l : locations) {
    auto id = pack_location_id(l.thread_index, std::uint32_t(s.rank));
    OTF2_DefWriter* writer = OTF2_Archive_GetDefWriter(s.archive, id);
    if (writer == nullptr) continue;
    if (OTF2_ErrorCode status = write_local_definitions(writer, mapping, offsets);
        status != OTF2_SUCCESS) {
      report_problem_once("cannot write local definitions: %s", OTF2_Error_GetDescription(status));
    }
    OTF2_Archive_CloseDefWriter(s.archive, writer);
  }
}

// Collective: closes event files, unifies definitions on rank 0, writes all definition files
// and the anchor. Every rank runs every collective step whatever happened locally.
void finish_archive(Session& s, Ticks last_time) {
  location_registry().close_all();
  OTF2_Archive_CloseEvtFiles(s.archive);

  LocalDefinitions local;
  std::vector<std::uint8_t> mine;
  try {
    local = collect_local_definitions(s, last_time, true);
    ByteWriter out;
    local.serialize(out);
    mine = out.take();
  } catch (...) {
    report_problem_once(
        "out of memory while collecting definitions; this rank's events will "
        "not be readable");
  }

  GlobalDefinitions global;
  std::vector<std::vector<std::uint8_t>> mappings;
  auto parts = s.group->gather(mine);
  if (s.rank == 0) {
    try {
      mappings = unify_on_root(parts, global);
    } catch (...) {
      report_problem_once("out of memory while unifying definitions; the archive is incomplete");
      mappings.assign(std::size_t(s.size), {});
    }
  }
  RankMapping mapping =
      RankMapping::deserialize(s.group->scatter(mappings)).value_or(RankMapping{});

  OTF2_Archive_OpenDefFiles(s.archive);
  write_local_definition_files(s, mapping, local.locations, local.offsets);
  OTF2_Archive_CloseDefFiles(s.archive);

  if (s.rank == 0) {
    if (OTF2_GlobalDefWriter* writer = OTF2_Archive_GetGlobalDefWriter(s.archive)) {
      if (OTF2_ErrorCode status = write_global_definitions(writer, global);
          status != OTF2_SUCCESS) {
        report_problem_once("cannot write the global definitions: %s",
                            OTF2_Error_GetDescription(status));
      }
    }
  }
  OTF2_Archive_Close(s.archive);
  s.archive = nullptr;
  s.group.reset();

  if (s.config.verbose && s.rank == 0) {
    std::uint64_t events = 0;
    for (const auto& l : global.locations) events += l.events;
    print_line("wrote %s/%s.otf2: %zu locations, %llu events, %zu calling contexts",
               s.directory.c_str(), kArchiveName, global.locations.size(),
               static_cast<unsigned long long>(events), global.calling_contexts.size());
  }
}

// A rank that leaves without the collective finalize: close its event files and save its
// definitions in a sidecar. Not collective; runs at most once.
void save_for_recovery(const char* reason, bool announce) noexcept {
  Phase expected = Phase::Recording;
  if (!g_phase.compare_exchange_strong(expected, Phase::Finished)) return;
  set_recording(false);
  Session& s = session();
  location_registry().close_all();
  try {
    std::string path = sidecar_path(s.directory, std::uint32_t(s.rank));
    std::vector<RegionTable> tables = registered_region_tables();
    // Reading debug information takes a while, and mpirun ends the whole job once one rank
    // has exited without finalizing: save the call sites as addresses first, then resolved.
    LocalDefinitions local = collect_local_definitions(s, now(), false);
    bool saved = write_sidecar(path, local, tables);
    local.callsites = resolve_callsites(process_callsites().chains());
    saved = write_sidecar(path, local, tables) || saved;
    if (!saved) {
      print_line("rank %d: %s; could not save %s, the trace cannot be recovered", s.rank, reason,
                 path.c_str());
    } else if (announce) {
      print_line("rank %d: %s; events flushed, run 'collwrap-recover %s' to complete the trace",
                 s.rank, reason, s.directory.c_str());
    }
  } catch (...) {
    print_line(
        "rank %d: %s; out of memory while saving definitions, the trace may not be "
        "recoverable",
        s.rank, reason);
  }
}

void save_at_exit() {
  const std::string reason = "the program exited without " + session().finalize_call;
  save_for_recovery(reason.c_str(), session().rank == 0);
}

void turn_off(Session& s) {
  s.archive = nullptr;
  s.group.reset();
  g_phase = Phase::Finished;
}

// Steps of init_leave; false means tracing is off (already reported, all ranks agree).
bool agree_on_settings_and_directory(Session& s) {
  std::vector<std::uint8_t> bytes;
  if (s.rank == 0) {
    ByteWriter out;
    s.config.serialize(out);
    bytes = out.take();
  }
  s.group->broadcast(bytes);
  if (s.rank != 0) {
    ByteReader in(bytes);
    TimerKind own_timer = s.config.timer;
    TracerConfig shared = TracerConfig::deserialize(in);
    if (!in.failed()) s.config = shared;
    s.config.timer =
        own_timer;  // the timer was chosen before the paradigm's init, from this rank's setting
  }
  set_callsite_depth(s.config.callsite_depth);

  PreparedDirectory prepared;
  bytes.clear();
  if (s.rank == 0) {
    for (const std::string& problem : s.config_problems) print_line("%s", problem.c_str());
    try {
      prepared = prepare_trace_directory(s.config.trace_dir);
    } catch (...) {
      prepared.problem = "out of memory while preparing the trace directory";
    }
    ByteWriter out;
    out.u8(prepared.ok);
    out.str(prepared.path);
    bytes = out.take();
  }
  s.group->broadcast(bytes);
  ByteReader in(bytes);
  bool ok = in.u8() != 0;
  s.directory = in.str();
  if (!ok && s.rank == 0) print_line("%s; tracing is off", prepared.problem.c_str());
  return ok && !in.failed();
}

bool open_archive(Session& s) {
  std::string problem;
  // Rank 0's host names the machine in the anchor file.
  std::vector<std::uint8_t> root_host(s.host.begin(), s.host.end());
  s.group->broadcast(root_host);
  ArchiveIdentity identity{s.directory, s.program, std::string(root_host.begin(), root_host.end())};
  try {
    s.archive = create_archive(identity, problem);
  } catch (...) {
    problem = "out of memory";
  }
  if (!s.group->all(s.archive != nullptr)) {
    if (s.archive == nullptr) print_line("rank %d: %s; tracing is off", s.rank, problem.c_str());
    return false;
  }
  OTF2_ErrorCode status = s.group->attach_to_archive(s.archive);
  if (!s.group->all(status == OTF2_SUCCESS)) {
    if (status != OTF2_SUCCESS) {
      print_line("rank %d: OTF2 collectives: %s; tracing is off", s.rank,
                 OTF2_Error_GetDescription(status));
    }
    return false;
  }
  status = OTF2_Archive_OpenEvtFiles(s.archive);
  if (!s.group->all(status == OTF2_SUCCESS)) {
    if (status != OTF2_SUCCESS) {
      print_line("rank %d: cannot open event files in %s: %s; tracing is off", s.rank,
                 s.directory.c_str(), OTF2_Error_GetDescription(status));
    }
    OTF2_Archive_Close(s.archive);  // collective callbacks are set on every rank
    return false;
  }
  return true;
}

void start_tracing(Session& s, std::unique_ptr<ProcessGroup> group) {
  if (s.init_enter_time == 0) {  // MPI_Wtime: the init region starts once MPI is initialized
    s.calibration_start = timer::sample();
    s.init_enter_time = now();
  }
  s.group = std::move(group);
  s.rank = s.group->rank();
  s.size = s.group->size();
  s.finalize_call = s.group->finalize_call();
  s.host = host_name();
  s.program = program_name();
  route_otf2_errors();
  if (!agree_on_settings_and_directory(s) || !open_archive(s)) {
    turn_off(s);
    return;
  }

  synchronize_clocks(s, region_name(s.init_region));
  s.group->barrier();  // leave together: the measurement must not look like the program's waiting
  s.realtime_anchor_ticks = now();
  s.realtime_anchor_ns = timer::realtime_ns();

  location_registry().start(s.archive, std::uint32_t(s.rank),
                            std::size_t(s.config.buffer_mib) << 20);
  set_recording(true);
  g_phase = Phase::Recording;
  std::atexit(save_at_exit);
  if (ThreadRecorder* recorder = thread_recorder()) {
    recorder->enter(s.init_enter_time, s.init_region, s.init_site);
    recorder->leave(now(), s.init_region);
  }
  if (s.config.verbose && s.rank == 0) {
    print_line("tracing into %s (timer %s at %.0f ticks/s, call-site depth %u, clock sync %s)",
               s.directory.c_str(), timer_kind_name(timer::active()), current_resolution(s),
               s.config.callsite_depth, clocksync_kind_name(s.config.clocksync));
  }
}

}  // namespace

void init_enter(RegionRef region, void* return_address) noexcept {
  try {
    Session& s = session();
    s.config = read_config([](const char* name) -> const char* { return std::getenv(name); },
                           s.config_problems);
    s.config.timer = timer::select(s.config.timer);
    set_callsite_depth(s.config.callsite_depth);
    s.init_region = region;
    s.init_site = intern_callsite(return_address);
    if (timer::usable_before_mpi_init()) {
      s.calibration_start = timer::sample();
      s.init_enter_time = now();
    }
  } catch (...) {
    // Out of memory before the paradigm's init: init_leave finds the defaults and carries on.
  }
}

void init_leave(std::unique_ptr<ProcessGroup> group) noexcept {
  // Every thread level is handled the same way: locations are per thread, OTF2 is locked.
  if (!group || g_phase.load() != Phase::Idle) return;
  Session& s = session();
  try {
    start_tracing(s, std::move(group));
  } catch (...) {
    report_problem_once("out of memory while starting; tracing is off");
    set_recording(false);
    g_phase = Phase::Finished;
  }
}

void finalize_enter(RegionRef region, void* return_address) noexcept {
  if (g_phase.load() != Phase::Recording) return;
  Ticks enter_time = now();
  CallSiteRef site = intern_callsite(return_address);
  ThreadRecorder* recorder = thread_recorder();
  Phase expected = Phase::Recording;
  if (!g_phase.compare_exchange_strong(expected, Phase::Finished)) return;
  set_recording(false);
  Session& s = session();
  try {
    if (recorder) recorder->enter(enter_time, region, site);
    synchronize_clocks(s, region_name(region));
    warn_rate_mismatches(s);
    Ticks leave_time = now();
    if (recorder) recorder->leave(leave_time, region);
    finish_archive(s, leave_time);
  } catch (...) {
    report_problem_once("out of memory while finishing the trace; the archive is incomplete");
  }
}

bool traced_processes(int& rank, int& size) noexcept {
  if (g_phase.load() != Phase::Recording) return false;
  rank = session().rank;
  size = session().size;
  return true;
}

void clock_checkpoint(const char* where) noexcept {
  if (g_phase.load() != Phase::Recording) return;
  Session& s = session();
  if (s.config.clocksync_interval_ms == 0 || s.config.clocksync == ClockSyncKind::Off) return;
  try {
    // Each rank's own clock decides whether the interval has passed, and they may disagree
    // near the boundary; the reduction makes every rank take the same decision.
    const std::int64_t interval_ns = std::int64_t(s.config.clocksync_interval_ms) * 1'000'000;
    if (!s.group->any(timer::monotonic_ns() - s.last_sync_ns >= interval_ns)) return;
    synchronize_clocks(s, where);
    // The algorithms release ranks one after the other (rank 0 measures them in turn); without
    // a common exit the later ranks' extra time would show up as waiting in the program's next
    // synchronization.
    s.group->barrier();
  } catch (...) {
    report_problem_once(
        "out of memory while re-measuring clock offsets; drift is interpolated "
        "from fewer measurements");
  }
}

void abort_enter(RegionRef region, void* return_address) noexcept {
  if (g_phase.load() != Phase::Recording) return;
  Ticks enter_time = now();
  CallSiteRef site = intern_callsite(return_address);
  if (ThreadRecorder* recorder = thread_recorder()) {
    recorder->enter(enter_time, region, site);
    recorder->leave(now(), region);
  }
  save_for_recovery(region_name(region), true);
}

}  // namespace collwrap::tracer
