#!/usr/bin/env python3
"""Where the mean-velocity error is: each found rep against its truth, by
transport and by how the clip's firmware keeps time.

Reps are paired as the scorer pairs them (`Scorer.swift`: intersection
over union of the concentric intervals, best pair first, across the whole
stream). For each group it prints the reps, the median error of the
concentric duration (found minus true, over the true), and the MV MAE and
bias. The firmware's timing is read from the truth's `firmware` field: the
independent simulator's barclip-1.0 and 1.4, and the blind simulator's
"delay() loop", wait for each echo before their delay; the rest run on a
timer or send their own clock.

Usage: scripts/velocity-error-breakdown.py LIFTBUDDY FILE.lbs...
"""
import collections
import json
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def timing(firmware):
    delay = firmware.startswith(("barclip-1.0", "barclip-1.4")) or "delay()" in firmware
    return "delay() loop" if delay else "timer"


def pairs(found, truth):
    scored = []
    for i, f in enumerate(found):
        for j, t in enumerate(truth):
            a0, a1 = f["concentric_start_s"], f["concentric_end_s"]
            b0, b1 = t["concentric_start_s"], t["concentric_end_s"]
            inter = max(0.0, min(a1, b1) - max(a0, b0))
            if inter > 0:
                scored.append((inter / (max(a1, b1) - min(a0, b0)), i, j))
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    used_f, used_t = set(), set()
    for _, i, j in scored:
        if i not in used_f and j not in used_t:
            used_f.add(i)
            used_t.add(j)
            yield found[i], truth[j]


def one(binary, path):
    truth = json.load(open(path[:-4] + ".truth.json"))
    out = subprocess.run([binary, "analyze", path], capture_output=True, text=True).stdout
    found = [r for line in out.splitlines() if line.startswith("{") for r in json.loads(line)["reps"]]
    true_reps = [r for s in truth["sets"] for r in s["reps"]]
    group = (truth["transport"], "index clock" if truth["transport"] == "raw"
             else timing(truth.get("firmware", "")))
    rows = []
    for f, t in pairs(found, true_reps):
        duration = t["concentric_end_s"] - t["concentric_start_s"]
        found_duration = f["concentric_end_s"] - f["concentric_start_s"]
        rows.append((group, (found_duration - duration) / duration,
                     f["mean_velocity_mps"] - t["mean_velocity_mps"]))
    return rows


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, files = sys.argv[1], sys.argv[2:]
    groups = collections.defaultdict(list)
    with ThreadPoolExecutor(2) as pool:
        for rows in pool.map(lambda f: one(binary, f), files):
            for group, rel, err in rows:
                groups[group].append((rel, err))
                groups[("all", "")].append((rel, err))
    print("| transport, timing | reps | duration error (median) | MV MAE | MV bias |")
    print("| --- | --- | --- | --- | --- |")
    for group in sorted(groups):
        rows = groups[group]
        rel = statistics.median(r for r, _ in rows)
        mae = sum(abs(e) for _, e in rows) / len(rows)
        bias = sum(e for _, e in rows) / len(rows)
        print(f"| {', '.join(x for x in group if x)} | {len(rows)} | {100 * rel:+.1f} % | {mae:.4f} | {bias:+.4f} |")


if __name__ == "__main__":
    main()
