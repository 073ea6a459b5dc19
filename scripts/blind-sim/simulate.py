#!/usr/bin/env python3
"""Blind test-data generator for the LiftBuddy barbell clip.

Written without reading the analyzer or the project's other simulators; see
README.md in this folder for the model, its sources and its guesses.

    python3 simulate.py --seed 7000000 --count 240 --out DIR
    python3 simulate.py --list-scenarios

Each session i (seed N+i) is written as DIR/<scenario>-<seed>.lbs and
DIR/<scenario>-<seed>.truth.json.  Same arguments -> byte-identical files.
"""
import argparse
import json
import math
import os
import sys

import numpy as np

DT = 0.001  # ground-truth timeline resolution (s)

SCENARIOS = [
    "squat_volume",
    "squat_speed",
    "squat_heavy_spotted",
    "bench_paused",
    "bench_touch_and_go",
    "bench_to_failure",
    "deadlift_dead_stop",
    "deadlift_touch_and_go",
    "press_clean_from_floor",
    "press_from_rack",
    "unlabeled_mixed",
    "pyramid_warmup",
]

EXERCISES = ["squat", "bench_press", "deadlift", "overhead_press"]

# Generalised load-velocity lines (mean concentric velocity, m/s) as
# MV(p) = v1rm + slope * (1 - p), p = fraction of 1RM.  Anchors: bench MV at
# 1RM ~0.16-0.17 (Gonzalez-Badillo & Sanchez-Medina 2010), ~0.79 at 60 %;
# full squat ~0.30-0.33 at 1RM (Sanchez-Medina et al. 2017); deadlift MVT
# ~0.14-0.20 (Moran-Navarro et al. 2021); overhead press ~0.19 at 1RM
# (Balsalobre-Fernandez et al. 2018, military press).
LV = {
    "squat": (0.31, 1.60),
    "bench_press": (0.17, 1.55),
    "deadlift": (0.16, 1.35),
    "overhead_press": (0.19, 1.45),
}


# ----------------------------------------------------------------- helpers
def minjerk(tau):
    return tau ** 3 * (10 - 15 * tau + 6 * tau * tau)


def win(tau):
    """0 at both ends with zero slope."""
    return np.sin(np.pi * np.clip(tau, 0, 1)) ** 2


def smooth_noise(rng, n, corr_samples):
    """Smooth unit-ish random signal of length n (cosine-interpolated knots)."""
    corr_samples = max(2, int(corr_samples))
    k = n // corr_samples + 3
    knots = rng.normal(size=k)
    x = np.arange(n) / corr_samples
    i = np.floor(x).astype(int)
    f = x - i
    f = (1 - np.cos(np.pi * f)) / 2
    return knots[i] * (1 - f) + knots[i + 1] * f


def beta_shape(n, a, b, dips=()):
    tau = (np.arange(n) + 0.5) / n
    v = tau ** a * (1 - tau) ** b
    for c, w, d in dips:
        v = v * (1 - d * np.exp(-0.5 * ((tau - c) / w) ** 2))
    v = np.maximum(v, 0)
    return v / v.sum()


def r2(x, nd=3):
    return float(round(float(x), nd))


# ------------------------------------------------------------- timeline
class Timeline:
    """Ground truth at 1 kHz: clip height (cm), pitch/roll (deg), flags."""

    F_NORMAL, F_HANDLING, F_ROLLING, F_SPOTTER, F_NEARFLOOR = 0, 1, 2, 3, 4

    def __init__(self, rng, h0, pitch0=0.0, roll0=0.0):
        self.rng = rng
        self.h_chunks = [np.array([h0])]
        self.p_chunks = [np.array([pitch0])]
        self.r_chunks = [np.array([roll0])]
        self.f_chunks = [np.array([0], dtype=np.int8)]
        self.o_chunks = [np.array([np.nan])]
        self.h, self.p, self.r = h0, pitch0, roll0
        self.n = 1
        self.non_reps = []
        self.roll_base = roll0

    @property
    def t(self):
        return (self.n - 1) * DT

    def seg(self, dur, z=None, pz=None, rz=None, flag=0, obst=np.nan):
        n = max(1, int(round(dur / DT)))
        tau = np.arange(1, n + 1) / n
        h = self.h + (z(tau) if z is not None else np.zeros(n))
        p = self.p + (pz(tau) if pz is not None else np.zeros(n))
        r = self.r + (rz(tau) if rz is not None else np.zeros(n))
        i0 = self.n - 1
        self.h_chunks.append(h)
        self.p_chunks.append(p)
        self.r_chunks.append(r)
        self.f_chunks.append(np.full(n, flag, dtype=np.int8))
        if np.ndim(obst) == 0:
            self.o_chunks.append(np.full(n, obst, dtype=float))
        else:
            self.o_chunks.append(np.asarray(obst, dtype=float))
        self.h, self.p, self.r = h[-1], p[-1], r[-1]
        self.n += n
        return i0, self.n - 1

    def mark(self, kind, t0, t1=None):
        if t1 is None:
            t1 = self.t
        if t1 - t0 > 0.02:
            self.non_reps.append({"kind": kind, "start_s": t0, "end_s": t1})

    # ---- primitives
    def wobble(self, n_tau, amp, corr):
        """Return a function tau->amp*windowed smooth noise (fixed draw)."""
        rng = self.rng
        cache = {}

        def f(tau):
            n = len(tau)
            if n not in cache:
                cache[n] = amp * win(tau) * smooth_noise(rng, n, max(2, corr * n))
            return cache[n]
        return f

    def hold(self, dur, sway=0.0, att=0.15, flag=0, obst=np.nan, corr=0.35):
        """Stand still; sway (cm) if the bar is held by a person."""
        if dur <= 0:
            return self.n - 1, self.n - 1
        n = max(1, int(round(dur / DT)))
        cs = min(1.0, corr / max(dur, 1e-3))
        z = self.wobble(n, sway, cs) if sway > 0 else None
        pz = self.wobble(n, att, cs) if att > 0 else None
        rz = self.wobble(n, att, cs) if att > 0 else None
        return self.seg(dur, z, pz, rz, flag=flag, obst=obst)

    def move(self, dh, dur, dp=0.0, dr=0.0, flag=0, wob=0.0, obst=np.nan):
        n = max(1, int(round(dur / DT)))
        extra = self.wobble(n, wob, 0.3) if wob > 0 else (lambda tau: 0.0)
        return self.seg(dur, lambda tau: dh * minjerk(tau) + extra(tau),
                        lambda tau: dp * minjerk(tau),
                        lambda tau: dr * minjerk(tau), flag=flag, obst=obst)

    def profile(self, disp, shape, dpitch=None, droll=None, flag=0, obst=np.nan):
        """Move by disp (cm) following a normalised velocity shape array."""
        zc = disp * np.cumsum(shape)
        n = len(shape)
        return self.seg(n * DT, lambda tau: zc,
                        dpitch if dpitch is not None else None,
                        droll if droll is not None else None, flag=flag, obst=obst)

    def walk(self, dur, steps, amp, flag=0, obst=np.nan):
        """Walk-out / walk-in / carry: one dip-and-rise of the bar per step."""
        rng = self.rng
        n = max(1, int(round(dur / DT)))
        amps = amp * rng.uniform(0.6, 1.3, size=steps)
        def z(tau):
            out = np.zeros_like(tau)
            edges = np.linspace(0, 1, steps + 1)
            for k in range(steps):
                loc = (tau - edges[k]) / (edges[k + 1] - edges[k])
                m = (loc >= 0) & (loc <= 1)
                out[m] += -amps[k] * np.sin(np.pi * loc[m]) ** 2 * (1 + 0.3 * np.sin(2 * np.pi * loc[m]))
            return out
        ra = rng.uniform(0.5, 2.0)
        pz = lambda tau: ra * np.sin(np.pi * steps * tau) * win(tau)
        rz = self.wobble(n, 1.0, 0.2)
        return self.seg(dur, z, pz, rz, flag=flag, obst=obst)

    def bumps(self, dur, count, amp, flag=0):
        """Plates knocking the bar while it rests: short damped jolts."""
        rng = self.rng
        n = max(1, int(round(dur / DT)))
        ts = np.sort(rng.uniform(0.05, 0.85, size=count))
        A = amp * rng.uniform(0.3, 1.0, size=count) * rng.choice([-1, 1], size=count, p=[0.3, 0.7])
        fr = rng.uniform(4, 9, size=count)
        dec = rng.uniform(0.06, 0.2, size=count)
        def z(tau):
            tt = tau * dur
            out = np.zeros_like(tau)
            for k in range(count):
                s = tt - ts[k] * dur
                m = s > 0
                out[m] += A[k] * np.exp(-s[m] / dec[k]) * np.sin(2 * np.pi * fr[k] * s[m])
            return out * win(tau) ** 0.25
        pz = lambda tau: z(tau) * 0.4
        return self.seg(dur, z, pz, None, flag=flag)

    def lever(self, lift, dur_up, dur_hold, dur_down, flag=0):
        """Clip end prised up (plate slid on / deadlift jack), then dropped."""
        pitch = math.degrees(math.atan(lift / 190.0))
        self.move(lift, dur_up, dp=pitch)
        self.hold(dur_hold, sway=min(1.5, 0.15 * lift), att=0.4, flag=flag)
        self.move(-lift, dur_down, dp=-pitch)
        # small bounce when it lands
        self.bumps(0.4, 1, 0.5)

    def handling(self, dur, h_end, amp=25.0):
        """The clip held in a hand / being clipped on: wild motion and angles."""
        rng = self.rng
        n = max(1, int(round(dur / DT)))
        h0 = self.h
        noise = smooth_noise(rng, n, max(2, int(0.4 / DT)))
        z = lambda tau: (h_end - h0) * minjerk(tau) + amp * win(tau) * noise
        pa = rng.uniform(10, 60)
        pn = smooth_noise(rng, n, int(0.3 / DT))
        rn = smooth_noise(rng, n, int(0.25 / DT))
        ra = rng.uniform(30, 120)
        return self.seg(dur, z, lambda tau: pa * win(tau) * pn,
                        lambda tau: ra * win(tau) * rn, flag=self.F_HANDLING)

    def arrays(self):
        return (np.concatenate(self.h_chunks), np.concatenate(self.p_chunks),
                np.concatenate(self.r_chunks), np.concatenate(self.f_chunks),
                np.concatenate(self.o_chunks))


# --------------------------------------------------------- lifter & plan
class Lifter:
    def __init__(self, rng):
        self.female = rng.random() < 0.3
        H = rng.normal(1.66, 0.065) if self.female else rng.normal(1.78, 0.07)
        self.H = float(np.clip(H, 1.50, 2.02))
        k = 0.65 if self.female else 1.0
        trained = rng.lognormal(0, 0.28)
        self.one_rm = {
            "squat": float(np.clip(140 * k * trained, 45, 270)),
            "bench_press": float(np.clip(100 * k * k * trained, 30, 200)),
            "deadlift": float(np.clip(170 * k * trained, 55, 320)),
            "overhead_press": float(np.clip(62 * k * k * trained, 22, 130)),
        }
        # individual deviation of the load-velocity line
        self.lv_scale = {e: (rng.normal(1.0, 0.12), rng.normal(1.0, 0.09)) for e in EXERCISES}
        self.tempo = rng.uniform(0.8, 1.25)   # slow vs fast eccentrics
        self.fidget = rng.uniform(0.3, 1.6)   # how much the lifter moves the bar around


def mv_of(lifter, ex, p):
    v1, slope = LV[ex]
    a, b = lifter.lv_scale[ex]
    return max(0.10, v1 * a + slope * b * (1 - p))


def nmax_of(rng, p):
    """Maximum reps possible at fraction p of 1RM (typical RM table, +-20 %)."""
    base = 1 + 37 * max(0.0, 1.0 - p) ** 1.05
    return max(1, int(round(base * rng.uniform(0.8, 1.2))))


def round_load(x):
    return max(20.0, round(x / 2.5) * 2.5)


# ------------------------------------------------------------ geometry
def geometry(rng, lifter, ex, variant):
    H = lifter.H * 100
    g = {}
    if ex == "squat":
        g["top"] = 0.80 * H + rng.normal(0, 2) - (3 if rng.random() < 0.3 else 0)
        g["rom"] = rng.uniform(0.28, 0.37) * H
        g["hooks"] = g["top"] - rng.uniform(4, 9)
        g["pins"] = g["top"] - g["rom"] - rng.uniform(4, 10)
    elif ex == "bench_press":
        chest = rng.uniform(60, 73)
        g["rom"] = rng.uniform(0.19, 0.27) * H
        g["top"] = chest + g["rom"]
        g["hooks"] = g["top"] - rng.uniform(3, 8)
        g["pins"] = chest - rng.uniform(2, 6)
    elif ex == "deadlift":
        g["floor"] = rng.uniform(21.5, 23.5)   # plate radius + clip offset
        g["top"] = 0.45 * H + rng.normal(0, 2.5)
        g["rom"] = g["top"] - g["floor"]
    else:  # overhead press
        if variant == "seated":
            g["shoulder"] = rng.uniform(86, 98)
            g["rom"] = rng.uniform(47, 58)
        else:
            g["shoulder"] = 0.79 * H + rng.normal(0, 2)
            g["rom"] = rng.uniform(0.29, 0.35) * H
        g["top"] = g["shoulder"] + g["rom"]
        g["hooks"] = g["shoulder"] - rng.uniform(3, 8)
    return g


# ------------------------------------------------------------ session
class Session:
    def __init__(self, seed):
        self.seed = seed
        self.rng = np.random.default_rng([seed, 0x11f7])
        rng = self.rng
        self.scenario = SCENARIOS[seed % len(SCENARIOS)]
        self.lifter = Lifter(rng)
        self.sets_truth = []

    # ----------------------------------------------------------- plan
    def plan(self):
        rng, sc = self.rng, self.scenario
        L = self.lifter
        opts = {"paused": False, "tng": False, "spotters": False, "fail_mode": None,
                "speed": False, "from_floor": False, "seated": False, "pyramid": False}
        ex = None
        if sc.startswith("squat"):
            ex = "squat"
        elif sc.startswith("bench"):
            ex = "bench_press"
        elif sc.startswith("deadlift"):
            ex = "deadlift"
        elif sc.startswith("press"):
            ex = "overhead_press"
        else:
            ex = EXERCISES[rng.integers(4)]
        sets = []  # (p, planned reps)
        sub = sc
        if sc == "unlabeled_mixed":
            sub = {"squat": ["squat_volume", "squat_speed", "squat_heavy_spotted"],
                   "bench_press": ["bench_paused", "bench_touch_and_go", "bench_to_failure"],
                   "deadlift": ["deadlift_dead_stop", "deadlift_touch_and_go"],
                   "overhead_press": ["press_clean_from_floor", "press_from_rack"]}[ex]
            sub = sub[rng.integers(len(sub))]
        if sc == "pyramid_warmup":
            n = int(rng.integers(3, 5))
            ps = np.sort(rng.uniform(0.45, 0.9, size=n))
            for p in ps:
                nm = nmax_of(rng, p)
                sets.append((float(p), int(max(1, min(12, nm - rng.integers(2, 5), rng.integers(1, 9)))), nm))
            opts["pyramid"] = True
            opts["tng"] = rng.random() < 0.5
            opts["paused"] = ex == "bench_press" and rng.random() < 0.5
            opts["from_floor"] = ex == "overhead_press" and rng.random() < 0.6
            opts["seated"] = ex == "overhead_press" and rng.random() < 0.2
            return ex, sets, opts

        def std_sets(nsets, plo, phi, rlo, rhi, rir_lo, rir_hi, fail_prob):
            p = rng.uniform(plo, phi)
            for k in range(nsets):
                nm = nmax_of(rng, p)
                want = int(rng.integers(rlo, rhi + 1))
                rir = int(rng.integers(rir_lo, rir_hi + 1))
                reps = max(1, min(want, nm - rir))
                if rng.random() < fail_prob and k == nsets - 1:
                    nm = min(nm, 11)
                    reps = nm + 1  # tries one more than possible -> failed rep
                sets.append((float(p), int(min(reps, 12)), nm))

        if sub == "squat_volume":
            std_sets(int(rng.integers(2, 5)), 0.62, 0.80, 4, 10, 0, 3, 0.06)
        elif sub == "squat_speed":
            std_sets(int(rng.integers(3, 5)), 0.38, 0.60, 2, 5, 2, 6, 0.0)
            opts["speed"] = True
            opts["tng"] = True
        elif sub == "squat_heavy_spotted":
            std_sets(int(rng.integers(1, 4)), 0.84, 1.0, 1, 3, 0, 1, 0.35)
            opts["spotters"] = rng.random() < 0.8
        elif sub == "bench_paused":
            std_sets(int(rng.integers(2, 5)), 0.62, 0.90, 1, 8, 0, 3, 0.08)
            opts["paused"] = True
        elif sub == "bench_touch_and_go":
            std_sets(int(rng.integers(2, 5)), 0.52, 0.80, 5, 12, 0, 3, 0.05)
            opts["tng"] = True
        elif sub == "bench_to_failure":
            std_sets(int(rng.integers(1, 4)), 0.65, 0.87, 4, 12, 0, 2, 0.0)
            p, _, nm = sets[-1]
            nm = min(nm, 11)
            sets[-1] = (p, nm + 1, nm)  # AMRAP: ends in a miss
            opts["paused"] = rng.random() < 0.3
            opts["tng"] = not opts["paused"]
        elif sub == "deadlift_dead_stop":
            std_sets(int(rng.integers(1, 4)), 0.70, 0.94, 1, 5, 0, 2, 0.12)
        elif sub == "deadlift_touch_and_go":
            std_sets(int(rng.integers(2, 4)), 0.52, 0.75, 4, 10, 1, 3, 0.03)
            opts["tng"] = True
        elif sub == "press_clean_from_floor":
            std_sets(int(rng.integers(2, 5)), 0.55, 0.80, 4, 10, 0, 3, 0.06)
            opts["from_floor"] = True
            opts["seated"] = rng.random() < 0.25
        elif sub == "press_from_rack":
            std_sets(int(rng.integers(2, 5)), 0.60, 0.92, 1, 8, 0, 2, 0.12)
        # cap: a "planned" number above the possible means the set ends with a miss
        return ex, sets, opts

    # --------------------------------------------------------- reps
    def rep_velocities(self, ex, p, reps, nm, set_idx):
        rng, L = self.rng, self.lifter
        mv1 = mv_of(L, ex, p) * (1 - 0.015 * set_idx) * rng.normal(1, 0.03)
        mv1 = min(mv1, rng.uniform(1.2, 1.38))
        mvt = LV[ex][0] * L.lv_scale[ex][0] * rng.uniform(0.85, 1.05)
        vs, fail_at = [], None
        for i in range(reps):
            if i >= nm:
                fail_at = i
                break
            f = i / max(nm, 1)
            v = mv1 - (mv1 - mvt) * f ** 1.25
            if i == 0 and rng.random() < 0.35:
                v *= rng.uniform(0.93, 0.99)  # first rep often a bit slower
            v *= rng.normal(1, 0.03)
            vs.append(float(max(v, 0.12)))
        return vs, fail_at, mvt

    def conc_shape(self, ex, mv, mvt, rom):
        """Velocity shape for a concentric; returns (shape, has_intended_dip)."""
        rng = self.rng
        T = rom / 100.0 / mv
        n = max(20, int(round(T / DT)))
        heavy = float(np.clip((0.75 - mv) / max(0.75 - mvt, 0.1), 0, 1))
        a = rng.uniform(1.0, 1.7)
        pp = np.clip(0.52 + 0.28 * heavy + rng.normal(0, 0.04), 0.4, 0.85)
        b = a * (1 - pp) / pp
        dips = []
        grinder = mv < mvt + 0.12
        if grinder or (heavy > 0.6 and rng.random() < 0.6):
            c = rng.uniform(0.28, 0.5)
            dips.append((c, rng.uniform(0.07, 0.14), rng.uniform(0.35, 0.8)))
        elif rng.random() < 0.15:
            dips.append((rng.uniform(0.3, 0.5), rng.uniform(0.08, 0.15), rng.uniform(0.1, 0.3)))
        if ex == "deadlift":
            # slow break from the floor
            a = a + rng.uniform(0.2, 0.6)
        shape = beta_shape(n, a, b, dips)
        # make sure a deep dip never reaches zero velocity
        v = shape * rom / 100 / DT
        vmin_allowed = 0.03
        if dips:
            i_pk = int(np.argmax(v[: int(n * dips[0][0]) + 1])) if int(n * dips[0][0]) > 0 else 0
            mid = (np.arange(n) > i_pk) & (np.arange(n) < n * 0.85)
            if mid.any() and v[mid].min() < vmin_allowed:
                shape = np.where(mid, np.maximum(shape, vmin_allowed * DT * 100 / rom), shape)
                shape = shape / shape.sum()
        return shape

    def att_rep(self, dur, amp_p, amp_r):
        rng = self.rng
        n = max(1, int(round(dur / DT)))
        sp, sr = rng.choice([-1, 1]), rng.choice([-1, 1])
        np_ = smooth_noise(rng, n, max(2, n // 3))
        nr = smooth_noise(rng, n, max(2, n // 3))
        pz = lambda tau: amp_p * win(tau) * (0.7 * sp + 0.3 * np_)
        rz = lambda tau: amp_r * win(tau) * (0.6 * sr + 0.4 * nr)
        return pz, rz

    def do_concentric(self, tl, ex, rom, mv, mvt, obst):
        rng = self.rng
        shape = self.conc_shape(ex, mv, mvt, rom)
        dur = len(shape) * DT
        grind = mv < mvt + 0.15
        pz, rz = self.att_rep(dur, rng.uniform(0.3, 2.5) * (2.0 if grind else 1.0),
                              rng.uniform(0.2, 1.5) * (1.8 if grind else 1.0))
        i0, i1 = tl.profile(rom, shape, pz, rz, obst=obst)
        return i0, i1

    def do_eccentric(self, tl, depth, dur, sharp_end=False, obst=np.nan):
        rng = self.rng
        n = max(10, int(round(dur / DT)))
        a = rng.uniform(1.2, 2.0)
        b = rng.uniform(0.85, 1.05) if sharp_end else rng.uniform(1.1, 1.7)
        shape = beta_shape(n, a, b)
        pz, rz = self.att_rep(dur, rng.uniform(0.2, 1.5), rng.uniform(0.2, 1.0))
        return tl.profile(-depth, shape, pz, rz, obst=obst)

    # ------------------------------------------------------ failed rep
    def failed_concentric(self, tl, ex, rom, mvt, obst):
        """Bar rises part-way, stalls, grinds; returns nothing (non-rep)."""
        rng = self.rng
        frac = rng.uniform(0.12, 0.6) if ex != "deadlift" else rng.uniform(0.0, 0.45)
        if ex == "deadlift" and frac < 0.05:
            frac = rng.uniform(0.005, 0.03)  # never breaks the floor
        disp = rom * frac
        v = rng.uniform(0.6, 1.0) * mvt
        n = max(50, int(round(disp / 100 / max(v, 0.05) / DT)))
        shape = beta_shape(n, rng.uniform(1.0, 1.5), rng.uniform(1.3, 2.2))
        tl.profile(disp, shape)
        tl.hold(rng.uniform(0.4, 2.2), sway=0.25, att=1.5, obst=obst)  # the grind

    # --------------------------------------------------- set execution
    def run_set(self, tl, ex, g, load, p, planned, nm, opts, set_idx, obst_fn):
        """Reps of one set, starting at the set's start position (at lockout
        for squat/bench, at the bottom for deadlift/press).  Returns
        (truth set dict or None, failed:bool, failure_info)."""
        rng, L = self.rng, self.lifter
        vs, fail_at, mvt = self.rep_velocities(ex, p, planned, nm, set_idx)
        reps_truth = []
        failed = False
        set_start = None
        last_end = None
        n_total = len(vs) + (1 if fail_at is not None else 0)
        for i in range(n_total):
            is_fail = (fail_at is not None and i == len(vs))
            mv = vs[i] if not is_fail else None
            rom = g["rom"] * rng.normal(1, 0.015)
            obst = obst_fn()
            ecc_start = None
            if ex in ("squat", "bench_press"):
                # top position before the descent -> bottom
                if opts["speed"]:
                    ed = rng.uniform(0.55, 0.95)
                elif ex == "squat":
                    ed = rng.uniform(0.9, 2.0) * L.tempo
                else:
                    ed = rng.uniform(0.8, 1.7) * L.tempo
                ecc_start = tl.t
                t_fail0 = tl.t
                depth = tl.h - (g["top"] - rom) + rng.normal(0, 0.5)
                self.do_eccentric(tl, depth, ed, sharp_end=opts["tng"] or opts["speed"], obst=obst)
                if ex == "bench_press" and opts["paused"]:
                    sink = rng.uniform(0.2, 0.8)
                    tl.move(-sink, rng.uniform(0.15, 0.3))
                    tl.hold(rng.uniform(0.4, 1.4), sway=0.0, att=0.2)
                elif ex == "squat" and not opts["tng"] and rng.random() < 0.25:
                    tl.hold(rng.uniform(0.05, 0.4), sway=0.0)
                if is_fail:
                    self.failed_concentric(tl, ex, rom, mvt, obst)
                    return self._finish_fail(tl, ex, g, opts, reps_truth, set_start, last_end, t_fail0, obst_fn, load)
                i0, i1 = self.do_concentric(tl, ex, tl_rom(tl, g["top"] + rng.normal(0, 0.6)), mv, mvt, obst)
                if set_start is None:
                    set_start = ecc_start
                reps_truth.append(self.rep_truth(tl, i0, i1, ecc_start, len(reps_truth) + 1))
                last_end = tl.t
                # top between reps
                if i < n_total - 1:
                    extra = 1.5 * (1 - mv) if ex == "squat" else 0.4 * (1 - mv)
                    if opts["tng"] and ex == "bench_press":
                        tl.hold(rng.uniform(0.05, 0.5), sway=0.15, att=0.3)
                    else:
                        tl.hold(rng.uniform(0.4, 1.8) + max(0, extra) * rng.random(), sway=0.3, att=0.3)
                        if ex == "squat" and rng.random() < 0.2 * L.fidget:
                            self.brace_dip(tl)
            else:
                # deadlift / press: start at the bottom, concentric first
                t_fail0 = tl.t
                if is_fail:
                    self.failed_concentric(tl, ex, rom, mvt, obst)
                    return self._finish_fail(tl, ex, g, opts, reps_truth, set_start, last_end, t_fail0, obst_fn, load)
                target_top = g["top"] + rng.normal(0, 0.6)
                i0, i1 = self.do_concentric(tl, ex, target_top - tl.h, mv, mvt, obst)
                if set_start is None:
                    set_start = tl.t_of(i0)
                tl.hold(rng.uniform(0.1, 0.7) if ex == "overhead_press" else rng.uniform(0.2, 1.5),
                        sway=0.25, att=0.3)
                ecc_start = tl.t
                if ex == "deadlift":
                    bottom = g["floor"]
                    drop = rng.random() < (0.15 if not opts["tng"] else 0.05)
                    if drop:
                        ed = rng.uniform(0.35, 0.55)
                        n = int(ed / DT)
                        tl.profile(-(tl.h - bottom), beta_shape(n, 1.6, 0.35))
                        reps_truth.append(self.rep_truth(tl, i0, i1, ecc_start, len(reps_truth) + 1))
                        last_end = tl.t
                        tb = tl.t
                        A = rng.uniform(1.0, 3.5)
                        tl.seg(rng.uniform(0.18, 0.28), lambda tau: A * 4 * tau * (1 - tau))
                        tl.seg(0.12, lambda tau: 0.25 * A * 4 * tau * (1 - tau))
                        tl.mark("settle", tb)
                    else:
                        ed = rng.uniform(0.6, 1.4) * L.tempo * (0.7 if opts["tng"] else 1.0)
                        self.do_eccentric(tl, tl.h - bottom, ed, sharp_end=opts["tng"])
                        reps_truth.append(self.rep_truth(tl, i0, i1, ecc_start, len(reps_truth) + 1))
                        last_end = tl.t
                    if i < n_total - 1:
                        if opts["tng"]:
                            tl.hold(rng.uniform(0.0, 0.12))
                        else:
                            tl.hold(rng.uniform(0.2, 0.6))
                            tb = tl.t
                            # regrip / wedge: small jolts of the bar on the floor
                            tl.bumps(rng.uniform(0.6, 2.5), int(rng.integers(1, 3)), 0.25)
                            tl.hold(rng.uniform(0.2, 1.0))
                            tl.mark("adjustment", tb)
                else:
                    ed = rng.uniform(0.75, 1.3) * L.tempo
                    bottom = g["shoulder"] + rng.normal(0, 0.6)
                    self.do_eccentric(tl, tl.h - bottom, ed)
                    reps_truth.append(self.rep_truth(tl, i0, i1, ecc_start, len(reps_truth) + 1))
                    last_end = tl.t
                    if i < n_total - 1:
                        tl.hold(rng.uniform(0.08, 0.9), sway=0.2, att=0.3)
        return self._set_dict(ex, load, set_start, last_end, reps_truth), False

    def _finish_fail(self, tl, ex, g, opts, reps_truth, set_start, last_end, t0, obst_fn, load):
        """After the stall: lower to pins/chest/floor or spotter-assisted rise."""
        rng = self.rng
        mode = opts.get("fail_mode")
        if ex == "squat":
            mode = "assist" if (opts["spotters"] and rng.random() < 0.5) else "pins"
        elif ex == "bench_press":
            mode = "assist" if rng.random() < 0.6 else "pins"
        elif ex == "deadlift":
            mode = "floor"
        else:
            mode = "shoulders"
        if mode == "assist":
            tl.mark("failed_rep", t0)
            ta = tl.t
            rise = g["top"] - tl.h
            v = rng.uniform(0.08, 0.25)
            n = int(rise / 100 / v / DT)
            shape = beta_shape(max(n, 50), 1.2, 1.0, [(rng.uniform(0.3, 0.6), 0.1, 0.5)])
            tl.profile(rise, shape, obst=obst_fn(force=True))
            tl.hold(rng.uniform(0.2, 0.8), sway=0.4, att=0.6)
            tl.mark("assisted_rise", ta)
            return self._set_dict(ex, load, set_start, last_end, reps_truth), ("assisted", None)
        if mode == "pins":
            target = g["pins"]
            tl.move(target - tl.h, rng.uniform(0.4, 1.0))
            tl.bumps(0.5, 1, 1.2)
            tl.mark("failed_rep", t0)
            return self._set_dict(ex, load, set_start, last_end, reps_truth), ("pins", None)
        if mode == "floor":
            tl.move(g["floor"] - tl.h, rng.uniform(0.4, 0.9) if tl.h - g["floor"] > 2 else 0.3)
            tl.mark("failed_rep", t0)
            return self._set_dict(ex, load, set_start, last_end, reps_truth), ("floor", None)
        # press: lowered back to the shoulders
        tl.move(g["shoulder"] - tl.h, rng.uniform(0.5, 1.0))
        tl.mark("failed_rep", t0)
        return self._set_dict(ex, load, set_start, last_end, reps_truth), ("shoulders", None)

    def _set_dict(self, ex, load, start, end, reps):
        if not reps:
            return None
        return {"exercise": ex, "load_kg": load, "start_s": start, "end_s": end, "reps": reps}

    def brace_dip(self, tl):
        rng = self.rng
        t0 = tl.t
        d = rng.uniform(0.5, 2.0)
        tl.move(-d, rng.uniform(0.25, 0.5))
        tl.move(d, rng.uniform(0.25, 0.5))
        tl.mark("settle", t0)

    def rep_truth(self, tl, i0, i1, ecc_start, idx):
        rec = {"i0": i0, "i1": i1, "ecc": ecc_start, "index": idx}
        return rec

    # ---------------------------------------------------- setup pieces
    def plate_loading(self, tl, dur, heavy_side_clip, on_floor=False):
        rng = self.rng
        t0 = tl.t
        n_plates = int(rng.integers(1, 5))
        for k in range(n_plates):
            tl.hold(rng.uniform(1.0, 4.0) * dur / 15)
            if on_floor and rng.random() < 0.5:
                # deadlift jack / plate under the sleeve: clip end levered up
                tl.lever(rng.uniform(4, 12), rng.uniform(0.4, 0.9), rng.uniform(1.5, 6.0), rng.uniform(0.2, 0.5))
            elif heavy_side_clip and rng.random() < 0.4:
                tl.lever(rng.uniform(1, 5), rng.uniform(0.2, 0.5), rng.uniform(0.3, 1.5), rng.uniform(0.15, 0.3))
            else:
                tl.bumps(rng.uniform(0.6, 1.6), int(rng.integers(1, 4)), rng.uniform(0.2, 1.5))
        tl.mark("plate_loading", t0)

    def clip_on(self, tl, rest_h):
        rng = self.rng
        t0 = tl.t
        tl.handling(rng.uniform(2.0, 7.0), rest_h)
        tl.hold(rng.uniform(0.5, 2.0))
        tl.mark("clip_handling", t0)

    def roll_on_floor(self, tl):
        rng = self.rng
        t0 = tl.t
        turns = rng.uniform(0.3, 1.6) * rng.choice([-1, 1])
        dur = rng.uniform(1.0, 3.0)
        n = max(1, int(round(dur / DT)))
        rz = lambda tau: 360 * turns * minjerk(tau)
        bump = smooth_noise(rng, n, int(0.15 / DT)) * 0.3
        tl.seg(dur, lambda tau: bump * win(tau), None, rz, flag=Timeline.F_ROLLING)
        # the clip stops at some random angle; someone turns it back
        tl.hold(rng.uniform(0.5, 2.0), flag=Timeline.F_ROLLING)
        tl.mark("clip_handling", t0)
        t1 = tl.t
        back = tl.roll_base - tl.r
        tl.seg(rng.uniform(0.5, 1.2) * max(1.0, abs(back) / 180), None, None,
               lambda tau: back * minjerk(tau), flag=Timeline.F_ROLLING)
        tl.mark("adjustment", t1)

    def rest(self, tl, dur, held=False, flag_passers=True):
        rng = self.rng
        t0 = tl.t
        tl.hold(dur, sway=0.0 if not held else 0.4, att=0.1)
        tl.mark("rest", t0)
        # someone walking past / the lifter's legs near the clip
        if flag_passers and rng.random() < 0.35:
            a = t0 + rng.uniform(0.1, 0.8) * dur
            self.passers.append((a, a + rng.uniform(0.3, 1.8), rng.uniform(25, 120)))


def tl_rom(tl, target_top):
    return target_top - tl.h


def _t_of(self, i):
    return i * DT


Timeline.t_of = _t_of


# -------------------------------------------------------- scripts
def build_session(S):
    rng = S.rng
    ex, plan, opts = S.plan()
    S.exercise = ex
    L = S.lifter
    g = geometry(rng, L, ex, "seated" if opts["seated"] else "standing")
    S.geom = g
    S.passers = []
    loads = [round_load(L.one_rm[ex] * p) for p, _, _ in plan]
    if opts["pyramid"]:
        for k in range(1, len(loads)):
            loads[k] = max(loads[k], loads[k - 1])
    S.loads = loads
    roll0 = rng.normal(0, 2.0) if rng.random() < 0.3 else rng.normal(0, 0.5)
    spot = {"on": opts["spotters"]}

    def obst_fn(force=False):
        if force or spot["on"]:
            if force or rng.random() < 0.5:
                return rng.uniform(8, 30)   # a side spotter's hands under the sleeve
        return np.nan

    sets_out = []

    if ex in ("squat", "bench_press") or (ex == "overhead_press" and not opts["from_floor"]):
        rest_h = g["hooks"]
        start_floor = ex == "squat" and rng.random() < 0.3
        if start_floor:
            tl = Timeline(rng, rng.uniform(3.5, 6.0), 0.0, roll0)
            tl.roll_base = roll0
            S.clip_first(tl)
            t0 = tl.t
            # empty bar deadlifted from the floor to the hips, then onto the hooks
            tl.move(rng.uniform(70, 85) - tl.h, rng.uniform(0.8, 1.4), dp=rng.normal(0, 3), wob=1.0)
            tl.hold(rng.uniform(0.3, 1.2), sway=0.8, att=1.0)
            over = rng.uniform(2, 6)
            tl.move(rest_h + over - tl.h, rng.uniform(0.7, 1.3), dp=rng.normal(0, 2), wob=1.0)
            tl.move(-over, rng.uniform(0.2, 0.5))
            tl.bumps(0.4, 1, 0.8)
            tl.mark("floor_to_rack", t0)
        else:
            tl = Timeline(rng, rest_h, 0.0, roll0)
            tl.roll_base = roll0
            S.clip_first(tl)
        tl.hold(rng.uniform(1, 5))
        if loads[0] > 20:
            S.plate_loading(tl, rng.uniform(8, 25), rng.random() < 0.5)
            if rng.random() < 0.3:
                t0 = tl.t
                tl.handling(rng.uniform(1.5, 4), rest_h, amp=8)
                tl.mark("clip_handling", t0)
        tl.hold(rng.uniform(2, 8))
        for k, (p, planned, nm) in enumerate(plan):
            if k > 0 and loads[k] != loads[k - 1]:
                S.plate_loading(tl, rng.uniform(6, 18), rng.random() < 0.5)
                tl.hold(rng.uniform(2, 6))
            # grip: small touches
            tl.bumps(rng.uniform(0.5, 1.5), 1, 0.3)
            t0 = tl.t
            up = rng.uniform(3, 8) if ex != "bench_press" else rng.uniform(2.5, 7)
            if ex == "bench_press":
                top_target = g["top"] - rng.uniform(0, 1.5)
                tl.move(top_target - tl.h, rng.uniform(0.5, 1.0), dp=rng.normal(0, 1))
                tl.mark("unrack", t0)
                t1 = tl.t
                tl.move(rng.normal(-0.5, 0.8), rng.uniform(0.5, 1.1), wob=0.6)   # swing over the chest
                tl.hold(rng.uniform(0.4, 1.5), sway=0.3, att=0.3)
                tl.mark("settle", t1)
            else:
                top_here = g["top"] if ex == "squat" else g["shoulder"]
                tl.move(top_here - tl.h, rng.uniform(0.4, 0.9), dp=rng.normal(0, 1))
                tl.mark("unrack", t0)
                t1 = tl.t
                tl.walk(rng.uniform(1.5, 4.0), int(rng.integers(2, 5)), rng.uniform(0.4, 2.0))
                tl.mark("walk_out", t1)
                t2 = tl.t
                tl.hold(rng.uniform(0.6, 2.5), sway=0.4, att=0.4)
                if rng.random() < 0.4 * L.fidget:
                    S.brace_dip(tl)
                else:
                    tl.mark("settle", t2)
            spot["on"] = opts["spotters"]
            res = S.run_set(tl, ex, g, loads[k], p, planned, nm, opts, k, obst_fn)
            sd, fail = res
            if sd:
                sets_out.append(sd)
            end_reason = fail[0] if fail else None
            if end_reason == "pins":
                tl.hold(rng.uniform(1.5, 5))
                t0 = tl.t
                # get the bar from the pins back to the hooks (lifted, walked in)
                if ex == "squat":
                    tl.move(g["top"] - tl.h, rng.uniform(1.2, 2.5), wob=0.8)
                else:
                    tl.move(g["top"] - tl.h, rng.uniform(1.2, 2.5), wob=0.8,
                            obst=rng.uniform(10, 25))
                tl.mark("assisted_rise" if ex == "bench_press" else "adjustment", t0)
            if ex != "bench_press" and end_reason != "pins":
                tl.hold(rng.uniform(0.3, 1.2), sway=0.3)
                t0 = tl.t
                tl.walk(rng.uniform(1.2, 3.5), int(rng.integers(2, 5)), rng.uniform(0.4, 1.8))
                tl.mark("walk_in", t0)
            elif ex == "bench_press":
                tl.hold(rng.uniform(0.2, 0.8), sway=0.3)
            t0 = tl.t
            tl.move(rng.uniform(0, 1.5), rng.uniform(0.15, 0.35))
            tl.move(g["hooks"] - tl.h, rng.uniform(0.3, 0.7))
            tl.bumps(0.4, 1, 0.8)
            tl.mark("rerack", t0)
            if k < len(plan) - 1:
                S.rest(tl, rng.uniform(20, 90))
        # teardown
        tl.hold(rng.uniform(2, 6))
        if loads[-1] > 20 and rng.random() < 0.7:
            S.plate_loading(tl, rng.uniform(6, 18), rng.random() < 0.5)
        if rng.random() < 0.35:
            # bar taken off the rack and put on the floor
            t0 = tl.t
            tl.move(rng.uniform(2, 5), rng.uniform(0.4, 0.8))
            tl.mark("pick_up", t0)
            t1 = tl.t
            tl.walk(rng.uniform(1.5, 3.5), int(rng.integers(2, 5)), rng.uniform(0.8, 2.5))
            tl.mark("carry", t1)
            t2 = tl.t
            tl.move(rng.uniform(3.5, 6.0) - tl.h, rng.uniform(1.0, 1.8), wob=1.0)
            tl.mark("put_down", t2)
            tl.hold(rng.uniform(1, 3), flag=Timeline.F_NEARFLOOR)
        else:
            tl.hold(rng.uniform(1, 3))
        S.clip_off(tl)
    elif ex == "deadlift":
        tl = Timeline(rng, g["floor"], 0.0, roll0)
        tl.roll_base = roll0
        if rng.random() < 0.3:
            # bar brought to the platform first: pick up, carry, put down
            tl = Timeline(rng, g["floor"], 0.0, roll0)
            tl.roll_base = roll0
            S.clip_first(tl)
            t0 = tl.t
            tl.move(rng.uniform(70, 85) - tl.h, rng.uniform(0.9, 1.5), wob=1.0)
            tl.mark("pick_up", t0)
            t1 = tl.t
            tl.walk(rng.uniform(2, 6), int(rng.integers(3, 8)), rng.uniform(1.0, 3.0))
            tl.mark("carry", t1)
            t2 = tl.t
            tl.move(g["floor"] - tl.h, rng.uniform(0.8, 1.5), wob=1.0)
            tl.bumps(0.4, 1, 0.6)
            tl.mark("put_down", t2)
        else:
            S.clip_first(tl)
        tl.hold(rng.uniform(1, 4))
        if rng.random() < 0.45:
            S.roll_on_floor(tl)
        if loads[0] > 20:
            S.plate_loading(tl, rng.uniform(8, 25), True, on_floor=True)
            if rng.random() < 0.35:
                t0 = tl.t
                tl.handling(rng.uniform(1.5, 4), g["floor"], amp=6)
                tl.mark("clip_handling", t0)
        if rng.random() < 0.25:
            S.roll_on_floor(tl)
        tl.hold(rng.uniform(2, 6))
        for k, (p, planned, nm) in enumerate(plan):
            if k > 0 and loads[k] != loads[k - 1]:
                S.plate_loading(tl, rng.uniform(6, 18), True, on_floor=True)
                tl.hold(rng.uniform(2, 5))
            t0 = tl.t
            tl.bumps(rng.uniform(0.8, 2.5), int(rng.integers(1, 3)), 0.3)   # grip, wedge
            tl.hold(rng.uniform(0.3, 1.5))
            tl.mark("settle", t0)
            res = S.run_set(tl, ex, g, loads[k], p, planned, nm, opts, k, obst_fn)
            sd, fail = res
            if sd:
                sets_out.append(sd)
            tl.hold(rng.uniform(0.5, 1.5))
            if k < len(plan) - 1:
                S.rest(tl, rng.uniform(20, 90))
        tl.hold(rng.uniform(2, 5))
        if loads[-1] > 20 and rng.random() < 0.7:
            S.plate_loading(tl, rng.uniform(6, 18), True, on_floor=True)
        if rng.random() < 0.3:
            S.roll_on_floor(tl)
        S.clip_off(tl)
    else:
        # overhead press from the floor or from blocks, clean to the shoulders
        base = g.get("blocks") or (rng.uniform(42, 60) if rng.random() < 0.5 else rng.uniform(21.5, 23.5))
        g["base"] = base
        tl = Timeline(rng, base, 0.0, roll0)
        tl.roll_base = roll0
        S.clip_first(tl)
        tl.hold(rng.uniform(1, 4))
        if loads[0] > 20:
            S.plate_loading(tl, rng.uniform(6, 18), True, on_floor=base < 30)
        tl.hold(rng.uniform(1, 5))
        for k, (p, planned, nm) in enumerate(plan):
            if k > 0 and loads[k] != loads[k - 1]:
                S.plate_loading(tl, rng.uniform(6, 18), True, on_floor=base < 30)
                tl.hold(rng.uniform(2, 5))
            t0 = tl.t
            tl.bumps(rng.uniform(0.5, 1.5), 1, 0.3)
            # the clean: one quick pull, catch slightly above and sink to the shoulders
            over = rng.uniform(1, 7)
            tl.move(g["shoulder"] + over - tl.h, rng.uniform(0.45, 0.8), dp=rng.normal(0, 3), dr=rng.normal(0, 2))
            tl.move(-over - rng.uniform(1, 4), rng.uniform(0.15, 0.3))
            tl.move(g["shoulder"] - tl.h, rng.uniform(0.3, 0.6))
            tl.mark("clean", t0)
            t1 = tl.t
            tl.hold(rng.uniform(0.5, 2.0), sway=0.5, att=0.5)
            if rng.random() < 0.75:
                # re-grip: a short dip and drive
                d = rng.uniform(2, 6)
                tl.move(-d, rng.uniform(0.2, 0.4))
                tl.move(d + rng.uniform(2, 7), rng.uniform(0.25, 0.45))
                tl.move(g["shoulder"] - tl.h, rng.uniform(0.3, 0.6))
                tl.hold(rng.uniform(0.4, 2.0), sway=0.5, att=0.5)
                tl.mark("adjustment", t1)
            else:
                tl.mark("settle", t1)
            res = S.run_set(tl, ex, g, loads[k], p, planned, nm, opts, k, obst_fn)
            sd, fail = res
            if sd:
                sets_out.append(sd)
            tl.hold(rng.uniform(0.3, 1.2), sway=0.4, att=0.4)
            t0 = tl.t
            hip = rng.uniform(0.40, 0.48) * L.H * 100
            tl.move(hip - tl.h, rng.uniform(0.5, 1.0))
            tl.hold(rng.uniform(0.1, 0.6), sway=0.5)
            tl.move(base - tl.h, rng.uniform(0.6, 1.2))
            tl.bumps(0.4, 1, 0.6)
            tl.mark("put_down", t0)
            if k < len(plan) - 1:
                S.rest(tl, rng.uniform(20, 90))
        tl.hold(rng.uniform(2, 5))
        if loads[-1] > 20 and rng.random() < 0.6:
            S.plate_loading(tl, rng.uniform(6, 15), True, on_floor=base < 30)
        S.clip_off(tl)
    return tl, sets_out, ex, opts


def _clip_first(self, tl):
    """Recording starts with the clip being clipped on (or adjusted)."""
    rng = self.rng
    if rng.random() < 0.8:
        # clip in hand, then on the bar
        rest = tl.h
        tl.h = rest + rng.uniform(10, 60)
        tl.h_chunks[0][0] = tl.h
        tl.f_chunks[0][0] = Timeline.F_HANDLING
        t0 = tl.t
        tl.handling(rng.uniform(2.0, 8.0), rest)
        tl.hold(rng.uniform(0.3, 1.5))
        tl.mark("clip_handling", t0)
    else:
        tl.hold(rng.uniform(0.5, 3))
        t0 = tl.t
        tl.handling(rng.uniform(1.0, 3.0), tl.h, amp=5)
        tl.mark("clip_handling", t0)


def _clip_off(self, tl):
    rng = self.rng
    if rng.random() < 0.7:
        t0 = tl.t
        tl.handling(rng.uniform(2.0, 6.0), tl.h + rng.uniform(10, 50))
        tl.mark("clip_handling", t0)
    else:
        tl.hold(rng.uniform(1, 4))


Session.clip_first = _clip_first
Session.clip_off = _clip_off


# ----------------------------------------------------------- truth
def finish_truth(tl, sets_out, ex):
    h, p, r, f, o = tl.arrays()
    v = np.diff(h) / DT / 100.0  # m/s at midpoints
    out_sets = []
    for sd in sets_out:
        reps = []
        for rec in sd["reps"]:
            i0, i1 = rec["i0"], rec["i1"]
            rom = h[i1] - h[i0]
            dur = (i1 - i0) * DT
            vv = v[i0:i1]
            peak = float(vv.max())
            stick = None
            # local maxima/minima of the (noise-free) concentric velocity
            dv = np.diff(vv)
            s = np.sign(dv)
            for k in range(1, len(s)):
                if s[k] == 0:
                    s[k] = s[k - 1]
            maxima = [k for k in range(1, len(s)) if s[k - 1] > 0 and s[k] < 0]
            minima = [k for k in range(1, len(s)) if s[k - 1] < 0 and s[k] > 0]
            if maxima:
                first_pk = maxima[0]
                for mn in minima:
                    if mn > first_pk:
                        later = [m for m in maxima if m > mn]
                        if later:
                            depth = min(vv[first_pk], max(vv[m] for m in later)) - vv[mn]
                            if depth >= max(0.01, 0.03 * vv[first_pk]):
                                stick = h[i0 + mn] - h[i0]
                        break
            reps.append({
                "index": rec["index"],
                "concentric_start_s": i0 * DT,
                "concentric_end_s": i1 * DT,
                "rom_cm": float(rom),
                "mean_velocity_mps": float(rom / 100.0 / dur),
                "peak_velocity_mps": peak,
                "eccentric_start_s": rec["ecc"],
                "sticking_point_cm": None if stick is None else float(stick),
                "max_abs_pitch_deg": float(np.abs(p[i0:i1 + 1]).max()),
                "max_abs_roll_deg": float(np.abs(r[i0:i1 + 1]).max()),
            })
        out_sets.append({"exercise": sd["exercise"], "load_kg": sd["load_kg"],
                         "start_s": sd["start_s"], "end_s": sd["end_s"], "reps": reps})
    return out_sets


# ----------------------------------------------------------- sensor
class SensorCfg:
    def __init__(self, rng, scenario):
        self.transport = rng.choice(["serial", "ble", "raw"], p=[0.4, 0.4, 0.2])
        nz = ["clean", "typical", "dirty"]
        pn = [0.3, 0.45, 0.25] if scenario != "squat_heavy_spotted" else [0.15, 0.45, 0.4]
        self.noise = nz[rng.choice(3, p=pn)]
        self.classic = rng.random() < 0.55
        self.rate = float(rng.choice([15, 16, 20, 20, 20, 25, 25, 30, 33, 40, 40]) if rng.random() < 0.8
                          else rng.uniform(15, 40))
        if self.classic:
            self.rate = float(round(self.rate))
        self.imu_mult = int(rng.choice([1, 1, 2, 2, 3])) if self.rate <= 30 else int(rng.choice([1, 1, 2]))
        # firmware loop: fixed-rate timer or delay() after each ping
        self.delay_loop = self.classic and self.transport != "raw" and rng.random() < 0.35
        if self.delay_loop:
            self.rate = float(np.clip(self.rate, 18, 33))
        self.clock_err = rng.normal(0, 0.002)
        if self.transport == "raw":
            self.clock_err = rng.uniform(-0.03, 0.03) if rng.random() < 0.7 else rng.normal(0, 0.003)
        self.no_echo = float(rng.choice([0, 0, 400, 400, 655, 500, 450]))
        self.floor_trunc = self.classic and rng.random() < 0.6
        self.extra_field = (not self.classic) and rng.random() < 0.1
        self.a_int = self.classic and rng.random() < 0.4
        self.sos_scale = (331.3 + 0.606 * rng.uniform(14, 30)) / rng.choice([340.0, 343.0, 344.8])
        self.offset = rng.uniform(-1.5, 2.5)
        self.tilt = rng.uniform(3, 12) if rng.random() < 0.3 else rng.uniform(0, 1.5)
        self.imu_sigma = rng.uniform(0.2, 1.0)
        self.imu_bias = (rng.normal(0, 0.6), rng.normal(0, 0.6))
        self.imu_lag = rng.uniform(0.0, 0.15)
        q = self.noise
        if q == "clean":
            self.sigma = rng.uniform(0.12, 0.3)
            self.tail_df = None
            self.p_drop = rng.uniform(0.0, 0.004)
            self.drop_stay = 0.2
            self.p_plate = 0.0
            self.p_stuck = 0.0
            self.p_garbage = 0.0
            self.p_double = 0.0
        elif q == "typical":
            self.sigma = rng.uniform(0.3, 0.8)
            self.tail_df = float(rng.uniform(3, 6))
            self.p_drop = rng.uniform(0.001, 0.012)
            self.drop_stay = rng.uniform(0.1, 0.4)
            self.p_plate = rng.uniform(0.0, 0.0012)
            self.p_stuck = rng.uniform(0.0, 0.003)
            self.p_garbage = rng.uniform(0, 0.0005)
            self.p_double = 0.0
        else:
            self.sigma = rng.uniform(0.7, 2.0)
            self.tail_df = float(rng.uniform(1.5, 3))
            self.p_drop = rng.uniform(0.005, 0.03)
            self.drop_stay = rng.uniform(0.25, 0.6)
            self.p_plate = rng.uniform(0.0005, 0.004)
            self.p_stuck = rng.uniform(0.001, 0.008)
            self.p_garbage = rng.uniform(0.0002, 0.002)
            self.p_double = rng.uniform(0.0, 0.004)
        self.mat = q == "dirty" and rng.random() < 0.6


def sample_times(rng, cfg, T_end, h_at):
    """Clip send times of the sonar samples (clip clock == true time)."""
    P = 1.0 / cfg.rate
    t0 = rng.uniform(0, P)
    if not cfg.delay_loop:
        n = int((T_end - t0) / (P * (1 + cfg.clock_err))) + 1
        t = t0 + np.arange(n) * P * (1 + cfg.clock_err)
        t = t + rng.normal(0, 0.0004, size=n)
        return np.sort(t[(t >= 0) & (t <= T_end)])
    # delay() after each ping: period = delay + echo time (+ print time)
    base = P - 2 * 80 / 34300.0 - 0.001
    ts = []
    t = t0
    while t < T_end:
        ts.append(t)
        d = h_at(t)
        echo = 2 * max(d, 2) / 34300.0
        t = t + base + echo + 0.001 + rng.uniform(0, 0.0008)
    return np.array(ts)


def sonar_readings(rng, cfg, ts, h_at, p_at, r_at, f_at, o_at, rest_roll, passers, plate_r):
    n = len(ts)
    h = h_at(ts)
    pit = p_at(ts)
    rol = r_at(ts)
    fl = f_at(ts)
    ob = o_at(ts)
    # angle of the sonar axis from vertical
    droll = (rol - rest_roll + 180) % 360 - 180
    ang = np.sqrt((cfg.tilt + droll) ** 2 + pit ** 2)
    cosang = np.cos(np.radians(np.minimum(ang, 89)))
    d = h / cosang
    sig = cfg.sigma * (1 + d / 250.0)
    if cfg.tail_df:
        e = rng.standard_t(cfg.tail_df, size=n) * sig * 0.8
        e = np.clip(e, -40, 40)
    else:
        e = rng.normal(0, 1, size=n) * sig
    read = (d + cfg.offset) * cfg.sos_scale + e
    valid = np.ones(n, dtype=bool)
    NO = cfg.no_echo

    # steep angles (bar rolled, clip held): floor lost or wild echoes
    wild = (ang > 25) | (fl == Timeline.F_HANDLING)
    u = rng.random(n)
    hand = wild & (fl == Timeline.F_HANDLING)
    sel = hand & (u < 0.3)
    read[sel] = rng.uniform(2, 30, size=sel.sum())          # hand / body in front
    sel = hand & (u >= 0.3) & (u < 0.5)
    read[sel] = rng.uniform(120, 420, size=sel.sum())        # wall, ceiling
    sel = hand & (u >= 0.5) & (u < 0.7)
    read[sel] = NO
    roll_w = wild & ~hand
    sel = roll_w & (ang > 60)
    read[sel] = np.where(rng.random(sel.sum()) < 0.5, NO, rng.uniform(150, 420, size=sel.sum()))
    sel = roll_w & (ang <= 60) & (rng.random(n) < (ang - 25) / 40)
    read[sel] = NO
    # near the floor: HC-SR04 is unreliable below ~3-4 cm
    near = d < 4.5
    nz = near & (rng.random(n) < 0.35)
    read[nz] = np.where(rng.random(nz.sum()) < 0.5, NO, rng.uniform(2, 10, size=nz.sum()))

    # obstacle: a side spotter's hands following the bar end
    has_ob = ~np.isnan(ob)
    if has_ob.any():
        k = 0
        while k < n:
            if has_ob[k] and rng.random() < 0.06:
                L = int(rng.integers(3, 40))
                seg = slice(k, min(n, k + L))
                m = has_ob[seg]
                idx = np.arange(seg.start, seg.stop)[m]
                read[idx] = ob[idx] + rng.normal(0, 1.0, size=len(idx))
                k += L
            else:
                k += 1
    # people walking past (legs) during rests
    for a, b, dist in passers:
        m = (ts >= a) & (ts <= b) & (rng.random(n) < 0.7)
        read[m] = dist + rng.normal(0, 3, size=m.sum())
    # plate rim inside the beam (heavy loads)
    if cfg.p_plate > 0:
        k = 0
        while k < n:
            if rng.random() < cfg.p_plate:
                L = int(rng.integers(2, 40))
                idx = np.arange(k, min(n, k + L))
                idx = idx[(h[idx] > plate_r + 10) & (fl[idx] == 0)]
                read[idx] = plate_r * rng.uniform(0.95, 1.1) + rng.normal(0, 0.6, size=len(idx))
                k += L
            else:
                k += 1
    # no-echo dropouts (Markov), more over a rubber mat and higher up
    p_in = cfg.p_drop * (1 + h / 200.0) * (1.5 if cfg.mat else 1.0)
    drop = np.zeros(n, dtype=bool)
    ur = rng.random(n)
    state = False
    for k in range(n):
        state = (ur[k] < cfg.drop_stay) if state else (ur[k] < p_in[k])
        drop[k] = state
    read[drop] = NO
    # double-bounce echoes
    if cfg.p_double > 0:
        m = rng.random(n) < cfg.p_double
        read[m] = 2 * read[m]
    # frozen readings: the last value repeated
    if cfg.p_stuck > 0:
        k = 1
        while k < n:
            if rng.random() < cfg.p_stuck:
                L = int(rng.integers(3, 50))
                zero_hang = rng.random() < 0.15
                read[k:k + L] = 0 if zero_hang else read[k - 1]
                k += L
            else:
                k += 1
    read = np.clip(read, 0, NO if NO >= 400 else 450)
    if cfg.classic:
        q = np.floor(read) if cfg.floor_trunc else np.round(read)
        q = q.astype(int)
    else:
        q = np.round(read, 1)
    return q


def imu_values(rng, cfg, ta, p_full, r_full):
    """Pitch/roll at times ta: true angle -> complementary-filter lag -> noise."""
    if cfg.imu_lag > 0.005:
        a = DT / (cfg.imu_lag + DT)
        from scipy.signal import lfilter
        pf = lfilter([a], [1, a - 1], p_full, zi=[p_full[0] * (1 - a)])[0]
        rf = lfilter([a], [1, a - 1], r_full, zi=[r_full[0] * (1 - a)])[0]
    else:
        pf, rf = p_full, r_full
    tg = np.arange(len(p_full)) * DT
    P = np.interp(ta, tg, pf) + cfg.imu_bias[0] + rng.normal(0, cfg.imu_sigma, size=len(ta))
    R = np.interp(ta, tg, rf) + cfg.imu_bias[1] + rng.normal(0, cfg.imu_sigma, size=len(ta))
    R = (R + 180) % 360 - 180
    P = np.clip(P, -90, 90)
    return P, R


def fmt_s(cfg, v, dev_ms):
    s = ("s:%d" % v) if cfg.classic else ("s:%.1f" % v)
    if cfg.extra_field:
        s += ":%d" % dev_ms
    return s


def fmt_a(cfg, p, r, dev_ms):
    if cfg.classic:
        s = ("a:%d:%d" % (int(round(p)), int(round(r)))) if cfg.a_int else ("a:%.1f:%.1f" % (p, r))
    else:
        s = "a:%.2f:%.2f" % (p, r)
    if cfg.extra_field:
        s += ":%d" % dev_ms
    return s


GARBAGE = ["s:12a:0.4:1.1", "s:", "a:1.5", "s:nan", "\ufffd\ufffd", "ovf", "a:2.1:x", "s:-", "??", "s:1e9"]


# ---------------------------------------------------------- transports
def serial_recv(rng, send, nbytes):
    kind = rng.choice(["cdc", "ftdi", "ch340"])
    n = len(send)
    if kind == "ftdi":
        # latency timer: data flushed every 16 ms (or when 62 bytes queued)
        lt = 0.016 if rng.random() < 0.7 else 0.001
        ph = rng.uniform(0, lt)
        rc = np.ceil((send - ph) / lt) * lt + ph + rng.uniform(0.0002, 0.002, size=n)
    elif kind == "ch340":
        rc = send + nbytes * 10 / 115200 + rng.uniform(0.001, 0.004, size=n)
    else:
        rc = send + rng.uniform(0.0005, 0.003, size=n)
    rc = rc + np.where(rng.random(n) < 0.003, rng.uniform(0.005, 0.06, size=n), 0)  # host hiccups
    return np.maximum.accumulate(rc), kind, np.ones(n, dtype=bool)


def ble_recv(rng, send):
    ci = float(rng.choice([0.0075, 0.015, 0.02, 0.03, 0.045, 0.05]))
    n = len(send)
    per_event = int(rng.integers(3, 9))        # notifications per connection event
    lines_per_notif = int(rng.integers(1, 4))
    cap = per_event * lines_per_notif
    p_drop = rng.uniform(0.0, 0.01) if rng.random() < 0.6 else 0.0
    t = send[0] + rng.uniform(0, ci)
    rc = np.empty(n)
    keep = np.ones(n, dtype=bool)
    i = 0
    stall_until = -1.0
    ci_act = ci * (1 + rng.normal(0, 0.0005))
    host_jit = rng.uniform(0.001, 0.015)
    p_stall = rng.uniform(0.002, 0.03) * ci / 0.03
    rate = n / max(send[-1] - send[0], 1e-3)
    cap = max(cap, int(math.ceil(rate * ci * 1.6)) + 1)
    while i < n:
        # lines ready at this event
        j = i
        while j < n and send[j] + 0.0015 <= t and j - i < cap:
            j += 1
        if j > i:
            host = t + rng.exponential(host_jit)
            if rng.random() < p_stall:
                stall_until = t + rng.uniform(0.04, 0.2)   # phone busy: a late burst
            host = max(host, stall_until)
            rc[i:j] = host + np.arange(j - i) * rng.uniform(0.00005, 0.0004)
            if rng.random() < p_drop:
                keep[i:j] = False
            i = j
        t += ci_act
    return np.maximum.accumulate(rc), ci, keep


# ----------------------------------------------------------- session io
def make_session(seed):
    S = Session(seed)
    rng = S.rng
    tl, sets_raw, ex, opts = build_session(S)
    h, p, r, f, o = tl.arrays()
    T_end = (len(h) - 1) * DT
    tg = np.arange(len(h)) * DT
    cfg = SensorCfg(rng, S.scenario)

    def h_at(t):
        return np.interp(t, tg, h)

    ts = sample_times(rng, cfg, T_end, h_at)
    idx = lambda t: np.clip(np.round(np.asarray(t) / DT).astype(int), 0, len(h) - 1)
    plate_r = 22.5 if ex != "overhead_press" or S.loads[0] > 40 else 20.0
    sonar = sonar_readings(rng, cfg, ts, h_at,
                           lambda t: np.interp(t, tg, p), lambda t: np.interp(t, tg, r),
                           lambda t: f[idx(t)], lambda t: o[idx(t)],
                           tl.roll_base, S.passers, plate_r)
    # IMU sample times: m per sonar period, the first right after the ping
    m = cfg.imu_mult
    P = np.diff(ts, append=ts[-1] + 1 / cfg.rate)
    ta = (ts[:, None] + 0.002 + P[:, None] * np.arange(m)[None, :] / m).ravel()
    ta = np.minimum(ta, T_end)
    Pv, Rv = imu_values(rng, cfg, ta, p, r)

    # assemble lines in send order
    lines, send, is_s = [], [], []
    dev0 = int(rng.integers(1000, 900000))
    for k in range(len(ts)):
        lines.append(fmt_s(cfg, sonar[k], dev0 + int(ts[k] * 1000)))
        send.append(ts[k] + 0.0005)
        is_s.append(True)
        for j in range(m):
            q = k * m + j
            lines.append(fmt_a(cfg, Pv[q], Rv[q], dev0 + int(ta[q] * 1000)))
            send.append(ta[q] + 0.0003)
            is_s.append(False)
    send = np.array(send)
    is_s = np.array(is_s)
    # garbage lines
    if cfg.p_garbage > 0:
        for k in np.nonzero(rng.random(len(lines)) < cfg.p_garbage)[0]:
            lines[k] = GARBAGE[int(rng.integers(len(GARBAGE)))]
            # The contract times a raw capture's rows by counting the rows
            # that start with "s:", valid or not: a garbled sonar line
            # still takes a slot on the index clock, any other does not.
            is_s[k] = lines[k].startswith("s:")

    header = ["# liftbuddy-stream 1"]
    omit_ex = S.scenario == "unlabeled_mixed" or rng.random() < 0.08
    if not omit_ex:
        header.append("# exercise: %s" % ex)
    same_load = len(set(S.loads)) == 1
    give_load = same_load and rng.random() < 0.55
    if give_load:
        L0 = S.loads[0]
        header.append("# load_kg: %s" % (("%d" % L0) if L0 == int(L0) else ("%.1f" % L0)))
    tr = cfg.transport
    prefix_lines = []
    if tr in ("serial", "raw") and rng.random() < 0.3:
        prefix_lines.append(rng.choice(["LiftBuddy clip fw 1.0", "MPU6050 ready", "hc-sr04 ok", "# clip boot"]))
    if tr in ("serial", "raw") and rng.random() < 0.3:
        prefix_lines.append(lines[0][int(rng.integers(1, max(2, len(lines[0])))):])
    rows = []
    extra = {}
    if tr == "serial":
        header.append("# source: serial:%s" % rng.choice(["/dev/ttyUSB0", "/dev/ttyACM0", "/dev/cu.usbserial-1420", "COM4"]))
        nbytes = np.array([len(x) + 1 for x in lines])
        rc, kind, keep = serial_recv(rng, send, nbytes)
        extra["usb"] = str(kind)
        lat = float(np.median(rc - send))
    elif tr == "ble":
        header.append("# source: ble:%s" % rng.choice(["LiftBuddy", "LiftBuddy-%04X" % int(rng.integers(65536)), "clip-ble"]))
        rc, ci, keep = ble_recv(rng, send)
        extra["ble_interval_ms"] = ci * 1000
        lat = float(np.median(rc - send))
    else:
        hdr_rate = cfg.rate
        header.append("# source: raw:%s" % rng.choice(["screen-log", "arduino-serial-monitor", "minicom"]))
        header.append("# rate_hz: %s" % (("%d" % hdr_rate) if hdr_rate == int(hdr_rate) else ("%.2f" % hdr_rate)))
        keep = np.ones(len(lines), dtype=bool)
    # recording start offset: first row at t=0 (mostly) or a bit later
    crlf = tr == "serial" and rng.random() < 0.08
    if tr in ("serial", "ble"):
        first = rc[keep][0]
        start_off = 0.0 if rng.random() < 0.75 else float(rng.uniform(0.1, 1.5))
        tfile = rc - first + start_off
        decimals = 3 if rng.random() < 0.8 else 6
        tf = "%." + str(decimals) + "f"
        out = []
        tp = (tfile[0] if len(tfile) else 0.0)
        for pl in prefix_lines:
            out.append((tf % tfile[keep][0]) + " " + pl)
        for k in range(len(lines)):
            if keep[k]:
                out.append((tf % tfile[k]) + " " + lines[k])
        rows = out
        to_file = lambda t: t + 0.0005 + lat - first + start_off
    else:
        rows = list(prefix_lines) + lines
        s_times = send[is_s & keep]
        s_idx_time = np.arange(len(s_times)) / cfg.rate

        def to_file(t):
            t = np.asarray(t, dtype=float)
            slope = (s_idx_time[-1] - s_idx_time[0]) / (s_times[-1] - s_times[0])
            inside = np.interp(t, s_times, s_idx_time)
            return np.where(t < s_times[0], (t - s_times[0]) * slope,
                            np.where(t > s_times[-1], s_idx_time[-1] + (t - s_times[-1]) * slope, inside))

    def T(x):
        return None if x is None else r2(float(to_file(x)), 3)

    sets = finish_truth(tl, sets_raw, ex)
    out_sets = []
    for sd in sets:
        reps = []
        for rp in sd["reps"]:
            reps.append({
                "index": rp["index"],
                "concentric_start_s": T(rp["concentric_start_s"]),
                "concentric_end_s": T(rp["concentric_end_s"]),
                "rom_cm": r2(rp["rom_cm"], 2),
                "mean_velocity_mps": r2(rp["mean_velocity_mps"], 4),
                "peak_velocity_mps": r2(rp["peak_velocity_mps"], 4),
                "eccentric_start_s": T(rp["eccentric_start_s"]),
                "sticking_point_cm": None if rp["sticking_point_cm"] is None else r2(rp["sticking_point_cm"], 2),
                "max_abs_pitch_deg": r2(rp["max_abs_pitch_deg"], 2),
                "max_abs_roll_deg": r2(rp["max_abs_roll_deg"], 2),
            })
        out_sets.append({
            "exercise": sd["exercise"],
            "load_kg": (float(sd["load_kg"]) if give_load else None),
            "start_s": T(sd["start_s"]),
            "end_s": T(sd["end_s"]),
            "reps": reps,
        })
    non_reps = [{"kind": nr["kind"], "start_s": max(0.0, T(nr["start_s"])), "end_s": T(nr["end_s"])}
                for nr in sorted(tl.non_reps, key=lambda x: x["start_s"])]
    non_reps = [nr for nr in non_reps if nr["end_s"] > nr["start_s"]]
    fw = ("classic: integer cm%s, %s loop" % (" (truncated)" if cfg.floor_trunc else " (rounded)",
                                              "delay()" if cfg.delay_loop else "timer")
          if cfg.classic else "new: 0.1 cm" + (", extra device-ms field" if cfg.extra_field else ""))
    fw += "; no-echo=%g" % cfg.no_echo
    name = "%s-%d" % (S.scenario, seed)
    truth = {
        "format": "liftbuddy-truth 1",
        "stream": name + ".lbs",
        "seed": seed,
        "transport": str(tr),
        "noise": cfg.noise,
        "firmware": fw,
        "scenario": S.scenario,
        "sets": out_sets,
        "non_reps": non_reps,
        "sim": {
            "generator": "blind-sim 1",
            "exercise_header": not omit_ex,
            "sonar_rate_hz": r2(cfg.rate, 3),
            "imu_per_sonar": m,
            "clock_scale": r2((1 + cfg.clock_err) if tr == "raw" else 1.0, 5),
            "sonar_tilt_deg": r2(cfg.tilt, 2),
            "sonar_scale": r2(cfg.sos_scale / math.cos(math.radians(cfg.tilt)), 5),
            "lifter_height_m": r2(S.lifter.H, 3),
            "one_rm_kg": r2(S.lifter.one_rm[ex], 1),
            "loads_kg": [float(x) for x in S.loads],
            "options": {k: bool(v) for k, v in opts.items() if isinstance(v, bool)},
            **{k: (r2(v, 2) if isinstance(v, float) else v) for k, v in extra.items()},
        },
    }
    eol = "\r\n" if crlf else "\n"
    text = eol.join(header) + eol + eol.join(rows) + eol
    return name, text, truth


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--out", default=".")
    ap.add_argument("--list-scenarios", action="store_true")
    a = ap.parse_args(argv)
    if a.list_scenarios:
        for i, s in enumerate(SCENARIOS):
            print("%2d %s" % (i, s))
        return 0
    os.makedirs(a.out, exist_ok=True)
    for seed in range(a.seed, a.seed + a.count):
        name, text, truth = make_session(seed)
        with open(os.path.join(a.out, name + ".lbs"), "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        with open(os.path.join(a.out, name + ".truth.json"), "w", encoding="utf-8") as fh:
            json.dump(truth, fh, indent=1)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
