#!/usr/bin/env python3
"""The real recordings through a noisier sensor.

The recordings in ../shared/real-data were made with a laser time-of-flight
sensor (a few millimetres of noise). An HC-SR04 over a rubber mat or carpet
reads 1-3 cm either way, and the issue's noisy recording of the same kind is
not ours to see. This adds that noise to the real motion: Gaussian noise of
sigma cm on every reading, whole-cm readings (as the original clip prints
them), optionally a share of spikes (0, below or above the bar) and no-echo
readings (400 cm), ten seeds per file. It reads the recordings where they
are and writes the noisy copies only to a temporary directory.

Each reference set is one of the three sets the analyzer finds in the
untouched file; a noisy run's set is exact when its reps inside that set's
span are 8 and are one report of 8. Invented reps are reps outside every
reference set plus reps beyond 8 inside one.

Usage: scripts/bench-noisy-real.py [LIFTBUDDY] [REAL_DATA_DIR]
"""
import json
import os
import random
import subprocess
import sys
import tempfile

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/release/liftbuddy"
SRC = sys.argv[2] if len(sys.argv) > 2 else "../shared/real-data/calibrex-overhead-press"
FILES = ["calibrex-L2.lbs", "calibrex-R2.lbs"]
SEEDS = range(10)
SIGMAS = [0, 1, 2, 3]
FAULTS = [(0, 0), (0.02, 0.02)]


def noisy(path, seed, sigma, spike, no_echo, header):
    rnd = random.Random(seed)
    out = []
    for line in open(path):
        if line.startswith("#"):
            if header or not line.startswith("# exercise"):
                out.append(line)
            continue
        t, value = line.split()
        h = float(value[2:]) + rnd.gauss(0, sigma)
        r = rnd.random()
        if r < spike:
            h = rnd.choice([0.0, rnd.uniform(2, h), rnd.uniform(h, 300)])
        elif r < spike + no_echo:
            h = 400.0
        out.append(f"{t} s:{round(h)}\n")
    return "".join(out)


def analyze(path):
    out = subprocess.run([BIN, "analyze", path], capture_output=True, text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def main():
    if not all(os.path.exists(os.path.join(SRC, f)) for f in FILES):
        print(f"skipped: the real recordings are not at {SRC}")
        return
    refs = {}
    for f in FILES:
        refs[f] = [(d["start_s"], d["end_s"]) for d in analyze(os.path.join(SRC, f))]
        if len(refs[f]) != 3:
            sys.exit(f"{f}: the untouched file gives {len(refs[f])} sets, not 3")
    tmp = tempfile.mkdtemp(prefix="noisy-real-")
    print("| noise σ | spikes + no-echo | header | exact sets | invented reps (most in one file) | missed reps |")
    print("| --- | --- | --- | --- | --- | --- |")
    for sigma in SIGMAS:
        for spike, no_echo in FAULTS:
            for header in (True, False):
                exact = invented = missed = worst = total = 0
                for f in FILES:
                    for seed in SEEDS:
                        path = os.path.join(tmp, f)
                        with open(path, "w") as out:
                            out.write(noisy(os.path.join(SRC, f), seed, sigma, spike, no_echo, header))
                        reps, sizes = [], {}
                        for k, report in enumerate(analyze(path)):
                            sizes[k] = len(report["reps"])
                            reps += [(k, r["concentric_start_s"]) for r in report["reps"]]
                        before = invented
                        for a, b in refs[f]:
                            inside = [k for k, t in reps if a - 1 <= t <= b + 1]
                            total += 1
                            if len(inside) == 8 and len(set(inside)) == 1 and sizes[inside[0]] == 8:
                                exact += 1
                            missed += max(0, 8 - len(inside))
                            invented += max(0, len(inside) - 8)
                        invented += sum(
                            1 for _, t in reps if not any(a - 1 <= t <= b + 1 for a, b in refs[f]))
                        worst = max(worst, invented - before)
                print(f"| {sigma} cm | {spike:.0%} + {no_echo:.0%} | {'with' if header else 'without'} "
                      f"| {exact}/{total} | {invented} ({worst}) | {missed} |", flush=True)


if __name__ == "__main__":
    main()
