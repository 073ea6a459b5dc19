// The LiftBuddy page: reads the daemon's events (the socket protocol's JSON
// objects, docs/socket-protocol.md) from /events and draws them; steers the
// daemon through /api/command with the pairing code. See docs/web.md.
"use strict";

const $ = (id) => document.getElementById(id);
const store = {
  get: (k, d) => { try { return localStorage.getItem("lb." + k) ?? d; } catch { return d; } },
  set: (k, v) => { try { localStorage.setItem("lb." + k, v); } catch { /* private mode */ } },
};
const EXERCISE = { squat: "Squat", bench_press: "Bench press", deadlift: "Deadlift", overhead_press: "Overhead press" };
const exName = (e) => (e ? EXERCISE[e] || e : "Unknown exercise");
const num = (v, d = 2) => (v === null || v === undefined ? "–" : (+v).toFixed(d));
const kg = (v) => (v === null || v === undefined ? "load unknown" : `${+v} kg`);

// Velocity zones by mean concentric velocity (m/s), the usual VBT bands.
function zone(v) {
  if (v >= 1.0) return 1;  // speed
  if (v >= 0.75) return 2; // speed-strength
  if (v >= 0.5) return 3;  // strength-speed
  if (v >= 0.3) return 4;  // strength
  return 5;                // near maximal
}
const ZONE_NAME = ["", "speed", "speed-strength", "strength-speed", "strength", "near max"];

// ---- state -------------------------------------------------------------
const live = {
  set: null,          // { set_id, set, exercise, load_kg, finished }
  reps: new Map(),    // "index" -> { rep, loss, provisional }
  cued: new Set(),    // set_id/index already cued
  cutoffCued: null,   // set_id whose cut-off cue has sounded
};
const traces = { motion: [], tilt: [] }; // [t, a, b]
let lastReport = null;
let history = null;

// ---- views -------------------------------------------------------------
function show(view) {
  for (const s of document.querySelectorAll(".view")) s.hidden = s.id !== view;
  for (const b of document.querySelectorAll("nav button")) b.classList.toggle("active", b.dataset.view === view);
  if (view === "history") loadHistory(true);
  if (view === "report") renderReport();
  if (view === "live") drawTraces();
  if (location.hash !== "#" + view) history_replace(view);
}
function history_replace(view) { try { window.history.replaceState(null, "", "#" + view); } catch { /* file: */ } }
for (const b of document.querySelectorAll("nav button")) b.addEventListener("click", () => show(b.dataset.view));

// ---- live events -------------------------------------------------------
function startSet(setID, number, exercise, load) {
  live.set = { set_id: setID, set: number, exercise, load_kg: load, finished: false };
  live.reps.clear();
}

function onEvent(o) {
  switch (o.class) {
    case "version": break;
    case "status": renderStatus(o); break;
    case "set":
      if (!live.set || live.set.set_id !== o.set_id || live.set.finished) {
        const keep = live.set && live.set.set_id === o.set_id ? live.reps : null;
        startSet(o.set_id, o.set, o.exercise, o.load_kg);
        if (keep) live.reps = keep;
      }
      renderLive();
      break;
    case "rep_provisional":
    case "rep": {
      if (!live.set || live.set.set_id !== o.set_id || live.set.finished) startSet(o.set_id, o.set, o.exercise, o.load_kg);
      const provisional = o.class === "rep_provisional";
      const had = live.reps.get(o.rep.index);
      if (had && !had.provisional && provisional) break; // a final rep is never changed
      live.reps.set(o.rep.index, { rep: o.rep, loss: o.velocity_loss_pct, provisional });
      cue(o, provisional);
      renderLive(o.rep.index);
      break;
    }
    case "rep_withdrawn":
      if (live.set && live.set.set_id === o.set_id) { live.reps.delete(o.index); renderLive(); }
      break;
    case "lift":
      lastReport = o.report;
      if (live.set && live.set.set_id === o.report.id) live.set.finished = true;
      renderLive();
      renderReport();
      if (history) loadHistory(true);
      break;
    case "sample": addSample(o); break;
  }
}

function renderStatus(o) {
  const q = o.quality || {};
  $("status-line").textContent = `${o.source}: ${o.state}${o.message ? " – " + o.message : ""}`;
  $("status-line").title = `lines ${q.lines ?? 0}, bad ${q.bad_lines ?? 0}, spikes ${q.spikes_removed ?? 0}, gaps ${q.gaps ?? 0}`;
}

function targetReps() { const t = parseInt(store.get("target", ""), 10); return t > 0 ? t : null; }
function cutoff() { const c = parseFloat(store.get("cutoff", "20")); return c > 0 ? c : 20; }

function renderLive(latest) {
  const s = live.set;
  const target = targetReps();
  const reps = [...live.reps.values()].sort((a, b) => a.rep.index - b.rep.index);
  const finals = reps.filter((r) => !r.provisional).length;
  $("set-line").textContent = s
    ? `Set ${s.set} · ${exName(s.exercise)} · ${kg(s.load_kg)} · ${finals}${target ? " / " + target : ""} reps${s.finished ? " · finished" : ""}`
    : "No set yet: lift and the first rep starts one.";
  const ol = $("reps");
  ol.replaceChildren(...reps.map((r) => {
    const li = document.createElement("li");
    li.className = `rep zone-${zone(r.rep.mean_velocity_mps)}${r.provisional ? " provisional" : ""}`;
    li.dataset.setId = s ? s.set_id : "";
    li.dataset.index = r.rep.index;
    li.dataset.mv = r.rep.mean_velocity_mps;
    li.innerHTML = `#${r.rep.index}<b>${num(r.rep.mean_velocity_mps)}</b>ROM ${num(r.rep.rom_cm, 1)} cm<br>peak ${num(r.rep.peak_velocity_mps)}<br>loss ${r.loss === null ? "–" : num(r.loss, 1) + " %"}`;
    return li;
  }));
  const last = latest !== undefined ? live.reps.get(latest) : reps[reps.length - 1];
  const big = $("big");
  if (last) {
    big.className = `big zone-${zone(last.rep.mean_velocity_mps)}${last.provisional ? " provisional" : ""}`;
    $("big-velocity").textContent = num(last.rep.mean_velocity_mps);
    $("big-detail").textContent = `rep ${last.rep.index} · ${ZONE_NAME[zone(last.rep.mean_velocity_mps)]} · ROM ${num(last.rep.rom_cm, 1)} cm · peak ${num(last.rep.peak_velocity_mps)} m/s${last.provisional ? " · provisional" : ""}`;
  } else {
    big.className = "big zone-none";
    $("big-velocity").textContent = "–";
    $("big-detail").textContent = "";
  }
  const loss = reps.filter((r) => !r.provisional).reduce((m, r) => (r.loss !== null && r.loss !== undefined ? r.loss : m), null);
  const bar = $("loss-bar");
  bar.style.width = `${Math.min(100, ((loss || 0) / (cutoff() * 1.5)) * 100)}%`;
  bar.classList.toggle("over", loss !== null && loss >= cutoff());
  $("loss-text").textContent = `velocity loss ${loss === null ? "–" : num(loss, 1) + " %"} (cut-off ${cutoff()} %)`;
}

// ---- traces ------------------------------------------------------------
const TRACE_SECONDS = 20;
let traceQueued = false;
function addSample(o) {
  const trim = (a) => { while (a.length && a[0][0] < o.t - TRACE_SECONDS) a.shift(); };
  traces.motion.push([o.t, o.height_cm, o.velocity_mps]);
  traces.tilt.push([o.t, o.pitch_deg, o.roll_deg]);
  trim(traces.motion); trim(traces.tilt);
  if (!traceQueued) { traceQueued = true; requestAnimationFrame(() => { traceQueued = false; drawTraces(); }); }
}
function drawTraces() {
  if ($("live").hidden) return;
  const pts = (a, i) => a.filter((p) => p[i] !== null && p[i] !== undefined).map((p) => [p[0], p[i]]);
  const t1 = traces.motion.length ? traces.motion[traces.motion.length - 1][0] : 0;
  const x = { min: t1 - TRACE_SECONDS, max: t1, format: (t) => `${Math.round(t - t1)} s` };
  Plot.draw($("trace-motion"), {
    x, empty: "waiting for the clip",
    series: [
      { points: pts(traces.motion, 1), color: Plot.color("--z2"), label: "height cm" },
      { points: pts(traces.motion, 2), color: Plot.color("--z4"), axis: 1, label: "velocity m/s" },
    ],
  });
  Plot.draw($("trace-tilt"), {
    x, empty: "waiting for the clip",
    series: [
      { points: pts(traces.tilt, 1), color: Plot.color("--z3"), label: "pitch °" },
      { points: pts(traces.tilt, 2), color: Plot.color("--z1"), label: "roll °" },
    ],
  });
}

// ---- report ------------------------------------------------------------
function renderReport(report = lastReport) {
  if (!report) return;
  const s = report.summary;
  $("report-title").textContent = `${exName(report.exercise)} · ${kg(report.load_kg)} · ${report.started_at.slice(0, 16).replace("T", " ")} UTC`;
  $("report-title").dataset.id = report.id;
  const cell = (label, value, id) => `<div id="${id}">${label}<b>${value}</b></div>`;
  $("report-summary").innerHTML =
    cell("reps", s.rep_count, "sum-reps") +
    cell("best mean m/s", num(s.best_mean_velocity_mps), "sum-best") +
    cell("velocity loss", s.velocity_loss_pct === null ? "–" : num(s.velocity_loss_pct, 1) + " %", "sum-loss") +
    cell("estimated 1RM", s.estimated_one_rep_max_kg === null ? "–" : num(s.estimated_one_rep_max_kg, 1) + " kg", "sum-e1rm");
  $("recommendations").replaceChildren(...report.recommendations.map((r) => {
    const li = document.createElement("li");
    li.className = r.severity;
    li.dataset.code = r.code;
    li.textContent = r.message;
    return li;
  }));
  $("report-table").tBodies[0].replaceChildren(...report.reps.map((r) => {
    const tr = document.createElement("tr");
    tr.dataset.index = r.index;
    tr.dataset.mv = r.mean_velocity_mps;
    tr.className = `zone-${zone(r.mean_velocity_mps)}`;
    tr.innerHTML = `<td>${r.index}</td><td>${num(r.mean_velocity_mps)}</td><td>${num(r.peak_velocity_mps)}</td><td>${num(r.rom_cm, 1)}</td><td>${num(r.mean_propulsive_velocity_mps)}</td><td>${num(r.time_to_peak_velocity_s)}</td>`;
    return tr;
  }));
  if (!$("report").hidden) {
    const zc = ["", "--z1", "--z2", "--z3", "--z4", "--z5"];
    Plot.draw($("report-chart"), {
      x: { ticks: report.reps.map((r) => r.index), format: (i) => `${i}` },
      y: [{ min: 0 }],
      series: [{
        type: "bar", color: Plot.color("--z2"),
        colors: report.reps.map((r) => Plot.color(zc[zone(r.mean_velocity_mps)])),
        points: report.reps.map((r) => [r.index, r.mean_velocity_mps]),
      }],
    });
  }
}

// ---- history -----------------------------------------------------------
let historyLoading = false;
async function loadHistory(force) {
  if (historyLoading || (history && !force)) { renderHistory(); return; }
  historyLoading = true;
  try {
    const r = await fetch("/api/history", { cache: "no-store" });
    history = await r.json();
  } catch {
    $("history-list").textContent = "History not available.";
  } finally { historyLoading = false; }
  renderHistory();
}

function renderHistory() {
  if (!history) return;
  const sel = $("history-exercise");
  const exercises = [...new Set(history.map((h) => h.exercise || "unknown"))].sort();
  const chosen = sel.value || store.get("hx", exercises[0] || "");
  sel.replaceChildren(...exercises.map((e) => { const o = new Option(exName(e === "unknown" ? null : e), e); return o; }));
  if (exercises.includes(chosen)) sel.value = chosen;
  const mine = history.filter((h) => (h.exercise || "unknown") === sel.value);
  // Load-velocity profile: each set's best mean velocity against its load.
  Plot.draw($("lv-chart"), {
    empty: "no sets with a known load yet",
    x: { format: (v) => `${Math.round(v * 10) / 10} kg` },
    series: [{ type: "dot", color: Plot.color("--z2"), label: "best mean m/s vs load",
      points: mine.filter((h) => h.load_kg !== null && h.best_mean_velocity_mps !== null).map((h) => [h.load_kg, h.best_mean_velocity_mps]) }],
  });
  const day = (h) => h.started_at.slice(0, 10);
  const days = [...new Set(mine.map(day))];
  const dayTicks = days.map((d) => Date.parse(d) / 864e5);
  const e1 = mine.filter((h) => h.estimated_one_rep_max_kg !== null).map((h) => [Date.parse(h.started_at) / 864e5, h.estimated_one_rep_max_kg]);
  Plot.draw($("e1rm-chart"), {
    empty: "no e1RM yet (needs a known load)",
    x: { ticks: dayTicks.length > 6 ? undefined : dayTicks, format: (d) => new Date(d * 864e5).toISOString().slice(5, 10) },
    series: [{ points: e1, color: Plot.color("--z4"), marks: true, label: "e1RM kg" }],
  });
  const list = $("history-list");
  list.replaceChildren();
  const byDay = new Map();
  for (const h of [...history].reverse()) {
    if (!byDay.has(day(h))) byDay.set(day(h), []);
    byDay.get(day(h)).push(h);
  }
  if (byDay.size === 0) list.textContent = "No sets recorded yet.";
  for (const [d, sets] of byDay) {
    const h3 = document.createElement("h3");
    h3.textContent = d;
    list.append(h3);
    for (const h of sets) {
      const b = document.createElement("button");
      b.className = "history-set";
      b.dataset.id = h.id;
      b.innerHTML = `<span>${h.started_at.slice(11, 16)} ${exName(h.exercise)} · ${kg(h.load_kg)}</span><span>${h.rep_count} reps · ${num(h.best_mean_velocity_mps)} m/s${h.estimated_one_rep_max_kg !== null ? " · e1RM " + num(h.estimated_one_rep_max_kg, 0) : ""}</span>`;
      b.addEventListener("click", async () => {
        const r = await fetch("/api/reports/" + encodeURIComponent(h.id));
        if (r.ok) { lastReportShown(await r.json()); }
      });
      list.append(b);
    }
  }
}
$("history-exercise").addEventListener("change", (e) => { store.set("hx", e.target.value); renderHistory(); });
function lastReportShown(report) { show("report"); renderReport(report); }

// ---- cues --------------------------------------------------------------
let audio = null;
function tone(freq, ms, when = 0) {
  if (!audio) return;
  const o = audio.createOscillator(), g = audio.createGain();
  o.frequency.value = freq;
  g.gain.setValueAtTime(0.25, audio.currentTime + when);
  g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + when + ms / 1000);
  o.connect(g).connect(audio.destination);
  o.start(audio.currentTime + when);
  o.stop(audio.currentTime + when + ms / 1000 + 0.02);
}
function say(text) {
  if (!("speechSynthesis" in window)) return;
  speechSynthesis.cancel();
  speechSynthesis.speak(new SpeechSynthesisUtterance(text));
}
function cue(o, provisional) {
  const mode = store.get("sound", "off");
  const key = `${o.set_id}/${o.rep.index}`;
  if (mode === "off" || live.cued.has(key)) return;
  live.cued.add(key);
  const v = o.rep.mean_velocity_mps;
  const over = !provisional && o.velocity_loss_pct !== null && o.velocity_loss_pct >= cutoff() && live.cutoffCued !== o.set_id;
  if (over) live.cutoffCued = o.set_id;
  if (mode === "speech") {
    say(over ? `${v.toFixed(2)}. Stop: velocity loss ${Math.round(o.velocity_loss_pct)} percent` : v.toFixed(2));
  } else {
    tone(220 + v * 660, 180);
    if (over) { tone(880, 200, 0.3); tone(440, 400, 0.55); }
  }
}

// ---- controls ----------------------------------------------------------
function initControls() {
  $("c-code").value = store.get("code", "");
  $("c-target").value = store.get("target", "");
  $("c-cutoff").value = cutoff();
  $("c-sound").value = store.get("sound", "off");
  $("c-exercise").value = store.get("exercise", "");
  $("c-load").value = store.get("load", "");
  $("c-code").addEventListener("change", (e) => store.set("code", e.target.value.trim()));
  $("c-target").addEventListener("change", (e) => { store.set("target", e.target.value); renderLive(); });
  $("c-cutoff").addEventListener("change", (e) => { store.set("cutoff", e.target.value); renderLive(); });
  $("c-sound").addEventListener("change", (e) => {
    store.set("sound", e.target.value);
    if (e.target.value === "tone" && !audio) audio = new (window.AudioContext || window.webkitAudioContext)();
    if (e.target.value === "speech") say("ready");
  });
  $("c-set").addEventListener("click", () => {
    const exercise = $("c-exercise").value || null;
    const load = $("c-load").value === "" ? null : +$("c-load").value;
    store.set("exercise", exercise || ""); store.set("load", $("c-load").value);
    store.set("target", $("c-target").value);
    send({ cmd: "set", exercise, load_kg: load }, `next set: ${exName(exercise)}, ${kg(load)}`);
  });
  $("c-start").addEventListener("click", () => send({ cmd: "start_set" }, "set started"));
  $("c-end").addEventListener("click", () => send({ cmd: "end_set" }, "set ended"));
}
async function send(command, done) {
  const out = $("c-result");
  store.set("code", $("c-code").value.trim());
  try {
    const r = await fetch("/api/command", {
      method: "POST", headers: { "Content-Type": "application/json", "X-Pairing-Code": $("c-code").value.trim() },
      body: JSON.stringify(command),
    });
    const o = await r.json();
    out.className = "result " + (o.class === "ack" ? "ok" : "error");
    out.textContent = o.class === "ack" ? done : o.message;
  } catch {
    out.className = "result error";
    out.textContent = "the daemon did not answer";
  }
}

// ---- connection --------------------------------------------------------
let retry = 500;
function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/events`);
  ws.onopen = () => { retry = 500; $("conn").className = "conn on"; live.set = null; live.reps.clear(); };
  ws.onmessage = (m) => { try { onEvent(JSON.parse(m.data)); } catch (e) { console.error(e); } };
  ws.onclose = () => {
    $("conn").className = "conn off";
    $("status-line").textContent = "daemon not reachable; reconnecting…";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

initControls();
show((location.hash || "#live").slice(1).replace(/[^a-z]/g, "") || "live");
renderLive();
connect();
window.addEventListener("resize", () => { drawTraces(); renderReport(); if (history && !$("history").hidden) renderHistory(); });
