#!/usr/bin/env python3
"""Independent simulator of a smart barbell clip (HC-SR04 sonar + MPU6050).

Writes recorded streams (.lbs, per docs/contract/stream-format.md) and a truth
file for each session. Written from physics and gym practice only; see README.md
in this folder for the model, its assumptions and sources.

    python3 scripts/independent-sim/simulate.py --seed N --count K --out DIR
"""

import argparse
import json
import math
import os

import numpy as np
from scipy.signal import lfilter

DT = 0.002            # s, time step of the noiseless trajectory
CLIP_ARM_CM = 105.0   # distance from the bar's centre to the clip on the sleeve end
PLATE_R_CM = 22.5     # bar height on the floor with 450 mm plates

# ----------------------------------------------------------------------------
# Biomechanics tables
# ----------------------------------------------------------------------------
# Mean concentric velocity (m/s) at 30 % and at 100 % of 1RM (the latter is the
# "minimal velocity threshold").  Linear in between (load-velocity relations are
# close to linear, R^2 > 0.9 in the literature; see README).
LV = {
    'squat': (1.40, 0.30),
    'bench_press': (1.35, 0.17),
    'deadlift': (1.25, 0.17),
    'overhead_press': (1.30, 0.19),
}
# Repetitions to failure relative to Epley's 30*(1/p-1)+1 (more in the squat)
REPS_FACTOR = {'squat': 1.15, 'bench_press': 1.0, 'deadlift': 0.9, 'overhead_press': 0.95}
# Curvature of velocity loss across a set (bench loses velocity earlier)
LOSS_GAMMA = {'squat': (1.3, 1.8), 'bench_press': (1.0, 1.35),
              'deadlift': (1.1, 1.5), 'overhead_press': (1.0, 1.4)}


def lv_mv(ex, p):
    v30, v100 = LV[ex]
    return v100 + (v30 - v100) * (1.0 - p) / 0.7


def lv_p(ex, mv):
    v30, v100 = LV[ex]
    return 1.0 - (mv - v100) * 0.7 / (v30 - v100)


# ----------------------------------------------------------------------------
# Shapes
# ----------------------------------------------------------------------------
def ramp(x, kind):
    x = np.clip(x, 0.0, 1.0)
    if kind == 'tng':      # velocity leaves zero with finite acceleration (rebound)
        return np.sin(0.5 * np.pi * x)
    return 0.5 - 0.5 * np.cos(np.pi * x)   # 'soft': force builds up from rest


def profile(n, r1, r2, start='soft', end='soft', dips=()):
    """Normalised velocity profile over n samples (sums to 1)."""
    tau = (np.arange(n) + 0.5) / n
    v = ramp(tau / r1, start) * ramp((1.0 - tau) / r2, end)
    for c, w, d in dips:
        v = v * (1.0 - d * np.exp(-0.5 * ((tau - c) / w) ** 2))
    v = np.maximum(v, 1e-12)
    return v / v.sum()


def smooth_noise(rng, n, f_lo, f_hi, k=3):
    t = np.arange(1, n + 1) * DT
    s = np.zeros(n)
    for _ in range(k):
        f = rng.uniform(f_lo, f_hi)
        s += rng.uniform(0.5, 1.0) * np.sin(2 * np.pi * f * t + rng.uniform(0, 2 * np.pi))
    m = np.max(np.abs(s)) if n else 0.0
    return s / m if m > 0 else s


def taper(n):
    x = np.arange(1, n + 1) / n
    return np.sin(np.pi * x) ** 2


def blend(n):
    x = np.arange(1, n + 1) / n
    return 0.5 - 0.5 * np.cos(np.pi * x)


# ----------------------------------------------------------------------------
# Noiseless trajectory
# ----------------------------------------------------------------------------
class Timeline:
    """Bar (clip) height, tilt and sensor state on a DT grid.

    h    height of the bar axis under the clip, cm (the clip's own height when
         the clip is off the bar: modes 1 and 3)
    pb   pitch of the bar (tilt along its length), deg, outside rep tilt
    rt   extra pitch that depends on the rep's progress, deg
    rl   roll (rotation of the clip about the bar axis), deg
    md   0 clip on the bar, 1 clip in a hand, 3 clip lying off the bar
    wall distance the sonar sees when it is not aimed at the floor, cm
    """

    def __init__(self, rng, h0, pitch0=0.0, roll0=0.0, mode0=0):
        self.rng = rng
        self.ch, self.cp, self.cr, self.cm, self.cw = h0, pitch0, roll0, mode0, 250.0
        self.h = [np.array([h0])]
        self.pb = [np.array([pitch0])]
        self.rt = [np.zeros(1)]
        self.rl = [np.array([roll0])]
        self.md = [np.array([mode0], np.int8)]
        self.wall = [np.array([250.0])]
        self.N = 1
        self.nonreps = []
        self.zones = []      # (t0, t1, prob, lo_frac, hi_frac)
        self.impacts = []    # (t, amplitude deg)

    @property
    def t(self):
        return (self.N - 1) * DT

    def _push(self, h, pb, rt, rl, md, wall):
        self.h.append(h); self.pb.append(pb); self.rt.append(rt)
        self.rl.append(rl); self.md.append(md); self.wall.append(wall)
        self.N += len(h)
        self.ch, self.cp, self.cr = float(h[-1]), float(pb[-1]), float(rl[-1])
        self.cm, self.cw = int(md[-1]), float(wall[-1])

    def _angles(self, n, p_to, r_to, p_wob, r_wob):
        rng = self.rng
        pb = self.cp + ((p_to - self.cp) * blend(n) if p_to is not None else 0.0)
        rl = self.cr + ((r_to - self.cr) * blend(n) if r_to is not None else 0.0)
        pb = np.asarray(pb, float) * np.ones(n)
        rl = np.asarray(rl, float) * np.ones(n)
        if p_wob:
            pb = pb + p_wob * smooth_noise(rng, n, 0.3, 1.5) * taper(n)
        if r_wob:
            rl = rl + r_wob * smooth_noise(rng, n, 0.2, 1.2) * taper(n)
        return pb, rl

    def hold(self, dur, sway=0.0, f=(0.15, 0.5), p_to=None, r_to=None, p_wob=0.0,
             r_wob=0.0, mode=None, wall=None):
        n = max(1, int(round(dur / DT)))
        h = np.full(n, self.ch)
        if sway:
            h = h + sway * smooth_noise(self.rng, n, f[0], f[1]) * taper(n)
        pb, rl = self._angles(n, p_to, r_to, p_wob, r_wob)
        md = np.full(n, self.cm if mode is None else mode, np.int8)
        w = np.full(n, self.cw if wall is None else wall)
        self._push(h, pb, np.zeros(n), rl, md, w)

    def move(self, to, dur, shape=(0.5, 0.5, 'soft', 'soft', ()), p_to=None, r_to=None,
             p_wob=0.0, r_wob=0.0, tilt=0.0, sway=0.0, sway_f=(1.2, 2.0), mode=None, wall=None):
        n = max(2, int(round(dur / DT)))
        r1, r2, st, en, dips = shape
        frac = np.cumsum(profile(n, r1, r2, st, en, dips))
        frac[-1] = 1.0
        h0 = self.ch
        h = h0 + (to - h0) * frac
        if sway:
            h = h + sway * smooth_noise(self.rng, n, sway_f[0], sway_f[1]) * taper(n)
        pb, rl = self._angles(n, p_to, r_to, p_wob, r_wob)
        rt = tilt * 4.0 * frac * (1.0 - frac)
        md = np.full(n, self.cm if mode is None else mode, np.int8)
        w = np.full(n, self.cw if wall is None else wall)
        self._push(h, pb, rt, rl, md, w)

    def label(self, kind, t0, t1=None):
        t1 = self.t if t1 is None else t1
        if t1 > t0 + 1e-9:
            if self.nonreps and self.nonreps[-1][0] == kind and abs(self.nonreps[-1][2] - t0) < 1e-9:
                self.nonreps[-1] = (kind, self.nonreps[-1][1], t1)
            else:
                self.nonreps.append((kind, t0, t1))

    def zone(self, t0, t1, prob, lo=0.25, hi=0.75):
        if prob > 0 and t1 > t0:
            self.zones.append((t0, t1, prob, lo, hi))

    def arrays(self):
        h = np.concatenate(self.h)
        pb = np.concatenate(self.pb)
        rt = np.concatenate(self.rt)
        rl = np.concatenate(self.rl)
        md = np.concatenate(self.md)
        wall = np.concatenate(self.wall)
        pitch = pb + rt
        on = (md == 0)
        H = h + on * CLIP_ARM_CM * np.sin(np.radians(pitch))
        return H, pitch, rl, md, wall


# ----------------------------------------------------------------------------
# The lifter and the gym
# ----------------------------------------------------------------------------
class Ctx:
    def __init__(self, rng, noise):
        self.rng = rng
        self.noise = noise
        u = rng.uniform
        self.stature = u(160, 195)
        s = u(0.75, 1.45)
        self.orm = {'squat': 140 * s * u(0.9, 1.1), 'bench_press': 100 * s * u(0.9, 1.1),
                    'deadlift': 175 * s * u(0.9, 1.1), 'overhead_press': 62 * s * u(0.9, 1.1)}
        self.vf = {ex: u(0.93, 1.07) for ex in LV}
        self.mvt = {ex: LV[ex][1] * u(0.88, 1.12) for ex in LV}
        self.gamma = {ex: u(*LOSS_GAMMA[ex]) for ex in LV}
        self.tempo = u(0.85, 1.2)
        H = self.stature
        self.geo = {
            'squat': dict(top=0.81 * H + u(-3, 3), rom=H * u(0.30, 0.37)),
            'bench_press': dict(bottom=u(62, 72), rom=H * u(0.19, 0.245)),
            'deadlift': dict(bottom=PLATE_R_CM, top=H * u(0.44, 0.49)),
            'overhead_press': dict(bottom=H * u(0.79, 0.83), rom=H * u(0.27, 0.33)),
        }
        self.tilt_set = 0.0
        self.sets = []
        self.tl = None
        # side spotter / leg / plate echo propensity
        self.echo = {'clean': 0.0, 'typical': 0.06, 'dirty': 0.18}[noise]

    def load_for(self, ex, p_lo, p_hi, nreps=None):
        """A load in the range that leaves 0-3 reps in reserve for nreps."""
        if nreps is not None:
            heavy = p_lo >= 0.8
            rir = int(self.rng.choice([0, 0, 1] if heavy else [0, 1, 1, 2, 2, 3, 3]))
            # invert n_max = 1 + 30*(1/p - 1)*factor
            cap = 1.0 / (1.0 + (nreps + rir - 1.0) / (30.0 * REPS_FACTOR[ex]))
            p_hi = min(p_hi, cap)
            p_lo = min(p_lo, p_hi - 0.04)
        p = self.rng.uniform(p_lo, p_hi)
        load = max(20.0, round(p * self.orm[ex] / 2.5) * 2.5)
        return load, min(1.0, load / self.orm[ex])

    def n_max(self, ex, p):
        return 1.0 + 30.0 * (1.0 / p - 1.0) * REPS_FACTOR[ex] * self.rng.uniform(0.88, 1.12)


# ----------------------------------------------------------------------------
# Reps
# ----------------------------------------------------------------------------
def conc_shape(ctx, ex, mv, start):
    """Concentric velocity-profile parameters from the rep's velocity."""
    rng = ctx.rng
    e = float(np.clip((lv_p(ex, mv / ctx.vf[ex]) - 0.72) / 0.28, 0.0, 1.0))
    r1 = (0.30 - 0.10 * e) * rng.uniform(0.8, 1.2)
    r2 = (0.66 - 0.40 * e) * rng.uniform(0.85, 1.15)
    if ex == 'deadlift':
        r1 += rng.uniform(0.06, 0.14)          # slower break from the floor
    dips = []
    if e > 0.35 and rng.uniform() < 0.35 + 0.65 * e:
        depth = float(np.clip((0.12 + 0.5 * (e - 0.35) / 0.65) * rng.uniform(0.75, 1.25), 0.08, 0.68))
        c = {'bench_press': (0.28, 0.45), 'squat': (0.33, 0.5),
             'overhead_press': (0.28, 0.45), 'deadlift': (0.4, 0.58)}[ex]
        dips.append((rng.uniform(*c), rng.uniform(0.07, 0.12), depth))
        r1 = min(r1, 0.22)
        r2 = min(r2, 0.3)
    return (r1, r2, start, 'tng', tuple(dips))


def ecc_shape(rng, end):
    return (rng.uniform(0.25, 0.45), rng.uniform(0.3, 0.5), 'soft', end, ())


def plan_velocities(ctx, ex, p, nreps):
    rng = ctx.rng
    mv1 = max(lv_mv(ex, p) * ctx.vf[ex], ctx.mvt[ex] * 1.05)
    nm = max(ctx.n_max(ex, p), nreps + 0.01)
    g = ctx.gamma[ex]
    out = []
    for i in range(nreps):
        x = i / max(nm - 1.0, 1.0)
        mv = mv1 - (mv1 - ctx.mvt[ex]) * min(x, 1.0) ** g
        mv *= 1.0 + rng.normal(0, 0.025)
        out.append(max(mv, 0.8 * ctx.mvt[ex]))
    return out, nm


def do_set(ctx, ex, load, p, nreps, style, fail=None):
    """Append one set of reps, starting with the bar at the set's start position
    (top for squat/bench, bottom for deadlift/press).  Returns the set record."""
    tl, rng, g = ctx.tl, ctx.rng, ctx.geo[ex]
    mvs, nm = plan_velocities(ctx, ex, p, nreps)
    reps = []
    k_set = float(np.clip(rng.normal(0, 0.5), -1.2, 1.2))
    prev_lower = None
    down_first = ex in ('squat', 'bench_press')
    for i, mv in enumerate(mvs):
        e = float(np.clip((lv_p(ex, mv / ctx.vf[ex]) - 0.72) / 0.28, 0.0, 1.0))
        tilt = float(np.clip(k_set + rng.normal(0, 0.35), -1.5, 1.5))
        if ex == 'squat':
            top = g['top'] + rng.uniform(-0.5, 0.5)
            bottom = top - g['rom'] * rng.uniform(0.97, 1.03)
        elif ex == 'bench_press':
            bottom = g['bottom'] + rng.uniform(-0.7, 0.7)
            top = bottom + g['rom'] * rng.uniform(0.98, 1.02)
        elif ex == 'deadlift':
            bottom = g['bottom']
            top = g['top'] + rng.uniform(-1.0, 1.0)
        else:
            bottom = g['bottom'] + rng.uniform(-0.8, 0.8)
            top = bottom + g['rom'] * rng.uniform(0.97, 1.03)
        if down_first:
            ecc_t0 = tl.t
            paused = style == 'paused'
            dur = {'squat': 1.2, 'bench_press': 1.0}[ex] * (1 + 0.5 * e) * ctx.tempo * rng.uniform(0.85, 1.15)
            tl.move(bottom, dur, ecc_shape(rng, 'soft' if paused else 'tng'),
                    tilt=tilt * 0.6, r_wob=rng.uniform(0.2, 1.0))
            if paused:
                tl.hold(rng.uniform(0.5, 1.5) if ex == 'bench_press' else rng.uniform(1.0, 2.0))
            start = 'soft' if paused else 'tng'
        else:
            ecc_t0 = prev_lower
            if i == 0 or style in ('dead', 'reset', 'paused'):
                start = 'soft'
            else:
                start = 'tng'
        rom_planned = top - tl.ch
        c0 = tl.N - 1
        t_c0 = tl.t
        tl.move(top, rom_planned / 100.0 / mv, conc_shape(ctx, ex, mv, start),
                tilt=tilt, r_wob=rng.uniform(0.2, 1.0))
        c1 = tl.N - 1
        reps.append(dict(c0=c0, c1=c1, t0=t_c0, t1=tl.t, ecc=ecc_t0))
        last = (i == nreps - 1)
        if down_first:
            if not last:
                lock = {'squat': rng.uniform(0.6, 2.2), 'bench_press': rng.uniform(0.15, 1.0)}[ex]
                lock += 1.2 * e * rng.uniform(0.5, 1.0)
                tl.hold(lock, sway=rng.uniform(0.1, 0.5))
            reps[-1]['end'] = tl.t
        else:
            lock = rng.uniform(0.3, 1.2) + 0.8 * e * rng.uniform(0, 1)
            tl.hold(lock, sway=rng.uniform(0.05, 0.3))
            prev_lower = tl.t
            dur = {'deadlift': 0.9, 'overhead_press': 0.9}[ex] * (1 + 0.3 * e) * ctx.tempo * rng.uniform(0.8, 1.2)
            land = 'soft' if (ex == 'deadlift' and style != 'tng') or style == 'paused' else 'tng'
            tl.move(bottom if ex == 'deadlift' else bottom + rng.uniform(-0.5, 0.5), dur,
                    ecc_shape(rng, land), tilt=tilt * 0.5, r_wob=rng.uniform(0.2, 0.8))
            if ex == 'deadlift':
                tl.impacts.append((tl.t, rng.uniform(0.5, 2.0)))
            reps[-1]['end'] = tl.t
            if not last:
                if ex == 'deadlift':
                    pause = {'tng': rng.uniform(0.04, 0.15), 'dead': rng.uniform(0.4, 1.4),
                             'reset': rng.uniform(1.5, 4.0)}.get(style, rng.uniform(0.4, 1.4))
                else:
                    pause = {'tng': rng.uniform(0.02, 0.12)}.get(style, rng.uniform(0.15, 0.9))
                tl.hold(pause)
    rec = dict(exercise=ex, load=load, reps=reps, down_first=down_first)
    ctx.sets.append(rec)
    if fail:
        failed_attempt(ctx, ex, fail)
    return rec


def failed_attempt(ctx, ex, outcome):
    """A rep that does not lock out (after the set's last good rep)."""
    tl, rng, g = ctx.tl, ctx.rng, ctx.geo[ex]
    t0 = tl.t
    if ex in ('squat', 'bench_press'):
        tl.hold(rng.uniform(0.8, 2.5), sway=0.3)
        t0 = tl.t
        top = tl.ch
        rom = g['rom']
        bottom = top - rom
        tl.move(bottom, 1.4 * ctx.tempo * rng.uniform(0.9, 1.2), ecc_shape(rng, 'tng'))
        stall = bottom + rom * rng.uniform(0.15, 0.55)
        tl.move(stall, (stall - bottom) / 100 / rng.uniform(0.08, 0.16), (0.3, 0.8, 'tng', 'soft', ()))
        tl.hold(rng.uniform(0.5, 1.8), sway=rng.uniform(0.2, 0.8), f=(2, 5))
        if outcome == 'pins' and ex == 'squat':
            pins = bottom - rng.uniform(3, 9)
            tl.move(pins, rng.uniform(0.6, 1.0), (0.3, 0.3, 'soft', 'tng', ()))
            tl.impacts.append((tl.t, rng.uniform(3, 8)))
            tl.label('failed_rep', t0)
            return 'pins'
        if rng.uniform() < 0.4:
            tl.move(bottom + rng.uniform(0, 2), rng.uniform(0.5, 1.0), (0.3, 0.3, 'soft', 'soft', ()))
        tl.label('failed_rep', t0)
        t1 = tl.t
        rise = top - tl.ch
        v = rng.uniform(0.08, 0.2)
        tl.move(top, rise / 100 / v, (0.35, 0.35, 'soft', 'soft',
                                      ((rng.uniform(0.3, 0.6), 0.1, rng.uniform(0.2, 0.5)),)),
                r_wob=1.5, p_wob=0.0)
        tl.label('assisted_rise', t1)
        return 'assisted'
    if ex == 'deadlift':
        tl.hold(rng.uniform(2.0, 5.0))
        t0 = tl.t
        stall = g['bottom'] + rng.uniform(3, 30)
        tl.move(stall, (stall - g['bottom']) / 100 / rng.uniform(0.06, 0.15), (0.35, 0.7, 'soft', 'soft', ()))
        tl.hold(rng.uniform(0.3, 1.5), sway=0.3, f=(2, 5))
        tl.move(g['bottom'], rng.uniform(0.4, 1.0), (0.4, 0.3, 'soft', 'soft', ()))
        tl.impacts.append((tl.t, rng.uniform(1, 4)))
        tl.label('failed_rep', t0)
        return 'floor'
    # overhead press: stall near the forehead, back to the shoulders
    tl.hold(rng.uniform(0.3, 1.2))
    t0 = tl.t
    b = tl.ch
    stall = b + g['rom'] * rng.uniform(0.2, 0.5)
    tl.move(stall, (stall - b) / 100 / rng.uniform(0.08, 0.16), (0.3, 0.75, 'soft', 'soft', ()))
    tl.hold(rng.uniform(0.3, 1.2), sway=0.3, f=(2, 5))
    tl.move(b, rng.uniform(0.4, 0.9), (0.4, 0.3, 'soft', 'soft', ()))
    tl.label('failed_rep', t0)
    return 'shoulders'


# ----------------------------------------------------------------------------
# Handling around sets
# ----------------------------------------------------------------------------
def walk(ctx, kind, dur):
    tl, rng = ctx.tl, ctx.rng
    t0 = tl.t
    tl.move(tl.ch + rng.uniform(-1.0, 1.0), dur, (0.3, 0.3, 'soft', 'soft', ()),
            sway=rng.uniform(0.4, 1.2), sway_f=(1.4, 2.2), p_wob=rng.uniform(0.3, 1.0),
            r_wob=rng.uniform(0.5, 2.0))
    tl.label(kind, t0)
    tl.zone(t0, tl.t, ctx.echo * 2.0, 0.3, 0.8)


def settle(ctx, dur=None, p_to=None):
    tl, rng = ctx.tl, ctx.rng
    t0 = tl.t
    tl.hold(dur or rng.uniform(0.8, 3.0), sway=rng.uniform(0.3, 1.2), f=(0.2, 0.6),
            p_to=p_to, r_wob=rng.uniform(0.2, 1.0))
    tl.label('settle', t0)


def rest(ctx, dur):
    tl = ctx.tl
    t0 = tl.t
    tl.hold(dur)
    tl.label('rest', t0)
    if ctx.rest_obstacle:
        tl.zone(t0, tl.t, ctx.rest_obstacle[0], ctx.rest_obstacle[1], ctx.rest_obstacle[1] + 0.02)


def clip_off(ctx, lying_h, lying_pitch, wall):
    """The clip is taken off the bar (a hand moves it about), then lies somewhere."""
    tl, rng = ctx.tl, ctx.rng
    t0 = tl.t
    for _ in range(rng.integers(2, 4)):
        tl.move(tl.ch + rng.uniform(-25, 25), rng.uniform(0.4, 1.2), p_to=rng.uniform(-80, 80),
                r_to=rng.uniform(-150, 150), mode=1, wall=rng.uniform(60, 380))
    tl.move(lying_h, rng.uniform(0.5, 1.2), p_to=lying_pitch, r_to=rng.uniform(-20, 20), mode=1,
            wall=wall)
    tl.hold(0.05, mode=3)
    tl.label('clip_handling', t0)


def clip_on(ctx, bar_h, pitch, roll):
    tl, rng = ctx.tl, ctx.rng
    t0 = tl.t
    tl.move(bar_h + rng.uniform(5, 25), rng.uniform(0.5, 1.0), p_to=rng.uniform(-60, 60),
            r_to=rng.uniform(-120, 120), mode=1, wall=rng.uniform(60, 380))
    tl.move(bar_h, rng.uniform(0.8, 2.0), p_to=pitch, r_to=roll, mode=1, p_wob=10, r_wob=20)
    tl.hold(rng.uniform(0.3, 1.0), mode=0, sway=0.3, f=(3, 6))
    tl.impacts.append((tl.t, rng.uniform(2, 6)))
    tl.label('clip_handling', t0)


def bumps(ctx, n, amp=(0.2, 1.0)):
    tl, rng = ctx.tl, ctx.rng
    base_h, base_p = tl.ch, tl.cp
    for _ in range(n):
        tl.hold(rng.uniform(0.8, 3.0))
        d = rng.uniform(*amp) * rng.choice([-1, 1])
        tl.move(base_h + d, rng.uniform(0.08, 0.2), (0.5, 0.5, 'tng', 'tng', ()),
                p_to=base_p + rng.normal(0, 0.4))
        tl.move(base_h, rng.uniform(0.15, 0.35), (0.5, 0.5, 'tng', 'soft', ()), p_to=base_p)
        tl.impacts.append((tl.t, rng.uniform(1, 6)))


def plate_change(ctx, clip_side=None, seesaw_ok=True):
    """Plates loaded (or stripped) with the bar resting in a rack or on the floor."""
    tl, rng = ctx.tl, ctx.rng
    if clip_side is None:
        clip_side = rng.uniform() < 0.3
    bar_h, p0, r0 = tl.ch, tl.cp, tl.cr
    if clip_side:
        lying_h = rng.choice([0.0, rng.uniform(40, 48)])   # on the floor or on a bench
        wall = rng.uniform(90, 420)
        clip_off(ctx, lying_h, rng.choice([-1, 1]) * rng.uniform(70, 90), wall)
        t0 = tl.t
        tl.hold(rng.uniform(4, 12), mode=3)
        tl.label('plate_loading', t0)
        clip_on(ctx, bar_h, p0 + rng.normal(0, 0.3), r0 + rng.normal(0, 3))
        return
    t0 = tl.t
    bumps(ctx, int(rng.integers(2, 5)))
    if seesaw_ok and rng.uniform() < 0.12:
        # heavy plate on the far side first: the clip's end of the bar tips up
        rise = rng.uniform(3, 8)
        tl.move(bar_h + rise / 2, rng.uniform(0.3, 0.6), (0.3, 0.3, 'tng', 'tng', ()),
                p_to=math.degrees(math.asin(rise / 2 / CLIP_ARM_CM)))
        tl.hold(rng.uniform(0.5, 2.0), sway=0.3)
        tl.move(bar_h, rng.uniform(0.2, 0.5), (0.3, 0.3, 'soft', 'tng', ()), p_to=p0)
        tl.impacts.append((tl.t, rng.uniform(3, 8)))
    tl.hold(rng.uniform(0.5, 2.0))
    tl.label('plate_loading', t0)


def unrack_walkout(ctx, top, walkout=True):
    tl, rng = ctx.tl, ctx.rng
    t0 = tl.t
    tl.move(top + rng.uniform(-0.5, 1.0), rng.uniform(0.5, 1.1), (0.4, 0.4, 'soft', 'soft', ()),
            p_to=ctx.tilt_set + rng.normal(0, 0.5), r_to=tl.cr + rng.normal(0, 1.5))
    tl.hold(rng.uniform(0.3, 1.0), sway=0.3)
    tl.label('unrack', t0)
    if walkout:
        walk(ctx, 'walk_out', rng.uniform(1.8, 4.5))
    settle(ctx, p_to=ctx.tilt_set)


def walkin_rerack(ctx, hook, walkin=True):
    tl, rng = ctx.tl, ctx.rng
    if walkin:
        walk(ctx, 'walk_in', rng.uniform(1.5, 3.5))
    t0 = tl.t
    tl.move(tl.ch + rng.uniform(0, 2), rng.uniform(0.3, 0.6), (0.4, 0.4, 'soft', 'soft', ()))
    tl.move(hook, rng.uniform(0.4, 0.9), (0.35, 0.25, 'soft', 'tng', ()), p_to=rng.normal(0, 0.3))
    tl.impacts.append((tl.t, rng.uniform(2, 7)))
    tl.hold(rng.uniform(0.3, 1.0), sway=0.2, f=(3, 6))
    tl.label('rerack', t0)


# ----------------------------------------------------------------------------
# Scenarios
# ----------------------------------------------------------------------------
def session_start(ctx, h_rest, clip_prob=0.45):
    rng, tl = ctx.rng, ctx.tl
    if rng.uniform() < clip_prob:
        # recording starts with the clip in a hand, then it is put on the bar
        tl.md[0][0] = 1
        tl.move(h_rest + rng.uniform(-30, 40), rng.uniform(1.0, 3.0), mode=1, p_to=rng.uniform(-60, 60),
                r_to=rng.uniform(-90, 90), p_wob=15, r_wob=30, wall=rng.uniform(60, 380))
        clip_on(ctx, h_rest, rng.normal(0, 0.3), rng.normal(0, 3))
        k, a, b = tl.nonreps[-1]
        tl.nonreps[-1] = (k, 0.0, b)
        tl.hold(rng.uniform(1.0, 4.0))
    else:
        tl.hold(rng.uniform(2.0, 6.0))


def session_end(ctx):
    rng, tl = ctx.rng, ctx.tl
    tl.hold(rng.uniform(2.0, 8.0))
    if rng.uniform() < 0.3:
        clip_off(ctx, rng.choice([0.0, rng.uniform(40, 48)]), rng.choice([-1, 1]) * rng.uniform(70, 90),
                 rng.uniform(100, 420))
        tl.hold(rng.uniform(1.0, 3.0), mode=3)


def rack_session(ctx, ex, plan, style, fail_last=None, walkout=True):
    """Squat / bench / press from a rack.  plan = [(p_lo, p_hi, nreps)]"""
    rng = ctx.rng
    g = ctx.geo[ex]
    if ex == 'squat':
        top = g['top']; hook = top - rng.uniform(4, 9)
    elif ex == 'bench_press':
        top = g['bottom'] + g['rom']; hook = top - rng.uniform(3, 8)
    else:
        top = g['bottom']; hook = top - rng.uniform(3, 7)
    ctx.tl = tl = Timeline(rng, hook, rng.normal(0, 0.3), rng.normal(0, 3))
    session_start(ctx, hook)
    for si, (plo, phi, nreps) in enumerate(plan):
        if si == 0 or rng.uniform() < 0.8:
            plate_change(ctx)
            tl.hold(rng.uniform(3.0, 15.0))
        if ex == 'bench_press' and rng.uniform() < 0.5:
            t0 = tl.t
            tl.hold(rng.uniform(1.0, 3.0), sway=0.15, f=(2, 5))   # lifter sets up on the bench
            tl.label('adjustment', t0)
        load, p = ctx.load_for(ex, plo, phi, nreps)
        ctx.tilt_set = float(np.clip(rng.normal(0, 0.6), -1.5, 1.5))
        if ex == 'bench_press':
            # lift-off from the J-hooks, then the bar travels to over the shoulders
            t0 = tl.t
            tl.move(hook + rng.uniform(2, 5), rng.uniform(0.4, 0.8), (0.4, 0.4, 'soft', 'soft', ()))
            tl.move(top + rng.uniform(-1.0, 1.0), rng.uniform(0.5, 1.0), sway=0.3,
                    p_to=ctx.tilt_set)
            tl.label('unrack', t0)
            settle(ctx, rng.uniform(0.5, 2.0))
        else:
            unrack_walkout(ctx, top, walkout)
        t_set0 = tl.t
        fail = fail_last if si == len(plan) - 1 else None
        do_set(ctx, ex, load, p, nreps, style, fail=fail)
        if ex == 'bench_press':
            tl.zone(t_set0, tl.t, ctx.echo * 0.8, 0.2, 0.6)     # side spotter's hands
        outcome = None
        if fail:
            outcome = ctx.last_fail = fail
        if outcome == 'pins':
            rest(ctx, rng.uniform(5, 12))
            t0 = tl.t
            bumps(ctx, int(rng.integers(2, 4)))
            tl.label('plate_loading', t0)
            t0 = tl.t
            tl.move(hook + rng.uniform(1, 3), rng.uniform(0.6, 1.1), (0.4, 0.4, 'soft', 'soft', ()))
            tl.label('off_pins', t0)
            t0 = tl.t
            tl.move(hook, rng.uniform(0.3, 0.6), (0.4, 0.3, 'soft', 'tng', ()))
            tl.impacts.append((tl.t, 4))
            tl.label('rerack', t0)
        else:
            if ex == 'overhead_press' and fail is None:
                tl.hold(rng.uniform(0.3, 1.2))
            walkin_rerack(ctx, hook, walkout and ex != 'bench_press')
        if si < len(plan) - 1:
            rest(ctx, rng.uniform(35, 130))
    session_end(ctx)


def squat_rack_sets(ctx):
    rng = ctx.rng
    n = int(rng.integers(2, 5))
    reps = int(rng.integers(3, 9))
    base = rng.uniform(0.62, 0.78)
    plan = [(base + 0.03 * i, base + 0.03 * i + 0.04, reps) for i in range(n)]
    rack_session(ctx, 'squat', plan, 'tng')


def squat_speed(ctx):
    rng = ctx.rng
    n = int(rng.integers(3, 5))
    plan = [(0.32, 0.45, int(rng.integers(2, 4))) for _ in range(n)]
    rack_session(ctx, 'squat', plan, 'tng')


def squat_heavy(ctx):
    rng = ctx.rng
    n = int(rng.integers(2, 5))
    plan = []
    for i in range(n):
        p = 0.84 + 0.16 * (i + 1) / n
        plan.append((p - 0.04, min(p, 1.0), 2 if p < 0.9 and rng.uniform() < 0.5 else 1))
    fail = rng.choice(['pins', 'assisted']) if rng.uniform() < 0.55 else None
    rack_session(ctx, 'squat', plan, rng.choice(['tng', 'tng', 'paused']), fail_last=fail)


def squat_volume(ctx):
    rng = ctx.rng
    n = int(rng.integers(1, 4))
    plan = [(0.58, 0.68, int(rng.integers(8, 13))) for _ in range(n)]
    rack_session(ctx, 'squat', plan, 'tng')


def bench_tng(ctx):
    rng = ctx.rng
    n = int(rng.integers(2, 5))
    plan = [(0.6, 0.8, int(rng.integers(5, 11))) for _ in range(n)]
    rack_session(ctx, 'bench_press', plan, 'tng')


def bench_paused_heavy(ctx):
    rng = ctx.rng
    n = int(rng.integers(2, 5))
    plan = [(0.82, 0.95, int(rng.integers(1, 5))) for _ in range(n)]
    fail = 'assisted' if rng.uniform() < 0.45 else None
    rack_session(ctx, 'bench_press', plan, 'paused', fail_last=fail)


def ohp_rack(ctx):
    rng = ctx.rng
    n = int(rng.integers(2, 5))
    plan = [(0.65, 0.85, int(rng.integers(3, 9))) for _ in range(n)]
    fail = 'shoulders' if rng.uniform() < 0.3 else None
    rack_session(ctx, 'overhead_press', plan, rng.choice(['tng', 'paused']), fail_last=fail)


def floor_pick_up(ctx, hip, kind='pick_up'):
    tl, rng = ctx.tl, ctx.rng
    t0 = tl.t
    tl.hold(rng.uniform(0.5, 1.5), sway=0.1, f=(2, 4))
    tl.move(hip, rng.uniform(1.0, 1.8), (0.4, 0.45, 'soft', 'tng', ()), r_wob=3)
    tl.hold(rng.uniform(0.4, 1.5), sway=0.4)
    tl.label(kind, t0)


def bench_from_floor(ctx):
    """Bar picked up off the floor, carried to the bench and put in the J-hooks."""
    rng = ctx.rng
    ex = 'bench_press'
    g = ctx.geo[ex]
    top = g['bottom'] + g['rom']
    hook = top - rng.uniform(3, 8)
    hip = ctx.stature * rng.uniform(0.45, 0.5)
    ctx.tl = tl = Timeline(rng, PLATE_R_CM if rng.uniform() < 0.5 else 2.8, 0.0, rng.normal(0, 3))
    session_start(ctx, tl.ch, 0.3)
    floor_pick_up(ctx, hip)
    t0 = tl.t
    tl.hold(rng.uniform(3, 9), sway=rng.uniform(0.6, 1.5), f=(1.5, 2.1), p_wob=1.5, r_wob=4)
    tl.label('carry', t0)
    tl.zone(t0, tl.t, ctx.echo * 2, 0.3, 0.8)
    t0 = tl.t
    tl.move(hook + rng.uniform(2, 6), rng.uniform(0.6, 1.2), (0.4, 0.4, 'soft', 'soft', ()))
    tl.hold(rng.uniform(0.3, 1.0), sway=0.5)
    tl.move(hook, rng.uniform(0.3, 0.6), (0.4, 0.3, 'soft', 'tng', ()))
    tl.impacts.append((tl.t, 4))
    tl.label('floor_to_rack', t0)
    tl.hold(rng.uniform(2, 6))
    n = int(rng.integers(1, 4))
    for si in range(n):
        plate_change(ctx)
        tl.hold(rng.uniform(2, 10))
        nreps = int(rng.integers(4, 11))
        load, p = ctx.load_for(ex, 0.5, 0.75, nreps)
        ctx.tilt_set = float(np.clip(rng.normal(0, 0.6), -1.5, 1.5))
        t0 = tl.t
        tl.move(hook + rng.uniform(2, 5), rng.uniform(0.4, 0.8))
        tl.move(top + rng.uniform(-1, 1), rng.uniform(0.5, 1.0), p_to=ctx.tilt_set)
        tl.label('unrack', t0)
        settle(ctx, rng.uniform(0.5, 2.0))
        do_set(ctx, ex, load, p, nreps, rng.choice(['tng', 'paused']))
        walkin_rerack(ctx, hook, False)
        if si < n - 1:
            rest(ctx, rng.uniform(40, 120))
    session_end(ctx)


def deadlift_session(ctx, plan, style, fail_last=None):
    rng = ctx.rng
    ex = 'deadlift'
    floor = ctx.geo[ex]['bottom']
    ctx.tl = tl = Timeline(rng, floor, 0.0, rng.normal(0, 3))
    session_start(ctx, floor, 0.35)
    for si, (plo, phi, nreps) in enumerate(plan):
        if si == 0 or rng.uniform() < 0.75:
            # deadlift jack under the sleeve (clip side or far side), plates slid on
            clip_side = rng.uniform() < 0.55
            lift = rng.uniform(4, 8)
            t0 = tl.t
            if clip_side:
                tl.move(floor + lift / 2, rng.uniform(0.3, 0.7), (0.3, 0.3, 'soft', 'tng', ()),
                        p_to=math.degrees(math.asin(lift / 2 / CLIP_ARM_CM)))
            else:
                # far end lifted: the clip's end pivots on its plate, only the tilt changes
                tl.move(floor + lift / 2, rng.uniform(0.3, 0.7), (0.3, 0.3, 'soft', 'tng', ()),
                        p_to=-math.degrees(math.asin(lift / 2 / CLIP_ARM_CM)))
            tl.impacts.append((tl.t, 3))
            tl.label('jack', t0)
            tl.hold(rng.uniform(1, 3))
            plate_change(ctx, clip_side=clip_side and rng.uniform() < 0.5, seesaw_ok=False)
            t0 = tl.t
            tl.move(floor, rng.uniform(0.2, 0.5), (0.3, 0.3, 'soft', 'tng', ()), p_to=rng.normal(0, 0.2))
            tl.impacts.append((tl.t, 4))
            tl.label('jack', t0)
            tl.hold(rng.uniform(3, 15))
        load, p = ctx.load_for(ex, plo, phi, nreps)
        if rng.uniform() < 0.7:
            t0 = tl.t
            r0 = tl.cr
            sweep = rng.uniform(25, 70) * rng.choice([-1, 1])
            tl.move(floor, rng.uniform(0.5, 1.0), r_to=r0 + sweep, sway=0.2)
            tl.move(floor, rng.uniform(0.4, 0.9), r_to=float(np.clip(r0 + rng.normal(0, 4), -9, 9)), sway=0.2)
            tl.label('roll', t0)
        t0 = tl.t
        tl.hold(rng.uniform(1.5, 4.0), r_wob=rng.uniform(0.5, 2))   # lifter sets up, plates stay down
        tl.label('settle', t0)
        tl.zone(t0, tl.t, ctx.echo, 0.1, 0.5)
        t_s = tl.t
        do_set(ctx, ex, load, p, nreps, style, fail=fail_last if si == len(plan) - 1 else None)
        tl.zone(t_s, tl.t, ctx.echo * 0.5, 0.1, 0.5)    # plates / shoes near the floor
        if si < len(plan) - 1:
            rest(ctx, rng.uniform(45, 150))
    session_end(ctx)


def deadlift_dead_stop(ctx):
    rng = ctx.rng
    n = int(rng.integers(2, 5))
    plan = [(0.7, 0.88, int(rng.integers(1, 6))) for _ in range(n)]
    deadlift_session(ctx, plan, rng.choice(['dead', 'reset']))


def deadlift_tng(ctx):
    rng = ctx.rng
    n = int(rng.integers(2, 4))
    plan = [(0.5, 0.72, int(rng.integers(5, 11))) for _ in range(n)]
    deadlift_session(ctx, plan, 'tng')


def deadlift_heavy(ctx):
    rng = ctx.rng
    n = int(rng.integers(2, 4))
    plan = [(0.86 + 0.05 * i, min(1.0, 0.9 + 0.05 * i), int(rng.integers(1, 3))) for i in range(n)]
    deadlift_session(ctx, plan, 'dead', fail_last='floor' if rng.uniform() < 0.4 else None)


def ohp_clean_press(ctx):
    """As in the real Calibrex recording: the bar rests low, is pulled to the
    shoulders, re-gripped with a dip and drive, pressed, put back down."""
    rng = ctx.rng
    ex = 'overhead_press'
    g = ctx.geo[ex]
    sh = g['bottom']
    on_floor = rng.uniform() < 0.5
    rest_h = PLATE_R_CM if on_floor else rng.uniform(45, 60)
    hip = ctx.stature * rng.uniform(0.45, 0.5)
    ctx.tl = tl = Timeline(rng, rest_h, 0.0, rng.normal(0, 3))
    session_start(ctx, rest_h, 0.4)
    n = int(rng.integers(2, 4))
    for si in range(n):
        if si > 0 and rng.uniform() < 0.5:
            plate_change(ctx, seesaw_ok=False)
            tl.hold(rng.uniform(2, 8))
        nreps = int(rng.integers(4, 9))
        load, p = ctx.load_for(ex, 0.6, 0.82, nreps)
        if on_floor:
            floor_pick_up(ctx, hip)
        t0 = tl.t
        if on_floor:
            tl.move(tl.ch - rng.uniform(3, 6), rng.uniform(0.2, 0.35), (0.4, 0.4, 'soft', 'tng', ()))
        else:
            tl.hold(rng.uniform(0.5, 1.5))
        over = sh + rng.uniform(2, 8)
        tl.move(over, (over - tl.ch) / 100 / rng.uniform(0.9, 1.4), (0.45, 0.35, 'tng', 'tng', ()), r_wob=6)
        tl.move(sh - rng.uniform(5, 12), rng.uniform(0.25, 0.4), (0.4, 0.4, 'soft', 'soft', ()))
        tl.move(sh, rng.uniform(0.6, 1.0), (0.4, 0.4, 'soft', 'soft', ()))
        tl.impacts.append((tl.t - 1.0, 3))
        tl.label('clean', t0)
        tl.hold(rng.uniform(0.5, 2.0), sway=0.4)
        if rng.uniform() < 0.8:
            t0 = tl.t
            tl.move(sh - rng.uniform(2, 6), rng.uniform(0.25, 0.45), (0.4, 0.4, 'soft', 'soft', ()))
            tl.move(sh, rng.uniform(0.3, 0.6), (0.4, 0.4, 'soft', 'soft', ()))
            tl.hold(rng.uniform(0.2, 0.8), sway=0.2)
            tl.label('regrip', t0)
        ctx.tilt_set = float(np.clip(rng.normal(0, 0.6), -1.5, 1.5))
        settle(ctx, rng.uniform(0.5, 2.0), p_to=ctx.tilt_set)
        do_set(ctx, ex, load, p, nreps, rng.choice(['tng', 'paused']))
        tl.hold(rng.uniform(0.3, 1.5), sway=0.3)
        t0 = tl.t
        tl.move(hip, rng.uniform(0.6, 1.1), (0.3, 0.45, 'soft', 'soft', ()), p_to=0.0)
        tl.hold(rng.uniform(0.3, 1.2), sway=0.3)
        tl.move(rest_h, rng.uniform(0.8, 1.5), (0.35, 0.4, 'soft', 'soft', ()))
        tl.impacts.append((tl.t, 4))
        tl.label('put_down', t0)
        if si < n - 1:
            rest(ctx, rng.uniform(35, 100))
    session_end(ctx)


SCENARIOS = [
    ('squat-rack-sets', squat_rack_sets, 'squat',
     'Back squat from a rack, 2-4 sets x 3-8 touch-and-go reps at 62-85% 1RM; unrack, walk-out, settle, walk-in, rerack, plate loading (sometimes on the clip side: clip taken off), rests.'),
    ('squat-speed', squat_speed, 'squat',
     'Speed squats: 3-4 sets x 2-3 reps at 32-45% 1RM (mean velocity around 1.0-1.35 m/s), short rests.'),
    ('squat-heavy-singles', squat_heavy, 'squat',
     'Working up to 1-2 rep sets at 84-100% 1RM, grinders with a sticking region; the last attempt may fail: bar dumped on the safety pins (failed_rep, plate stripping, off_pins) or a spotter assisted rise.'),
    ('squat-volume', squat_volume, 'squat',
     '1-3 sets x 8-12 reps at 58-68% 1RM: long sets with marked velocity loss.'),
    ('bench-touch-and-go', bench_tng, 'bench_press',
     'Bench press, 2-4 sets x 5-10 touch-and-go reps at 60-80% 1RM; lift-off, settle, rerack, side spotter echoes.'),
    ('bench-paused-heavy', bench_paused_heavy, 'bench_press',
     'Paused bench (0.5-1.5 s on the chest), 1-4 reps at 82-95% 1RM, sticking region; may end in a failed rep and a spotter-assisted rise.'),
    ('bench-setup-from-floor', bench_from_floor, 'bench_press',
     'Bar picked up off the floor, carried and placed in the J-hooks (pick_up, carry, floor_to_rack), then 1-3 bench sets at 50-75%.'),
    ('deadlift-dead-stop', deadlift_dead_stop, 'deadlift',
     'Conventional deadlift, 2-4 sets x 1-5 reps at 70-88%, bar settled on the floor between reps (dead stop or full reset); jack + plate loading, bar rolled to the shins.'),
    ('deadlift-touch-and-go', deadlift_tng, 'deadlift',
     'Touch-and-go deadlifts, 2-3 sets x 5-10 reps at 50-72%.'),
    ('deadlift-heavy', deadlift_heavy, 'deadlift',
     'Heavy pulls, 1-2 reps at 86-100%, slow off the floor, possible failed pull that does not lock out.'),
    ('ohp-clean-and-press', ohp_clean_press, 'overhead_press',
     'As in the real Calibrex session: bar resting on the floor or blocks, pulled/cleaned to the shoulders, re-gripped (dip and drive), 4-8 presses, put down; 2-3 sets.'),
    ('ohp-rack', ohp_rack, 'overhead_press',
     'Overhead press from a rack: unrack, walk-out, 2-4 sets x 3-8 presses at 65-85%, walk-in, rerack; may end with a failed press.'),
]


# ----------------------------------------------------------------------------
# The device: firmware, sonar, IMU
# ----------------------------------------------------------------------------
FIRMWARES = [
    dict(name='barclip-1.0 (pulseIn/58, int cm, int deg)', s_fmt='trunc', a_fmt='int',
         noecho='0', timing='delay', imu=1, ts=False, crlf=True),
    dict(name='barclip-1.3 (NewPing, int cm, 0.1 deg)', s_fmt='round', a_fmt='f1',
         noecho='0', timing='sched', imu=1, ts=False, crlf=True),
    dict(name='barclip-1.4 (pulseIn, int cm, clamps to 400)', s_fmt='round', a_fmt='f1',
         noecho='400', timing='delay', imu=1, ts=False, crlf=True),
    dict(name='barclip-2.0 (float mm, skips failed pings)', s_fmt='mm', a_fmt='f2',
         noecho='skip', timing='sched', imu=2, ts=False, crlf=False),
    dict(name='barclip-2.1 (float mm, device ms field)', s_fmt='mm', a_fmt='f2',
         noecho='400.0', timing='sched', imu=2, ts=True, crlf=False),
]


def fmt_s(fw, v):
    if v is None:
        return fw['noecho']
    if fw['s_fmt'] == 'trunc':
        return str(int(math.floor(v)))
    if fw['s_fmt'] == 'round':
        return str(int(math.floor(v + 0.5)))
    return '%.1f' % v


def fmt_a(fw, p, r):
    if fw['a_fmt'] == 'int':
        return 'a:%d:%d' % (int(math.floor(p + 0.5)), int(math.floor(r + 0.5)))
    if fw['a_fmt'] == 'f1':
        return 'a:%.1f:%.1f' % (p, r)
    return 'a:%.2f:%.2f' % (p, r)


def noise_params(rng, noise):
    if noise == 'clean':
        surface = 'hard'
    elif noise == 'typical':
        surface = rng.choice(['hard', 'rubber'])
    else:
        surface = 'rubber' if rng.uniform() < 0.7 else 'hard'
    if surface == 'hard':
        sigma = {'clean': rng.uniform(0.12, 0.3), 'typical': rng.uniform(0.25, 0.5),
                 'dirty': rng.uniform(0.4, 0.8)}[noise]
    else:
        sigma = {'typical': rng.uniform(0.9, 1.8), 'dirty': rng.uniform(1.5, 3.0)}.get(noise, 1.0)
    p = dict(surface=surface, sigma=sigma)
    p['p_noecho'] = {'clean': 0.001, 'typical': rng.uniform(0.004, 0.02), 'dirty': rng.uniform(0.02, 0.06)}[noise]
    if surface == 'rubber':
        p['p_noecho'] *= 1.8
    p['p_bad_enter'] = {'clean': 0.0, 'typical': 0.002, 'dirty': 0.008}[noise]
    p['p_bad_leave'] = rng.uniform(0.05, 0.25)
    p['p_ghost'] = {'clean': 0.0, 'typical': 0.0008, 'dirty': 0.004}[noise]
    p['stuck_runs_per_min'] = {'clean': 0.0, 'typical': 0.3, 'dirty': 2.0}[noise]
    p['imu_sigma'] = {'clean': rng.uniform(0.2, 0.3), 'typical': rng.uniform(0.3, 0.6),
                      'dirty': rng.uniform(0.6, 1.0)}[noise]
    p['imu_stuck_per_min'] = {'clean': 0.0, 'typical': 0.0, 'dirty': 0.5}[noise]
    p['scale'] = rng.uniform(0.992, 1.01)     # speed of sound vs the firmware's constant
    p['offset'] = rng.uniform(-4.0, 1.5)      # sensor face below the bar axis, module delay
    p['half_beam'] = rng.uniform(10, 15)
    p['max_tilt'] = rng.uniform(30, 40)
    p['imu_tau'] = rng.uniform(0.02, 0.12)
    p['imu_bias'] = (rng.normal(0, 0.3), rng.normal(0, 0.3))
    return p


def sample_device(arr, fw, npar, rng, t_end, rate_hz):
    """Run the firmware loop.  Returns (lines, s_meas_times) where lines is a list
    of (t_emit, text, is_s, t_meas)."""
    H, pitch, roll, md, wall = arr
    nmax = len(H) - 1
    period = 1.0 / rate_hz
    drift = rng.uniform(-0.003, 0.003)
    lines = []
    s_times = []
    t = rng.uniform(0.002, period)
    bad = False
    zones = npar['zones']
    zi = 0
    obst_left = 0
    obst_frac = 0.5
    overhead = rng.uniform(0.0015, 0.004)
    k = 0
    maxn = int(t_end / (period * 0.5)) + 16
    U = rng.uniform(size=(maxn, 6))
    Z = rng.standard_normal(size=maxn)
    T = rng.standard_t(4, size=maxn)
    while t < t_end - 0.05 and k < maxn:
        i = min(int(round(t / DT)), nmax)
        u = U[k]
        h = H[i]
        theta = math.hypot(pitch[i], roll[i])
        mode = md[i]
        reading = None
        # geometric first echo
        if mode == 0 and theta < npar['max_tilt']:
            over = max(0.0, theta - npar['half_beam'])
            d = h / math.cos(math.radians(over))
            floor_ok = True
        elif mode == 1 and u[5] < 0.25:
            d = 3 + 12 * u[4]          # a hand in front of the sensor
            floor_ok = True
        elif mode in (1, 3) and theta < npar['max_tilt']:
            d = max(h, 2.0)
            floor_ok = True
        else:
            d = wall[i] + 3 * Z[k]
            floor_ok = u[4] < 0.6 and d < 400
        if floor_ok:
            noise = npar['sigma'] * (T[k] if npar['surface'] == 'rubber' else Z[k])
            reading = d * npar['scale'] + npar['offset'] + noise
        # obstacles (legs, feet, plates, spotter's hands, rack base)
        while zi < len(zones) and zones[zi][1] < t:
            zi += 1
        if mode == 0 and reading is not None:
            if obst_left > 0:
                obst_left -= 1
                reading = reading * obst_frac
            else:
                for z in zones[zi:zi + 6]:
                    if z[0] <= t <= z[1] and u[3] < z[2] * 0.35:
                        obst_frac = z[3] + (z[4] - z[3]) * u[2]
                        obst_left = int(u[1] * 5)
                        reading = reading * obst_frac
                        break
        # missing echoes: random, and bursts that alternate with good readings
        if bad:
            if u[0] < npar['p_bad_leave']:
                bad = False
        elif u[0] < npar['p_bad_enter']:
            bad = True
        if reading is not None:
            pn = npar['p_noecho'] * (1 + 2 * max(0.0, theta - npar['half_beam']) / 10)
            if (bad and k % 2 == 0) or u[1] > 1 - pn:
                reading = None
        if reading is not None and u[2] < npar['p_ghost']:
            reading = 5 + 395 * u[4]
        if reading is not None:
            reading = min(max(reading, 2.0), 450.0)
            if reading > 400:
                reading = None
        echo_t = (reading / 34300 * 2 if reading is not None else rng_timeout(fw))
        t_emit = t + echo_t + overhead
        if not (reading is None and fw['noecho'] == 'skip'):
            lines.append([t_emit, 's', reading, t])
            s_times.append(t)
        lines.append([t_emit + 0.0008, 'a', None, t_emit + 0.0008])
        if fw['imu'] == 2:
            lines.append([t_emit + period / 2, 'a', None, t_emit + period / 2])
        if fw['timing'] == 'sched':
            nxt = t + period * (1 + drift)
            if t_emit > nxt:
                nxt = t + period * math.ceil((t_emit - t) / period) * (1 + drift)
        else:
            nxt = t_emit + fw['delay'] + 0.0005 * Z[(k + 7) % maxn]
        t = nxt
        k += 1
    lines.sort(key=lambda x: x[0])
    return lines, np.array(s_times)


def rng_timeout(fw):
    return fw.get('timeout', 0.025)


def render_lines(lines, fw, npar, arr, rng, impacts, stuck_runs):
    """Turn sampled events into protocol text."""
    H, pitch, roll, md, wall = arr
    nmax = len(H) - 1
    # IMU: truth + bias + noise, complementary-filter lag, impacts, quantisation
    ai = [j for j, x in enumerate(lines) if x[1] == 'a']
    ta = np.array([lines[j][3] for j in ai])
    idx = np.minimum(np.round(ta / DT).astype(int), nmax)
    p = pitch[idx] + npar['imu_bias'][0]
    r = roll[idx] + npar['imu_bias'][1]
    if len(ta) > 2:
        dtm = float(np.median(np.diff(ta)))
        a = 1 - math.exp(-dtm / npar['imu_tau'])
        p = lfilter([a], [1, -(1 - a)], p - p[0]) + p[0]
        r = lfilter([a], [1, -(1 - a)], r - r[0]) + r[0]
    for (t_i, amp) in impacts:
        m = (ta >= t_i) & (ta < t_i + 0.6)
        x = ta[m] - t_i
        osc = amp * np.exp(-x / 0.08) * np.sin(2 * np.pi * 11 * x)
        p[m] += osc * 0.6
        r[m] += osc
    p = p + npar['imu_sigma'] * rng.standard_normal(len(p))
    r = r + npar['imu_sigma'] * rng.standard_normal(len(r))
    p = np.clip(p, -90, 90)
    r = (r + 180.0) % 360.0 - 180.0
    # an I2C hang repeats the last IMU values
    for (s0, ln) in npar['imu_stuck']:
        j0 = int(s0 * len(p))
        p[j0:j0 + ln] = p[max(j0 - 1, 0)]
        r[j0:j0 + ln] = r[max(j0 - 1, 0)]
    a_text = [fmt_a(fw, p[j], r[j]) for j in range(len(p))]
    # sonar text, with stuck values (firmware repeats the last value)
    si = [j for j, x in enumerate(lines) if x[1] == 's']
    s_vals = [lines[j][2] for j in si]
    for (s0, ln) in stuck_runs:
        j0 = int(s0 * len(s_vals))
        if j0 > 0:
            for j in range(j0, min(j0 + ln, len(s_vals))):
                s_vals[j] = s_vals[j0 - 1]
    out = []
    ia = iter(a_text)
    isv = iter(s_vals)
    dev0 = rng.uniform(5000, 900000)
    for x in lines:
        if x[1] == 's':
            txt = 's:' + fmt_s(fw, next(isv))
        else:
            txt = next(ia)
        if fw['ts']:
            txt += ':%d' % int((x[0] + dev0 / 1000.0) * 1000)
        out.append((x[0], txt))
    return out


# ----------------------------------------------------------------------------
# Transports
# ----------------------------------------------------------------------------
def transport_serial(lines, fw, rng, noise):
    baud = fw['baud']
    bridge = rng.choice(['cdc', 'ch340', 'ftdi'])
    phase = rng.uniform(0, 0.016)
    stall_rate = {'clean': 1 / 120.0, 'typical': 1 / 45.0, 'dirty': 1 / 15.0}[noise]
    t_last = lines[-1][0] + 1
    stalls = []
    t = rng.exponential(1 / stall_rate)
    while t < t_last:
        stalls.append((t, t + rng.uniform(0.03, 0.25)))
        t += rng.exponential(1 / stall_rate)
    rows = []
    uart = 0.0
    si = 0
    jit = rng.uniform(size=len(lines))
    lo, hi = {'cdc': (0.0002, 0.0012), 'ch340': (0.0005, 0.003), 'ftdi': (0.0, 0.0005)}[bridge]
    eol = 2 if fw['crlf'] else 1
    byte_t = 10.0 / baud
    for j, (te, txt) in enumerate(lines):
        uart = (uart if uart > te else te) + (len(txt) + eol) * byte_t
        if bridge == 'ftdi':
            th = phase + math.ceil((uart - phase) / 0.016) * 0.016 + lo + (hi - lo) * jit[j]
        else:
            th = uart + lo + (hi - lo) * jit[j]
        while si < len(stalls) and stalls[si][1] < th:
            si += 1
        if si < len(stalls) and stalls[si][0] <= th:
            th = stalls[si][1] + 0.0003 * jit[j]
        rows.append([th, txt])
    if noise == 'dirty':
        for row in rows:
            if rng.uniform() < 0.0015:
                s = list(row[1])
                j = int(rng.integers(0, len(s)))
                s[j] = chr(int(rng.choice([35, 63, 42, 126, 37, 96])))
                row[1] = ''.join(s)
    return rows, 'serial:' + rng.choice(['/dev/ttyUSB0', '/dev/ttyACM0', '/dev/ttyUSB1'])


def transport_ble(lines, fw, rng, noise):
    ci = float(rng.choice([0.015, 0.030, 0.045, 0.050]))
    per_event = int(rng.integers(2, 6))
    cap = int(rng.integers(6, 20))
    mode = rng.choice(['line', 'pair', 'stream']) if noise != 'clean' else rng.choice(['line', 'pair'])
    p_miss = {'clean': 0.01, 'typical': 0.04, 'dirty': 0.08}[noise]
    p_loss = {'clean': 0.001, 'typical': 0.006, 'dirty': 0.025}[noise]
    bad_rate = {'clean': 0.0, 'typical': 1 / 90.0, 'dirty': 1 / 25.0}[noise]
    # group lines into packets at their emission time
    packets = []    # (t_ready, payload)
    if mode == 'line':
        for te, txt in lines:
            packets.append((te, txt + '\n'))
    elif mode == 'pair':
        cur_t, cur = None, ''
        for te, txt in lines:
            if txt.startswith('s:') and cur:
                packets.append((cur_t, cur))
                cur = ''
            cur_t = te
            cur += txt + '\n'
        if cur:
            packets.append((cur_t, cur))
    else:
        buf = ''
        for te, txt in lines:
            buf += txt + '\n'
            while len(buf) >= 20:
                packets.append((te, buf[:20]))
                buf = buf[20:]
            if buf and txt.startswith('a:'):
                packets.append((te + 0.002, buf))    # flush timer
                buf = ''
        if buf:
            packets.append((lines[-1][0], buf))
    packets.sort(key=lambda x: x[0])
    # firmware authors size the link for the traffic; a dirty session may be overloaded
    pkt_rate = len(packets) / max(packets[-1][0] - packets[0][0], 1.0)
    need = int(math.ceil(pkt_rate * ci * (1.6 if noise != 'dirty' else 1.0)))
    per_event = max(per_event, need)
    # bad RF episodes
    t_last = packets[-1][0] + 2
    bad = []
    if bad_rate > 0:
        t = rng.exponential(1 / bad_rate)
        while t < t_last:
            bad.append((t, t + rng.uniform(0.4, 2.5)))
            t += rng.exponential(1 / bad_rate)
    phase = rng.uniform(0, ci)
    q = []
    pi = 0
    rx = []
    ev = 0
    bi = 0
    os_lat = rng.uniform(0.002, 0.008)
    batch = int(rng.choice([1, 1, 2]))
    pend = []
    n_ev = int(t_last / ci) + 4 * len(packets) // per_event + 100
    Ue = rng.uniform(size=n_ev)
    Up = rng.uniform(size=len(packets))
    while pi < len(packets) or q:
        tce = phase + ev * ci
        ue = Ue[ev % n_ev]
        ev += 1
        while pi < len(packets) and packets[pi][0] <= tce:
            if len(q) >= cap or Up[pi] < p_loss:
                pi += 1
                continue
            q.append(packets[pi][1])
            pi += 1
        while bi < len(bad) and bad[bi][1] < tce:
            bi += 1
        pm = 0.6 if (bi < len(bad) and bad[bi][0] <= tce) else p_miss
        if ue < pm:
            continue
        pend.extend(q[:per_event])
        q = q[per_event:]
        if pend and ev % batch == 0:
            trx = tce + os_lat + 0.003 * ((ue - pm) / (1 - pm))
            for j, pl in enumerate(pend):
                rx.append((trx + j * 0.00005, pl))
            pend = []
    if pend:
        trx = phase + ev * ci + os_lat
        for j, pl in enumerate(pend):
            rx.append((trx + j * 0.00005, pl))
    # receiver reassembles lines
    rows = []
    buf = ''
    for trx, pl in rx:
        buf += pl
        while '\n' in buf:
            line, buf = buf.split('\n', 1)
            if line:
                rows.append([trx, line])
    mac = ':'.join('%02X' % int(rng.integers(0, 256)) for _ in range(6))
    return rows, 'ble:' + mac


# ----------------------------------------------------------------------------
# Truth
# ----------------------------------------------------------------------------
def rep_truth(H, pitch, roll, rec, tmap):
    v = np.gradient(H, DT) / 100.0
    reps = []
    for k, r in enumerate(rec['reps']):
        i0, i1 = r['c0'], r['c1']
        w = v[i0:i1 + 1].copy()
        w[0] = 0.0
        w[-1] = 0.0
        rom = H[i1] - H[i0]
        dur = (i1 - i0) * DT
        peak = float(np.max(w))
        # sticking point: lowest velocity after the first peak, if it recovers
        stick = None
        d = np.diff(w)
        rising = np.nonzero(d > 0)[0]
        if len(rising):
            a = None
            for j in range(int(rising[0]), len(d)):
                if d[j] <= 0:
                    a = j
                    break
            if a is not None:
                suf = np.maximum.accumulate(w[::-1])[::-1]
                thr = 0.02
                cand = np.nonzero((np.arange(len(w)) > a) & (suf - w >= thr) & (w[a] - w >= thr))[0]
                if len(cand):
                    m = int(cand[np.argmin(w[cand])])
                    stick = round(float(H[i0 + m] - H[i0]), 1)
        reps.append({
            'index': k + 1,
            'concentric_start_s': round(tmap(r['t0']), 3),
            'concentric_end_s': round(tmap(r['t1']), 3),
            'rom_cm': round(float(rom), 2),
            'mean_velocity_mps': round(float(rom / 100.0 / dur), 3),
            'peak_velocity_mps': round(peak, 3),
            'eccentric_start_s': None if r['ecc'] is None else round(tmap(r['ecc']), 3),
            'sticking_point_cm': stick,
            'max_abs_pitch_deg': round(float(np.max(np.abs(pitch[i0:i1 + 1]))), 2),
            'max_abs_roll_deg': round(float(np.max(np.abs(roll[i0:i1 + 1]))), 2),
        })
    first = rec['reps'][0]
    start = first['ecc'] if rec['down_first'] else first['t0']
    end = rec['reps'][-1]['end']
    return reps, start, end


# ----------------------------------------------------------------------------
# Session
# ----------------------------------------------------------------------------
def make_session(seed, debug=None):
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0x5EED, 13]))
    name, builder, ex, _ = SCENARIOS[seed % len(SCENARIOS)]
    noise = str(rng.choice(['clean', 'typical', 'typical', 'dirty']))
    transport = str(rng.choice(['serial', 'serial', 'ble', 'ble', 'raw']))
    ctx = Ctx(rng, noise)
    ctx.last_fail = None
    ctx.rest_obstacle = None
    if noise != 'clean' and rng.uniform() < (0.25 if noise == 'typical' else 0.5):
        ctx.rest_obstacle = (rng.uniform(0.3, 0.9), rng.uniform(0.5, 0.85))
    builder(ctx)
    tl = ctx.tl
    arr = tl.arrays()
    T = tl.t

    # firmware
    if transport == 'raw':
        fw = dict(FIRMWARES[int(rng.choice([0, 1, 2, 4]))])
        fw['timing'] = 'sched'
        if fw['noecho'] == 'skip':
            fw['noecho'] = '0.0'
        rate = int(rng.choice([20, 25, 40]))
    else:
        fw = dict(FIRMWARES[int(rng.integers(0, len(FIRMWARES)))])
        rate = float(rng.choice([15, 20, 25, 30, 40])) if fw['timing'] == 'sched' else None
    if fw['timing'] == 'delay':
        fw['delay'] = float(rng.choice([0.015, 0.02, 0.03, 0.04, 0.05]))
        rate = 1.0 / (fw['delay'] + 0.012)
    fw['timeout'] = float(rng.choice([0.025, 0.03]))
    if fw['timing'] == 'sched':
        # a scheduled loop never overruns its slot: pulseIn's timeout fits in the period
        fw['timeout'] = min(fw['timeout'], 1.0 / rate - 0.007)
    bytes_per_s = rate * (10 + 16 * fw['imu'])
    fw['baud'] = 9600 if bytes_per_s < 500 and rng.uniform() < 0.4 else int(rng.choice([57600, 115200]))

    npar = noise_params(rng, noise)
    npar['zones'] = sorted(tl.zones)
    mins = T / 60.0
    npar['imu_stuck'] = [(rng.uniform(0.05, 0.95), int(rng.integers(5, 60)))
                         for _ in range(rng.poisson(npar['imu_stuck_per_min'] * mins))]
    stuck = [(rng.uniform(0.02, 0.98), int(rng.integers(3, 20)))
             for _ in range(rng.poisson(npar['stuck_runs_per_min'] * mins))]
    events, s_times = sample_device(arr, fw, npar, rng, T, rate)
    lines = render_lines(events, fw, npar, arr, rng, tl.impacts, stuck)

    exercise = ex
    loads = sorted(set(s['load'] for s in ctx.sets))
    header = ['# liftbuddy-stream 1']
    if rng.uniform() < 0.85:
        header.append('# exercise: ' + exercise)
    if len(loads) == 1:
        header.append('# load_kg: %g' % loads[0])
    if transport == 'raw':
        header.append('# source: capture:' + str(rng.choice(['/dev/ttyUSB0', '/dev/ttyACM0'])))
        header.append('# rate_hz: %d' % rate)
        header.append('# generator: independent-sim 1')
        # the capture may start in the middle of a line
        if rng.uniform() < 0.4:
            first = lines[0][1]
            cut = int(rng.integers(1, len(first)))
            lines[0] = (lines[0][0], first[cut:])
            if first.startswith('s:'):
                s_times = s_times[1:]
        eol = '\r\n' if fw['crlf'] else '\n'
        body = [txt + eol for _, txt in lines]
        a_axis = np.arange(len(s_times)) / float(rate)
        if len(s_times) > 1:
            slope = (a_axis[-1] - a_axis[0]) / (s_times[-1] - s_times[0])
        else:
            slope = 1.0

        def tmap(t):
            if t <= s_times[0]:
                return float(a_axis[0] + (t - s_times[0]) * slope)
            if t >= s_times[-1]:
                return float(a_axis[-1] + (t - s_times[-1]) * slope)
            return float(np.interp(t, s_times, a_axis))
        text = '\n'.join(header) + '\n' + ''.join(body)
    else:
        if transport == 'serial':
            rows, source = transport_serial(lines, fw, rng, noise)
        else:
            rows, source = transport_ble(lines, fw, rng, noise)
        header.append('# source: ' + source)
        header.append('# generator: independent-sim 1')
        rec0 = rows[0][0] - rng.uniform(0.0, 0.02)
        ms = np.round((np.array([r[0] for r in rows]) - rec0) * 1000.0).astype(np.int64)
        ms = np.maximum.accumulate(np.maximum(ms, 0))
        out = ['%d.%03d %s\n' % (m // 1000, m % 1000, r[1]) for m, r in zip(ms.tolist(), rows)]

        def tmap(t):
            return float(t - rec0)
        text = '\n'.join(header) + '\n' + ''.join(out)

    H, pitch, roll, md, wall = arr
    sets = []
    for rec in ctx.sets:
        reps, s0, s1 = rep_truth(H, pitch, roll, rec, tmap)
        sets.append({'exercise': rec['exercise'], 'load_kg': rec['load'],
                     'start_s': round(tmap(s0), 3), 'end_s': round(tmap(s1), 3), 'reps': reps})
    non_reps = [{'kind': k, 'start_s': round(max(tmap(a), 0.0), 3), 'end_s': round(tmap(b), 3)}
                for (k, a, b) in tl.nonreps if tmap(b) > 0.0]
    stem = '%s-%d' % (name, seed)
    if debug is not None:
        debug.update(H=H, pitch=pitch, roll=roll, md=md, tmap=tmap, nonreps=list(tl.nonreps))
    truth = {'format': 'liftbuddy-truth 1', 'stream': stem + '.lbs', 'seed': int(seed),
             'transport': transport, 'noise': noise, 'firmware': fw['name'], 'scenario': name,
             'sets': sets, 'non_reps': non_reps}
    return stem, text, truth


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', type=int, help='seed of the first session (session i uses seed+i)')
    ap.add_argument('--count', type=int, default=1, help='number of sessions')
    ap.add_argument('--out', help='output directory')
    ap.add_argument('--list-scenarios', action='store_true', help='describe the scenarios and exit')
    a = ap.parse_args()
    if a.list_scenarios:
        for n, _, ex, d in SCENARIOS:
            print('%-24s %-15s %s' % (n, ex, d))
        return
    if a.seed is None or a.out is None:
        ap.error('--seed and --out are required')
    os.makedirs(a.out, exist_ok=True)
    for i in range(a.count):
        seed = a.seed + i
        stem, text, truth = make_session(seed)
        with open(os.path.join(a.out, stem + '.lbs'), 'w', encoding='utf-8', newline='') as f:
            f.write(text)
        with open(os.path.join(a.out, stem + '.truth.json'), 'w', encoding='utf-8') as f:
            json.dump(truth, f, indent=1)
            f.write('\n')


if __name__ == '__main__':
    main()
