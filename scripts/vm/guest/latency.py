#!/usr/bin/env python3
"""BLE path latency: from the peripheral's notification to the rep event at a
socket subscriber, both stamped with the guest's CLOCK_MONOTONIC.

  latency.py PERIPHERAL_LOG EVENTS.jsonl [SENT.lbs RECEIVED.lbs]
A rep is decided while the daemon handles one line, so its event follows the
notification that carried that line; the figure is each rep event's arrival
minus the latest notification sent before it (exact when the latency is
shorter than the gap between notifications, about 45 ms here, which the
figures show it is).
"""
import bisect
import json
import statistics
import sys

notes = [json.loads(l) for l in open(sys.argv[1])]
sent = sorted(n["mono"] for n in notes if n["event"] == "notify")
events = [json.loads(l) for l in open(sys.argv[2])]
gaps = [b - a for a, b in zip(sent, sent[1:])]
latencies = []
for e in events:
    if e["object"].get("class") not in ("rep", "rep_provisional"):
        continue
    i = bisect.bisect_right(sent, e["mono"]) - 1
    if i >= 0:
        latencies.append((e["mono"] - sent[i]) * 1000)
if not latencies:
    sys.exit("no rep events")
latencies.sort()
print(f"rep events: {len(latencies)}; notifications: {len(sent)}, median gap {statistics.median(gaps)*1000:.1f} ms")
print(f"latency ms: median {statistics.median(latencies):.1f}, max {latencies[-1]:.1f}, all {[round(x, 1) for x in latencies]}")

# With the sent file and the daemon's recording of the link: how far each
# line's receive time strays from its recorded time (the timing jitter the
# emulated link and the guest's load added, which moves velocities).
if len(sys.argv) > 4:
    def times(path):
        out = []
        for row in open(path, encoding="utf-8"):
            if row.strip() and not row.startswith("#"):
                out.append(float(row.split(" ", 1)[0]))
        return out
    sent_t, got_t = times(sys.argv[3]), times(sys.argv[4])
    n = min(len(sent_t), len(got_t))
    offsets = [g - s for s, g in zip(sent_t[:n], got_t[:n])]
    base = statistics.median(offsets)
    dev = sorted(abs(o - base) * 1000 for o in offsets)
    print(f"receive-time jitter over {n} lines (|deviation| from the median offset), ms: "
          f"median {dev[n // 2]:.1f}, p95 {dev[int(n * 0.95)]:.1f}, max {dev[-1]:.1f}")
