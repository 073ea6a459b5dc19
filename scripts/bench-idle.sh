#!/usr/bin/env bash
# Idle cost of liftbuddyd: a still bar at 40 Hz (`s:140` and `a:1.0:0.0`
# lines) through a pseudo-terminal, for 30 s after a 5 s warm-up; prints the
# daemon's CPU time (utime + stime from /proc/PID/stat) as a share of one
# core. Give several binaries to measure them in one run, one after another.
#
#   scripts/bench-idle.sh LIFTBUDDYD [LIFTBUDDYD...]
set -euo pipefail
seconds="${SECONDS_MEASURED:-30}"
for daemon in "$@"; do
  /usr/bin/python3 - "$daemon" "$seconds" <<'PY'
import os, pty, subprocess, sys, tempfile, time, tty
daemon, seconds = sys.argv[1], float(sys.argv[2])
master, slave = pty.openpty()
tty.setraw(slave)
path = os.ttyname(slave)
d = tempfile.mkdtemp()
p = subprocess.Popen([daemon, "--source", f"serial:{path}", "--output-dir", f"{d}/lifts",
                      "--socket", f"{d}/s.sock"], stderr=subprocess.DEVNULL)
tick = os.sysconf("SC_CLK_TCK")
def cpu():
    fields = open(f"/proc/{p.pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick
def run(duration):
    start = time.monotonic(); n = 0
    while time.monotonic() - start < duration:
        os.write(master, b"s:140\na:1.0:0.0\n"); n += 1
        time.sleep(max(0, start + n / 40 - time.monotonic()))
run(5)
c0, t0 = cpu(), time.monotonic()
run(seconds)
c1, t1 = cpu(), time.monotonic()
p.terminate(); p.wait()
print(f"{daemon}: {c1 - c0:.2f} s CPU in {t1 - t0:.1f} s = {100 * (c1 - c0) / (t1 - t0):.2f} % of a core")
PY
done
