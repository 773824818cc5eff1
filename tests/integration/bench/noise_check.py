"""Integration check of `collwrap-bench noise` on a few ranks for a few seconds: the noise file
and the JSON analysis have their structure, the numbers are within their ranges (bursts in
order and inside the collection, C in [0, 1], S in [1/p, 1], efficiencies in (0, 1]), formula
(1) and the simulation roughly agree (closely on a quiet machine, within the noise's coverage on
a loaded one), `--load` of the saved file gives the same bands on one rank, and bad
invocations are usage errors."""
import argparse
import json
import math
import os
import tempfile

from bench_mpirun import expect, expect_usage_error, run_bench


def check_noise_file(noise, ranks, duration):
    expect(noise["format"] == "collwrap-noise" and noise["version"] == 1, "noise file header")
    expect(noise["quantum_s"] > 0 and noise["quantum_iterations"] > 0, "quantum > 0")
    expect(noise["duration_s"] == duration, "T is the requested duration")
    expect(len(noise["ranks"]) == ranks and len(noise["hosts"]) == ranks, "one entry per rank")
    for r, rank in enumerate(noise["ranks"]):
        expect(rank["rank"] == r and rank["quanta"] > 1000, f"rank {r} timed quanta")
        expect(rank["min_quantum_s"] >= noise["quantum_s"], f"rank {r}: fastest quantum")
        starts = [b[0] for b in rank["bursts"]]
        expect(starts == sorted(starts), f"rank {r}: bursts in order of their start")
        for start, length in rank["bursts"]:
            expect(0 <= start <= duration, f"rank {r}: burst at {start} inside the collection")
            expect(length > noise["threshold_s"], f"rank {r}: burst above the threshold")


def check_analysis(analysis, ranks):
    p = analysis["processes"]
    expect(p == ranks, "predictions for p = ranks")
    for band in analysis["bands"] + [analysis["integral"]]:
        expect(0 <= band["C"] <= 1, f"C = {band['C']} within [0, 1]")
        if band["bursts"]:
            expect(1 / p - 1e-9 <= band["S"] <= 1 + 1e-9, f"S = {band['S']} within [1/p, 1]")
            expect(band["d_s"] >= band["low_s"], "mean duration within its band")
    coverage = analysis["integral"]["C"]
    print(f"integral C = {coverage:.4f}, S = {analysis['integral']['S']:.3f}")
    expect(analysis["predictions"], "predictions")
    for g in analysis["predictions"]:
        f1, f2, sim = g["formula1_efficiency"], g["formula2_efficiency"], g["simulated"]
        expect(0 < f1 <= 1 and 0 < f2 <= 1, f"formula efficiencies in (0, 1]: {f1}, {f2}")
        expect(sim is not None, f"grain {g['grain_s']}: at least one simulated run")
        expect(0 < sim["efficiency_min"] <= sim["efficiency_mean"] <= sim["efficiency_max"] <= 1,
               "simulated min <= mean <= max within (0, 1]")
        print(f"grain {g['grain_s'] * 1e6:g} us: formula (1) {f1:.4f}, formula (2) {f2:.4f}, "
              f"simulated {sim['efficiency_mean']:.4f} over {sim['runs']} runs")
        # Formula (1) models rare bursts; the heavier the noise, the further it may stray.
        expect(abs(f1 - sim["efficiency_mean"]) <= 0.05 + coverage,
               "formula (1) and the simulation roughly agree")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mpirun", required=True)
    parser.add_argument("--bench", required=True)
    parser.add_argument("--np", type=int, default=2)
    parser.add_argument("--duration", type=float, default=2)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="collwrap-noise-")
    saved, measured, loaded = (os.path.join(work, n) for n in ("f.json", "out.json", "load.json"))

    result = run_bench(args.mpirun, args.bench, args.np, "noise", "--duration",
                       str(args.duration), "--grain", "100,1000", "--save", saved, "--json",
                       measured)
    expect(result.returncode == 0, f"exit status 0, not {result.returncode}")
    for section in ["Noise collection (NoM): ", "Bands over p = ", "integral: C = ",
                    "Predicted efficiency E_p for p = "]:
        expect(section in result.stdout, f"table section '{section}'")
    with open(saved, encoding="utf-8") as f:
        check_noise_file(json.load(f), args.np, args.duration)
    with open(measured, encoding="utf-8") as f:
        analysis = json.load(f)
    check_analysis(analysis, args.np)
    with open(saved, encoding="utf-8") as f:
        file_bands = json.load(f)["bands"]
    expect(len(file_bands) == len(analysis["bands"]), "the noise file lists the bands")
    for a, b in zip(file_bands, analysis["bands"]):
        expect(a["bursts"] == b["bursts"] and math.isclose(a["S"], b["S"], rel_tol=1e-9),
               "the noise file's bands are the analysis's")

    result = run_bench(args.mpirun, args.bench, 1, "noise", "--load", saved, "--grain",
                       "100,1000", "--json", loaded)
    expect(result.returncode == 0, f"--load exits with 0, not {result.returncode}")
    with open(loaded, encoding="utf-8") as f:
        again = json.load(f)
    expect(len(again["bands"]) == len(analysis["bands"]), "--load: the same bands")
    for a, b in zip(again["bands"], analysis["bands"]):
        for key in ("bursts", "d_s", "C", "S"):
            expect(math.isclose(a[key], b[key], rel_tol=1e-9), f"--load: same {key} per band")

    missing = run_bench(args.mpirun, args.bench, 1, "noise", "--load", saved + ".missing")
    expect(missing.returncode == 2 and "cannot read the noise file" in missing.stderr,
           "a missing noise file is a usage error")
    expect_usage_error(run_bench(args.mpirun, args.bench, 1, "noise", "--load", saved, "--save",
                                 loaded), "noise")
    expect_usage_error(run_bench(args.mpirun, args.bench, 1, "noise", "--grain", "0"), "noise")
    print("PASS")


if __name__ == "__main__":
    main()
