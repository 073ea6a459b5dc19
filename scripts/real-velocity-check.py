#!/usr/bin/env python3
"""The analyzer's mean velocity on the real recordings, against their own
millimetres.

The recordings in ../shared/real-data carry no velocity reference, but each
notification was also decoded with the sensor's own clock (steps of 50 ms)
and the distance in millimetres (`*.parsed.csv`). On those, where the bar
turns is plain to see: this takes the velocity from a local quadratic
through five readings (0.25 s) and puts a rep's concentric phase between the
last upward zero crossing before its fastest point and the first downward
one after it; the range is the difference of the heights there (a local
quadratic over +-0.1 s). Smoothing can only move a crossing out of a rest,
not into a turn, so the reference's durations are if anything long and its
velocities low: an analyzer reading below it reads slow.

For each rep the analyzer reports from the recorded stream (`*.lbs`, the
phone's receive times: real BLE timing), it prints the reference and the
difference, then the bias and the mean absolute difference. With --device
it analyses the same readings on the sensor's clock instead (written to a
temporary directory, never into the project), which takes the BLE timing
out of the comparison.

A check, not a tuning set: the recordings are three sets of one lifter's
overhead presses. Skips (exit 0, one line) when the recordings are absent.

Usage: scripts/real-velocity-check.py [--device] [LIFTBUDDY] [REAL_DATA_DIR]
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

args = [a for a in sys.argv[1:] if a != "--device"]
DEVICE = "--device" in sys.argv[1:]
BIN = args[0] if args else ".build/release/liftbuddy"
SRC = args[1] if len(args) > 1 else "../shared/real-data/calibrex-overhead-press"
NAMES = ["calibrex-L2", "calibrex-R2"]
HALF = 2  # readings either side of the velocity's local quadratic


def seconds(clock):
    h, m, s = clock.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def quadratic(ts, ys):
    """Least-squares c0 + c1 t + c2 t^2 (t centred by the caller)."""
    n = len(ts)
    s = [sum(t**k for t in ts) for k in range(5)]
    b = [sum(y * t**k for t, y in zip(ts, ys)) for k in range(3)]
    m = [[s[i + j] for j in range(3)] for i in range(3)]
    # Gaussian elimination on the 3x3 normal equations.
    for c in range(3):
        p = max(range(c, 3), key=lambda r: abs(m[r][c]))
        m[c], m[p], b[c], b[p] = m[p], m[c], b[p], b[c]
        for r in range(c + 1, 3):
            f = m[r][c] / m[c][c]
            for k in range(c, 3):
                m[r][k] -= f * m[c][k]
            b[r] -= f * b[c]
    x = [0.0] * 3
    for r in (2, 1, 0):
        x[r] = (b[r] - sum(m[r][k] * x[k] for k in range(r + 1, 3))) / m[r][r]
    return x if n >= 3 else None


def main():
    if not all(os.path.exists(os.path.join(SRC, n + ".parsed.csv")) for n in NAMES):
        print(f"real-velocity-check: skipped ({SRC} not found)")
        return
    tmp = tempfile.mkdtemp(prefix="liftbuddy-real-velocity-")
    diffs = []
    for name in NAMES:
        rows = list(csv.DictReader(open(os.path.join(SRC, name + ".parsed.csv"))))
        p0 = seconds(rows[0]["phone_time"])
        d0 = int(rows[0]["device_ms"])
        phone = [seconds(r["phone_time"]) - p0 for r in rows]
        dev = [(int(r["device_ms"]) - d0) / 1000 for r in rows]
        h = [int(r["distance_mm"]) / 1000 for r in rows]
        # The stream's times are the phone's: the reference is put on them
        # by the median offset between the two clocks.
        offsets = sorted(p - d for p, d in zip(phone, dev))
        off = offsets[len(offsets) // 2]
        n = len(h)
        v = [None] * n
        for i in range(HALF, n - HALF):
            ts = [dev[j] - dev[i] for j in range(i - HALF, i + HALF + 1)]
            v[i] = quadratic(ts, h[i - HALF : i + HALF + 1])[1]

        def height(t):
            idx = [j for j in range(n) if abs(dev[j] - t) <= 0.1]
            c = quadratic([dev[j] - t for j in idx], [h[j] for j in idx])
            return c[0]

        stream = os.path.join(SRC, name + ".lbs")
        if DEVICE:
            stream = os.path.join(tmp, name + ".lbs")
            with open(stream, "w") as f:
                f.write("# liftbuddy-stream 1\n# exercise: overhead_press\n# source: ble:device-clock\n")
                for d, mm in zip(dev, h):
                    f.write(f"{d + off:.3f} s:{mm * 100:.1f}\n")
        out = subprocess.run([BIN, "analyze", stream], capture_output=True, text=True, check=True)
        reps = [r for line in out.stdout.splitlines() if line.startswith("{")
                for r in json.loads(line)["reps"]]
        for r in reps:
            a = r["concentric_start_s"] - off
            b = r["concentric_end_s"] - off
            inside = [j for j in range(HALF, n - HALF) if a - 0.3 < dev[j] < b + 0.3]
            k = max(inside, key=lambda j: v[j])
            i = k
            while i > HALF and v[i] > 0:
                i -= 1
            start = dev[i] + (dev[i + 1] - dev[i]) * (0 - v[i]) / (v[i + 1] - v[i])
            j = k
            while j < n - HALF - 1 and v[j] > 0:
                j += 1
            end = dev[j - 1] + (dev[j] - dev[j - 1]) * v[j - 1] / (v[j - 1] - v[j])
            rom = height(end) - height(start)
            mv = rom / (end - start)
            d = r["mean_velocity_mps"] - mv
            diffs.append(d)
            print(f"{name} reference {start + off:8.3f}-{end + off:8.3f} s {rom * 100:5.1f} cm "
                  f"{mv:.3f} m/s | analyzer {r['concentric_start_s']:8.3f}-"
                  f"{r['concentric_end_s']:8.3f} s {r['rom_cm']:5.1f} cm "
                  f"{r['mean_velocity_mps']:.3f} m/s | {d:+.3f}")
    bias = sum(diffs) / len(diffs)
    mae = sum(abs(d) for d in diffs) / len(diffs)
    clock = "sensor clock" if DEVICE else "phone receive times"
    print(f"real-velocity-check ({clock}): {len(diffs)} reps, mean velocity bias {bias:+.3f} m/s, "
          f"MAE {mae:.3f} m/s against the reference")


main()
