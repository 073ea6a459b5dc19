#!/usr/bin/env python3
"""Benchmark of the coach's room view (BENCHMARKS.md, "The coach's view"):
a rep on the coach's view after its daemon publishes it, many racks through
one loopback Mosquitto.

N racks (default 20) are real liftbuddyd replaying SampleStreams (each its
own, cycling through the bundled ones) with --loop at --speed S, each
publishing with --mqtt; `liftbuddy coach` follows them all. For every rep
(first `rep_provisional` or `rep` of a set id and index) it measures:

  socket    its arrival at a Unix-socket client of its own daemon: the
            reference, "the daemon publishes it" (the socket sink runs in
            the same loop turn as the MQTT sink's hand-over)
  broker    its arrival at `mosquitto_sub` (its %U stamp): the alternative,
            a plain subscriber with no coach in between
  room      its arrival at a bare WebSocket client of the room view
            (/room/events, the rack object whose last_rep it is)
  page      its appearance on the room page in headless Chromium (a
            MutationObserver, performance.timeOrigin + now)

and prints p50/p95/p99/max of each minus `socket`, with the CPU used by the
broker, the coach and the racks during the run.

The broker runs with `set_tcp_nodelay true` (docs/mqtt.md recommends it:
without it the broker's Nagle holds a message written just after another,
a `rep` after its `set`, until the coach's delayed ACK, up to 40 ms);
--nagle runs it as a stock Mosquitto, for the comparison.

  scripts/bench-coach.py [BIN_DIR] [--racks N] [--seconds T] [--speed S] [--nagle]
      # BIN_DIR default .build/release (swift build -c release)
"""
import argparse, importlib.util, json, os, selectors, shutil, signal, socket, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "scripts", file))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


tw = load("testweb", "test-web.py")
tc = load("testcoach", "test-coach.py")


def pct(a, p):
    return a[min(len(a) - 1, int(round(p / 100 * (len(a) - 1))))]


def cpu_seconds(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


class Stamper(threading.Thread):
    """One thread, one selector: every rack's Unix socket (the reference) and
    a bare WebSocket client of the room view (/room/events), each read as
    soon as it is readable and stamped then, so no reader waits behind
    another thread for Python's lock. `times[source]` maps a rep's key
    ("rack/set_id/index") to its first arrival there."""

    def __init__(self):
        super().__init__(daemon=True)
        self.sel = selectors.DefaultSelector()
        self.times = {"socket": {}, "room": {}}
        self.lock = threading.Lock()

    def add_rack(self, name, path):
        s = socket.socket(socket.AF_UNIX)
        s.connect(path)
        s.sendall(b'{"cmd":"watch","classes":["rep","rep_provisional"]}\n')
        s.setblocking(False)
        with self.lock:
            self.sel.register(s, selectors.EVENT_READ, ["rack", name, b""])

    def add_room(self, port):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(b"GET /room/events HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        buf = b""
        while b"\r\n\r\n" not in buf:
            buf += s.recv(4096)
        head, buf = buf.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head
        s.setblocking(False)
        with self.lock:
            self.sel.register(s, selectors.EVENT_READ, ["room", None, buf])

    def run(self):
        while True:
            with self.lock:
                events = self.sel.select(timeout=0.05) if self.sel.get_map() else []
            if not events and not self.sel.get_map():
                time.sleep(0.01)
            for key, _ in events:
                now = time.time()
                try:
                    chunk = key.fileobj.recv(1 << 20)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    with self.lock:
                        self.sel.unregister(key.fileobj)
                    continue
                state = key.data
                state[2] += chunk
                if state[0] == "rack":
                    *lines, state[2] = state[2].split(b"\n")
                    for line in lines:
                        if line.startswith(b'{"class":"rep'):
                            o = json.loads(line)
                            self.times["socket"].setdefault(f"{state[1]}/{o['set_id']}/{o['rep']['index']}", now)
                else:
                    buf = state[2]
                    while len(buf) >= 2:
                        l = buf[1] & 127
                        hdr = 2 + (2 if l == 126 else 8 if l == 127 else 0)
                        if len(buf) < hdr:
                            break
                        if l == 126:
                            l = int.from_bytes(buf[2:4], "big")
                        elif l == 127:
                            l = int.from_bytes(buf[2:10], "big")
                        if len(buf) < hdr + l:
                            break
                        op, payload, buf = buf[0] & 15, buf[hdr:hdr + l], buf[hdr + l:]
                        if op == 9:
                            # The room view pings every 20 s and drops a page
                            # that does not answer: a masked pong, as a browser's.
                            mask = b"\x01\x02\x03\x04"
                            key.fileobj.sendall(bytes([0x8A, 0x80 | len(payload)]) + mask
                                                + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
                        elif payload.startswith(b'{"class":"rack"'):
                            o = json.loads(payload)
                            r = o.get("last_rep")
                            if r:
                                self.times["room"].setdefault(f"{o['rack']}/{r['set_id']}/{r['rep']['index']}", now)
                    state[2] = buf


class BrokerWatcher(threading.Thread):
    """mosquitto_sub on every rack's reps: the plain subscriber's arrival times."""

    def __init__(self, port, work):
        super().__init__(daemon=True)
        self.proc = subprocess.Popen(
            ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-F", "%U %t %p",
             "-t", "liftbuddy/+/rep", "-t", "liftbuddy/+/rep_provisional"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.times = {}
        self.start()

    def run(self):
        for line in self.proc.stdout:
            stamp, topic, payload = line.decode().rstrip("\n").split(" ", 2)
            o = json.loads(payload)
            self.times.setdefault(f"{topic.split('/')[1]}/{o['set_id']}/{o['rep']['index']}", float(stamp))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin", nargs="?", default=os.path.join(ROOT, ".build/release"))
    ap.add_argument("--racks", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--speed", default="2")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--nagle", action="store_true",
                    help="leave Mosquitto's set_tcp_nodelay at its default (false), as a stock broker has it")
    args = ap.parse_args()
    chromium = None if args.no_browser else (shutil.which("chromium") or shutil.which("chromium-browser"))
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    streams = sorted(f for f in os.listdir(os.path.join(ROOT, "SampleStreams"))
                     if f.endswith(".lbs") and not f.startswith("edge-"))
    work = tempfile.mkdtemp(prefix="lb-bench-coach-")
    port, http_port = tw.free_port(), tw.free_port()
    with open(os.path.join(work, "mosquitto.conf"), "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        if not args.nagle:
            f.write("set_tcp_nodelay true\n")
    tc.BIN = args.bin
    broker = tc.Proc(work, "mosquitto", [mosquitto, "-c", os.path.join(work, "mosquitto.conf")])
    coach = tc.Proc(work, "coach", [os.path.join(args.bin, "liftbuddy"), "coach", "--mqtt", f"127.0.0.1:{port}",
                                    "--listen", f"127.0.0.1:{http_port}"])
    racks, browser = {}, None
    stamper = Stamper()
    try:
        tw.wait_for(lambda: "coach: connected" in coach.text(), 20)
        stamper.add_room(http_port)
        stamper.start()
        plain = BrokerWatcher(port, work)
        if chromium:
            browser = tw.Browser(chromium)
            browser.page("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
            browser.page("Page.navigate", {"url": f"http://127.0.0.1:{http_port}/"})
            tw.wait_for(lambda: browser.js("document.readyState") == "complete", 10)
            browser.js(tc.OBSERVER_JS)
        time.sleep(1)
        for i in range(args.racks):
            name = f"rack-{i + 1:02d}"
            racks[name] = tc.rack(work, port, name, streams[i % len(streams)], speed=args.speed, loop=True)
        for name, r in racks.items():
            if tw.wait_for(lambda: os.path.exists(r.sock), 10):
                stamper.add_rack(name, r.sock)
        cpu0 = {p: cpu_seconds(p) for p in [broker.proc.pid, coach.proc.pid] + [r.proc.pid for r in racks.values()]}
        load0 = os.getloadavg()
        t0 = time.time()
        time.sleep(args.seconds)
        wall = time.time() - t0
        cpu = {p: cpu_seconds(p) - c for p, c in cpu0.items()}
        load1 = os.getloadavg()
        page = browser.js("window.__lbReps") if browser else {}
    finally:
        if browser:
            browser.close()
        for r in racks.values():
            r.stop()
        coach.stop()
        broker.stop(signal.SIGKILL)
    time.sleep(0.5)
    first = dict(stamper.times["socket"])
    # Reps published in the measured window only, and not in its last 2 s.
    first = {k: t for k, t in first.items() if t < t0 + wall - 2}
    print(f"broker set_tcp_nodelay {'false (default)' if args.nagle else 'true'}")
    print(f"{len(racks)} racks, --speed {args.speed}, {wall:.0f} s, {len(first)} reps published; "
          f"load average {load0[0]:.1f} -> {load1[0]:.1f}")
    for label, times in [("broker (mosquitto_sub, no coach)", plain.times), ("room view WebSocket", stamper.times["room"]),
                         ("room page in Chromium", {k: v[1] / 1000 for k, v in (page or {}).items()})]:
        lat = sorted((times[k] - t) * 1000 for k, t in first.items() if k in times)
        if not lat:
            print(f"{label}: none")
            continue
        print(f"{label}: {len(lat)}/{len(first)} reps, p50 {pct(lat, 50):.1f} ms, p95 {pct(lat, 95):.1f} ms, "
              f"p99 {pct(lat, 99):.1f} ms, max {lat[-1]:.1f} ms")
    both = sorted((stamper.times["room"][k] - plain.times[k]) * 1000 for k in first
                  if k in stamper.times["room"] and k in plain.times)
    if both:
        print(f"the coach's own share (room view WebSocket minus mosquitto_sub, same rep): p50 {pct(both, 50):.1f} ms, "
              f"p95 {pct(both, 95):.1f} ms, p99 {pct(both, 99):.1f} ms, max {both[-1]:.1f} ms; "
              f"{sum(1 for x in both if x > 20)} reps over 20 ms")
    rack_cpu = sum(cpu[r.proc.pid] for r in racks.values())
    print(f"CPU over the run: broker {cpu[broker.proc.pid] / wall * 100:.1f} % of a core, coach "
          f"{cpu[coach.proc.pid] / wall * 100:.1f} %, {len(racks)} racks {rack_cpu / wall * 100:.1f} % "
          f"({rack_cpu / wall * 100 / max(1, len(racks)):.2f} % each)")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
