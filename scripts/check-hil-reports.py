#!/usr/bin/env python3
"""Judges the daemon's reports from the firmware-in-the-loop run: exactly one
set, with the scripted number of reps, each a plausible squat rep, and valid
against the contract's schema. Usage: check-hil-reports.py LIFTS_DIR REPS"""
import glob
import json
import os
import sys

from jsonschema import Draft202012Validator, FormatChecker

lifts, want = sys.argv[1], int(sys.argv[2])
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
schema = json.load(open(os.path.join(root, "docs/contract/lift-report.schema.json")))
validator = Draft202012Validator(schema, format_checker=FormatChecker())
reports = [json.load(open(f)) for f in sorted(glob.glob(os.path.join(lifts, "*.json")))]
reps = [r for report in reports for r in report["reps"]]
print(f"liftbuddyd wrote {len(reports)} report(s) with {len(reps)} rep(s); scripted: 1 set of {want}")
ok = len(reports) == 1 and len(reps) == want
for report in reports:
    for e in validator.iter_errors(report):
        print("schema:", e.message)
        ok = False
# The script moves the bar 60 cm in 0.8 s (0.75 m/s mean): honest numbers only.
for r in reps:
    if not (55 <= r["rom_cm"] <= 65 and 0.6 <= r["mean_velocity_mps"] <= 0.9):
        print("implausible rep:", r)
        ok = False
sys.exit(0 if ok else 1)
