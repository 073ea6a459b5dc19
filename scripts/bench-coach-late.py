#!/usr/bin/env python3
"""Benchmark of a coach arriving late (BENCHMARKS.md, "The coach's view",
issue 11): the time from starting `liftbuddy coach` to a full room view,
every rack's last set on the page, when the racks are idle.

N racks (default 20) are real liftbuddyd, each replaying a SampleStream
(its own, cycling through the bundled ones) at --speed max into one
loopback Mosquitto, then stopping: the broker holds each rack's retained
`status` and `last_lift` and nothing else is published while the coach
starts. Each round then starts `liftbuddy coach` and a bare WebSocket
client of its /room/events (connecting as soon as the page listens), and
stops the clock when that client holds a `rack` object with a `last_lift`
for every rack. The alternative, in the same round: `mosquitto_sub -C N`
on `<prefix>/+/last_lift`, from its start to its exit (the broker's and a
C client's floor, no room model and no page).

  scripts/bench-coach-late.py [BIN_DIR] [--racks N] [--rounds R]
      # BIN_DIR default .build/release (swift build -c release)
"""
import argparse, importlib.util, json, os, shutil, signal, socket, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "scripts", file))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


tw = load("testweb", "test-web.py")
tc = load("testcoach", "test-coach.py")


def frame_length(b):
    """Bytes of the first WebSocket frame in `b` (server frames: unmasked)."""
    l = b[1] & 127
    hdr = 2 + (2 if l == 126 else 8 if l == 127 else 0)
    if len(b) < hdr:
        return 1 << 30
    return hdr + (int.from_bytes(b[2:hdr], "big") if hdr > 2 else l)


def room_objects(port, want, deadline):
    """Connects to /room/events (retrying until the server listens) and
    reads frames until every rack in `want` has a last_lift; returns the
    time then, or None at the deadline."""
    while time.time() < deadline:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=max(0.1, deadline - time.time()))
        except OSError:
            time.sleep(0.002)
            continue
        s.sendall(b"GET /room/events HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        buf, have = b"", set()
        try:
            while b"\r\n\r\n" not in buf:
                chunk = s.recv(4096)
                if not chunk:
                    raise OSError("closed")
                buf += chunk
            head, buf = buf.split(b"\r\n\r\n", 1)
            if not head.startswith(b"HTTP/1.1 101"):
                raise OSError(head[:40])
            while True:
                while len(buf) < 2 or len(buf) < frame_length(buf):
                    chunk = s.recv(65536)
                    if not chunk:
                        raise OSError("closed")
                    buf += chunk
                n = frame_length(buf)
                op, payload = buf[0] & 15, buf[2 + (2 if buf[1] & 127 == 126 else 8 if buf[1] & 127 == 127 else 0):n]
                buf = buf[n:]
                if op == 1 and payload.startswith(b'{"class":"rack"'):
                    o = json.loads(payload)
                    if o.get("last_lift"):
                        have.add(o["rack"])
                        if want <= have:
                            return time.time()
        except OSError:
            time.sleep(0.002)
        finally:
            s.close()
    return None


def pct(a, p):
    return a[min(len(a) - 1, int(round(p / 100 * (len(a) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin", nargs="?", default=os.path.join(ROOT, ".build/release"))
    ap.add_argument("--racks", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=10)
    args = ap.parse_args()
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    streams = sorted(f for f in os.listdir(os.path.join(ROOT, "SampleStreams"))
                     if f.endswith(".lbs") and not f.startswith("edge-"))
    work = tempfile.mkdtemp(prefix="lb-bench-coach-late-")
    port = tw.free_port()
    with open(os.path.join(work, "mosquitto.conf"), "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nset_tcp_nodelay true\n")
    tc.BIN = args.bin
    broker = tc.Proc(work, "mosquitto", [mosquitto, "-c", os.path.join(work, "mosquitto.conf")])
    coach_ms, sub_ms = [], []
    try:
        tw.wait_for(lambda: "listen socket on port" in broker.text() or "Opening ipv4" in broker.text(), 10)
        time.sleep(0.2)
        names = [f"rack-{i + 1:02d}" for i in range(args.racks)]
        racks = [tc.rack(work, port, n, streams[i % len(streams)], speed="max") for i, n in enumerate(names)]
        for r in racks:
            r.proc.wait(120)
        missing = [n for n in names if not tc.reports(work, n)]
        if missing:
            print(f"racks without a report: {missing}", file=sys.stderr)
            return 1
        load0 = os.getloadavg()
        for _ in range(args.rounds):
            http_port = tw.free_port()
            t0 = time.time()
            coach = tc.Proc(work, "coach", [os.path.join(args.bin, "liftbuddy"), "coach", "--mqtt",
                                            f"127.0.0.1:{port}", "--listen", f"127.0.0.1:{http_port}"])
            t1 = room_objects(http_port, set(names), t0 + 30)
            coach.stop()
            if t1 is None:
                print("the room view never held every rack's last set:\n" + coach.text(), file=sys.stderr)
                return 1
            coach_ms.append((t1 - t0) * 1000)
            t0 = time.time()
            subprocess.run(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-t", "liftbuddy/+/last_lift",
                            "-C", str(args.racks)], stdout=subprocess.DEVNULL, check=True, timeout=30)
            sub_ms.append((time.time() - t0) * 1000)
        load1 = os.getloadavg()
    finally:
        broker.stop(signal.SIGKILL)
    print(f"{args.racks} idle racks (their retained status and last_lift), {args.rounds} rounds, "
          f"load average {load0[0]:.1f} -> {load1[0]:.1f}")
    for label, a in [("liftbuddy coach start -> every rack's last set on /room/events", coach_ms),
                     ("mosquitto_sub -C N start -> exit (alternative)", sub_ms)]:
        a.sort()
        print(f"{label}: median {pct(a, 50):.0f} ms, min {a[0]:.0f} ms, max {a[-1]:.0f} ms")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
