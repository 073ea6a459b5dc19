// Small canvas charts for the LiftBuddy page: lines, bars and dots on one or
// two y axes. No library: the page must work on a gym's network with no
// internet, and this is all it needs.
"use strict";

const Plot = (() => {
  const css = getComputedStyle(document.documentElement);
  const color = (name) => css.getPropertyValue(name).trim() || name;

  function niceRange(lo, hi) {
    if (!isFinite(lo) || !isFinite(hi)) return [0, 1];
    if (lo === hi) { lo -= 1; hi += 1; }
    const pad = (hi - lo) * 0.08;
    return [lo - pad, hi + pad];
  }

  function ticks(lo, hi, n) {
    const raw = (hi - lo) / n;
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) || raw;
    const out = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(+v.toFixed(10));
    return out;
  }

  function fmt(v) {
    const a = Math.abs(v);
    return a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1).replace(/\.0$/, "") : v.toFixed(2).replace(/0$/, "");
  }

  // spec: { series: [{ points: [[x, y]], color, type: "line"|"bar"|"dot", axis: 0|1, label }],
  //         x: { min, max, format }, y: [{ min, max, label }, { … }] }
  function draw(canvas, spec) {
    const dpr = window.devicePixelRatio || 1;
    const w = canvas.clientWidth || 300;
    const h = canvas.clientHeight || +canvas.getAttribute("height") || 150;
    if (canvas.width !== Math.round(w * dpr)) canvas.width = Math.round(w * dpr);
    if (canvas.height !== Math.round(h * dpr)) canvas.height = Math.round(h * dpr);
    const g = canvas.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    g.font = "11px system-ui, sans-serif";
    const left = 40, right = spec.series.some((s) => s.axis === 1) ? 40 : 10, top = 18, bottom = 20;
    const pw = w - left - right, ph = h - top - bottom;

    const all = spec.series.flatMap((s) => s.points);
    if (all.length === 0) {
      g.fillStyle = color("--dim");
      g.fillText(spec.empty || "no data yet", left, top + ph / 2);
      return;
    }
    const xs = all.map((p) => p[0]);
    let [x0, x1] = [spec.x?.min ?? Math.min(...xs), spec.x?.max ?? Math.max(...xs)];
    if (x0 === x1) { x0 -= 1; x1 += 1; }
    if (spec.series.some((s) => s.type === "bar")) { x0 -= 0.6; x1 += 0.6; }
    const axes = [0, 1].map((a) => {
      const ys = spec.series.filter((s) => (s.axis || 0) === a).flatMap((s) => s.points.map((p) => p[1]));
      const cfg = (spec.y || [])[a] || {};
      let lo = cfg.min ?? Math.min(...ys), hi = cfg.max ?? Math.max(...ys);
      if (cfg.min === undefined || cfg.max === undefined) [lo, hi] = niceRange(lo, hi);
      if (cfg.min !== undefined) lo = cfg.min;
      return { lo, hi, label: cfg.label || "" };
    });
    const X = (x) => left + ((x - x0) / (x1 - x0)) * pw;
    const Y = (y, a) => top + ph - ((y - axes[a].lo) / (axes[a].hi - axes[a].lo)) * ph;

    g.strokeStyle = color("--line");
    g.fillStyle = color("--dim");
    g.lineWidth = 1;
    for (const t of ticks(axes[0].lo, axes[0].hi, 4)) {
      const y = Math.round(Y(t, 0)) + 0.5;
      g.beginPath(); g.moveTo(left, y); g.lineTo(left + pw, y); g.stroke();
      g.fillText(fmt(t), 4, y + 4);
    }
    if (right > 10) {
      for (const t of ticks(axes[1].lo, axes[1].hi, 4)) g.fillText(fmt(t), left + pw + 4, Y(t, 1) + 4);
    }
    const xf = spec.x?.format || fmt;
    const xt = spec.x?.ticks || ticks(x0, x1, 5);
    for (const t of xt) if (t >= x0 && t <= x1) g.fillText(xf(t), X(t) - 8, h - 5);
    let lx = left;
    for (const s of spec.series) {
      if (!s.label) continue;
      g.fillStyle = s.color;
      g.fillText(s.label, lx, 12);
      lx += g.measureText(s.label).width + 14;
    }

    for (const s of spec.series) {
      const a = s.axis || 0;
      g.strokeStyle = g.fillStyle = s.color;
      if (s.type === "bar") {
        const bw = Math.max(4, (pw / (x1 - x0)) * 0.6);
        const base = Y(Math.max(axes[a].lo, 0), a);
        s.points.forEach((p, i) => {
          g.globalAlpha = s.alpha ? s.alpha[i] : 1;
          if (s.colors) g.fillStyle = s.colors[i];
          g.fillRect(X(p[0]) - bw / 2, Y(p[1], a), bw, base - Y(p[1], a));
          g.fillStyle = color("--fg");
          g.fillText(fmt(p[1]), X(p[0]) - 10, Y(p[1], a) - 3);
          g.fillStyle = s.color;
        });
        g.globalAlpha = 1;
      } else if (s.type === "dot") {
        for (const p of s.points) { g.beginPath(); g.arc(X(p[0]), Y(p[1], a), 4, 0, 7); g.fill(); }
      } else {
        g.lineWidth = 2;
        g.beginPath();
        s.points.forEach((p, i) => (i ? g.lineTo(X(p[0]), Y(p[1], a)) : g.moveTo(X(p[0]), Y(p[1], a))));
        g.stroke();
        if (s.marks) for (const p of s.points) { g.beginPath(); g.arc(X(p[0]), Y(p[1], a), 3, 0, 7); g.fill(); }
      }
    }
  }

  return { draw, color };
})();
