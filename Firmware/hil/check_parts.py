#!/usr/bin/env python3
"""Check the output of the real Uno image run against clip_sim's simulated parts.

    check_parts.py FILE --seconds S [--sonar-cm X | --no-sonar] [--attitude P,R | --no-attitude]

FILE holds the bytes the firmware sent (clip_sim --out). Checks the exact line
format, the 20 Hz device-clock steps, the values, and that a missing part
(no echo, out-of-range echo, no IMU on the bus) silences only its own lines.
"""
import argparse
import re
import sys

S_LINE = re.compile(r"^s:(\d+\.\d):(\d+)$")
A_LINE = re.compile(r"^a:(-?\d+\.\d):(-?\d+\.\d):(\d+)$")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--seconds", type=float, required=True)
    ap.add_argument("--sonar-cm", type=float)
    ap.add_argument("--attitude")
    args = ap.parse_args()

    problems = []
    sonar, att = [], []
    with open(args.file, "rb") as f:
        data = f.read()
    if not data.endswith(b"\n") and data:
        data = data[: data.rfind(b"\n") + 1]  # stopped mid-line
    for line in data.decode("ascii", "replace").split("\n")[:-1]:
        if m := S_LINE.match(line):
            sonar.append((float(m[1]), int(m[2])))
        elif m := A_LINE.match(line):
            att.append((float(m[1]), float(m[2]), int(m[3])))
        else:
            problems.append(f"bad line {line!r}")

    def steps_ok(times, name):
        bad = [b - a for a, b in zip(times, times[1:]) if not 49 <= b - a <= 51]
        if bad:
            problems.append(f"{name} device-clock steps outside 49..51 ms: {bad[:5]}")

    if args.sonar_cm is None:
        if sonar:
            problems.append(f"{len(sonar)} s: lines, expected none")
    else:
        want = int(args.seconds * 20) - 1
        if len(sonar) < want:
            problems.append(f"{len(sonar)} s: lines, expected >= {want}")
        off = [c for c, _ in sonar if abs(c - args.sonar_cm) > 0.2]
        if off:
            problems.append(f"s: values off {args.sonar_cm}: {off[:5]}")
        steps_ok([t for _, t in sonar], "s:")
    if args.attitude is None:
        if att:
            problems.append(f"{len(att)} a: lines, expected none")
    else:
        p, r = (float(x) for x in args.attitude.split(","))
        want = int((args.seconds - 1.1) * 20) - 1  # after the 1 s calibration
        if len(att) < want:
            problems.append(f"{len(att)} a: lines, expected >= {want}")
        off = [(a, b) for a, b, _ in att if abs(a - p) > 0.2 or abs(b - r) > 0.2]
        if off:
            problems.append(f"a: values off {p},{r}: {off[:5]}")
        steps_ok([t for _, _, t in att], "a:")
    for pr in problems:
        print(f"    {pr}")
    print(f"    {len(sonar)} s: lines, {len(att)} a: lines"
          + (f", s: {sonar[-1][0]} cm" if sonar else "")
          + (f", a: {att[-1][0]}/{att[-1][1]} deg" if att else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
