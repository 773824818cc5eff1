#!/usr/bin/python3
"""The analyzer's command line on a real trace of the late_sender example: the report on standard
output stays pure JSON; a rank's event file missing is analyzed as far as possible with a
warning naming it (exit 0, nothing guessed); unreadable global definitions exit 1 with a message
that starts with "analyzer: " and says what to do.

    analyzer_real_trace_test.py --mpirun M --preload LIB --analyzer A --schema-dir D LATE_SENDER
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

parser = argparse.ArgumentParser()
parser.add_argument("example")
for option in ("--mpirun", "--preload", "--analyzer", "--schema-dir"):
    parser.add_argument(option, required=True)
ARGS = parser.parse_args()
sys.path.insert(0, ARGS.schema_dir)
import validate_report  # noqa: E402


class AnalyzerRealTraceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.workdir = tempfile.mkdtemp(prefix="collwrap-analyzer-")
        cls.trace = os.path.join(cls.workdir, "trace")
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   COLLWRAP_TRACE_DIR=cls.trace)
        subprocess.run([ARGS.mpirun, "-np", "4", "--oversubscribe", "-x",
                        "LD_PRELOAD=" + ARGS.preload, "-x", "COLLWRAP_TRACE_DIR", ARGS.example],
                       env=env, cwd=cls.workdir, check=True, capture_output=True, timeout=240)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.workdir)

    def damaged_copy(self, name):
        copy = os.path.join(self.workdir, name)
        shutil.copytree(self.trace, copy)
        return copy

    def analyze(self, trace):
        report = os.path.join(self.workdir, os.path.basename(trace) + ".json")
        run = subprocess.run([ARGS.analyzer, trace, "--quiet", "--json", report],
                             capture_output=True, text=True, timeout=120)
        return run, report

    def test_intact_archive_has_the_finding(self):
        run, report = self.analyze(self.trace)
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(report, encoding="utf-8") as f:
            findings = json.load(f)["findings"]
        self.assertIn("late_sender", [f["pattern"] for f in findings])

    def test_json_on_standard_output_moves_the_summary_to_standard_error(self):
        run = subprocess.run([ARGS.analyzer, self.trace, "--json", "-", "--patterns",
                              "late_sender"], capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stderr)
        report = json.loads(run.stdout)
        self.assertEqual(validate_report.violations(report, validate_report.load_schema()), [])
        self.assertEqual([p["pattern"] for p in report["summary"]["patterns"]], ["late_sender"])
        self.assertIn("Worst findings", run.stderr)

    def test_quiet_prints_nothing(self):
        run = subprocess.run([ARGS.analyzer, self.trace, "--quiet"], capture_output=True,
                             text=True, timeout=120)
        self.assertEqual((run.returncode, run.stdout, run.stderr), (0, "", ""))

    def test_missing_rank_is_a_warning_not_a_guess(self):
        trace = self.damaged_copy("missing-rank-1")
        os.remove(os.path.join(trace, "traces", "1.evt"))
        run, report = self.analyze(trace)
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(report, encoding="utf-8") as f:
            result = json.load(f)
        self.assertEqual(validate_report.violations(result, validate_report.load_schema()), [])
        self.assertTrue(any("rank 1" in w for w in result["summary"]["warnings"]),
                        result["summary"]["warnings"])
        # Rank 1 was the sender: without its events there is no matched message to blame.
        self.assertNotIn("late_sender", [f["pattern"] for f in result["findings"]])

    def test_damaged_definitions_exit_1(self):
        trace = self.damaged_copy("damaged-definitions")
        definitions = os.path.join(trace, "traces.def")
        with open(definitions, "r+b") as f:
            f.truncate(100)
        run, _ = self.analyze(trace)
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertTrue(run.stderr.startswith("analyzer: "), run.stderr)
        self.assertIn("trace the program again", run.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
