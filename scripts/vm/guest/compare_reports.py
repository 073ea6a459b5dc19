#!/usr/bin/env python3
"""Does what liftbuddyd wrote for a live stream agree with `liftbuddy analyze`
of the same file? Same number of reps; each rep's mean velocity within
TOLERANCE m/s: over the link the receive times are the link's own, so
velocities move by the BLE timing jitter, never the count.

  compare_reports.py ANALYZE.jsonl LIFTS_DIR [TOLERANCE]
Reports from every set the daemon wrote are joined in time order (a set cut
by a dropped link is two files).
"""
import glob
import json
import sys

expected = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
tolerance = float(sys.argv[3]) if len(sys.argv) > 3 else 0.05
got = [json.load(open(p)) for p in glob.glob(sys.argv[2] + "/*.json")]
got.sort(key=lambda r: r["started_at"])
want_v = [rep["mean_velocity_mps"] for r in expected for rep in r["reps"]]
got_v = [rep["mean_velocity_mps"] for r in got for rep in r["reps"]]
print(f"analyze: {len(want_v)} reps {want_v}")
print(f"daemon:  {len(got_v)} reps in {len(got)} report(s) {got_v}")
if len(want_v) != len(got_v):
    sys.exit("rep counts differ")
worst = max((abs(a - b) for a, b in zip(want_v, got_v)), default=0)
print(f"largest mean-velocity difference {worst:.3f} m/s (tolerance {tolerance})")
sys.exit(0 if worst <= tolerance else 1)
