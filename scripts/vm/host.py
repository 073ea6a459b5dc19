#!/usr/bin/env python3
"""The host's half of the guest's requests (scripts/vm/guest/run.sh `host`).

  host.py serve XCHG CLIP_SOCKET MONITOR_SOCKET
Watches XCHG/ctl for NNN.req files and answers each with NNN.done:
  feed FILE FROM TO   write rows FROM..TO (data rows, 0-based, TO may be "end")
                      of a recorded stream into qemu's USB serial adapter at
                      their recorded pace, as the clip's USB cable would
  unplug              QEMU monitor: device_del of the adapter
  replug              QEMU monitor: device_add of the same adapter
Runs until XCHG/finished exists or qemu's monitor goes away.
"""
import os
import socket
import sys
import time

DEVICE = "usb-serial,bus=xhci.0,chardev=clip,id=clipdev"


def rows(path):
    out = []
    for row in open(path, encoding="utf-8"):
        row = row.rstrip("\n")
        if row and not row.startswith("#"):
            t, _, line = row.partition(" ")
            out.append((float(t), line))
    return out


def connect_clip(clip_socket):
    """qemu's usb-serial is attached to the guest's bus only while its chardev
    has a peer (hw/usb/dev-serial.c), so the host holds the connection for
    the whole run: the cable is "plugged in" from boot, and unplugging is the
    monitor's device_del."""
    deadline = time.monotonic() + 60
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(clip_socket)
            return s
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def feed(clip, path, first, last):
    data = rows(path)
    last = len(data) if last == "end" else int(last)
    part = data[int(first):last]
    origin = time.monotonic() - part[0][0]
    for t, line in part:
        delay = origin + t - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        clip.sendall((line + "\n").encode())


def monitor(monitor_socket, command):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect(monitor_socket)
        s.settimeout(10)
        s.sendall((command + "\n").encode())
        reply = b""
        # The monitor echoes the command, answers, and prompts "(qemu) " again.
        while reply.count(b"(qemu)") < 2:
            chunk = s.recv(4096)
            if not chunk:
                break
            reply += chunk
        return reply.decode(errors="replace")


def serve(xchg, clip_socket, monitor_socket):
    ctl = os.path.join(xchg, "ctl")
    done = set()
    clip = connect_clip(clip_socket)
    while not os.path.exists(os.path.join(xchg, "finished")):
        requests = sorted(f for f in os.listdir(ctl) if f.endswith(".req") and f not in done)
        if not requests:
            time.sleep(0.1)
            try:
                os.kill(int(open(os.path.join(xchg, "qemu.pid")).read()), 0)
            except (OSError, ValueError):
                return
            continue
        name = requests[0]
        words = open(os.path.join(ctl, name)).read().split()
        print(f"host: {' '.join(words)}", flush=True)
        if words[0] == "feed":
            feed(clip, words[1].replace("/mnt/src", os.environ["LIFTBUDDY_SRC"], 1), words[2], words[3])
        elif words[0] in ("unplug", "replug"):
            command = "device_del clipdev" if words[0] == "unplug" else "device_add " + DEVICE
            reply = monitor(monitor_socket, command)
            # The monitor echoes the typing with terminal escapes; say only errors.
            if "rror" in reply:
                print(f"host: {command}: {reply.splitlines()[-2:]}", flush=True)
        done.add(name)
        open(os.path.join(ctl, name[:-4] + ".done"), "w").close()


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(*sys.argv[2:5])
