#include "findings_in_job.h"

#include <mpi.h>

#include <stdexcept>
#include <utility>
#include <vector>

#include "byte_exchange.h"
#include "job_read.h"
#include "partial_trace.h"
#include "request_linkage.h"
#include "time_normalization.h"

namespace collwrap {
namespace {

// Every process's times start where the earliest event of all starts.
void start_time_at_zero_in_job(Trace& trace, unsigned threads) {
  TimeSpan span = time_span(trace);
  MPI_Allreduce(MPI_IN_PLACE, &span.first, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &span.last, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  start_time_at(trace, span, threads);
}

// Sends the others the ghosts of this process's locations and installs theirs.
PartialTrace exchange_ghosts(Trace trace, const std::vector<LocationRange>& shares, unsigned self,
                             unsigned threads) {
  const LocationRange held = shares.at(self);
  std::vector<std::vector<char>> incoming;
  {
    Matching links;  // only the request pairs, of the held locations
    link_requests(trace, links, threads, held);
    incoming = exchange_bytes(pack_ghosts(trace, links, held, ProcessMap(trace, shares)));
  }
  PartialTrace part{std::move(trace), held, {}, {}};
  for (unsigned p = 0; p < incoming.size(); ++p) {
    if (p == self) continue;
    for (ReceivedGhost& ghost : read_ghosts(incoming[p])) part.install(std::move(ghost));
    std::vector<char>().swap(incoming[p]);
  }
  return part;
}

}  // namespace

std::optional<FoundAtHeld> find_findings_in_job(const MpiJob& job, const std::string& path,
                                                FindingSettings settings,
                                                const ReadOptions& options) {
  for (const Pattern* p : settings.patterns)
    if (p->reach != RuleReach::Partners)
      throw std::invalid_argument(std::string(p->id) +
                                  " reads more than the partners of a location's messages and "
                                  "collectives: it cannot run on a share of the archive");
  LocationsRead read = read_share_in_job(job, path, options, {});
  std::vector<char> found_here;
  try {
    const std::vector<LocationRange> shares = read.shares;
    start_time_at_zero_in_job(read.trace, options.threads);
    read.trace.finish_indexes();
    const PartialTrace part =
        exchange_ghosts(std::move(read.trace), shares, job.rank(), options.threads);
    settings.at = part.held;
    FoundAtHeld found;
    const Matching matching = match_trace(part.trace, options.threads, part.held);
    found.counts = matching.counts;
    found.findings = find_findings(part.trace, matching, settings, options.threads);
    found_here = finding_bytes(found);
  } catch (const std::exception& e) {
    end_job_after(job, "analyze its share of the locations with the others", e);
  }
  std::vector<std::vector<char>> all = gather_bytes(std::move(found_here));
  if (!job.leads()) return std::nullopt;
  FoundAtHeld merged;
  std::vector<Findings> parts;
  for (const std::vector<char>& bytes : all) {
    FoundAtHeld part = read_finding_bytes(bytes);
    merged.counts += part.counts;
    parts.push_back(std::move(part.findings));
  }
  merged.findings = merge_findings(std::move(parts));
  return merged;
}

}  // namespace collwrap
