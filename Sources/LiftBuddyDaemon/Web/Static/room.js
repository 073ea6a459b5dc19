// The coach's room view: one card per rack, from the `rack` objects on
// /room/events (docs/mqtt.md). Each object is a rack's whole state, so a
// card is simply redrawn from the latest one; `last_rep` and `status` in it
// are the rack's own socket-protocol objects (docs/socket-protocol.md).
"use strict";

const $ = (id) => document.getElementById(id);
const EXERCISE = { squat: "Squat", bench_press: "Bench press", deadlift: "Deadlift", overhead_press: "Overhead press" };
const exName = (e) => (e ? EXERCISE[e] || e : "Unknown exercise");
const num = (v, d = 2) => (v === null || v === undefined ? "–" : (+v).toFixed(d));
const kg = (v) => (v === null || v === undefined ? "load unknown" : `${+v} kg`);
// The usual VBT bands, as on the lifter's page.
const zone = (v) => (v >= 1.0 ? 1 : v >= 0.75 ? 2 : v >= 0.5 ? 3 : v >= 0.3 ? 4 : 5);
// Velocity loss past which a set is usually stopped (the lifter's page default).
const CUTOFF = 20;

const racks = new Map(); // name -> latest rack object
let queued = false;

function card(r) {
  let el = document.querySelector(`.rack[data-rack="${CSS.escape(r.rack)}"]`);
  if (!el) {
    el = document.createElement("section");
    el.dataset.rack = r.rack;
    el.innerHTML = `<h2><span class="r-name"></span><span class="r-state"></span></h2>
      <div class="r-set"></div><div class="r-mv">–</div><div class="r-rep"></div>
      <div class="r-lossbar"><div class="r-lossfill"></div><span class="r-loss"></span></div>
      <div class="r-last"></div><div class="r-message"></div>`;
    el.querySelector(".r-name").textContent = r.rack;
  }
  const q = (c) => el.querySelector(c);
  const rep = r.last_rep;
  const mv = rep ? rep.rep.mean_velocity_mps : null;
  const provisional = rep ? rep.class === "rep_provisional" : false;
  const state = r.online === null ? "unknown" : r.online ? "online" : "offline";
  el.className = `rack ${state}${mv !== null ? " zone-" + zone(mv) : ""}`;
  el.dataset.online = state;
  el.dataset.repIndex = rep ? rep.rep.index : "";
  el.dataset.provisional = provisional ? "1" : "0";
  q(".r-state").textContent = state;
  const s = r.set;
  // A set known only from the rack's retained report (`last_lift`, a coach
  // who came in after it) has no number.
  const setName = s && s.set === null ? "Last set" : s ? `Set ${s.set}` : "";
  q(".r-set").textContent = s ? `${setName} · ${exName(s.exercise)} · ${kg(s.load_kg)}${s.finished ? " · done" : ""}` : "no set yet";
  q(".r-set").dataset.setId = s ? s.set_id : "";
  q(".r-mv").textContent = num(mv);
  q(".r-mv").classList.toggle("provisional", provisional);
  q(".r-rep").textContent = rep
    ? `rep ${rep.rep.index}${provisional ? "?" : ""} · ${r.reps} rep${r.reps === 1 ? "" : "s"}${r.provisional_reps ? ` (+${r.provisional_reps}?)` : ""} · peak ${num(rep.rep.peak_velocity_mps)} · ROM ${num(rep.rep.rom_cm, 1)} cm`
    : `${r.reps} reps`;
  q(".r-rep").dataset.reps = r.reps;
  const loss = r.velocity_loss_pct;
  q(".r-lossfill").style.width = `${Math.min(100, ((loss || 0) / (CUTOFF * 1.5)) * 100)}%`;
  q(".r-lossfill").classList.toggle("over", loss !== null && loss >= CUTOFF);
  q(".r-loss").textContent = `loss ${loss === null ? "–" : num(loss, 1) + " %"}`;
  const l = r.last_lift;
  q(".r-last").textContent = l
    ? `last set: ${exName(l.exercise)}, ${l.summary.rep_count} reps, best ${num(l.summary.best_mean_velocity_mps)} m/s, loss ${l.summary.velocity_loss_pct === null ? "–" : num(l.summary.velocity_loss_pct, 1) + " %"}`
    : "";
  q(".r-last").dataset.id = l ? l.id : "";
  q(".r-message").textContent = r.online === false && r.status ? r.status.message || "" : "";
  return el;
}

function render() {
  queued = false;
  const names = [...racks.keys()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  $("room").replaceChildren(...names.map((n) => card(racks.get(n))));
  $("room-empty").hidden = names.length > 0;
  const online = [...racks.values()].filter((r) => r.online).length;
  $("room-count").textContent = names.length ? `${online} of ${names.length} racks online` : "";
}

function onObject(o) {
  if (o.class === "rack") {
    racks.set(o.rack, o);
    // One redraw per frame however many racks changed in it; the card of
    // the rack that changed is also updated at once, so a rep shows now.
    card(o);
    if (!queued) { queued = true; requestAnimationFrame(render); }
    if (!document.querySelector(`.rack[data-rack="${CSS.escape(o.rack)}"]`)) render();
  } else if (o.class === "coach") {
    $("status-line").textContent = o.connected
      ? `broker ${o.mqtt}: following ${o.prefix}/+/…`
      : `broker ${o.mqtt}: not connected${o.message ? " – " + o.message : ""}`;
  }
}

let retry = 500;
function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/room/events`);
  ws.onopen = () => { retry = 500; $("conn").className = "conn on"; racks.clear(); };
  ws.onmessage = (m) => { try { onObject(JSON.parse(m.data)); } catch (e) { console.error(e); } };
  ws.onclose = () => {
    $("conn").className = "conn off";
    $("status-line").textContent = "room view not reachable; reconnecting…";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

render();
connect();
