#!/usr/bin/env python3
"""How much a sample clock with hindsight would be worth: re-times recorded
streams offline, for `liftbuddy evaluate` to score.

A clip without its own clock leaves the analyzer only the arrival times of
its lines, and `SampleClock` rebuilds each sample's time from the arrivals
so far. Every later arrival bounds a sample's time from above, less the
periods between (a sample lost between them only loosens the bound), so
with the next W arrivals in hand

    t_i = min over i <= j <= i + W of (a_j - (j - i) * P)

is the lower envelope seen from the future. This writes each stream with
those times as the clip's own clock (`s:<cm>:<ms>`), which the analyzer
then follows, next to a copy of its truth. P is read from the arrivals
alone: the given quantile of the rate over 4-s windows (a window that lost
samples reads long). Streams that already carry a clock, raw captures
(`rate_hz`, no arrival times) and files without a truth are skipped.

An experiment, not the analyzer: BENCHMARKS.md (forty-ninth pass) has what
it measured and why the analyzer does not do this yet.

Usage: scripts/clock-hindsight-check.py [--window W] [--quantile Q] OUT_DIR STREAM.lbs...
then:  liftbuddy evaluate OUT_DIR/*.lbs
"""
import argparse
import os
import shutil
import sys


def period_from_arrivals(arrivals, quantile, window_s=4.0):
    rates = []
    j = 0
    for i in range(len(arrivals)):
        while j < len(arrivals) and arrivals[j] - arrivals[i] < window_s:
            j += 1
        if j - i > 12:
            rates.append((arrivals[j - 1] - arrivals[i]) / (j - 1 - i))
    if not rates:
        return None
    rates.sort()
    return rates[int(quantile * (len(rates) - 1))]


def retimed(lines, window, quantile):
    """The lines with hindsight times on their sonar readings, or None."""
    rows = []
    for k, line in enumerate(lines):
        if line.startswith('#'):
            if line.startswith('# rate_hz'):
                return None
            continue
        parts = line.split(' ', 1)
        if len(parts) == 2 and parts[1].startswith('s:'):
            if parts[1].count(':') >= 2:
                return None
            rows.append((k, float(parts[0])))
    arrivals = [a for _, a in rows]
    period = period_from_arrivals(arrivals, quantile)
    if period is None:
        return None
    n = len(arrivals)
    times = []
    for i in range(n):
        best = arrivals[i]
        for j in range(i + 1, min(n, i + window + 1)):
            best = min(best, arrivals[j] - (j - i) * period)
        # Strictly increasing, as a clip's clock is.
        if times and best <= times[-1]:
            best = times[-1] + 0.001
        times.append(best)
    out = list(lines)
    # The clock may start anywhere: an offset keeps it positive.
    for (k, _), t in zip(rows, times):
        stamp, reading = out[k].split(' ', 1)
        out[k] = '%s %s:%d' % (stamp, reading, round(t * 1000) + 100000)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--window', type=int, default=10)
    parser.add_argument('--quantile', type=float, default=0.25)
    parser.add_argument('out_dir')
    parser.add_argument('streams', nargs='+')
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    written = skipped = 0
    for path in args.streams:
        truth = path[:-4] + '.truth.json'
        if not os.path.exists(truth):
            skipped += 1
            continue
        with open(path) as f:
            lines = f.read().split('\n')
        out = retimed(lines, args.window, args.quantile)
        if out is None:
            skipped += 1
            continue
        name = os.path.basename(path)
        with open(os.path.join(args.out_dir, name), 'w') as f:
            f.write('\n'.join(out))
        shutil.copy(truth, os.path.join(args.out_dir, name[:-4] + '.truth.json'))
        written += 1
    print('clock-hindsight-check: %d streams re-timed, %d skipped' % (written, skipped))
    return 0


if __name__ == '__main__':
    sys.exit(main())
