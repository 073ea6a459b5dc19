#!/usr/bin/env python3
"""Baseline: the straightforward NumPy/SciPy rep analysis a user would write.

Usage: baseline.py [--stats] FILE.lbs...   (JSON Lines on stdout, one object per set;
--stats: rows and rows/s on stderr, timed from reading to output, like
`liftbuddy analyze --stats`, so without the interpreter's start and imports)

Steps: read the recorded stream (timed rows `<t> <line>`, or bare lines timed
at `# rate_hz`), keep `s:` rows in 2-400 cm (400 is the HC-SR04's no-echo
value, so it is out), median filter (kernel 5), resampled onto a uniform grid at
the average rate (np.interp), moving average over ~0.2 s, velocity =
np.gradient(height, time), reps from find_peaks on height (tops of prominence 15 cm), each top paired with the
valley before it (the lowest point since the previous top), concentric phase
the run of positive velocity around the fastest point between them (contract
section 4: from velocity leaving zero to velocity back at zero). Sets are
split where 12 s pass without a rep. Tilt: the largest |pitch| and |roll| of
the `a:` rows inside the concentric phase (rows outside ±90° pitch, ±180° roll
are garbage and skipped). Sticking point: the deepest dip of
velocity inside the concentric phase after its first peak, if find_peaks
gives it a prominence of at least 0.05 m/s. Used only as the comparison in
BENCHMARKS.md and `liftbuddy evaluate --baseline` (docs/benchmarks-method.md);
it is not tuned on the truth files or the scenario splits.
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
STICKING_PROMINENCE_MPS = 0.05
ROWS = 0  # data rows read, for --stats


def read_sonar(path):
    """Return (times, heights_cm) of the valid `s:` rows and (times, pitch, roll) of the `a:` rows."""
    global ROWS
    times, heights = [], []
    att = []
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
            if line.startswith("a:"):
                try:
                    fields = line.split(":")
                    p, r = float(fields[1]), float(fields[2])
                except (ValueError, IndexError):
                    continue
                ta = t if t is not None else n_s / rate
                if math.isfinite(ta) and abs(p) <= 90 and abs(r) <= 180:  # angles, not garbage
                    att.append((ta, p, r))
                continue
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
            if math.isfinite(cm) and 2.0 <= cm < 400.0:
                times.append(t)
                heights.append(cm)
    return np.array(times), np.array(heights), np.array(att).reshape(-1, 3)


def analyze(path):
    t, h, att = read_sonar(path)
    # np.gradient divides by time steps: drop rows with the same time as the one before.
    keep = np.concatenate(([True], np.diff(t) > 0)) if len(t) else np.array([], bool)
    t, h = t[keep], h[keep]
    if len(t) < 10:
        return []
    h = medfilt(h, 5)
    # BLE delivers rows in bursts, so receive times are lumpy: resample onto a
    # uniform grid at the stream's average rate before differentiating.
    rate = (len(t) - 1) / (t[-1] - t[0]) if t[-1] > t[0] else 20.0
    grid = np.arange(t[0], t[-1], 1.0 / rate)
    h = np.interp(grid, t, h)
    t = grid
    h = uniform_filter1d(h, max(1, int(round(SMOOTH_S * rate))), mode="nearest")
    v = np.gradient(h, t) / 100.0  # m/s

    # Reps: each prominent top of height, paired with the lowest point since
    # the previous top (the valley); the concentric phase is the run of
    # positive velocity that ends at the top, not starting before the valley.
    peaks, _ = find_peaks(h, prominence=PROMINENCE_CM)
    reps = []
    previous = 0
    for hi in peaks:
        lo = previous + int(np.argmin(h[previous:hi + 1]))
        previous = hi
        if h[hi] - h[lo] < PROMINENCE_CM:
            continue
        fastest = lo + int(np.argmax(v[lo:hi + 1]))  # the middle of the rise
        i = fastest
        while i > lo and v[i - 1] > 0:  # back to where velocity left zero
            i -= 1
        j = fastest
        while j < hi and v[j] > 0:  # on to where it is back at zero
            j += 1
        if j <= i or t[j] <= t[i]:
            continue
        rom = float(h[j] - h[i])
        inside = att[(att[:, 0] >= t[i]) & (att[:, 0] <= t[j])] if len(att) else att
        vc = v[i:j + 1]
        sticking = None
        top = int(np.argmax(vc))
        dips, _ = find_peaks(-vc[top:], prominence=STICKING_PROMINENCE_MPS)
        if len(dips):
            sticking = round(float(h[i + top + dips[0]] - h[i]), 1)
        reps.append({
            "concentric_start_s": round(float(t[i]), 3),
            "concentric_end_s": round(float(t[j]), 3),
            "rom_cm": round(rom, 2),
            "mean_velocity_mps": round(rom / 100.0 / float(t[j] - t[i]), 3),
            "peak_velocity_mps": round(float(np.max(v[i:j + 1])), 3),
            "sticking_point_cm": sticking,
            "max_abs_pitch_deg": round(float(np.max(np.abs(inside[:, 1]))), 1) if len(inside) else None,
            "max_abs_roll_deg": round(float(np.max(np.abs(inside[:, 2]))), 1) if len(inside) else None,
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
