// Writes the JSON report of every_pattern_trace() to standard output, so the schema test can
// validate a report produced by the real writer with every finding kind in it.
#include <iostream>

#include "analyze.h"
#include "catalog.h"
#include "every_pattern_trace.h"
#include "json_report.h"

int main() {
  const collwrap::Trace trace = collwrap::testing::every_pattern_trace();
  const collwrap::AnalysisResult result = collwrap::analyze_trace(
      trace, collwrap::match_trace(trace), {{}, collwrap::select_patterns("all")});
  collwrap::write_json_report(result, std::cout);
}
