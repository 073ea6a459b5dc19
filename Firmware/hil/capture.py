#!/usr/bin/env python3
"""Capture the clip's serial stream from a tty/pty for a number of seconds.

    capture.py DEVICE SECONDS RAW_OUT [--timed TIMED_OUT] [--header "key: value"]...

Opens DEVICE raw (termios: no echo, no line discipline, 115200 8N1 -- a pty
ignores the speed, a real USB serial port needs it), reads for SECONDS and
writes:
  RAW_OUT    a raw capture in the recorded-stream format: `#` header lines
             (always `# liftbuddy-stream 1` and `# rate_hz: 20`, plus any
             --header), then the bare protocol lines as received;
  TIMED_OUT  (optional) the same lines as `<t> <line>` rows, t = arrival time
             in seconds since the first line, on this host's monotonic clock.
A leading fragment (the capture began in the middle of a line) is dropped.
Only the Python standard library is used.
"""
import argparse
import os
import re
import select
import sys
import termios
import time
import tty

FULL_LINE = re.compile(rb"^(s:-?\d+(\.\d+)?|a:-?\d+(\.\d+)?:-?\d+(\.\d+)?)(:\d+)*\r?$")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("device")
    ap.add_argument("seconds", type=float)
    ap.add_argument("raw_out")
    ap.add_argument("--timed")
    ap.add_argument("--header", action="append", default=[])
    ap.add_argument("--rate-hz", default="20")
    args = ap.parse_args()

    fd = os.open(args.device, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    tty.setraw(fd)
    attrs = termios.tcgetattr(fd)
    attrs[4] = attrs[5] = termios.B115200  # ispeed, ospeed
    attrs[3] &= ~termios.ECHO
    termios.tcsetattr(fd, termios.TCSANOW, attrs)

    start = time.monotonic()
    end = start + args.seconds
    rows = []  # (arrival, bytes)
    pending = b""
    first = True
    while True:
        left = end - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([fd], [], [], min(left, 0.2))
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except BlockingIOError:
            continue
        except OSError as e:  # EIO: the other side of the pty went away
            print(f"capture: read error: {e}", file=sys.stderr)
            break
        now = time.monotonic()
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            if first:
                first = False
                if not FULL_LINE.match(line):
                    print(f"capture: dropped leading fragment {line!r}", file=sys.stderr)
                    continue
            rows.append((now, line.rstrip(b"\r")))
    os.close(fd)

    header = ["# liftbuddy-stream 1", f"# rate_hz: {args.rate_hz}"]
    header += [f"# {h}" for h in args.header]
    with open(args.raw_out, "w", encoding="utf-8") as f:
        f.write("\n".join(header) + "\n")
        for _, line in rows:
            f.write(line.decode("utf-8", "replace") + "\n")
    if args.timed:
        t0 = rows[0][0] if rows else start
        with open(args.timed, "w", encoding="utf-8") as f:
            f.write("\n".join(h for h in header if not h.startswith("# rate_hz")) + "\n")
            for t, line in rows:
                f.write(f"{t - t0:.3f} {line.decode('utf-8', 'replace')}\n")
    print(f"capture: {len(rows)} lines in {args.seconds:g} s from {args.device}")
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())
