#!/usr/bin/env python3
"""Rep latency as a lifter sees it: from the true lockout to the rep event at
a socket subscriber, with liftbuddyd reading a real pty at the recording's own
pace (serial transport, 15-40 Hz, as a clip on USB sends it).

    scripts/bench-rep-latency.py [STREAM.lbs ...]     (default: every serial
                                                      SampleStream with truth)

Each stream gets its own pty and daemon; up to --parallel run at once (they
sleep most of the time, so the figures are not skewed by each other). The
feeder writes each line at its recorded time; the lockout's wall time is the
feeder's start plus the truth's concentric_end_s. Prints, per event class,
the median, 90th percentile and max over all true reps that got an event, and
the reps that got none. Needs a release build (.build/release/liftbuddyd, or
LIFTBUDDYD=path).
"""
import argparse
import json
import os
import pty
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tty

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rows(path):
    """(t, line) of a recorded stream's data rows, and its header dict."""
    header, out = {}, []
    with open(path, "rb") as f:
        for raw in f:
            raw = raw.rstrip(b"\n").decode("utf-8", "surrogateescape")
            if raw.startswith("#"):
                if ":" in raw:
                    k, v = raw[1:].split(":", 1)
                    header[k.strip()] = v.strip()
                continue
            parts = raw.split(" ", 1)
            if len(parts) != 2:
                continue
            try:
                out.append((float(parts[0]), parts[1]))
            except ValueError:
                continue
    return header, out


def run_one(daemon, stream, results):
    truth = json.load(open(stream[: -len(".lbs")] + ".truth.json"))
    lockouts = [r["concentric_end_s"] for s in truth["sets"] for r in s["reps"]]
    header, data = rows(stream)
    if not data:
        return
    master, slave = pty.openpty()
    tty.setraw(slave)
    slave_name = os.ttyname(slave)
    work = tempfile.mkdtemp(prefix="lb-lat-")
    sock_path = os.path.join(work, "s.sock")
    args = [daemon, "--source", "serial:" + slave_name, "--socket", sock_path,
            "--output-dir", os.path.join(work, "lifts"), "--log-level", "warning"]
    if header.get("exercise"):
        args += ["--exercise", header["exercise"]]
    proc = subprocess.Popen(args, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while not os.path.exists(sock_path):
            if time.monotonic() > deadline:
                raise RuntimeError("daemon did not start")
            time.sleep(0.02)
        client = socket.socket(socket.AF_UNIX)
        # The socket's file appears at bind(), a moment before listen(): a
        # refused connect lost a whole stream's reps from a run once.
        while True:
            try:
                client.connect(sock_path)
                break
            except ConnectionRefusedError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)
        client.sendall(b'{"cmd":"watch","classes":["rep","rep_provisional"]}\n')
        events = []

        def reader():
            buf = b""
            while True:
                try:
                    chunk = client.recv(65536)
                except OSError:
                    return
                if not chunk:
                    return
                now = time.monotonic()
                buf += chunk
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    obj = json.loads(line)
                    if obj.get("class") in ("rep", "rep_provisional"):
                        events.append((now, obj))

        th = threading.Thread(target=reader, daemon=True)
        th.start()
        time.sleep(0.3)
        t0 = time.monotonic() - data[0][0]
        for t, line in data:
            delay = t0 + t - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            os.write(master, line.encode("utf-8", "surrogateescape") + b"\n")
        time.sleep(2.0)
        client.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        os.close(master)
        os.close(slave)
    for lockout in lockouts:
        for cls in ("rep", "rep_provisional", "first"):
            match = [
                (arrived - (t0 + lockout))
                for arrived, obj in events
                if (cls == "first" or obj["class"] == cls)
                and abs(obj["rep"]["concentric_end_s"] - lockout) < 0.5
            ]
            results.setdefault(cls, []).append(min(match) if match else None)


def pct(values, q):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(q * (len(v) - 1))))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("streams", nargs="*")
    ap.add_argument("--parallel", type=int, default=6)
    a = ap.parse_args()
    daemon = os.environ.get("LIFTBUDDYD", os.path.join(ROOT, ".build/release/liftbuddyd"))
    streams = a.streams or sorted(
        os.path.join(ROOT, "SampleStreams", f)
        for f in os.listdir(os.path.join(ROOT, "SampleStreams"))
        if f.endswith(".lbs") and "-serial-" in f
        and os.path.exists(os.path.join(ROOT, "SampleStreams", f[:-4] + ".truth.json")))
    results = {}
    for i in range(0, len(streams), a.parallel):
        threads = [threading.Thread(target=run_one, args=(daemon, s, results))
                   for s in streams[i:i + a.parallel]]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    print(f"{len(streams)} streams over a pty at recorded pace; latency from true lockout "
          "to arrival at a socket subscriber:")
    for cls, label in (("first", "first event (provisional or final)"),
                       ("rep", "final rep"), ("rep_provisional", "provisional rep")):
        got = [v for v in results.get(cls, []) if v is not None]
        missing = sum(1 for v in results.get(cls, []) if v is None)
        if got:
            print(f"  {label:36s} n={len(got):3d}  median {pct(got, 0.5):.2f} s  "
                  f"p90 {pct(got, 0.9):.2f} s  max {max(got):.2f} s  (no event: {missing})")
        else:
            print(f"  {label:36s} none (no event: {missing})")


if __name__ == "__main__":
    sys.exit(main())
