#!/usr/bin/env python3
"""Does what liftbuddyd wrote for a live stream agree with `liftbuddy analyze`?

  compare_reports.py ANALYZE.jsonl LIFTS_DIR [--rom-cm X] [--velocity-mps Y]

Reports from every set the daemon wrote are joined in time order (a set cut
by a dropped link is two files). Always: the same number of reps, and each
rep's range of motion within X cm (heights do not depend on timing, so this
says they are the same reps). With --velocity-mps, each rep's mean velocity
within Y m/s (or --velocity-rel of it) too: use it against `analyze` of the
daemon's own recording of the link (the same receive times, to the
millisecond the recording keeps: a burst of lines less than 1 ms apart is
recorded as simultaneous, which under multi-second stalls moved one rep's
velocity by 5 %); against the original file the velocities move with the
link's timing and are only printed.
"""
import argparse
import glob
import json
import sys

parser = argparse.ArgumentParser()
parser.add_argument("analyze")
parser.add_argument("lifts")
parser.add_argument("--rom-cm", type=float, default=3.0)
parser.add_argument("--velocity-mps", type=float)
parser.add_argument("--velocity-rel", type=float, default=0.0,
                    help="or within this fraction of the expected velocity")
args = parser.parse_args()

expected = [rep for line in open(args.analyze) if line.strip() for rep in json.loads(line)["reps"]]
reports = sorted((json.load(open(p)) for p in glob.glob(args.lifts + "/*.json")),
                 key=lambda r: r["started_at"])
got = [rep for r in reports for rep in r["reps"]]
print(f"analyze: {len(expected)} reps, mean velocity {[r['mean_velocity_mps'] for r in expected]}, "
      f"ROM {[r['rom_cm'] for r in expected]}")
print(f"daemon:  {len(got)} reps in {len(reports)} report(s), mean velocity "
      f"{[r['mean_velocity_mps'] for r in got]}, ROM {[r['rom_cm'] for r in got]}")
if len(expected) != len(got):
    sys.exit("rep counts differ")
rom = max(abs(a["rom_cm"] - b["rom_cm"]) for a, b in zip(expected, got))
velocity = max(abs(a["mean_velocity_mps"] - b["mean_velocity_mps"]) for a, b in zip(expected, got))
print(f"largest differences: ROM {rom:.2f} cm, mean velocity {velocity:.3f} m/s")
if rom > args.rom_cm:
    sys.exit(f"ROM differs by more than {args.rom_cm} cm")
if args.velocity_mps is not None:
    for a, b in zip(expected, got):
        diff = abs(a["mean_velocity_mps"] - b["mean_velocity_mps"])
        if diff > args.velocity_mps and diff > args.velocity_rel * a["mean_velocity_mps"]:
            sys.exit(f"rep {b['index']}: mean velocity {b['mean_velocity_mps']} vs {a['mean_velocity_mps']}, "
                     f"more than {args.velocity_mps} m/s and {args.velocity_rel:.0%}")
