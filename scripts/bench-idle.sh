#!/usr/bin/env bash
# Idle cost of liftbuddyd: a still bar at 40 Hz (`s:140` and `a:1.0:0.0`
# lines) through a pseudo-terminal, for 30 s after a 5 s warm-up; prints the
# daemon's CPU time as a share of one core: utime + stime from
# /proc/PID/stat (10 ms ticks, so 0.03 points in 30 s is one tick), and the
# nanosecond run time of its threads from /proc/PID/task/*/schedstat (the
# first field; threads alive at both readings). Give several binaries to
# measure them in one run, one after another.
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
def runtimes():
    times = {}
    for t in os.listdir(f"/proc/{p.pid}/task"):
        try: times[t] = int(open(f"/proc/{p.pid}/task/{t}/schedstat").read().split()[0])
        except OSError: pass
    return times
def run(duration):
    start = time.monotonic(); n = 0
    while time.monotonic() - start < duration:
        os.write(master, b"s:140\na:1.0:0.0\n"); n += 1
        time.sleep(max(0, start + n / 40 - time.monotonic()))
run(5)
c0, r0, t0 = cpu(), runtimes(), time.monotonic()
run(seconds)
c1, r1, t1 = cpu(), runtimes(), time.monotonic()
p.terminate(); p.wait()
ns = sum(r1[t] - r0[t] for t in r1 if t in r0)
print(f"{daemon}: {c1 - c0:.2f} s CPU in {t1 - t0:.1f} s = {100 * (c1 - c0) / (t1 - t0):.2f} % of a core"
      f" (schedstat: {ns / 1e9:.3f} s = {100 * ns / 1e9 / (t1 - t0):.3f} %)")
PY
done
