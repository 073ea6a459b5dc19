#!/usr/bin/env python3
"""Self-check for blind-sim output: python3 check.py DIR

Parses every .lbs per docs/contract/stream-format.md (independently of the
project's reader), checks the matching .truth.json for internal consistency
and prints a table per scenario.  Exit status 1 if any check failed."""
import collections
import glob
import json
import math
import os
import re
import sys

NUM = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")
KINDS = {"unrack", "rerack", "walk_out", "walk_in", "pick_up", "carry", "floor_to_rack", "clean",
         "put_down", "plate_loading", "adjustment", "settle", "rest", "failed_rep",
         "assisted_rise", "clip_handling"}
EXS = {"squat", "bench_press", "deadlift", "overhead_press", None}


def parse_line(line):
    """Return ('s', cm) / ('a', p, r) / None, accepting extra trailing fields."""
    f = line.split(":")
    if len(f) >= 2 and f[0] == "s" and NUM.match(f[1]):
        v = float(f[1])
        return ("s", v) if 0 <= v <= 1000 else None
    if len(f) >= 3 and f[0] == "a" and NUM.match(f[1]) and NUM.match(f[2]):
        return ("a", float(f[1]), float(f[2]))
    return None


def parse_lbs(path):
    meta, s, a, bad = {}, [], [], 0
    with open(path, encoding="utf-8", newline="") as fh:
        text = fh.read()
    data_started = False
    last_t = None
    n_s_bare = 0
    rate = None
    non_mono = 0
    for raw in text.split("\n"):
        row = raw[:-1] if raw.endswith("\r") else raw
        if row == "":
            continue
        if row.startswith("#"):
            m = re.match(r"^#\s*([A-Za-z_]+):\s*(.*)$", row)
            if m and not data_started:
                meta[m.group(1)] = m.group(2).strip()
            continue
        if rate is None:
            try:
                rate = float(meta.get("rate_hz", "20"))
            except ValueError:
                rate = 20.0
        data_started = True
        parts = row.split(" ", 1)
        t = None
        if len(parts) == 2 and NUM.match(parts[0]):
            t, line = float(parts[0]), parts[1]
        else:
            line = row
        p = parse_line(line)
        if p is None:
            bad += 1
            continue
        if t is None:
            if p[0] == "s":
                t = n_s_bare / rate
                n_s_bare += 1
            else:
                if n_s_bare == 0:
                    bad += 1
                    continue
                t = (n_s_bare - 1) / rate
        elif last_t is not None and t < last_t:
            non_mono += 1
            bad += 1
            continue
        last_t = t
        (s if p[0] == "s" else a).append((t,) + p[1:])
    return meta, s, a, bad, non_mono, n_s_bare > 0


def check_truth(tr, dur, errs, raw_rate):
    tol = 0.035 if raw_rate else 0.003
    prev_end = -1e9
    rep_spans = []
    for si, st in enumerate(tr["sets"]):
        if st["exercise"] not in EXS:
            errs.append("set %d: exercise %r" % (si, st["exercise"]))
        if not st["reps"]:
            errs.append("set %d: no reps" % si)
            continue
        if st["start_s"] < prev_end:
            errs.append("set %d starts before previous set ended" % si)
        if not (st["start_s"] <= st["end_s"]):
            errs.append("set %d: start > end" % si)
        last = None
        for k, r in enumerate(st["reps"]):
            if r["index"] != k + 1:
                errs.append("set %d rep %d: index %d" % (si, k + 1, r["index"]))
            c0, c1 = r["concentric_start_s"], r["concentric_end_s"]
            if not (c0 < c1):
                errs.append("set %d rep %d: concentric start >= end" % (si, k + 1))
            if c0 < st["start_s"] - 1e-6 or c1 > st["end_s"] + 1e-6:
                errs.append("set %d rep %d: outside set span" % (si, k + 1))
            if last is not None and c0 < last - 1e-6:
                errs.append("set %d rep %d: overlaps previous rep" % (si, k + 1))
            e0 = r["eccentric_start_s"]
            if e0 is not None and last is not None and e0 < last - 1e-6:
                errs.append("set %d rep %d: eccentric before previous concentric end" % (si, k + 1))
            last = c1
            if r["rom_cm"] <= 0:
                errs.append("set %d rep %d: rom <= 0" % (si, k + 1))
            mv = r["rom_cm"] / 100.0 / (c1 - c0)
            # raw captures: clock mismatch (<=3 %) and lost s: lines shift index time
            extra = 1.5 / raw_rate / (c1 - c0) if raw_rate else 0.0
            if abs(mv - r["mean_velocity_mps"]) > (tol + extra) * r["mean_velocity_mps"] + 0.002:
                errs.append("set %d rep %d: mean velocity %.4f vs rom/dur %.4f"
                            % (si, k + 1, r["mean_velocity_mps"], mv))
            if r["peak_velocity_mps"] < r["mean_velocity_mps"]:
                errs.append("set %d rep %d: peak < mean" % (si, k + 1))
            sp = r["sticking_point_cm"]
            if sp is not None and not (0 < sp < r["rom_cm"]):
                errs.append("set %d rep %d: sticking point outside ROM" % (si, k + 1))
            if not (0 <= c0 and c1 <= dur + 0.5):
                errs.append("set %d rep %d: outside the recording" % (si, k + 1))
            rep_spans.append((c0, c1))
        prev_end = st["end_s"]
    for nr in tr["non_reps"]:
        if nr["kind"] not in KINDS:
            errs.append("non_rep kind %r" % nr["kind"])
        if not nr["start_s"] < nr["end_s"]:
            errs.append("non_rep %s: start >= end" % nr["kind"])
        for c0, c1 in rep_spans:
            if nr["start_s"] < c1 - 1e-3 and nr["end_s"] > c0 + 1e-3:
                errs.append("non_rep %s [%.2f,%.2f] overlaps a rep concentric [%.2f,%.2f]"
                            % (nr["kind"], nr["start_s"], nr["end_s"], c0, c1))


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    d = sys.argv[1]
    files = sorted(glob.glob(os.path.join(d, "*.lbs")))
    per = collections.defaultdict(list)
    nbad = 0
    for f in files:
        errs = []
        tp = f[:-4] + ".truth.json"
        if not os.path.exists(tp):
            print("MISSING truth for", f)
            nbad += 1
            continue
        tr = json.load(open(tp))
        for k in ("format", "stream", "seed", "transport", "noise", "firmware", "scenario", "sets", "non_reps"):
            if k not in tr:
                errs.append("truth lacks %s" % k)
        if tr.get("format") != "liftbuddy-truth 1" or tr.get("stream") != os.path.basename(f):
            errs.append("truth format/stream mismatch")
        meta, s, a, bad, non_mono, bare = parse_lbs(f)
        if not s:
            errs.append("no sonar lines")
            dur = 0
        else:
            dur = s[-1][0] - s[0][0]
        if bare != (tr["transport"] == "raw"):
            errs.append("raw/timestamped mismatch")
        if non_mono:
            errs.append("%d rows going backwards" % non_mono)
        has_ex = "exercise" in meta
        if has_ex and meta["exercise"] not in ("squat", "bench_press", "deadlift", "overhead_press"):
            errs.append("bad exercise header")
        raw_rate = float(meta.get("rate_hz", 20)) if tr["transport"] == "raw" else 0.0
        check_truth(tr, dur + (s[0][0] if s else 0), errs, raw_rate)
        vals = [v for _, v in s]
        no_echo = sum(1 for v in vals if v == 0 or v >= 400) / max(1, len(vals))
        rate = (len(s) - 1) / dur if dur > 0 else 0
        reps = [r for st in tr["sets"] for r in st["reps"]]
        info = dict(transport=tr["transport"], noise=tr["noise"], sets=len(tr["sets"]),
                    reps=len(reps), mv=[r["mean_velocity_mps"] for r in reps],
                    rom=[r["rom_cm"] for r in reps],
                    stick=sum(1 for r in reps if r["sticking_point_cm"] is not None),
                    fails=sum(1 for n in tr["non_reps"] if n["kind"] == "failed_rep"),
                    rate=rate, imu=len(a) / max(1, len(s)), hdr=has_ex, dur=dur,
                    bad=bad / max(1, len(s) + len(a) + bad), noecho=no_echo,
                    size=os.path.getsize(f), reps_per_set=[len(st["reps"]) for st in tr["sets"]])
        per[tr["scenario"]].append(info)
        if errs:
            nbad += 1
            print("FAIL %s:" % os.path.basename(f))
            for e in errs[:8]:
                print("   ", e)
    hdr = ("%-24s %3s %-11s %-9s %5s %5s %-6s %-11s %-10s %4s %4s %-11s %4s %5s %5s %4s %5s"
           % ("scenario", "n", "ser/ble/raw", "cln/typ/drt", "sets", "reps", "r/set", "MV m/s",
              "ROM cm", "stk", "fail", "sonar Hz", "imu", "noEc%", "bad%", "hdr", "dur s"))
    print(hdr)
    print("-" * len(hdr))
    allinfo = []
    for sc in sorted(per):
        L = per[sc]
        allinfo += L
        print(row(sc, L))
    print("-" * len(hdr))
    print(row("ALL", allinfo))
    print("%d files, %d with errors" % (len(files), nbad))
    return 1 if nbad else 0


def row(sc, L):
    tc = collections.Counter(i["transport"] for i in L)
    nc = collections.Counter(i["noise"] for i in L)
    mv = [v for i in L for v in i["mv"]] or [0]
    rom = [v for i in L for v in i["rom"]] or [0]
    rps = [v for i in L for v in i["reps_per_set"]] or [0]
    return ("%-24s %3d %-11s %-9s %5d %5d %-6s %-11s %-10s %4d %4d %-11s %4.1f %5.1f %5.2f %4d %5.0f"
            % (sc, len(L), "%d/%d/%d" % (tc["serial"], tc["ble"], tc["raw"]),
               "%d/%d/%d" % (nc["clean"], nc["typical"], nc["dirty"]),
               sum(i["sets"] for i in L), sum(i["reps"] for i in L),
               "%d-%d" % (min(rps), max(rps)),
               "%.2f-%.2f" % (min(mv), max(mv)), "%.0f-%.0f" % (min(rom), max(rom)),
               sum(i["stick"] for i in L), sum(i["fails"] for i in L),
               "%.1f-%.1f" % (min(i["rate"] for i in L), max(i["rate"] for i in L)),
               sum(i["imu"] for i in L) / len(L),
               100 * sum(i["noecho"] for i in L) / len(L),
               100 * sum(i["bad"] for i in L) / len(L),
               sum(1 for i in L if i["hdr"]),
               sum(i["dur"] for i in L) / len(L)))


if __name__ == "__main__":
    sys.exit(main())
