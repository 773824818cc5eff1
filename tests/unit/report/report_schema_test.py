#!/usr/bin/python3
"""The JSON report of the real writer validates against share/schema/report.schema.json, and
the schema rejects reports that break the contract.

    report_schema_test.py SCHEMA_DIR WRITE_SAMPLE_REPORT
"""
import copy
import json
import subprocess
import sys
import unittest

SCHEMA_DIR, WRITER = sys.argv[1], sys.argv[2]
sys.path.insert(0, SCHEMA_DIR)
import validate_report  # noqa: E402  (found through SCHEMA_DIR)


class ReportSchemaTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.schema = validate_report.load_schema()
        out = subprocess.run([WRITER], check=True, capture_output=True, text=True, timeout=60)
        cls.report = json.loads(out.stdout)

    def assertInvalid(self, mutate):
        report = copy.deepcopy(self.report)
        mutate(report)
        self.assertNotEqual(validate_report.violations(report, self.schema), [])

    def test_real_report_is_valid(self):
        self.assertEqual(validate_report.violations(self.report, self.schema), [])

    def test_report_exercises_every_pattern_and_detail(self):
        patterns = {f["pattern"] for f in self.report["findings"]}
        # The summary lists a total for every pattern of the analyzer's catalog.
        catalog = {p["pattern"] for p in self.report["summary"]["patterns"]}
        self.assertGreater(len(catalog), 12)
        # The master-worker patterns need a program whose traffic is a star around one process,
        # which a trace of every other pattern is not; their findings have the same fields.
        self.assertEqual(patterns, catalog - {"slow_workers", "overloaded_master"})
        details = set()
        for f in self.report["findings"]:
            details |= set(f["details"])
        self.assertEqual(details, {"send_modes", "message_order", "optimal_distance_s",
                                   "current_distance_s", "related_call"})

    def test_schema_version_matches_the_schema_id(self):
        self.assertTrue(self.schema["$id"].endswith(":" + self.report["schema_version"]))

    def test_missing_design_field_is_invalid(self):
        for field in ["pattern", "rank", "thread", "node", "file", "line", "function",
                      "mpi_function", "peers", "occurrences", "wait_time_s", "max_wait_s",
                      "comment", "recommendation"]:
            with self.subTest(field=field):
                self.assertInvalid(lambda r: r["findings"][0].pop(field))
        for field in ["schema_version", "tool_version", "trace", "ranks", "findings", "summary"]:
            with self.subTest(field=field):
                self.assertInvalid(lambda r: r.pop(field))

    def test_wrong_values_are_invalid(self):
        self.assertInvalid(lambda r: r["findings"][0].update(pattern="Late sender"))
        self.assertInvalid(lambda r: r["findings"][0].update(rank=-1))
        self.assertInvalid(lambda r: r["findings"][0].update(line=0))
        self.assertInvalid(lambda r: r["findings"][0].update(wait_time_s=0))
        self.assertInvalid(lambda r: r["findings"][0].update(peers=["1"]))
        self.assertInvalid(lambda r: r.update(schema_version="2.0"))
        self.assertInvalid(lambda r: r.update(extra=1))
        self.assertInvalid(lambda r: r["summary"]["options"].update(min_wait_s=-1))
        self.assertInvalid(lambda r: r["findings"][0]["details"].update(send_modes={"eager": 1}))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
