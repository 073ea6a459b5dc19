#!/usr/bin/env python3
"""The coach's room view in a real browser (docs/mqtt.md): a Mosquitto broker
on a loopback port of its own, racks simulated by liftbuddyd replaying bundled
streams with --mqtt, `liftbuddy coach` following them, and headless Chromium
(driven as scripts/test-web.py drives it) reading the room page.

Checks: every rep of every rack's reports appears on that rack's card with
the report's mean velocity; after the sets, each card shows its last set's
rep count, last rep, velocity loss and report id, and "offline" after the
rack's clean stop; a rack whose daemon is SIGKILLed shows offline through its
last will; a rack started after the page was opened appears by itself; the
page reconnects after `liftbuddy coach` restarts and gets every rack back at
once. Screenshots (laptop and phone size) go to $WEB_SCREENSHOTS (default
web-screenshots/). It also prints the latency from a rep reaching a rack's
Unix-socket client to it appearing on the room page.

  scripts/test-coach.py [BIN_DIR]   # where liftbuddyd and liftbuddy are

Exits 0 with a message when chromium or mosquitto is not installed.
"""
import importlib.util, json, os, shutil, signal, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug")
spec = importlib.util.spec_from_file_location("testweb", os.path.join(ROOT, "scripts/test-web.py"))
web = importlib.util.module_from_spec(spec)
spec.loader.exec_module(web)
check, wait_for, free_port = web.check, web.wait_for, web.free_port

RACKS = [("rack-1", "squat-serial-typical.lbs"), ("rack-2", "bench_press-serial-typical.lbs"),
         ("rack-3", "deadlift-serial-clean.lbs"), ("rack-4", "overhead_press-serial-clean.lbs")]
SPEED = 4

CARDS_JS = """(() => [...document.querySelectorAll('.rack')].map(c => ({
  rack: c.dataset.rack, state: c.dataset.online, set: c.querySelector('.r-set').dataset.setId,
  reps: c.querySelector('.r-rep').dataset.reps, mv: c.querySelector('.r-mv').textContent,
  loss: c.querySelector('.r-loss').textContent, last: c.querySelector('.r-last').dataset.id,
  message: c.querySelector('.r-message').textContent })))()"""
# Every rep a card shows: "rack/set_id/index" -> [mean velocity shown now, first shown at (ms since epoch)].
OBSERVER_JS = """(() => { window.__lbReps = {};
  const note = () => { for (const c of document.querySelectorAll('.rack')) {
    const i = c.dataset.repIndex; if (!i) continue;
    const k = c.dataset.rack + '/' + c.querySelector('.r-set').dataset.setId + '/' + i;
    const mv = c.querySelector('.r-mv').textContent;
    // First shown at (kept), the number shown now (a provisional rep's may change).
    if (!(k in window.__lbReps)) window.__lbReps[k] = [mv, performance.timeOrigin + performance.now()];
    else window.__lbReps[k][0] = mv; } };
  new MutationObserver(note).observe(document.getElementById('room'),
    { childList: true, subtree: true, characterData: true, attributes: true });
  note(); return true; })()"""


class Proc:
    def __init__(self, work, name, args):
        self.log = open(os.path.join(work, name + ".log"), "w+")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)

    def text(self):
        self.log.flush()
        with open(self.log.name) as f:
            return f.read()

    def stop(self, sig=signal.SIGTERM):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def rack(work, port, name, stream, speed=SPEED, loop=False):
    args = [os.path.join(BIN, "liftbuddyd"), "--source", "replay:" + os.path.join(ROOT, "SampleStreams", stream),
            "--speed", str(speed), "--socket", os.path.join(work, name + ".sock"),
            "--output-dir", os.path.join(work, name), "--mqtt", f"127.0.0.1:{port}", "--rack", name]
    if loop:
        args.append("--loop")
    p = Proc(work, name, args)
    p.sock = os.path.join(work, name + ".sock")
    return p


def reports(work, name):
    d = os.path.join(work, name)
    rs = [json.load(open(os.path.join(d, f))) for f in os.listdir(d) if f.endswith(".json")] if os.path.isdir(d) else []
    return sorted(rs, key=lambda r: r["start_s"])


def main():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    mosquitto = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if os.path.exists("/usr/sbin/mosquitto") else None)
    if not chromium or not mosquitto:
        print("test-coach: SKIPPED: chromium or mosquitto is not installed (scripts/setup.sh installs them)")
        return 0
    work = tempfile.mkdtemp(prefix="lb-coach-")
    port, http_port = free_port(), free_port()
    with open(os.path.join(work, "mosquitto.conf"), "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    broker = Proc(work, "mosquitto", [mosquitto, "-c", os.path.join(work, "mosquitto.conf")])
    coach_args = [os.path.join(BIN, "liftbuddy"), "coach", "--mqtt", f"127.0.0.1:{port}",
                  "--listen", f"127.0.0.1:{http_port}"]
    coach = Proc(work, "coach", coach_args)
    racks, watchers = {}, {}
    browser = web.Browser(chromium)
    try:
        check(wait_for(lambda: "coach: connected" in coach.text(), 20), "liftbuddy coach connects to the broker")
        browser.page("Emulation.setDeviceMetricsOverride",
                     {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
        browser.page("Page.enable")
        browser.page("Page.navigate", {"url": f"http://127.0.0.1:{http_port}/"})
        wait_for(lambda: browser.js("document.readyState") == "complete", 10)
        check(wait_for(lambda: browser.js("document.getElementById('conn').className") == "conn on", 10),
              "the room page connects")
        browser.js(OBSERVER_JS)

        # A rack that lifts set after set until it is killed.
        racks["rack-5"] = rack(work, port, "rack-5", "squat-3sets-ble-typical.lbs", speed=2, loop=True)
        for name, stream in RACKS:
            racks[name] = rack(work, port, name, stream)
        for name, r in racks.items():
            if wait_for(lambda: os.path.exists(r.sock), 10):
                watchers[name] = web.SocketWatcher(r.sock)
        shot = False
        while any(racks[n].proc.poll() is None for n, _ in RACKS):
            if not shot and sum(1 for c in browser.js(CARDS_JS) or [] if c["reps"] not in ("0", None)) >= 4:
                browser.screenshot("room-live.png")
                shot = True
            time.sleep(0.2)
        check(all(racks[n].proc.returncode == 0 for n, _ in RACKS), "the racks' replays ended cleanly")
        done = lambda: all(c["state"] == "offline" for c in browser.js(CARDS_JS) or [] if c["rack"] in dict(RACKS))
        check(wait_for(done, 10), "each finished rack shows offline after its clean stop")

        cards = {c["rack"]: c for c in browser.js(CARDS_JS) or []}
        seen = browser.js("window.__lbReps") or {}
        for name, _ in RACKS:
            rs = reports(work, name)
            if not rs:
                check(False, f"{name} wrote reports")
                continue
            last, card = rs[-1], cards.get(name, {})
            s = last["summary"]
            loss = "–" if s["velocity_loss_pct"] is None else f"{s['velocity_loss_pct']:.1f} %"
            want = {"set": last["id"], "reps": str(len(last["reps"])), "mv": f"{last['reps'][-1]['mean_velocity_mps']:.2f}",
                    "loss": f"loss {loss}", "last": last["id"], "state": "offline"}
            got = {k: card.get(k) for k in want}
            check(got == want, f"{name}'s card after its set: {got}" + ("" if got == want else f" (want {want})"))
            shown = lambda r, p: (seen.get("%s/%s/%d" % (name, r["id"], p["index"])) or [None])[0]
            missing = ["%s/%d: %.2f vs %s" % (r["id"], p["index"], p["mean_velocity_mps"], shown(r, p))
                       for r in rs for p in r["reps"] if shown(r, p) != "%.2f" % p["mean_velocity_mps"]]
            check(not missing, f"{name}: all {sum(len(r['reps']) for r in rs)} reps shown with the report's mean velocity"
                  + (f"; wrong: {missing[:4]}" if missing else ""))
        browser.screenshot("room.png")

        # Latency: a rep on its rack's Unix socket -> on the room page.
        lat = []
        for name, w in watchers.items():
            first = {}
            for t, line in w.lines:
                if line.startswith('{"class":"rep'):
                    o = json.loads(line)
                    first.setdefault(f"{name}/{o['set_id']}/{o['rep']['index']}", t)
            for k, t in first.items():
                if k in seen:
                    lat.append(seen[k][1] / 1000 - t)
        if lat:
            lat.sort()
            print(f"latency rack socket → room page, {len(lat)} reps, {len(watchers)} racks: "
                  f"median {statistics.median(lat)*1000:.1f} ms, max {lat[-1]*1000:.1f} ms")

        # The looping rack is killed outright: its last will shows it offline.
        check(wait_for(lambda: any(c["rack"] == "rack-5" and c["state"] == "online" for c in browser.js(CARDS_JS) or []), 10),
              "rack-5 is online while it lifts")
        racks["rack-5"].stop(signal.SIGKILL)
        gone = lambda: next((c for c in browser.js(CARDS_JS) or [] if c["rack"] == "rack-5" and c["state"] == "offline"), None)
        card = wait_for(gone, 10)
        check(bool(card) and "without a goodbye" in card["message"], f"rack-5 SIGKILLed shows offline through its last will: {card}")

        # The page reconnects to a restarted coach, which gets every rack back
        # from the broker's retained status at once.
        coach.stop()
        check(wait_for(lambda: browser.js("document.getElementById('conn').className") == "conn off", 5),
              "the page notices the coach has gone")
        coach = Proc(work, "coach2", coach_args)
        check(wait_for(lambda: browser.js("document.getElementById('conn').className") == "conn on", 15),
              "the page reconnects after the coach restarts")
        back = lambda: sorted(c["rack"] for c in browser.js(CARDS_JS) or [] if c["state"] == "offline")
        check(wait_for(lambda: back() == sorted(list(dict(RACKS)) + ["rack-5"]), 10),
              f"every rack is back on the page, offline, from its retained status: {back()}")
        # A rack that appears later shows by itself.
        racks["rack-6"] = rack(work, port, "rack-6", "bench_press-serial-typical.lbs", speed="max")
        check(wait_for(lambda: any(c["rack"] == "rack-6" for c in browser.js(CARDS_JS) or []), 20),
              "a rack started later appears by itself")
        browser.page("Emulation.setDeviceMetricsOverride",
                     {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        time.sleep(0.5)
        browser.screenshot("room-phone.png")
        check(coach.proc.poll() is None, "liftbuddy coach is still running")
    finally:
        browser.close()
        for r in racks.values():
            r.stop()
        coach.stop()
        broker.stop(signal.SIGKILL)
    if web.failures:
        print(f"test-coach: {len(web.failures)} failed; logs in {work}")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print(f"test-coach: all passed; screenshots in {web.SHOTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
