#!/usr/bin/env python3
"""Check a raw capture of the simulated clip against the protocol and the script.

    check_capture.py RAW [--timed TIMED] --reps N [--top-cm 145] [--bottom-cm 85]

Checks, each reported on its own line (exit 1 if any fails):
  format     every data line is `s:<cm>:<ms>` or `a:<pitch>:<roll>:<ms>` exactly
             as the firmware writes them (one decimal, unsigned device millis)
  rates      device-millis steps: s: lines every 50 ms (20 Hz), a: lines every 50 ms
  ranges     s: within 2-400 cm; pitch and roll near the script (|p| < 4, -4 < r < 1)
  pacing     (with TIMED) device-clock span vs host arrival span within 3 %
  reps       the number of down-and-up height excursions equals N, each going
             from about top-cm down to about bottom-cm and back
"""
import argparse
import re
import statistics
import sys

S_LINE = re.compile(r"^s:(\d+\.\d):(\d+)$")
A_LINE = re.compile(r"^a:(-?\d+\.\d):(-?\d+\.\d):(\d+)$")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("raw")
    ap.add_argument("--timed")
    ap.add_argument("--reps", type=int, required=True)
    ap.add_argument("--top-cm", type=float, default=145.0)
    ap.add_argument("--bottom-cm", type=float, default=85.0)
    args = ap.parse_args()

    ok = True

    def report(name, passed, detail):
        nonlocal ok
        ok = ok and passed
        print(f"  {'PASS' if passed else 'FAIL'} {name:7} {detail}")

    sonar, att, bad = [], [], []
    with open(args.raw, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("#"):
                continue
            if m := S_LINE.match(line):
                sonar.append((float(m[1]), int(m[2])))
            elif m := A_LINE.match(line):
                att.append((float(m[1]), float(m[2]), int(m[3])))
            else:
                bad.append((n, line))
    report("format", not bad and len(sonar) > 0 and len(att) > 0,
           f"{len(sonar)} s: lines, {len(att)} a: lines, {len(bad)} bad"
           + (f" (first: line {bad[0][0]} {bad[0][1]!r})" if bad else ""))
    if not sonar or not att:
        return 1

    s_steps = [b[1] - a[1] for a, b in zip(sonar, sonar[1:])]
    a_steps = [b[2] - a[2] for a, b in zip(att, att[1:])]
    s_ok = bool(s_steps) and all(45 <= d <= 55 for d in s_steps)
    a_ok = bool(a_steps) and all(45 <= d <= 55 for d in a_steps)
    report("rates", s_ok and a_ok,
           f"s: step {statistics.mean(s_steps):.2f} ms [{min(s_steps)}..{max(s_steps)}], "
           f"a: step {statistics.mean(a_steps):.2f} ms [{min(a_steps)}..{max(a_steps)}] (device clock)")

    cms = [c for c, _ in sonar]
    pitch = [p for p, _, _ in att]
    roll = [r for _, r, _ in att]
    r_ok = all(2 <= c <= 400 for c in cms) and all(abs(p) < 4 for p in pitch) \
        and all(-4 < r < 1 for r in roll)
    report("ranges", r_ok,
           f"s: {min(cms):.1f}..{max(cms):.1f} cm, pitch {min(pitch):.1f}..{max(pitch):.1f}, "
           f"roll {min(roll):.1f}..{max(roll):.1f} deg")

    if args.timed:
        rows = []
        with open(args.timed, encoding="utf-8") as f:
            for line in f:
                if line.startswith("#"):
                    continue
                t, _, rest = line.rstrip("\n").partition(" ")
                if m := S_LINE.match(rest):
                    rows.append((float(t), int(m[2])))
        rows = rows[20:]  # skip the first second: lines sent before the reader opened arrive in a burst
        if len(rows) > 20:
            host = rows[-1][0] - rows[0][0]
            dev = (rows[-1][1] - rows[0][1]) / 1000.0
            ratio = host / dev if dev > 0 else 0
            report("pacing", 0.97 <= ratio <= 1.03,
                   f"{dev:.2f} s of device clock arrived over {host:.2f} s of host clock "
                   f"(ratio {ratio:.3f})")
        else:
            report("pacing", False, "too few timed s: lines")

    # Height excursions with hysteresis at 1/4 and 3/4 of the span.
    top, bottom = max(cms), min(cms)
    span = top - bottom
    lo_th, hi_th = bottom + 0.25 * span, top - 0.25 * span
    reps, state, depth_min, depths = 0, "high", None, []
    for c in cms:
        if state == "high" and c < lo_th:
            state, depth_min = "low", c
        elif state == "low":
            depth_min = min(depth_min, c)
            if c > hi_th:
                state = "high"
                reps += 1
                depths.append(depth_min)
    depth_ok = all(abs(d - args.bottom_cm) <= 2 for d in depths) and abs(top - args.top_cm) <= 2
    report("reps", span > 30 and reps == args.reps and depth_ok,
           f"{reps} excursions (scripted {args.reps}), top {top:.1f} cm, bottoms "
           + ", ".join(f"{d:.1f}" for d in depths) + " cm")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
