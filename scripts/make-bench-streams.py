#!/usr/bin/env python3
"""Build the benchmark streams: a 60-minute session and a 10-hour one.

The 60-minute stream is one simulated session (24 squat sets at 40 Hz, serial
timing, typical noise). The 10-hour stream is that session repeated ten times
with its times shifted, so the analyzer sees ten hours of one continuous clock.
Usage: make-bench-streams.py LIFTBUDDY_BINARY OUT_DIR
"""
import os
import subprocess
import sys

binary, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
hour = os.path.join(out, "bench-60min.lbs")
subprocess.run(
    [binary, "simulate", "--exercise", "squat", "--sets", "24", "--rate-hz", "40",
     "--seed", "7", "--transport", "serial", "--noise", "typical", "--output", hour],
    check=True)

header, rows = [], []
with open(hour, "rb") as f:
    for line in f:
        if line.startswith(b"#"):
            header.append(line)
        else:
            t, rest = line.split(b" ", 1)
            rows.append((float(t), rest))
span = rows[-1][0] + 1.0
with open(os.path.join(out, "bench-10h.lbs"), "wb") as f:
    f.writelines(header)
    for k in range(10):
        offset = k * span
        for t, rest in rows:
            f.write(b"%.3f %s" % (t + offset, rest))
print(f"{hour}: {len(rows)} rows, {span:.0f} s; 10-hour stream: {10 * len(rows)} rows")
