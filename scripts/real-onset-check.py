#!/usr/bin/env python3
"""How a real press leaves its rest: the shape of the start of each rise.

The turnaround fit (`TurnaroundFit`) starts a rep out of rest as a
parabola, h = c + A·(t − τ)² after τ: constant acceleration. A simulator
can start heavy reps more slowly (velocity growing as τ^1–2.3, position
as τ^2–3.3), and an analyzer tuned to that would place every quick start
early. This asks the real recordings (../shared/real-data, the sensor's
own 50-ms clock and millimetres in `*.parsed.csv`), which shape they
follow: each rise of a press (a crossing of 115 cm with its bottom at
80–105 cm and its top at 125–155 cm) is fitted from the rest before it
(up to 0.8 s within 1 cm of the bottom) to half its range, with
h = c + A·max(0, t − τ)^p for p in 1.5, 2, 2.5, 3 and 4 (τ on a 5-ms grid,
c and A by least squares, A > 0), and the summed squared errors and the
best p per rise are printed.

A check, not a tuning set. Skips (exit 0, one line) when the recordings
are absent.

Usage: scripts/real-onset-check.py [REAL_DATA_DIR]
"""
import collections
import csv
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    HERE, "..", "..", "shared", "real-data", "calibrex-overhead-press")
NAMES = ["calibrex-L2", "calibrex-R2"]
POWERS = [1.5, 2.0, 2.5, 3.0, 4.0]


def load(path):
    t, h = [], []
    for row in csv.DictReader(open(path)):
        t.append(int(row["device_ms"]) / 1000.0)
        h.append(int(row["distance_mm"]) / 10.0)
    t, h = np.array(t), np.array(h)
    order = np.argsort(t, kind="stable")
    t, h = t[order], h[order]
    keep = np.concatenate([[True], np.diff(t) > 0])
    return t[keep], h[keep]


def fit(t, h, p):
    """Least squared error of h = c + A·max(0, t − τ)^p over τ, A > 0."""
    best = (float("inf"), None)
    for tau in np.arange(t[0] - 0.1, t[-1] - 0.1, 0.005):
        x = np.maximum(0.0, t - tau) ** p
        design = np.vstack([np.ones_like(x), x]).T
        coef = np.linalg.lstsq(design, h, rcond=None)[0]
        if coef[1] <= 0:
            continue
        err = float(np.sum((design @ coef - h) ** 2))
        if err < best[0]:
            best = (err, tau)
    return best


def rises(t, h):
    i = 1
    while i < len(t):
        if h[i - 1] < 115 <= h[i]:
            before = np.where((t >= t[i] - 1.2) & (t <= t[i]))[0]
            bottom_i = before[np.argmin(h[before])]
            bottom = h[bottom_i]
            top = np.max(h[(t >= t[i]) & (t <= t[i] + 1.5)])
            if 80 < bottom < 105 and 125 < top < 155:
                half = np.where((np.arange(len(t)) > bottom_i) & (h >= (bottom + top) / 2))[0][0]
                start = bottom_i
                while start > 0 and h[start - 1] <= bottom + 1.0 and t[bottom_i] - t[start - 1] < 0.8:
                    start -= 1
                if half - start + 1 >= 8:
                    yield t[i], t[start:half + 1], h[start:half + 1]
                i = int(np.searchsorted(t, t[i] + 1.0))
        i += 1


def main():
    paths = [os.path.join(SRC, n + ".parsed.csv") for n in NAMES]
    if not all(os.path.exists(p) for p in paths):
        print(f"real-onset-check: skipped ({SRC} not found)")
        return
    total = collections.Counter()
    best = collections.Counter()
    n = 0
    for name, path in zip(NAMES, paths):
        for at, t, h in rises(*load(path)):
            errors = {p: fit(t, h, p)[0] for p in POWERS}
            total.update(errors)
            best[min(POWERS, key=errors.get)] += 1
            n += 1
            print(f"{name} {at:8.2f} s  " + "  ".join(f"p{p:g} {errors[p]:7.1f}" for p in POWERS))
    print(f"{n} rises; summed squared error (cm²): "
          + ", ".join(f"p{p:g} {total[p]:.1f}" for p in POWERS))
    print("best power per rise: " + ", ".join(f"p{p:g} {best[p]}" for p in POWERS))


if __name__ == "__main__":
    main()
