// Measures the analyzer's Read and Match steps, and the root-cause analysis (replay, delay
// costs, critical path, ideal-network replay for the POP efficiencies and one what-if replay
// per estimated cause), on an archive (e.g. one from analyzer-bench-generate) against a bare
// OTF2 read pass of the same archive.
//
//   analyzer-bench ARCHIVE [--threads N] [--repeat K]
//
// The bare pass opens the archive the same way, reads every location's local definitions and
// events with callbacks that do nothing, on the same number of threads. The three are run K
// times interleaved (default 3); each figure is the best of its runs (wall and CPU time
// separately), so that other load on the machine disturbs it least.
#include <otf2/otf2.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "archive_path.h"
#include "matching.h"
#include "memory_reuse.h"
#include "otf2_locking.h"
#include "parallel_for.h"
#include "root_causes.h"
#include "trace_reader.h"

namespace {

using namespace collwrap;

struct Cost {
  double wall_s = 0;
  double cpu_s = 0;  // all threads of the process
};

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

template <class F>
Cost measure(F&& f) {
  const auto wall0 = std::chrono::steady_clock::now();
  const double cpu0 = cpu_seconds();
  f();
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count(),
          cpu_seconds() - cpu0};
}

Cost best(const std::vector<Cost>& runs) {
  Cost b = runs.front();
  for (const Cost& c : runs) {
    b.wall_s = std::min(b.wall_s, c.wall_s);
    b.cpu_s = std::min(b.cpu_s, c.cpu_s);
  }
  return b;
}

long max_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// --- the bare OTF2 pass ----------------------------------------------------------------------

OTF2_CallbackCode on_location(void* d, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType,
                              std::uint64_t, OTF2_LocationGroupRef) {
  static_cast<std::vector<OTF2_LocationRef>*>(d)->push_back(self);
  return OTF2_CALLBACK_SUCCESS;
}

template <class... Args>
OTF2_CallbackCode nothing(OTF2_LocationRef, OTF2_TimeStamp, std::uint64_t, void*,
                          OTF2_AttributeList*, Args...) {
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_EvtReaderCallbacks* no_op_callbacks() {
  OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, nothing<OTF2_RegionRef>);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, nothing<OTF2_RegionRef>);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(
      cb, nothing<std::uint32_t, OTF2_CommRef, std::uint32_t, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(
      cb, nothing<std::uint32_t, OTF2_CommRef, std::uint32_t, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(
      cb, nothing<std::uint32_t, OTF2_CommRef, std::uint32_t, std::uint64_t, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(
      cb, nothing<std::uint32_t, OTF2_CommRef, std::uint32_t, std::uint64_t, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, nothing<std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, nothing<std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, nothing<std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, nothing<std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, nothing<>);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(
      cb, nothing<OTF2_CollectiveOp, OTF2_CommRef, std::uint32_t, std::uint64_t, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, nothing<std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(
      cb, nothing<OTF2_CollectiveOp, OTF2_CommRef, std::uint32_t, std::uint64_t, std::uint64_t,
                  std::uint64_t>);
  return cb;
}

std::uint64_t bare_read(const std::string& anchor, unsigned threads) {
  OTF2_Reader* reader = OTF2_Reader_Open(anchor.c_str());
  if (!reader) {
    std::fprintf(stderr, "cannot open %s\n", anchor.c_str());
    std::exit(1);
  }
  OTF2_Reader_SetSerialCollectiveCallbacks(reader);
  OTF2_Pthread_Reader_SetLockingCallbacks(reader, nullptr);
  std::vector<OTF2_LocationRef> locations;
  OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader);
  OTF2_GlobalDefReaderCallbacks* dcb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dcb, on_location);
  OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, dcb, &locations);
  OTF2_GlobalDefReaderCallbacks_Delete(dcb);
  std::uint64_t count = 0;
  OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &count);
  OTF2_Reader_CloseGlobalDefReader(reader, defs);
  for (OTF2_LocationRef l : locations) OTF2_Reader_SelectLocation(reader, l);
  const bool def_files = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
  OTF2_Reader_OpenEvtFiles(reader);

  std::vector<std::uint64_t> events(locations.size(), 0);
  parallel_for(locations.size(), threads, [&](std::size_t i) {
    if (OTF2_DefReader* local = OTF2_Reader_GetDefReader(reader, locations[i])) {
      std::uint64_t n = 0;
      OTF2_Reader_ReadAllLocalDefinitions(reader, local, &n);
      OTF2_Reader_CloseDefReader(reader, local);
    }
    OTF2_EvtReader* evt = OTF2_Reader_GetEvtReader(reader, locations[i]);
    OTF2_EvtReaderCallbacks* cb = no_op_callbacks();
    OTF2_Reader_RegisterEvtCallbacks(reader, evt, cb, nullptr);
    OTF2_EvtReaderCallbacks_Delete(cb);
    OTF2_Reader_ReadAllLocalEvents(reader, evt, &events[i]);
    OTF2_Reader_CloseEvtReader(reader, evt);
  });
  if (def_files) OTF2_Reader_CloseDefFiles(reader);
  OTF2_Reader_CloseEvtFiles(reader);
  OTF2_Reader_Close(reader);
  std::uint64_t total = 0;
  for (std::uint64_t e : events) total += e;
  return total;
}

// --- memory held by the results ----------------------------------------------------------------

template <class T>
std::size_t bytes_of(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

std::size_t model_bytes(const Trace& t) {
  std::size_t b = 0;
  for (const Location& l : t.locations) {
    for_each_call_column(l, [&](const auto& column) { b += bytes_of(column); });
    for_each_op_column(l, [&](const auto& column) { b += bytes_of(column); });
  }
  return b;
}

std::size_t matching_bytes(const Matching& m) {
  std::size_t b =
      bytes_of(m.messages) + bytes_of(m.collectives) + bytes_of(m.members) + bytes_of(m.starts);
  for (const auto& v : m.request_partner) b += bytes_of(v);
  for (const auto& v : m.message_of_op) b += bytes_of(v);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  collwrap::keep_freed_memory_for_reuse();  // as the analyzer does
  std::string path;
  unsigned threads = 0;
  int repeat = 3;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--threads" && i + 1 < argc) {
      threads = static_cast<unsigned>(std::atoi(argv[++i]));
    } else if (a == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (path.empty() && !a.empty() && a[0] != '-') {
      path = a;
    } else {
      path.clear();
      break;
    }
  }
  if (path.empty()) {
    std::fprintf(stderr, "usage: %s ARCHIVE [--threads N] [--repeat K]\n", argv[0]);
    return 2;
  }
  const std::string anchor = find_anchor_file(path);

  // The model is measured first, while the process is still small, so that the growth of its
  // peak resident size is the model's.
  const long rss_before = max_rss_kib();
  Trace trace;
  std::vector<Cost> read_runs, match_runs, bare_runs;
  read_runs.push_back(measure([&] { trace = read_trace(anchor, {.threads = threads}); }));
  const long rss_after_read = max_rss_kib();
  Matching matching;
  match_runs.push_back(measure([&] { matching = match_trace(trace, threads); }));
  const long rss_after_match = max_rss_kib();
  const std::size_t model = model_bytes(trace), matched = matching_bytes(matching);
  const MatchCounts counts = matching.counts;
  const std::size_t instances = matching.collectives.size();
  // As the analyzer runs it when no report draws the trace (analyze_trace): what it does not
  // read freed, prepared, what it no longer reads freed, then run.
  CauseAnalysis causes;
  const auto root_causes = [&] {
    release_details_for_root_causes(trace, matching, RootCauseStage::BeforePreparing);
    RootCauseAnalysis analysis(trace, matching, {}, threads);
    release_details_for_root_causes(trace, matching, RootCauseStage::AfterPreparing);
    causes = analysis.run();
  };
  std::vector<Cost> cause_runs;
  cause_runs.push_back(measure(root_causes));
  const long rss_after_causes = max_rss_kib();
  // Runs interleaved, so that other load on the machine weighs on all three alike.
  const unsigned used = worker_count(threads, trace.locations.size());
  std::uint64_t bare_events = 0;
  for (int k = 0; k < repeat; ++k) {
    bare_runs.push_back(measure([&] { bare_events = bare_read(anchor, used); }));
    if (k == 0) continue;
    read_runs.push_back(measure([&] { trace = read_trace(anchor, {.threads = threads}); }));
    match_runs.push_back(measure([&] { matching = match_trace(trace, threads); }));
    cause_runs.push_back(measure(root_causes));
  }

  const Cost read = best(read_runs), match = best(match_runs), bare = best(bare_runs);
  const Cost cause = best(cause_runs);
  const double events = static_cast<double>(trace.event_count);
  const double analyzer_cpu = read.cpu_s + match.cpu_s + cause.cpu_s;
  std::printf("archive            %s\n", anchor.c_str());
  std::printf("events             %llu over %zu locations (bare pass: %llu), %u threads\n",
              static_cast<unsigned long long>(trace.event_count), trace.locations.size(),
              static_cast<unsigned long long>(bare_events), used);
  std::printf("messages           %llu, collective instances %zu, unmatched %llu\n",
              static_cast<unsigned long long>(counts.messages), instances,
              static_cast<unsigned long long>(counts.unmatched_sends + counts.unmatched_receives));
  std::printf("%-18s %10s %10s %16s\n", "step (best run)", "wall s", "cpu s", "M events/s/core");
  const auto row = [&](const char* name, const Cost& c) {
    std::printf("%-18s %10.3f %10.3f %16.1f\n", name, c.wall_s, c.cpu_s, events / c.cpu_s / 1e6);
  };
  row("bare OTF2 pass", bare);
  row("read_trace", read);
  row("match_trace", match);
  row("root causes", cause);
  row("read+match+causes", {read.wall_s + match.wall_s + cause.wall_s, analyzer_cpu});
  std::printf("root causes        %zu estimated, %llu waits, residual %.3g s of %.3g s\n",
              causes.root_causes.size(), static_cast<unsigned long long>(causes.delay.waits),
              causes.delay.residual_s, causes.delay.total_wait_s);
  std::printf(
      "ratio to bare      read %.2fx, read + match %.2fx, with causes %.2fx (wall); "
      "%.2fx (cpu)\n",
      read.wall_s / bare.wall_s, (read.wall_s + match.wall_s) / bare.wall_s,
      (read.wall_s + match.wall_s + cause.wall_s) / bare.wall_s, analyzer_cpu / bare.cpu_s);
  std::printf("memory per event   model %.1f B, matching %.1f B (vector capacities)\n",
              static_cast<double>(model) / events, static_cast<double>(matched) / events);
  std::printf(
      "peak RSS growth    read %.1f B/event, read + match %.1f B/event, "
      "with causes %.1f B/event\n",
      1024.0 * static_cast<double>(rss_after_read - rss_before) / events,
      1024.0 * static_cast<double>(rss_after_match - rss_before) / events,
      1024.0 * static_cast<double>(rss_after_causes - rss_before) / events);
  return 0;
}
