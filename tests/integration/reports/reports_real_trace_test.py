#!/usr/bin/python3
"""The SQLite database, the SARIF log, the communication matrix and the timeline of a real
trace.

The example is traced once (with run_pattern_example.py's trace()) and analyzed twice into the
same database. The database must open with the sqlite3 command-line tool, hold two runs whose
totals are the JSON report's, and answer the example queries of share/sql; the SARIF log must
have SARIF 2.1.0's required structure and one result per finding; the matrix (JSON and CSV)
must count the messages that OTF2's own reader finds in the archive; the timeline must have a
slice per MPI call in the archive and an arrow per message.

    reports_real_trace_test.py EXAMPLE --mpirun M --preload LIB --analyzer A --sqlite3 S
        --sql-dir D --pattern-tests DIR --tracer-tests DIR
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from collections import Counter

parser = argparse.ArgumentParser()
parser.add_argument("binary")
for option in ("--mpirun", "--preload", "--analyzer", "--sqlite3", "--sql-dir",
               "--pattern-tests", "--tracer-tests"):
    parser.add_argument(option, required=True)
ARGS = parser.parse_args()
ARGS.np, ARGS.timeout = 4, 240
sys.path[:0] = [ARGS.pattern_tests, ARGS.tracer_tests]
import run_pattern_example  # noqa: E402  (trace(): mpirun with libcollwrap.so)
import trace_model  # noqa: E402  (the archive read with OTF2's Python reader)


def sqlite(db, sql):
    """Rows of `sql` run by the sqlite3 tool, as lists of strings."""
    run = subprocess.run([ARGS.sqlite3, "-bail", "-separator", "|", db], input=sql,
                         capture_output=True, text=True, timeout=60)
    if run.returncode != 0 or run.stderr:
        raise AssertionError(f"sqlite3 failed ({run.returncode}): {run.stderr}")
    return [line.split("|") for line in run.stdout.splitlines()]


class ReportsRealTraceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.workdir = tempfile.mkdtemp(prefix="collwrap-reports-")
        cls.trace = run_pattern_example.trace(ARGS, cls.workdir)
        cls.db = os.path.join(cls.workdir, "runs.db")
        cls.sarif_path = os.path.join(cls.workdir, "report.sarif")
        cls.csv_path = os.path.join(cls.workdir, "matrix.csv")
        cls.timeline_path = os.path.join(cls.workdir, "timeline.json")
        json_path = os.path.join(cls.workdir, "report.json")
        for _ in range(2):
            subprocess.run([ARGS.analyzer, cls.trace, "--quiet", "--json", json_path,
                            "--sqlite", cls.db, "--sarif", cls.sarif_path,
                            "--matrix-csv", cls.csv_path, "--timeline", cls.timeline_path],
                           check=True, timeout=120)
        with open(json_path, encoding="utf-8") as f:
            cls.report = json.load(f)
        with open(cls.sarif_path, encoding="utf-8") as f:
            cls.sarif = json.load(f)
        with open(cls.timeline_path, encoding="utf-8") as f:
            cls.timeline = json.load(f)["traceEvents"]
        cls.archive = trace_model.read_trace(os.path.join(cls.trace, "traces.otf2"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.workdir)

    # SQLite

    def test_second_analysis_appends_a_second_run(self):
        self.assertEqual(sqlite(self.db, "SELECT run_id FROM runs ORDER BY run_id;"),
                         [["1"], ["2"]])
        for run_id in (1, 2):
            rows = sqlite(self.db, f"SELECT COUNT(*) FROM findings WHERE run_id = {run_id};")
            self.assertEqual(int(rows[0][0]), len(self.report["findings"]))

    def test_peer_threads_are_the_reports(self):
        rows = sqlite(self.db, "SELECT COUNT(*) FROM finding_peer_threads p JOIN findings f"
                               " ON f.finding_id = p.finding_id WHERE f.run_id = 2;")
        expected = sum(len(t) for f in self.report["findings"] for t in f["peer_threads"])
        self.assertGreater(expected, 0)
        self.assertEqual(int(rows[0][0]), expected)

    def test_pattern_per_run_query_gives_the_report_totals(self):
        with open(os.path.join(ARGS.sql_dir, "pattern_per_run.sql"), encoding="utf-8") as f:
            rows = sqlite(self.db, ".headers off\n" + f.read())
        expected = next(p for p in self.report["summary"]["patterns"]
                        if p["pattern"] == "late_sender")
        self.assertEqual([r[0] for r in rows], ["1", "2"])
        for row in rows:
            self.assertEqual(int(row[3]), expected["occurrences"])
            self.assertAlmostEqual(float(row[4]), expected["wait_time_s"], places=5)
        self.assertGreater(expected["wait_time_s"], 0.5)

    def test_worst_call_sites_query_puts_the_worst_finding_first(self):
        with open(os.path.join(ARGS.sql_dir, "worst_call_sites.sql"), encoding="utf-8") as f:
            rows = sqlite(self.db, ".headers off\n" + f.read())
        worst = self.report["findings"][0]
        file, line, _, pattern, runs = rows[0][:5]
        self.assertEqual((file, int(line), int(runs)), (worst["file"], worst["line"], 2))
        same_site = [f for f in self.report["findings"] if f["file"] == file
                     and f["line"] == int(line) and f["pattern"] == pattern]
        self.assertAlmostEqual(float(rows[0][6]), 2 * sum(f["wait_time_s"] for f in same_site),
                               places=5)

    def test_database_matrix_is_the_reports(self):
        rows = sqlite(self.db, "SELECT sender, receiver, messages, bytes FROM comm_matrix"
                               " WHERE run_id = 2 ORDER BY sender, receiver;")
        self.assertEqual([[int(v) for v in r] for r in rows],
                         [[c["sender"], c["receiver"], c["messages"], c["bytes"]]
                          for c in self.report["communication"]])

    # SARIF

    def test_sarif_has_the_required_structure(self):
        log = self.sarif
        self.assertEqual(log["version"], "2.1.0")
        self.assertIn("sarif", log["$schema"])
        self.assertEqual(len(log["runs"]), 1)
        driver = log["runs"][0]["tool"]["driver"]
        self.assertEqual(driver["name"], "collwrap")
        rule_ids = [r["id"] for r in driver["rules"]]
        self.assertEqual(rule_ids, [p["pattern"] for p in self.report["summary"]["patterns"]] +
                         ["root_cause"])
        for rule in driver["rules"]:
            self.assertTrue(rule["shortDescription"]["text"])
        for result in log["runs"][0]["results"]:
            self.assertIn(result["ruleId"], rule_ids)
            self.assertEqual(rule_ids[result["ruleIndex"]], result["ruleId"])
            self.assertIn(result["level"], ("none", "note", "warning", "error"))
            self.assertTrue(result["message"]["text"])
            for location in result["locations"] + result.get("relatedLocations", []):
                physical = location["physicalLocation"]
                self.assertTrue(physical["artifactLocation"]["uri"].startswith("file:///"))
                self.assertGreaterEqual(physical["region"]["startLine"], 1)
            if result["ruleId"] == "root_cause":
                related = result["relatedLocations"]
                self.assertEqual([r["id"] for r in related], list(range(len(related))))
                for r in related:
                    self.assertTrue(r["message"]["text"])
                costs = result["properties"]
                self.assertGreater(costs["short_term_cost_s"] + costs["long_term_cost_s"], 0)
            else:
                self.assertGreater(result["properties"]["wait_time_s"], 0)

    def test_sarif_has_one_result_per_finding(self):
        results = [r for r in self.sarif["runs"][0]["results"] if r["ruleId"] != "root_cause"]
        self.assertEqual(len(results), len(self.report["findings"]))
        for result, finding in zip(results, self.report["findings"]):
            where = result["locations"][0]["physicalLocation"]
            self.assertEqual(result["ruleId"], finding["pattern"])
            self.assertEqual(where["artifactLocation"]["uri"], "file://" + finding["file"])
            self.assertEqual(where["region"]["startLine"], finding["line"])
            self.assertEqual(result["message"]["text"],
                             finding["comment"] + " " + finding["recommendation"])

    def test_sarif_root_causes_are_the_reports_at_the_line_to_change(self):
        results = [r for r in self.sarif["runs"][0]["results"] if r["ruleId"] == "root_cause"]
        causes = self.report["root_causes"]
        self.assertTrue(causes, "wrong_order has waits, so it has root causes")
        self.assertEqual(len(results), len(causes))
        for result, cause in zip(results, causes):
            where = result["locations"][0]["physicalLocation"]
            self.assertEqual(where["artifactLocation"]["uri"], "file://" + cause["segment"]["file"])
            self.assertEqual(where["region"]["startLine"], cause["segment"]["line"])
            self.assertEqual(result["properties"]["rank"], cause["rank"])
            self.assertEqual(result["properties"]["gain_s"], cause["gain_s"])
            waits = [w for w in cause["caused_waits"] if w["file"]]
            self.assertEqual([(r["physicalLocation"]["region"]["startLine"]) for r in
                              result["relatedLocations"]], [w["line"] for w in waits])
        self.assertTrue(results[0]["relatedLocations"], "the top cause names the waits it causes")

    def test_database_root_causes_critical_path_and_pop_are_the_reports(self):
        rows = sqlite(self.db, "SELECT r.rank, s.file, s.line, r.short_term_cost_s,"
                               " r.long_term_cost_s, IFNULL(r.gain_s, 'null')"
                               " FROM root_causes r JOIN call_sites s USING (call_site_id)"
                               " WHERE run_id = 2 ORDER BY position;")
        causes = self.report["root_causes"]
        self.assertEqual([(int(r[0]), r[1], int(r[2])) for r in rows],
                         [(c["rank"], c["segment"]["file"], c["segment"]["line"]) for c in causes])
        for row, cause in zip(rows, causes):
            self.assertAlmostEqual(float(row[3]), cause["short_term_cost_s"], places=6)
            self.assertAlmostEqual(float(row[4]), cause["long_term_cost_s"], places=6)
            if cause["gain_s"] is None:
                self.assertEqual(row[5], "null")
            else:
                self.assertAlmostEqual(float(row[5]), cause["gain_s"], places=6)
        waits = sqlite(self.db, "SELECT COUNT(*) FROM caused_waits WHERE run_id = 1;")
        self.assertEqual(int(waits[0][0]), sum(len(c["caused_waits"]) for c in causes))
        path = sqlite(self.db, "SELECT length_s, hops FROM critical_paths WHERE run_id = 2;")
        self.assertAlmostEqual(float(path[0][0]), self.report["critical_path"]["length_s"],
                               places=6)
        self.assertEqual(int(path[0][1]), self.report["critical_path"]["hops"])
        shares = sqlite(self.db, "SELECT kind, COUNT(*) FROM critical_path_shares"
                                 " WHERE run_id = 2 GROUP BY kind ORDER BY kind;")
        self.assertEqual(dict((k, int(n)) for k, n in shares),
                         {k: len(v) for k, v in (("mpi_call", self.report["critical_path"]
                                                  ["call_sites"]), ("segment", self.report[
                                                      "critical_path"]["segments"])) if v})
        pop = self.report["pop"]
        row = sqlite(self.db, "SELECT region, load_balance, parallel_efficiency"
                              " FROM pop_efficiencies WHERE run_id = 2;")[0]
        self.assertEqual(row[0], pop["region"])
        self.assertAlmostEqual(float(row[1]), pop["load_balance"], places=6)
        self.assertAlmostEqual(float(row[2]), pop["parallel_efficiency"], places=6)
        ranks = sqlite(self.db, "SELECT rank, useful_s FROM pop_ranks WHERE run_id = 2"
                                " ORDER BY rank;")
        self.assertEqual([int(r[0]) for r in ranks], [r["rank"] for r in pop["ranks"]])
        self.assertEqual(sqlite(self.db, "PRAGMA user_version;"), [["4"]])

    # Communication matrix

    def test_matrix_counts_the_messages_in_the_archive(self):
        messages, sizes = Counter(), Counter()
        for call in self.archive.calls:
            for record in call.records:
                if record.kind in ("MpiSend", "MpiIsend"):
                    messages[(call.rank, record.world_peer)] += 1
                    sizes[(call.rank, record.world_peer)] += record.bytes
        matrix = {(c["sender"], c["receiver"]): c for c in self.report["communication"]}
        self.assertEqual({k: c["messages"] for k, c in matrix.items()}, dict(messages))
        self.assertEqual({k: c["bytes"] for k, c in matrix.items()}, dict(sizes))
        for c in matrix.values():
            self.assertLessEqual(0, c["transfer_min_s"])
            self.assertLessEqual(c["transfer_min_s"], c["transfer_median_s"])
            self.assertLessEqual(c["transfer_median_s"], c["transfer_max_s"])
            self.assertLessEqual(c["transfer_min_s"], c["transfer_mean_s"])
        # Rank 0 receives rank 1's first two messages of an iteration only after the third, which
        # rank 1 sends one delay (200 ms, at least: usleep) later; the third is received at once.
        # So the slowest message took at least 200 ms longer than the fastest one. A difference
        # of two transfer times of the same pair of ranks is free of their clock offset, which
        # an oversubscribed machine can get wrong by tens of ms, and load only makes it larger.
        spread = matrix[(1, 0)]["transfer_max_s"] - matrix[(1, 0)]["transfer_min_s"]
        self.assertGreater(spread, 0.15)

    # Timeline

    def test_timeline_has_a_slice_per_call_and_an_arrow_per_message(self):
        slices = Counter((e["pid"], e["tid"]) for e in self.timeline
                         if e["ph"] == "X" and e["cat"] == "mpi")
        calls = Counter((c.rank, 0) for c in self.archive.calls)
        self.assertEqual(slices, calls)
        starts = [e for e in self.timeline if e["ph"] == "s"]
        self.assertEqual(len(starts), sum(c["messages"] for c in self.report["communication"]))
        self.assertEqual(len([e for e in self.timeline if e["ph"] == "f"]), len(starts))
        patterns = {e["name"] for e in self.timeline if e["ph"] == "X" and e["cat"] == "pattern"}
        self.assertEqual(patterns, {f["pattern"] for f in self.report["findings"]})

    def test_csv_is_the_reports_matrix(self):
        with open(self.csv_path, encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), len(self.report["communication"]))
        for row, cell in zip(rows, self.report["communication"]):
            for key, value in cell.items():
                self.assertAlmostEqual(float(row[key]), value, places=9, msg=key)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
