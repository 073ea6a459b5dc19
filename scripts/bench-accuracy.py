#!/usr/bin/env python3
"""Score JSON Lines lift reports against SampleStreams truth, the same way for any tool.

Usage: bench-accuracy.py --truth-dir DIR [--label NAME] [--json OUT] REPORTS.jsonl...

Each REPORTS file holds the reports of one stream and is named after it:
`squat-serial-clean.jsonl` is scored against DIR/squat-serial-clean.truth.json.
A report is one set: `start_s`, `end_s` and `reps[]` with `concentric_start_s`,
`concentric_end_s`, `rom_cm`, `mean_velocity_mps`, `peak_velocity_mps` (the
lift-report contract; `liftbuddy analyze` and scripts/baseline.py both write it).

Pairing follows the project's own scorer (Sources/LiftBuddySimulator/Scorer.swift):
sets one-to-one by the length of time-span overlap, reps one-to-one across the
whole stream by intersection-over-union of the concentric intervals, greedily
from the best pair down. A set is exact when it is paired and has the truth's
rep count. Errors (MAE) are over paired reps, pooled over all files in TOTAL.
Also, as in `liftbuddy evaluate` (issue 8's measures): reports that overlap no
true set (no_set), rep precision and recall, max |pitch| and |roll| over the
concentric phase (tilt, where the report has them), and sticking points found
on reps that have one / claimed on reps that have none.
"""
import argparse
import json
import os
import sys


def overlap(a, b):
    return min(a[1], b[1]) - max(a[0], b[0])


def iou(a, b):
    inter = overlap(a, b)
    return inter / (max(a[1], b[1]) - min(a[0], b[0])) if inter > 0 else 0.0


def pairs(found, truth, affinity):
    cands = [(-affinity(f, t), i, j) for i, f in enumerate(found) for j, t in enumerate(truth)
             if affinity(f, t) > 0]
    cands.sort()
    used_f, used_t, out = set(), set(), []
    for _, i, j in cands:
        if i not in used_f and j not in used_t:
            used_f.add(i)
            used_t.add(j)
            out.append((i, j))
    return out


FIELDS = ("mean_velocity_mps", "peak_velocity_mps", "rom_cm", "concentric_start_s", "concentric_end_s")


def new_score():
    return {"streams": 0, "sets": 0, "reported_sets": 0, "exact_sets": 0, "reps": 0,
            "reported_reps": 0, "matched": 0, "extra": 0, "missed": 0, "no_set": 0,
            "tilt_n": 0, "tilt_abs": 0.0, "tilt_signed": 0.0,
            "sticking_reps": 0, "sticking_found": 0, "smooth_reps": 0, "sticking_claimed": 0,
            "abs": {k: 0.0 for k in FIELDS}}


def score_file(reports, truth):
    s = new_score()
    s["streams"] = 1
    tsets = truth["sets"]
    s["sets"], s["reported_sets"] = len(tsets), len(reports)
    sp = pairs([(r["start_s"], r["end_s"]) for r in reports],
               [(t["start_s"], t["end_s"]) for t in tsets], overlap)
    s["exact_sets"] = sum(1 for i, j in sp if len(reports[i]["reps"]) == len(tsets[j]["reps"]))
    found = [rep for r in reports for rep in r["reps"]]
    real = [rep for t in tsets for rep in t["reps"]]
    rp = pairs([(r["concentric_start_s"], r["concentric_end_s"]) for r in found],
               [(r["concentric_start_s"], r["concentric_end_s"]) for r in real], iou)
    s["reps"], s["reported_reps"], s["matched"] = len(real), len(found), len(rp)
    s["extra"], s["missed"] = len(found) - len(rp), len(real) - len(rp)
    s["no_set"] = sum(1 for r in reports
                      if not any(overlap((r["start_s"], r["end_s"]), (t["start_s"], t["end_s"])) > 0
                                 for t in tsets))
    for i, j in rp:
        for k in FIELDS:
            s["abs"][k] += abs(found[i][k] - real[j][k])
        for k in ("max_abs_pitch_deg", "max_abs_roll_deg"):
            if found[i].get(k) is not None and real[j].get(k) is not None:
                s["tilt_n"] += 1
                s["tilt_abs"] += abs(found[i][k] - real[j][k])
                s["tilt_signed"] += found[i][k] - real[j][k]
        claimed = found[i].get("sticking_point_cm") is not None
        if real[j].get("sticking_point_cm") is not None:
            s["sticking_reps"] += 1
            s["sticking_found"] += claimed
        else:
            s["smooth_reps"] += 1
            s["sticking_claimed"] += claimed
    return s


def add(total, s):
    for k, v in s.items():
        if k == "abs":
            for f in FIELDS:
                total["abs"][f] += v[f]
        else:
            total[k] += v


def row(name, s):
    m = s["matched"]
    mae = lambda k, d=3: f"{s['abs'][k] / m:.{d}f}" if m else "-"
    exact = f"{100.0 * s['exact_sets'] / s['sets']:.1f}" if s["sets"] else "-"
    tilt = f"{s['tilt_abs'] / s['tilt_n']:.2f}" if s["tilt_n"] else "-"
    prec = f"{m / s['reported_reps']:.3f}" if s["reported_reps"] else "-"
    recall = f"{m / s['reps']:.3f}" if s["reps"] else "-"
    return (f"{name:<44} {s['sets']:>4} {s['reported_sets']:>5} {exact:>6} {s['no_set']:>6} {s['reps']:>5} "
            f"{s['matched']:>5} {s['extra']:>5} {s['missed']:>6} {prec:>6} {recall:>6} {mae('mean_velocity_mps'):>7} "
            f"{mae('peak_velocity_mps'):>7} {mae('rom_cm', 2):>7} {tilt:>6} "
            f"{mae('concentric_start_s'):>6} {mae('concentric_end_s'):>6}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reports", nargs="+")
    ap.add_argument("--truth-dir", required=True)
    ap.add_argument("--label", default="")
    ap.add_argument("--json", help="also write the TOTAL as one JSON object to this file")
    a = ap.parse_args()
    total = new_score()
    print(f"## {a.label}" if a.label else "")
    print(f"{'file':<44} {'sets':>4} {'found':>5} {'exact%':>6} {'no_set':>6} {'reps':>5} {'match':>5} "
          f"{'extra':>5} {'missed':>6} {'prec':>6} {'recall':>6} {'mv_mae':>7} {'pv_mae':>7} {'rom_mae':>7} "
          f"{'tilt':>6} {'t0_mae':>6} {'t1_mae':>6}")
    for path in sorted(a.reports):
        name = os.path.basename(path)[: -len(".jsonl")] if path.endswith(".jsonl") else os.path.basename(path)
        with open(os.path.join(a.truth_dir, name + ".truth.json")) as f:
            truth = json.load(f)
        with open(path) as f:
            reports = [json.loads(line) for line in f if line.strip()]
        s = score_file(reports, truth)
        add(total, s)
        print(row(name, s))
    print(row("TOTAL", total))
    if a.json:
        m = total["matched"]
        out = {k: v for k, v in total.items() if k != "abs"}
        out["exact_sets_pct"] = 100.0 * total["exact_sets"] / total["sets"] if total["sets"] else None
        for k in FIELDS:
            out[k + "_mae"] = total["abs"][k] / m if m else None
        out["tilt_deg_mae"] = total["tilt_abs"] / total["tilt_n"] if total["tilt_n"] else None
        out["tilt_deg_bias"] = total["tilt_signed"] / total["tilt_n"] if total["tilt_n"] else None
        with open(a.json, "w") as f:
            json.dump(out, f)
            f.write("\n")


if __name__ == "__main__":
    sys.exit(main())
