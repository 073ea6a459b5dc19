#!/usr/bin/env python3
"""Read .lbs streams strictly per docs/contract/stream-format.md, check them
against their truth files and print a sanity table.

    python3 scripts/independent-sim/check.py DIR
"""

import glob
import json
import math
import os
import re
import sys
from collections import defaultdict

NUM = r'[+-]?(?:\d+(?:\.\d*)?|\.\d+)'
S_RE = re.compile(r'^s:(' + NUM + r')(?::[^:]*)*$')
A_RE = re.compile(r'^a:(' + NUM + r'):(' + NUM + r')(?::[^:]*)*$')
TRUTH_KEYS = ['format', 'stream', 'seed', 'transport', 'noise', 'firmware', 'scenario', 'sets', 'non_reps']
SET_KEYS = ['exercise', 'load_kg', 'start_s', 'end_s', 'reps']
REP_KEYS = ['index', 'concentric_start_s', 'concentric_end_s', 'rom_cm', 'mean_velocity_mps',
            'peak_velocity_mps', 'eccentric_start_s', 'sticking_point_cm', 'max_abs_pitch_deg',
            'max_abs_roll_deg']
KINDS = set('unrack walk_out walk_in rerack adjustment settle rest pick_up carry floor_to_rack clean '
            'put_down plate_loading jack roll regrip clip_handling failed_rep assisted_rise off_pins'.split())


def parse(path):
    """Returns header dict, list of (t, kind, values), bad-row count."""
    header, samples, bad = {}, [], 0
    rate = None
    n_s = 0
    last_t = -math.inf
    seen_data = False
    pending_raw = []
    with open(path, encoding='utf-8', newline='') as f:
        text = f.read()
    for raw in text.split('\n'):
        row = raw[:-1] if raw.endswith('\r') else raw
        if row == '':
            continue
        if row.startswith('#'):
            m = re.match(r'^#\s*([A-Za-z_][\w-]*):\s*(.*)$', row)
            if m and not seen_data:
                header[m.group(1)] = m.group(2).strip()
            continue
        seen_data = True
        t = None
        line = row
        parts = row.split(' ', 1)
        if len(parts) == 2 and re.fullmatch(NUM, parts[0]):
            t = float(parts[0])
            line = parts[1]
            if t < last_t:
                bad += 1
                continue
            last_t = t
        if line.endswith('\r'):
            line = line[:-1]
        ms, ma = S_RE.match(line), A_RE.match(line)
        if not ms and not ma:
            bad += 1
            continue
        if t is None:      # raw capture: timed by s: lines at rate_hz
            rate = rate or float(header.get('rate_hz', 20))
            if ms:
                t = n_s / rate
                n_s += 1
                pending_raw.append(t)
            elif pending_raw:
                t = pending_raw[-1]
            else:
                bad += 1
                continue
        if ms:
            samples.append((t, 's', (float(ms.group(1)),)))
        else:
            samples.append((t, 'a', (float(ma.group(1)), float(ma.group(2)))))
    return header, samples, bad


def check_truth(truth, stem):
    errs = []
    if list(truth.keys()) != TRUTH_KEYS:
        errs.append('truth keys %s' % list(truth.keys()))
    if truth['stream'] != stem + '.lbs':
        errs.append('stream name')
    for s in truth['sets']:
        if list(s.keys()) != SET_KEYS:
            errs.append('set keys')
        prev_end = -1
        for r in s['reps']:
            if list(r.keys()) != REP_KEYS:
                errs.append('rep keys')
            d = r['concentric_end_s'] - r['concentric_start_s']
            if d <= 0 or r['rom_cm'] <= 0:
                errs.append('rep %d non-positive' % r['index'])
            elif abs(r['rom_cm'] / 100 / d - r['mean_velocity_mps']) > 0.01 * r['mean_velocity_mps'] + 0.002:
                errs.append('rep %d mv inconsistent' % r['index'])
            if r['peak_velocity_mps'] < r['mean_velocity_mps']:
                errs.append('rep %d peak < mean' % r['index'])
            if r['concentric_start_s'] < prev_end:
                errs.append('rep %d overlaps' % r['index'])
            prev_end = r['concentric_end_s']
            if not (s['start_s'] - 1e-6 <= r['concentric_start_s'] and r['concentric_end_s'] <= s['end_s'] + 1e-6):
                errs.append('rep %d outside set' % r['index'])
    for n in truth['non_reps']:
        if n['kind'] not in KINDS:
            errs.append('kind %s' % n['kind'])
        for s in truth['sets']:
            for r in s['reps']:
                if n['start_s'] < r['concentric_end_s'] - 1e-6 and r['concentric_start_s'] < n['end_s'] - 1e-6:
                    errs.append('non-rep %s overlaps a rep' % n['kind'])
    return errs


def main():
    d = sys.argv[1]
    files = sorted(glob.glob(os.path.join(d, '*.lbs')))
    per_ex = defaultdict(list)
    scen = defaultdict(int)
    kinds = defaultdict(int)
    tot_err = 0
    print('%-36s %-6s %-7s %5s %6s %5s %5s %6s' % ('stream', 'trans', 'noise', 'dur_s', 'rows', 'bad', 'sets', 'reps'))
    for p in files:
        stem = os.path.basename(p)[:-4]
        header, samples, bad = parse(p)
        truth = json.load(open(os.path.join(d, stem + '.truth.json')))
        errs = check_truth(truth, stem)
        ts = [x[0] for x in samples if x[1] == 's']
        dur = ts[-1] - ts[0] if ts else 0
        for s in truth['sets']:
            for r in s['reps']:
                per_ex[s['exercise']].append(r)
                if r['concentric_end_s'] > dur + 1 or r['concentric_start_s'] < 0:
                    errs.append('rep outside stream')
        for n in truth['non_reps']:
            kinds[n['kind']] += 1
        scen[truth['scenario']] += 1
        nreps = sum(len(s['reps']) for s in truth['sets'])
        print('%-36s %-6s %-7s %5.0f %6d %5d %5d %6d %s' % (stem[:36], truth['transport'], truth['noise'], dur,
                                                       len(samples), bad, len(truth['sets']), nreps,
                                                       ' '.join(errs[:3])))
        tot_err += len(errs)
    print()
    print('%-15s %5s %13s %13s %11s %9s %9s' % ('exercise', 'reps', 'MV range', 'PV range', 'PV/MV', 'ROM cm', 'sticking'))
    for ex in sorted(per_ex):
        rs = per_ex[ex]
        mv = [r['mean_velocity_mps'] for r in rs]
        pv = [r['peak_velocity_mps'] for r in rs]
        ratio = [b / a for a, b in zip(mv, pv)]
        rom = [r['rom_cm'] for r in rs]
        st = sum(1 for r in rs if r['sticking_point_cm'] is not None)
        print('%-15s %5d %6.2f-%-6.2f %6.2f-%-6.2f %5.2f-%-5.2f %4.0f-%-4.0f %9d' % (
            ex, len(rs), min(mv), max(mv), min(pv), max(pv), min(ratio), max(ratio), min(rom), max(rom), st))
    print()
    print('scenarios:', dict(sorted(scen.items())))
    print('non_reps:', dict(sorted(kinds.items())))
    print('truth/format errors:', tot_err)


if __name__ == '__main__':
    main()
