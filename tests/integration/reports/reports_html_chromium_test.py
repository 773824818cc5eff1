#!/usr/bin/python3
"""The HTML report of a real trace, opened in headless Chromium.

The wrong_order example is traced (run_pattern_example.py's trace()) and analyzed into the
JSON report, the HTML report, the timeline and the matrix SVG, with a time window and a
--timeline-max-events ten calls short of the trace's, so that the timeline's limits apply. Chromium loads the page from
the file system with all networking refused and dumps the DOM after the scripts ran. The page
must have rendered (#render-status "ok"), logged nothing to the console (no "Uncaught" error, no
refused fetch), and show the JSON report's numbers: findings, per-pattern idle times, the worst
finding's file:line, a bar per rank, a row per operation, the matrix cells, and the same
timeline calls as the --timeline file of the same run.

    reports_html_chromium_test.py EXAMPLE --mpirun M --preload LIB --analyzer A
        --chromium C --pattern-tests DIR
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser

parser = argparse.ArgumentParser()
parser.add_argument("binary")
for option in ("--mpirun", "--preload", "--analyzer", "--chromium", "--pattern-tests"):
    parser.add_argument(option, required=True)
ARGS = parser.parse_args()
ARGS.np, ARGS.timeout = 4, 240
sys.path[:0] = [ARGS.pattern_tests]
import run_pattern_example  # noqa: E402  (trace(): mpirun with libcollwrap.so)


class Dom(HTMLParser):
    """Elements of the dumped DOM: tag, attributes, text inside, children."""

    def __init__(self):
        super().__init__()
        self.root = {"tag": "#root", "attrs": {}, "children": [], "text": ""}
        self.stack = [self.root]

    VOID = {"meta", "input", "br", "img", "link", "hr", "col", "area", "base", "source", "wbr"}

    def handle_starttag(self, tag, attrs):
        node = {"tag": tag, "attrs": dict(attrs), "children": [], "text": ""}
        self.stack[-1]["children"].append(node)
        if tag not in self.VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1]["children"].append({"tag": tag, "attrs": dict(attrs), "children": [],
                                           "text": ""})

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i]["tag"] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        for node in self.stack:
            node["text"] += data

    def all(self, predicate, node=None):
        node = node or self.root
        found = [node] if predicate(node) else []
        for child in node["children"]:
            found += self.all(predicate, child)
        return found

    def by_id(self, element_id):
        found = self.all(lambda n: n["attrs"].get("id") == element_id)
        if len(found) != 1:
            raise AssertionError(f"{len(found)} elements with id {element_id}")
        return found[0]


def rows(dom, table_id):
    body = [n for n in dom.by_id(table_id)["children"] if n["tag"] == "tbody"][0]
    return [r for r in body["children"] if r["tag"] == "tr"]


def cell(row, key):
    return [c for c in row["children"] if c["attrs"].get("data-key") == key][0]


class HtmlChromiumTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.workdir = tempfile.mkdtemp(prefix="collwrap-html-")
        trace = run_pattern_example.trace(ARGS, cls.workdir)
        path = lambda name: os.path.join(cls.workdir, name)  # noqa: E731
        cls.html_path = path("report.html")
        # The calls of the trace: the operation table counts each once.
        first = subprocess.run([ARGS.analyzer, trace, "--quiet", "--json", "-"],
                               capture_output=True, text=True, timeout=120, check=True)
        first_report = json.loads(first.stdout)
        calls = sum(o["count"] for o in first_report["operations"])
        cls.max_calls = calls - 10
        # A what-if question about the worst root cause, so that its table is drawn too.
        cause = first_report["root_causes"][0]
        what_if = (f"rank={cause['rank']},segment={cause['segment']['file']}:"
                   f"{cause['segment']['line']},scale=0.5")
        run = subprocess.run(
            [ARGS.analyzer, trace, "--json", path("report.json"), "--html", cls.html_path,
             "--timeline", path("timeline.json"), "--matrix-svg", path("matrix.svg"),
             "--time-window", "0:1000", "--timeline-max-events", str(cls.max_calls),
             "--what-if", what_if],
            capture_output=True, text=True, timeout=120)
        if run.returncode != 0:
            raise AssertionError(f"analyzer exited {run.returncode}: {run.stderr}")
        with open(path("report.json"), encoding="utf-8") as f:
            cls.report = json.load(f)
        with open(path("timeline.json"), encoding="utf-8") as f:
            cls.timeline = json.load(f)
        cls.matrix_svg = path("matrix.svg")
        with open(cls.html_path, encoding="utf-8") as f:
            cls.html = f.read()

        chromium = subprocess.run(
            [ARGS.chromium, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update", "--no-first-run",
             "--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir=" + path("profile"),
             "--enable-logging=stderr", "--v=0", "--dump-dom", "file://" + cls.html_path],
            capture_output=True, text=True, timeout=120)
        if chromium.returncode != 0:
            raise AssertionError(f"chromium exited {chromium.returncode}: {chromium.stderr}")
        cls.console = chromium.stderr
        cls.dom = Dom()
        cls.dom.feed(chromium.stdout)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.workdir)

    def test_page_rendered_without_errors(self):
        self.assertEqual(self.dom.by_id("render-status")["text"].strip(), "ok")
        self.assertTrue(self.dom.by_id("render-error")["attrs"].get("hidden") is not None)
        for line in self.console.splitlines():
            self.assertNotIn("Uncaught", line)
            self.assertNotIn("Refused to", line)  # a fetch the page's CSP blocked
            self.assertNotIn(":CONSOLE", line, "the page logged to the console")

    def test_summary_shows_the_reports_totals(self):
        summary = self.report["summary"]
        findings = self.dom.by_id("summary-findings")
        self.assertEqual(int(findings["attrs"]["data-value"]), summary["findings"])
        self.assertEqual(int(self.dom.by_id("summary-ranks")["attrs"]["data-value"]),
                         self.report["trace"]["world_size"])
        self.assertEqual(float(self.dom.by_id("summary-mpi-time")["attrs"]["data-value"]),
                         summary["total_mpi_time_s"])
        self.assertEqual(int(self.dom.by_id("summary-clock-violations")["attrs"]["data-value"]),
                         summary["clock"]["violations"])
        pattern_rows = {r["attrs"]["data-pattern"]: r for r in rows(self.dom, "patterns-table")}
        self.assertEqual(list(pattern_rows), [p["pattern"] for p in summary["patterns"]])
        for p in summary["patterns"]:
            row = pattern_rows[p["pattern"]]
            self.assertEqual(float(cell(row, "wait_time_s")["attrs"]["data-value"]),
                             p["wait_time_s"], p["pattern"])
            self.assertEqual(int(cell(row, "findings")["attrs"]["data-value"]), p["findings"])
        self.assertGreater(float(cell(pattern_rows["wrong_order"], "wait_time_s")["attrs"]
                                 ["data-value"]), 0.5)

    def test_findings_table_is_the_reports_worst_first(self):
        findings = self.report["findings"]
        table = rows(self.dom, "findings-table")
        self.assertEqual(len(table), len(findings))
        worst = findings[0]
        self.assertEqual(cell(table[0], "place")["text"], f"{worst['file']}:{worst['line']}")
        self.assertEqual(cell(table[0], "pattern")["text"], worst["pattern"])
        self.assertEqual(float(cell(table[0], "wait_time_s")["attrs"]["data-value"]),
                         worst["wait_time_s"])
        waits = [float(cell(r, "wait_time_s")["attrs"]["data-value"]) for r in table]
        self.assertEqual(waits, sorted(waits, reverse=True))
        heading = self.dom.all(lambda n: n["tag"] == "th" and n["attrs"].get("data-key") ==
                               "wait_time_s" and n["attrs"].get("aria-sort") == "descending")
        self.assertEqual(len(heading), 1)

    def test_lines_to_change_are_the_reports_root_causes(self):
        causes = self.report["root_causes"]
        self.assertGreater(len(causes), 0)
        table = rows(self.dom, "causes-table")
        self.assertEqual(len(table), min(len(causes), 50))
        for row, cause in zip(table, causes):  # in the analyzer's order: by gain
            segment = cause["segment"]
            self.assertIn(f"{segment['file']}:{segment['line']} ({segment['mpi_function']})",
                          cell(row, "place")["text"])
            self.assertEqual(int(cell(row, "rank")["attrs"]["data-value"]), cause["rank"])
            self.assertEqual(float(cell(row, "short_term_cost_s")["attrs"]["data-value"]),
                             cause["short_term_cost_s"])
            if cause["gain_s"] is not None:
                self.assertEqual(float(cell(row, "gain_s")["attrs"]["data-value"]),
                                 cause["gain_s"])
        self.assertIn("attributed", self.dom.by_id("delay-balance")["text"])
        answers = rows(self.dom, "what-if-table")
        self.assertEqual(len(answers), len(self.report["what_if"]))
        self.assertEqual(float(cell(answers[0], "gain_s")["attrs"]["data-value"]),
                         self.report["what_if"][0]["gain_s"])

    def test_critical_path_and_pop_efficiencies(self):
        path = self.report["critical_path"]
        self.assertEqual(float(self.dom.by_id("critical-path-length")["attrs"]["data-value"]),
                         path["length_s"])
        self.assertEqual(int(self.dom.by_id("critical-path-hops")["attrs"]["data-value"]),
                         path["hops"])
        self.assertEqual(len(rows(self.dom, "critical-path-table")),
                         min(len(path["segments"]), 20))
        pop = self.report["pop"]
        values = [float(c["attrs"]["data-value"])
                  for r in rows(self.dom, "pop-table") for c in r["children"]
                  if c["tag"] == "td" and "data-value" in c["attrs"]]
        self.assertEqual(values, [pop["parallel_efficiency"], pop["load_balance"],
                                  pop["communication_efficiency"],
                                  pop["serialization_efficiency"], pop["transfer_efficiency"]])

    def test_critical_path_on_the_timeline_covers_the_run(self):
        path = json.loads(self.dom.by_id("report-data")["text"])["timeline"]["critical_path"]
        pieces = len(path["track"])
        # A piece per stay on a rank (a stay of zero length draws nothing).
        self.assertGreater(pieces, 0)
        self.assertLessEqual(pieces, self.report["critical_path"]["hops"] + 1)
        self.assertIn(f"critical path ({pieces} piece", self.dom.by_id("timeline-critical-path")["text"])
        for k in range(pieces - 1):  # a line without gaps, from one rank to the next
            self.assertEqual(path["to_ns"][k], path["from_ns"][k + 1])
            self.assertNotEqual(path["track"][k], path["track"][k + 1])
        covered = sum(t - f for f, t in zip(path["from_ns"], path["to_ns"]))
        self.assertAlmostEqual(covered / 1e9, self.report["critical_path"]["length_s"], delta=1e-6)

    def test_rank_chart_operations_and_matrix(self):
        bars = self.dom.all(lambda n: n["tag"] == "g" and "data-rank" in n["attrs"])
        self.assertEqual(sorted(int(b["attrs"]["data-rank"]) for b in bars),
                         [r["rank"] for r in self.report["ranks"]])
        self.assertEqual(len(rows(self.dom, "operations-table")), len(self.report["operations"]))
        titles = {t["text"] for t in self.dom.all(lambda n: n["tag"] == "title")}
        for c in self.report["communication"]:
            self.assertIn(f"{c['sender']} \u2192 {c['receiver']}: {c['bytes']:.4g} B", titles)
        # --matrix-svg: the same bytes heatmap as a standalone, well-formed SVG.
        svg = ElementTree.parse(self.matrix_svg).getroot()
        self.assertEqual(svg.tag, "{http://www.w3.org/2000/svg}svg")
        cells = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}title")]
        world = self.report["trace"]["world_size"]
        self.assertEqual(len(cells), world * world)

    def test_timeline_is_the_timeline_files(self):
        data = json.loads(self.dom.by_id("report-data")["text"])["timeline"]
        slices = [e for e in self.timeline["traceEvents"] if e["ph"] == "X" and e["cat"] == "mpi"]
        self.assertEqual(len(data["calls"]["track"]), len(slices))
        self.assertEqual(len(slices), self.max_calls)
        self.assertEqual(data["calls_dropped"], self.timeline["otherData"]["calls_dropped"])
        self.assertEqual(data["calls_dropped"], 10)
        self.assertIn("Only the first", self.dom.by_id("timeline-note")["text"])
        arrows = [e for e in self.timeline["traceEvents"] if e["ph"] == "s"]
        self.assertEqual(len(data["messages"]["from"]), len(arrows))
        self.assertGreater(len(arrows), 0)
        self.assertEqual(sorted(round(e / 1e3, 3) for e in data["calls"]["enter_ns"]),
                         sorted(round(e["ts"], 3) for e in slices))
        legend = self.dom.by_id("timeline-legend")["text"]
        for name in data["functions"]:
            self.assertIn(name, legend)
        self.assertEqual(self.dom.by_id("timeline-canvas")["tag"], "canvas")
        # The window ends with the trace, not at the 1000 s asked for.
        self.assertEqual(data["window"],
                         {"start_s": 0, "end_s": self.report["trace"]["duration_s"]})


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
