#!/usr/bin/env python3
"""How far the emulated clip itself strayed from the recorded pace.

  sender_pace.py SENT.lbs PERIPHERAL_LOG

Prints the largest |deviation| (seconds) of a notification's send time from
the file time of the last row it carried, against the median offset, over
the first subscription. The clip is a Python process in the guest: when the
host's cores are busy it can stall for seconds, and then the stream the
daemon heard is not the file at its pace, whatever the daemon does.
"""
import json
import statistics
import sys

times = []
with open(sys.argv[1], encoding="utf-8") as f:
    for row in f:
        if row.strip() and not row.startswith("#"):
            times.append(float(row.split(" ", 1)[0]))
offsets = []
with open(sys.argv[2], encoding="utf-8") as f:
    for line in f:
        note = json.loads(line)
        if note["event"] in ("dropped", "done") or (note["event"] == "subscribed" and offsets):
            break
        if note["event"] == "notify" and 0 < note["row"] <= len(times):
            # "row" counts the rows sent so far: the last one carried is row − 1.
            offsets.append(note["mono"] - times[note["row"] - 1])
if not offsets:
    sys.exit("no notifications")
base = statistics.median(offsets)
print(f"{max(abs(o - base) for o in offsets):.3f}")
