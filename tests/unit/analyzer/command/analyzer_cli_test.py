#!/usr/bin/python3
"""The analyzer's exit codes and error messages: 0 success, 1 a trace that cannot be
analyzed, 2 usage error; every error starts with "analyzer: " and says what to do.

    analyzer_cli_test.py ANALYZER
"""
import os
import subprocess
import sys
import tempfile
import unittest

ANALYZER = sys.argv[1]


def run(*args):
    return subprocess.run([ANALYZER, *args], capture_output=True, text=True, timeout=60)


class AnalyzerCliTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def assertUsageError(self, result, says):
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertTrue(result.stderr.startswith("analyzer: "), result.stderr)
        self.assertIn(says, result.stderr)
        self.assertEqual(result.stdout, "")

    def test_help_and_version(self):
        help_ = run("--help")
        self.assertEqual(help_.returncode, 0)
        self.assertTrue(help_.stdout.startswith("Usage: analyzer TRACE"))
        version = run("--version")
        self.assertEqual(version.returncode, 0)
        self.assertRegex(version.stdout, r"^analyzer \(collwrap\) \d+\.\d+\.\d+\n$")

    def test_no_trace(self):
        self.assertUsageError(run(), "no trace given")

    def test_unknown_pattern(self):
        self.assertUsageError(run(self.tmp.name, "--patterns", "late_sender,bogus"),
                              "unknown pattern id 'bogus'")

    def test_unknown_option(self):
        self.assertUsageError(run(self.tmp.name, "--fast"), "unknown option '--fast'")

    def test_bad_number(self):
        self.assertUsageError(run(self.tmp.name, "--min-wait", "soon"), "--min-wait needs")

    def test_missing_path(self):
        self.assertUsageError(run(os.path.join(self.tmp.name, "nope")), "nope")

    def test_directory_that_is_not_an_archive(self):
        self.assertUsageError(run(self.tmp.name), "traces.otf2")

    def test_unwritable_json_path(self):
        self.assertUsageError(
            run(self.tmp.name, "--json", os.path.join(self.tmp.name, "no", "r.json")),
            "does not exist")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
