#!/usr/bin/env python3
"""Benchmarks of the web view (BENCHMARKS.md, "The web view"):

1. latency: a rep's arrival on the page (a MutationObserver in headless
   Chromium, performance.timeOrigin + now) and at 50 bare WebSocket viewers,
   minus its arrival at a Unix-socket client of the same daemon, over a
   replay at --speed 8;
2. memory: the daemon's RSS with no --http, with --http and no viewer, and
   with 20 viewers;
3. idle cost: CPU of the daemon reading a still bar at 40 Hz through a pty
   for 30 s, with and without --http (no viewer).

  scripts/bench-web.py [path/to/liftbuddyd]     # default .build-release/release/liftbuddyd
"""
import importlib.util, json, os, pty, shutil, socket, statistics, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("testweb", os.path.join(ROOT, "scripts/test-web.py"))
tw = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tw)
DAEMON = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build-release/release/liftbuddyd")
tw.DAEMON = DAEMON


def pct(a, p):
    return a[min(len(a) - 1, int(round(p / 100 * (len(a) - 1))))]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def latency(work, chromium):
    os.makedirs(os.path.join(work, "site"), exist_ok=True)
    shutil.copytree(os.path.join(ROOT, "Sources/LiftBuddyDaemon/Web/Static"), os.path.join(work, "site"), dirs_exist_ok=True)
    port = tw.free_port()
    d = tw.Daemon(work, port, "squat-3sets-ble-typical.lbs", 8)
    tw.wait_for(lambda: "web view on" in d.text(), 10)
    ref = tw.SocketWatcher(d.sock_path)
    viewers = [tw.Viewer(port) for _ in range(50)]
    browser = tw.Browser(chromium)
    try:
        browser.page("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        browser.page("Page.navigate", {"url": f"http://127.0.0.1:{port}/#live"})
        tw.wait_for(lambda: browser.js("document.readyState") == "complete", 10)
        browser.js(tw.OBSERVER_JS)
        d.proc.wait(120)
        page = browser.js("window.__lbSeen") or {}
    finally:
        browser.close()
        d.stop()
    first = {}
    for t, line in ref.lines:
        if line.startswith('{"class":"rep'):
            o = json.loads(line)
            first.setdefault(f"{o['set_id']}/{o['rep']['index']}", t)
    page_lat = sorted((page[k] / 1000 - t) * 1000 for k, t in first.items() if k in page)
    ws_lat = sorted((v.times[k] - t) * 1000 for v in viewers for k, t in first.items() if k in v.times)
    print(f"latency, socket client → page (Chromium, 50 other viewers): {len(page_lat)} reps, "
          f"p50 {statistics.median(page_lat):.1f} ms, p95 {pct(page_lat, 95):.1f} ms, max {page_lat[-1]:.1f} ms")
    print(f"latency, socket client → each of 50 WebSocket viewers: {len(ws_lat)} deliveries, "
          f"p50 {statistics.median(ws_lat):.1f} ms, p95 {pct(ws_lat, 95):.1f} ms, max {ws_lat[-1]:.1f} ms")


def memory(work):
    res = {}
    for label, http in [("no --http", False), ("--http, no viewer", True), ("--http, 20 viewers", True)]:
        port = tw.free_port()
        args = [DAEMON, "--source", "replay:" + os.path.join(ROOT, "SampleStreams/squat-3sets-ble-typical.lbs"),
                "--loop", "--socket", os.path.join(work, "m.sock"), "--output-dir", os.path.join(work, "mlifts")]
        if http:
            args += ["--http", f"127.0.0.1:{port}", "--config", os.path.join(work, "liftbuddyd.conf")]
        p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(3)
        viewers = [tw.Viewer(port) for _ in range(20)] if "20" in label else []
        time.sleep(20)
        res[label] = tw.rss_kb(p.pid)
        ok = all(v.ok and v.frames for v in viewers)
        p.terminate()
        p.wait(10)
        print(f"RSS after 20 s of a real-time replay, {label}: {res[label] / 1024:.1f} MB" + (f" (viewers receiving: {ok})" if viewers else ""))


def idle(work):
    for http in [False, True]:
        master, slave = pty.openpty()
        port = tw.free_port()
        args = [DAEMON, "--source", "serial:" + os.ttyname(slave), "--socket", os.path.join(work, "i.sock"),
                "--output-dir", os.path.join(work, "ilifts")]
        if http:
            args += ["--http", f"127.0.0.1:{port}", "--config", os.path.join(work, "liftbuddyd.conf")]
        p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        stop = threading.Event()

        def write():
            n = 0
            while not stop.is_set():
                os.write(master, b"s:140\n" if n % 2 == 0 else b"a:1.0:0.0\n")
                n += 1
                time.sleep(1 / 40)
        threading.Thread(target=write, daemon=True).start()
        time.sleep(5)
        c0 = cpu_seconds(p.pid)
        time.sleep(30)
        c1 = cpu_seconds(p.pid)
        stop.set()
        p.terminate()
        p.wait(10)
        os.close(master)
        os.close(slave)
        print(f"idle cost, still bar at 40 Hz via a pty, {'--http, no viewer' if http else 'no --http'}: "
              f"{c1 - c0:.2f} s of CPU in 30 s = {(c1 - c0) / 30 * 100:.2f} % of a core")


def main():
    chromium = shutil.which("chromium")
    work = tempfile.mkdtemp(prefix="lb-bench-web-")
    with open(os.path.join(work, "liftbuddyd.conf"), "w") as f:
        f.write(f"http_pairing_code = {tw.CODE}\n")
    print(f"{DAEMON}; load average {os.getloadavg()[0]:.1f}")
    if chromium:
        latency(work, chromium)
    memory(work)
    idle(work)
    print(f"load average {os.getloadavg()[0]:.1f}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
