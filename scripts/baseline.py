#!/usr/bin/env python3
"""Baseline: the straightforward NumPy/SciPy rep analysis a user would write.

Usage: baseline.py [--stats] FILE.lbs...   (JSON Lines on stdout, one object per set;
--stats: rows and rows/s on stderr, timed from reading to output, like
`liftbuddy analyze --stats`, so without the interpreter's start and imports)

Steps: read the recorded stream (timed rows `<t> <line>`, or bare lines timed
at `# rate_hz`), keep `s:` rows in 2-400 cm, median filter (kernel 5), moving
average over ~0.2 s, velocity = np.gradient(height, receive time), reps from
find_peaks on height (valleys of prominence 15 cm), each valley paired with the
next peak (the highest point before the next valley),
concentric phase from the valley's velocity zero crossing (<= 0 to > 0) to the
next one back to <= 0 (contract section 4), at most up to the peak. Sets are
split where 12 s pass without a rep. Used only as the comparison in
BENCHMARKS.md (docs/benchmarks-method.md); it is not tuned on the truth files.
"""
import json
import math
import os
import sys
import time

import numpy as np
from scipy.ndimage import uniform_filter1d
from scipy.signal import find_peaks, medfilt

PROMINENCE_CM = 15.0
SMOOTH_S = 0.2
SET_GAP_S = 12.0
ROWS = 0  # data rows read, for --stats


def read_sonar(path):
    """Return (times, heights_cm) of the valid `s:` rows."""
    global ROWS
    times, heights = [], []
    rate, n_s, last_t = 20.0, 0, -math.inf
    with open(path, "r", encoding="utf-8", errors="replace") as f:
        for row in f:
            row = row.rstrip("\r\n")
            if row.startswith("#"):
                if row.startswith("# rate_hz:"):
                    try:
                        rate = float(row.split(":", 1)[1])
                    except ValueError:
                        pass
                continue
            ROWS += 1
            parts = row.split(" ", 1)
            try:
                t, line = float(parts[0]), parts[1]  # timed row
            except (ValueError, IndexError):
                t, line = None, row                  # bare protocol line
            if not line.startswith("s:"):
                continue
            try:
                cm = float(line.split(":")[1])
            except (ValueError, IndexError):
                continue
            if t is None:
                t = n_s / rate
                n_s += 1
            if not math.isfinite(t) or t < last_t:
                continue  # time going backwards: skip the row
            last_t = t
            if math.isfinite(cm) and 2.0 <= cm <= 400.0:
                times.append(t)
                heights.append(cm)
    return np.array(times), np.array(heights)


def analyze(path):
    t, h = read_sonar(path)
    # np.gradient divides by time steps: drop rows with the same time as the one before.
    keep = np.concatenate(([True], np.diff(t) > 0)) if len(t) else np.array([], bool)
    t, h = t[keep], h[keep]
    if len(t) < 10:
        return []
    h = medfilt(h, 5)
    rate = 1.0 / np.median(np.diff(t))
    h = uniform_filter1d(h, max(1, int(round(SMOOTH_S * rate))), mode="nearest")
    v = np.gradient(h, t) / 100.0  # m/s

    valleys, _ = find_peaks(-h, prominence=PROMINENCE_CM)
    bounds = list(valleys[1:]) + [len(h)]
    reps = []
    for lo, nxt in zip(valleys, bounds):
        # The next peak: the highest point before the next valley. (A prominent
        # find_peaks peak misses the last rep of a set when the re-rack lifts
        # the bar a little higher afterwards.)
        hi = lo + int(np.argmax(h[lo:nxt]))
        if h[hi] - h[lo] < PROMINENCE_CM:
            continue
        i = lo
        while i < hi and v[i] <= 0:  # bottom turnaround: velocity turns > 0
            i += 1
        j = i
        while j < hi and v[j] > 0:  # top: velocity back to <= 0
            j += 1
        if j <= i or t[j] <= t[i]:
            continue
        rom = float(h[j] - h[i])
        reps.append({
            "concentric_start_s": round(float(t[i]), 3),
            "concentric_end_s": round(float(t[j]), 3),
            "rom_cm": round(rom, 2),
            "mean_velocity_mps": round(rom / 100.0 / float(t[j] - t[i]), 3),
            "peak_velocity_mps": round(float(np.max(v[i:j + 1])), 3),
        })

    sets, current = [], []
    for rep in reps:
        if current and rep["concentric_start_s"] - current[-1]["concentric_end_s"] > SET_GAP_S:
            sets.append(current)
            current = []
        current.append(rep)
    if current:
        sets.append(current)
    out = []
    for n, s in enumerate(sets, 1):
        for idx, rep in enumerate(s, 1):
            rep["index"] = idx
        out.append({"file": os.path.basename(path), "set": n,
                    "start_s": s[0]["concentric_start_s"], "end_s": s[-1]["concentric_end_s"],
                    "reps": s})
    return out


def main():
    args = sys.argv[1:]
    stats = "--stats" in args
    files = [a for a in args if a != "--stats"]
    if not files:
        sys.exit(__doc__)
    start = time.perf_counter()
    for path in files:
        for report in analyze(path):
            print(json.dumps(report))
    if stats:
        sys.stdout.flush()
        secs = time.perf_counter() - start
        print(f"baseline: {ROWS} lines in {secs} s: {ROWS / secs:.0f} lines/s", file=sys.stderr)


if __name__ == "__main__":
    main()
