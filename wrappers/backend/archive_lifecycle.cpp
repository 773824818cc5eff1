// The archive's lifecycle (recorder.h): init_enter/init_leave open the archive and synchronize
// clocks, finalize_enter synchronizes again, unifies definitions and closes the archive, and
// abort_enter or an exit without MPI_Finalize save what this rank has for a later repair.
//
// Every collective step is preceded by an agreement on success (PMPI_Allreduce), so a rank
// that fails locally turns tracing off everywhere instead of leaving the others in a
// collective: the application must never deadlock or abort because of the tracer.
#include <mpi.h>
#include <otf2/otf2.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <vector>

#include "backend/byte_stream.h"
#include "backend/callsite_capture.h"
#include "backend/callsite_resolver.h"
#include "backend/clock_sync.h"
#include "backend/definitions_unifier.h"
#include "backend/definitions_writer.h"
#include "backend/diagnostics.h"
#include "backend/location_id.h"
#include "backend/location_registry.h"
#include "backend/otf2_archive.h"
#include "backend/sidecar.h"
#include "backend/timer.h"
#include "backend/trace_directory.h"
#include "backend/tracer_config.h"

namespace collwrap::tracer {
namespace {

enum class Phase { Idle, Recording, Finished };
std::atomic<Phase> g_phase{Phase::Idle};

struct Session {
  TracerConfig config;
  std::vector<std::string> config_problems;
  int rank = 0;
  int size = 1;
  MPI_Comm comm = MPI_COMM_NULL;  // the tracer's own duplicate of MPI_COMM_WORLD
  OTF2_Archive* archive = nullptr;
  std::string directory;
  std::string host;
  std::string program;
  TimerSample calibration_start;
  RegionRef init_region = 0;
  CallSiteRef init_site = kNoCallSite;
  Ticks init_enter_time = 0;
  Ticks realtime_anchor_ticks = 0;
  std::int64_t realtime_anchor_ns = 0;
  // Measured at MPI_Init, at checkpoints (COLLWRAP_CLOCKSYNC_INTERVAL), then at MPI_Finalize.
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

// PMPI_Allreduce of a success flag: true only if every rank succeeded.
bool all_ranks_succeeded(MPI_Comm comm, bool mine) {
  int local = mine ? 1 : 0, all = 0;
  PMPI_Allreduce(&local, &all, 1, MPI_INT, MPI_MIN, comm);
  return all == 1;
}

// Rank 0's bytes on every rank.
void broadcast_bytes(std::vector<std::uint8_t>& bytes, MPI_Comm comm) {
  std::uint64_t size = bytes.size();
  PMPI_Bcast(&size, 1, MPI_UINT64_T, 0, comm);
  bytes.resize(size);
  PMPI_Bcast(bytes.data(), int(size), MPI_BYTE, 0, comm);
}

std::vector<std::vector<std::uint8_t>> gather_bytes(const std::vector<std::uint8_t>& mine,
                                                    const Session& s) {
  int size = int(mine.size());
  std::vector<int> sizes(s.rank == 0 ? s.size : 0), displacements(sizes.size());
  PMPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, s.comm);
  std::vector<std::uint8_t> all;
  if (s.rank == 0) {
    int total = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      displacements[i] = total;
      total += sizes[i];
    }
    all.resize(std::size_t(total));
  }
  PMPI_Gatherv(mine.data(), size, MPI_BYTE, all.data(), sizes.data(), displacements.data(),
               MPI_BYTE, 0, s.comm);
  std::vector<std::vector<std::uint8_t>> parts;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    auto first = all.begin() + displacements[i];
    parts.emplace_back(first, first + sizes[i]);
  }
  return parts;
}

std::vector<std::uint8_t> scatter_bytes(const std::vector<std::vector<std::uint8_t>>& parts,
                                        const Session& s) {
  std::vector<int> sizes, displacements;
  std::vector<std::uint8_t> all;
  if (s.rank == 0) {
    for (const auto& part : parts) {
      sizes.push_back(int(part.size()));
      displacements.push_back(int(all.size()));
      all.insert(all.end(), part.begin(), part.end());
    }
  }
  int size = 0;
  PMPI_Scatter(sizes.data(), 1, MPI_INT, &size, 1, MPI_INT, 0, s.comm);
  std::vector<std::uint8_t> mine(static_cast<std::size_t>(size));
  PMPI_Scatterv(all.data(), sizes.data(), displacements.data(), MPI_BYTE, mine.data(), size,
                MPI_BYTE, 0, s.comm);
  return mine;
}

double current_resolution(const Session& s) {
  double resolution = timer::resolution(s.calibration_start, timer::sample());
  return resolution > 0 ? resolution : 1e9;
}

void synchronize_clocks(Session& s, const char* when) {
  auto synchronizer =
      make_clock_synchronizer(s.config.clocksync, s.config.clocksync_rounds, s.size);
  std::int64_t start_ns = timer::monotonic_ns();
  ClockSyncResult result = synchronizer->synchronize(s.comm);
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
  double rate = current_resolution(s);
  std::vector<double> rates(s.rank == 0 ? std::size_t(s.size) : 0);
  PMPI_Gather(&rate, 1, MPI_DOUBLE, rates.data(), 1, MPI_DOUBLE, 0, s.comm);
  for (int r : rate_mismatches(rates)) {
    print_line("rank %d's timer runs at %.0f ticks/s, %.4f %% off rank 0's %.0f; its timestamps "
               "drift against rank 0's", r, rates[std::size_t(r)],
               (rates[std::size_t(r)] / rates[0] - 1) * 100, rates[0]);
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
  d.comms = comm_registry_snapshot();
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
  UnifiedDefinitions unified = unify_definitions(ranks, std::span(kFunctionTable, kFunctionCount));
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
  auto parts = gather_bytes(mine, s);
  if (s.rank == 0) {
    try {
      mappings = unify_on_root(parts, global);
    } catch (...) {
      report_problem_once("out of memory while unifying definitions; the archive is incomplete");
      mappings.assign(std::size_t(s.size), {});
    }
  }
  RankMapping mapping =
      RankMapping::deserialize(scatter_bytes(mappings, s)).value_or(RankMapping{});

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
  PMPI_Comm_free(&s.comm);

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
    std::span functions(kFunctionTable, kFunctionCount);
    // Reading debug information takes a while, and mpirun ends the whole job once one rank
    // has exited without MPI_Finalize: save the call sites as addresses first, then resolved.
    LocalDefinitions local = collect_local_definitions(s, now(), false);
    bool saved = write_sidecar(path, local, functions);
    local.callsites = resolve_callsites(process_callsites().chains());
    saved = write_sidecar(path, local, functions) || saved;
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
  save_for_recovery("the program exited without MPI_Finalize", session().rank == 0);
}

void turn_off(Session& s) {
  s.archive = nullptr;
  if (s.comm != MPI_COMM_NULL) PMPI_Comm_free(&s.comm);
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
  broadcast_bytes(bytes, s.comm);
  if (s.rank != 0) {
    ByteReader in(bytes);
    TimerKind own_timer = s.config.timer;
    TracerConfig shared = TracerConfig::deserialize(in);
    if (!in.failed()) s.config = shared;
    s.config.timer = own_timer;  // the timer was chosen before MPI_Init, from this rank's setting
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
  broadcast_bytes(bytes, s.comm);
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
  broadcast_bytes(root_host, s.comm);
  ArchiveIdentity identity{s.directory, s.program, std::string(root_host.begin(), root_host.end())};
  try {
    s.archive = create_archive(identity, s.config.buffer_mib, problem);
  } catch (...) {
    problem = "out of memory";
  }
  if (!all_ranks_succeeded(s.comm, s.archive != nullptr)) {
    if (s.archive == nullptr) print_line("rank %d: %s; tracing is off", s.rank, problem.c_str());
    return false;
  }
  OTF2_ErrorCode status = attach_mpi_collectives(s.archive, s.comm);
  if (!all_ranks_succeeded(s.comm, status == OTF2_SUCCESS)) {
    if (status != OTF2_SUCCESS) {
      print_line("rank %d: OTF2 collectives: %s; tracing is off", s.rank,
                 OTF2_Error_GetDescription(status));
    }
    return false;
  }
  status = OTF2_Archive_OpenEvtFiles(s.archive);
  if (!all_ranks_succeeded(s.comm, status == OTF2_SUCCESS)) {
    if (status != OTF2_SUCCESS) {
      print_line("rank %d: cannot open event files in %s: %s; tracing is off", s.rank,
                 s.directory.c_str(), OTF2_Error_GetDescription(status));
    }
    OTF2_Archive_Close(s.archive);  // collective callbacks are set on every rank
    return false;
  }
  return true;
}

void start_tracing(Session& s) {
  if (s.init_enter_time == 0) {  // MPI_Wtime: the Init region starts once PMPI_Init returned
    s.calibration_start = timer::sample();
    s.init_enter_time = now();
  }
  PMPI_Comm_dup(MPI_COMM_WORLD, &s.comm);
  PMPI_Comm_rank(s.comm, &s.rank);
  PMPI_Comm_size(s.comm, &s.size);
  s.host = host_name();
  s.program = program_name();
  route_otf2_errors();
  if (!agree_on_settings_and_directory(s) || !open_archive(s)) {
    turn_off(s);
    return;
  }

  synchronize_clocks(s, "MPI_Init");
  PMPI_Barrier(s.comm);  // leave together: the measurement must not look like the program's waiting
  s.realtime_anchor_ticks = now();
  s.realtime_anchor_ns = timer::realtime_ns();

  location_registry().start(s.archive, std::uint32_t(s.rank));
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
    // Out of memory before MPI_Init: init_leave finds the defaults and carries on.
  }
}

void init_leave(int /*provided_thread_level*/) noexcept {
  // Every thread level is handled the same way: locations are per thread, OTF2 is locked.
  int initialized = 0;
  PMPI_Initialized(&initialized);
  if (!initialized || g_phase.load() != Phase::Idle) return;
  Session& s = session();
  try {
    start_tracing(s);
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
    synchronize_clocks(s, "MPI_Finalize");
    warn_rate_mismatches(s);
    Ticks leave_time = now();
    if (recorder) recorder->leave(leave_time, region);
    finish_archive(s, leave_time);
  } catch (...) {
    report_problem_once("out of memory while finishing the trace; the archive is incomplete");
  }
}

void clock_checkpoint() noexcept {
  if (g_phase.load() != Phase::Recording) return;
  Session& s = session();
  if (s.config.clocksync_interval_ms == 0 || s.config.clocksync == ClockSyncKind::Off) return;
  try {
    // Each rank's own clock decides whether the interval has passed, and they may disagree
    // near the boundary; the reduction makes every rank take the same decision.
    const std::int64_t interval_ns = std::int64_t(s.config.clocksync_interval_ms) * 1'000'000;
    int due = timer::monotonic_ns() - s.last_sync_ns >= interval_ns ? 1 : 0;
    PMPI_Allreduce(MPI_IN_PLACE, &due, 1, MPI_INT, MPI_MAX, s.comm);
    if (!due) return;
    synchronize_clocks(s, "MPI_Barrier");
    // The algorithms release ranks one after the other (rank 0 measures them in turn); without
    // a common exit the later ranks' extra time would show up as waiting in the program's next
    // synchronization.
    PMPI_Barrier(s.comm);
  } catch (...) {
    report_problem_once("out of memory while re-measuring clock offsets; drift is interpolated "
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
  save_for_recovery("MPI_Abort", true);
}

}  // namespace collwrap::tracer
