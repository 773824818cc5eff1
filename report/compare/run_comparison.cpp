#include "run_comparison.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "catalog.h"
#include "compute_grains.h"
#include "finding_matching.h"

namespace collwrap {
namespace {

template <class T>
void largest_change_first(std::vector<T>& changes, auto change_of) {
  std::stable_sort(changes.begin(), changes.end(), [&](const T& a, const T& b) {
    return std::abs(change_of(a).delta()) > std::abs(change_of(b).delta());
  });
}

// Patterns a run looked for: its selection, or (older inputs) the patterns it has totals for.
std::vector<std::string> selected_patterns(const AnalysisResult& r) {
  if (!r.summary.options.patterns.empty()) return r.summary.options.patterns;
  std::vector<std::string> ids;
  for (const PatternTotal& p : r.summary.patterns) ids.push_back(p.pattern);
  return ids;
}

bool contains(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

std::string joined(const std::vector<std::string>& list) {
  std::string text;
  for (const std::string& s : list) text += (text.empty() ? "" : ", ") + s;
  return text;
}

std::vector<Finding> findings_of(const AnalysisResult& r,
                                 const std::vector<std::string>& patterns) {
  std::vector<Finding> kept;
  for (const Finding& f : r.findings)
    if (contains(patterns, f.pattern)) kept.push_back(f);
  return kept;
}

std::vector<FindingChange> finding_changes(std::span<const Finding> base,
                                           std::span<const Finding> current) {
  std::vector<FindingChange> changes;
  for (const FindingMatch& m : match_findings(base, current)) {
    const Finding& shown = m.current ? *m.current : *m.base;
    FindingChange c{.status = !m.base      ? FindingStatus::New
                              : !m.current ? FindingStatus::Gone
                                           : FindingStatus::Matched,
                    .pattern = shown.pattern,
                    .rank = shown.rank,
                    .file = shown.file,
                    .line = shown.line,
                    .base_line = m.base ? m.base->line : shown.line,
                    .function = shown.function,
                    .mpi_function = shown.mpi_function};
    if (m.base) {
      c.wait_s.base = m.base->wait_time_s;
      c.occurrences.base = static_cast<double>(m.base->occurrences);
    }
    if (m.current) {
      c.wait_s.current = m.current->wait_time_s;
      c.occurrences.current = static_cast<double>(m.current->occurrences);
    }
    changes.push_back(std::move(c));
  }
  largest_change_first(changes, [](const FindingChange& c) { return c.wait_s; });
  return changes;
}

std::vector<NamedChange> pattern_changes(const AnalysisResult& base, const AnalysisResult& current,
                                         const std::vector<std::string>& common) {
  const auto total_of = [](const AnalysisResult& r, std::string_view id) {
    for (const PatternTotal& p : r.summary.patterns)
      if (p.pattern == id) return p.wait_time_s;
    return 0.0;
  };
  std::vector<NamedChange> changes;
  for (const std::string& id : common)
    changes.push_back({id, {total_of(base, id), total_of(current, id)}});
  return changes;
}

// MPI time per function: the size buckets of operation_stats added up.
std::vector<NamedChange> operation_changes(const AnalysisResult& base,
                                           const AnalysisResult& current) {
  std::map<std::string, Change> by_function;
  for (const OperationStats& o : base.operations) by_function[o.function].base += o.total_s;
  for (const OperationStats& o : current.operations) by_function[o.function].current += o.total_s;
  std::vector<NamedChange> changes;
  for (const auto& [function, change] : by_function) changes.push_back({function, change});
  largest_change_first(changes, [](const NamedChange& c) { return c.value; });
  return changes;
}

// Root causes are matched like findings: a segment's ending call site stands for the call
// site, its cost for the waiting; an imbalance across ranks is not the same cause as one
// rank's segment at that site.
Finding as_finding(const RootCause& r) {
  Finding f;
  f.pattern = r.gain_basis == GainBasis::RanksMean ? "root_cause_imbalance" : "root_cause";
  f.rank = r.rank;
  f.thread = r.thread;
  f.file = r.segment.file;
  f.line = r.segment.line;
  f.function = r.segment.function;
  f.mpi_function = r.segment.mpi_function;
  f.occurrences = r.occurrences;
  f.wait_time_s = r.short_term_cost_s + r.long_term_cost_s;
  return f;
}

std::vector<RootCauseChange> root_cause_changes(const CauseAnalysis& base,
                                                const CauseAnalysis& current) {
  std::vector<Finding> b, c;
  for (const RootCause& r : base.root_causes) b.push_back(as_finding(r));
  for (const RootCause& r : current.root_causes) c.push_back(as_finding(r));
  std::vector<RootCauseChange> changes;
  for (const FindingChange& f : finding_changes(b, c))
    changes.push_back({.status = f.status,
                       .rank = f.rank,
                       .file = f.file,
                       .line = f.line,
                       .function = f.function,
                       .mpi_function = f.mpi_function,
                       .cost_s = f.wait_s});
  return changes;
}

std::vector<NamedChange> pop_changes(const PopEfficiencies& b, const PopEfficiencies& c) {
  return {{"parallel_efficiency", {b.parallel_efficiency, c.parallel_efficiency}},
          {"load_balance", {b.load_balance, c.load_balance}},
          {"communication_efficiency", {b.communication_efficiency, c.communication_efficiency}},
          {"serialization_efficiency", {b.serialization_efficiency, c.serialization_efficiency}},
          {"transfer_efficiency", {b.transfer_efficiency, c.transfer_efficiency}},
          {"runtime_s", {b.runtime_s, c.runtime_s}},
          {"mean_useful_s", {b.mean_useful_s, c.mean_useful_s}}};
}

void compare_causes(const ComparedRun& base, const ComparedRun& current, RunComparison& out) {
  const auto& b = base.result.causes;
  const auto& c = current.result.causes;
  if (!b && !c) return;
  if (!b || !c) {
    out.not_compared.push_back("root causes and POP efficiencies: only " +
                               (b ? base.label : current.label) +
                               " has them (the other run was analyzed with --no-causes)");
    return;
  }
  out.root_causes = root_cause_changes(*b, *c);
  if (b->pop.region != c->pop.region)
    out.not_compared.push_back("POP efficiencies: regions differ (" + b->pop.region + " against " +
                               c->pop.region + ")");
  else
    out.pop = pop_changes(b->pop, c->pop);
}

}  // namespace

const char* finding_status_name(FindingStatus status) {
  switch (status) {
    case FindingStatus::Gone:
      return "gone";
    case FindingStatus::New:
      return "new";
    case FindingStatus::Matched:
      break;
  }
  return "matched";
}

std::optional<double> Change::percent() const {
  if (base == 0) return std::nullopt;
  return 100 * delta() / base;
}

RunFacts run_facts(const ComparedRun& run) {
  RunFacts f{.label = run.label,
             .program = run.result.trace.program,
             .ranks = run.result.trace.world_size};
  if (run.result.causes) f.pop_region = run.result.causes->pop.region;
  return f;
}

double total_wait_s(const AnalysisResult& result, const std::vector<std::string>& patterns) {
  Summary selected;
  for (const PatternTotal& p : result.summary.patterns)
    if (contains(patterns, p.pattern)) selected.patterns.push_back(p);
  return observed_waiting_s(selected);
}

RunComparison compare_runs(const ComparedRun& base, const ComparedRun& current) {
  const AnalysisResult& b = base.result;
  const AnalysisResult& c = current.result;
  RunComparison out{.base = run_facts(base), .current = run_facts(current)};
  out.run_time_s = {b.trace.duration_s, c.trace.duration_s};
  out.mpi_time_s = {b.summary.total_mpi_time_s, c.summary.total_mpi_time_s};

  if (b.trace.program != c.trace.program)
    out.not_compared.push_back("the programs differ (" + b.trace.program + " against " +
                               c.trace.program +
                               "): only findings at the same file, function and MPI call match");

  // Patterns only one run looked for say nothing about a change.
  const std::vector<std::string> base_patterns = selected_patterns(b);
  const std::vector<std::string> current_patterns = selected_patterns(c);
  std::vector<std::string> common, only_base, only_current;
  for (const Pattern* p : pattern_catalog()) {
    const std::string id(p->id);
    const bool in_base = contains(base_patterns, id), in_current = contains(current_patterns, id);
    if (in_base && in_current) common.push_back(id);
    if (in_base && !in_current) only_base.push_back(id);
    if (!in_base && in_current) only_current.push_back(id);
  }
  if (!only_base.empty())
    out.not_compared.push_back("patterns only " + base.label + " looked for: " + joined(only_base));
  if (!only_current.empty())
    out.not_compared.push_back("patterns only " + current.label +
                               " looked for: " + joined(only_current));
  out.total_wait_s = {total_wait_s(b, common), total_wait_s(c, common)};
  out.patterns = pattern_changes(b, c, common);

  const std::vector<Finding> base_findings = findings_of(b, common);
  const std::vector<Finding> current_findings = findings_of(c, common);
  out.sites = finding_changes(findings_summed_over_ranks(base_findings),
                              findings_summed_over_ranks(current_findings));
  if (b.trace.world_size == c.trace.world_size)
    out.per_rank = finding_changes(base_findings, current_findings);
  else
    out.not_compared.push_back(
        "findings per rank: " + std::to_string(b.trace.world_size) + " ranks against " +
        std::to_string(c.trace.world_size) +
        " (compared summed over ranks only; 'analyzer compare --scaling' gives scaling metrics)");
  out.operations = operation_changes(b, c);
  compare_causes(base, current, out);
  return out;
}

}  // namespace collwrap
