#!/usr/bin/env python3
"""Does what liftbuddyd wrote for a live stream agree with `liftbuddy analyze`?

  compare_reports.py ANALYZE.jsonl LIFTS_DIR [--rom-cm X] [--velocity-mps Y]
      [--split-at-s T]

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

With --split-at-s T (the file time of the last row the clip sent before it
dropped the link), the split must be where the drop was: the first report
holds exactly the reps that ended (locked out) by T, the set closed at the
drop, and the reports after it hold the rest. Use a drop in a rest between
reps, so that the rep before it has been confirmed when the link goes.
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
parser.add_argument("--split-at-s", type=float,
                    help="the drop's file time: the first report holds the reps before it")
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
if args.split_at_s is not None:
    before = sum(1 for r in expected if r["concentric_end_s"] <= args.split_at_s)
    first = len(reports[0]["reps"]) if reports else 0
    print(f"drop at file time {args.split_at_s:.3f} s: {before} of analyze's reps end before it; "
          f"the first report holds {first}, {len(reports)} report(s) in all")
    if len(reports) < 2 or first != before:
        sys.exit("the reports are not split at the drop")
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
