#!/usr/bin/env bash
# Firmware in the loop, no hardware: run the clip firmware built with simulated
# sensors (-DLIFTBUDDY_SIM_SENSORS, a scripted squat set) in simavr, its UART
# bridged to a pseudo-terminal and paced to real time, and check what comes
# out of the pty.
#
#   scripts/firmware-hil.sh
#
# Steps:
#   1. make -C Firmware uno sim hil       (real image, sim image, simavr harness)
#   1b. the REAL Uno image against the harness's simulated parts (an HC-SR04 on
#      D4/D2 at the pin level, an MPU6050 on the I2C bus), unpaced, 4 simulated
#      seconds per case: values, 20 Hz steps, and that a missing part (no echo,
#      echo out of range, no IMU) silences only its own lines
#   2. start Firmware/build-hil/clip_sim, symlink its pty to $HIL_OUT/clip
#   3. capture HIL_SECONDS of lines from the pty into
#        $HIL_OUT/clip-raw.lbs    raw capture: `# rate_hz: 20` header, bare lines
#        $HIL_OUT/clip-timed.lbs  the same lines as `<t> <line>` (arrival times)
#   4. check protocol format, device-clock rates, real-time pacing, value ranges
#      and that the scripted number of rep excursions is there
#   5. if .build/debug/liftbuddy exists: `liftbuddy analyze` on both captures;
#      the rep count must equal the scripted count (an analyzer that is not built
#      yet is reported as SKIPPED, loudly; HIL_STRICT=1 makes that a failure)
#   6. if LIFTBUDDYD=path is set: a fresh simulated clip is started and the
#      daemon is run against it: `$LIFTBUDDYD --source serial:<pty> $LIFTBUDDYD_ARGS`
#      for LIFTBUDDYD_SECONDS (default HIL_SECONDS + 10: the bar stays still at
#      the top after the set, time for a set-end detector), its output kept in $HIL_OUT/liftbuddyd.{out,err}; then
#      LIFTBUDDYD_CHECK (a shell command, run with HIL_OUT, HIL_REPS and
#      HIL_PTY exported) decides pass/fail. Without LIFTBUDDYD_CHECK the run is
#      reported but not judged.
#
# Environment:
#   HIL_REPS=5         reps in the scripted set (compiled into the sim image)
#   HIL_SECONDS=auto   capture length (default: the whole set + 2.5 s)
#   HIL_OUT=dir        where captures go (default: a new mktemp dir, kept)
#   HIL_STRICT=1       fail when the analyzer is missing or not ready
#   LIFTBUDDY=path     the analyzer binary (default .build/debug/liftbuddy)
#   LIFTBUDDYD, LIFTBUDDYD_ARGS, LIFTBUDDYD_SECONDS, LIFTBUDDYD_CHECK: see step 6
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fw="$root/Firmware"
reps="${HIL_REPS:-5}"
# Scripted set (Firmware/LiftBuddyClip/src/liftbuddy/sim_trajectory.h):
# 4 s still, then reps of 1.0 + 0.2 + 0.8 + 0.8 s.
seconds="${HIL_SECONDS:-$(awk -v r="$reps" 'BEGIN { print 4 + r * 2.8 + 2.5 }')}"
out="${HIL_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/liftbuddy-hil.XXXXXX")}"
mkdir -p "$out"
strict="${HIL_STRICT:-0}"

say() { printf '==> %s\n' "$*"; }
failures=0
fail() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }

say "building the Uno image, the simulated-sensor image ($reps reps) and the simavr harness"
make -s -C "$fw" uno sim hil SIM_REPS="$reps"

say "real Uno image with simulated parts (pin-level HC-SR04, I2C MPU6050), unpaced"
parts_case() {  # name, clip_sim part options, check_parts.py expectations
  local name="$1" parts="$2" expect="$3"
  # shellcheck disable=SC2086  # option lists on purpose
  if "$fw/build-hil/clip_sim" --speed 0 --seconds 4 $parts --out "$out/uno-$name.txt" \
       "$fw/build-uno/LiftBuddyClip.elf" >"$out/uno-$name.log" 2>&1 \
     && python3 "$fw/hil/check_parts.py" "$out/uno-$name.txt" --seconds 4 $expect; then
    echo "  PASS uno/$name"
  else
    fail "uno/$name (clip_sim $parts; output in $out/uno-$name.txt)"
  fi
}
parts_case both "--hcsr04 1234 --mpu6050 5,-10" "--sonar-cm 123.4 --attitude=5,-10"
parts_case rolled "--hcsr04 400 --mpu6050 -3,170" "--sonar-cm 40.0 --attitude=-3,170"
parts_case no-imu "--hcsr04 1234" "--sonar-cm 123.4"
parts_case no-echo "--hcsr04 0 --mpu6050 5,-10" "--attitude=5,-10"
parts_case out-of-range "--hcsr04 4500 --mpu6050 5,-10" "--attitude=5,-10"

harness_pid=""
stop_harness() {
  if [[ -n "$harness_pid" ]]; then
    kill "$harness_pid" 2>/dev/null || true
    wait "$harness_pid" 2>/dev/null || true
    harness_pid=""
  fi
}
trap stop_harness EXIT

# Starts the harness with its pty linked at $1; sets harness_pid, waits for the link.
start_harness() {
  local link="$1" log="$2"
  rm -f "$link"
  "$fw/build-hil/clip_sim" --link "$link" "$fw/build-sim/LiftBuddyClip.elf" >"$log" 2>&1 &
  harness_pid=$!
  for _ in $(seq 1 100); do
    [[ -L "$link" ]] && return 0
    kill -0 "$harness_pid" 2>/dev/null || break
    sleep 0.05
  done
  echo "harness did not come up:"; cat "$log"
  return 1
}

link="$out/clip"
say "starting the simulated clip in simavr (real-time pacing)"
start_harness "$link" "$out/clip_sim.log"
pty="$(readlink "$link")"
say "clip UART on $pty (link $link); capturing ${seconds} s"
python3 "$fw/hil/capture.py" "$link" "$seconds" "$out/clip-raw.lbs" \
  --timed "$out/clip-timed.lbs" \
  --header "exercise: squat" \
  --header "source: serial:$pty" \
  --header "firmware: LiftBuddyClip -DLIFTBUDDY_SIM_SENSORS in simavr (atmega328p, 16 MHz)" \
  --header "scripted_reps: $reps"
stop_harness

say "checking the capture"
if ! python3 "$fw/hil/check_capture.py" "$out/clip-raw.lbs" --timed "$out/clip-timed.lbs" --reps "$reps"; then
  fail "capture check"
fi

# --- The analyzer, when it exists -------------------------------------------
analyzer="${LIFTBUDDY:-$root/.build/debug/liftbuddy}"
count_reps_json() {  # stdin: a lift report (or several) as JSON; prints the rep count
  python3 -c '
import json, sys
text = sys.stdin.read()
dec, i, n, found = json.JSONDecoder(), 0, 0, False
while i < len(text):
    while i < len(text) and text[i].isspace(): i += 1
    if i >= len(text): break
    obj, i = dec.raw_decode(text, i)
    for rep in (obj if isinstance(obj, list) else [obj]):
        if isinstance(rep, dict) and isinstance(rep.get("reps"), list):
            n += len(rep["reps"]); found = True
print(n if found else "none")'
}
if [[ -x "$analyzer" ]]; then
  for capture in clip-raw.lbs clip-timed.lbs; do
    say "liftbuddy analyze --format table $capture"
    if "$analyzer" analyze --format table "$out/$capture" >"$out/$capture.table" 2>"$out/$capture.err"; then
      cat "$out/$capture.table"
      got="none"
      if "$analyzer" analyze --format json "$out/$capture" >"$out/$capture.json" 2>/dev/null; then
        got="$(count_reps_json <"$out/$capture.json" 2>/dev/null || echo none)"
      fi
      if [[ "$got" == "none" ]]; then
        # No JSON: count table rows that start with a rep number.
        got="$(grep -cE '^[[:space:]]*[0-9]+[[:space:]|]' "$out/$capture.table" || true)"
        say "(rep count read from the table: $got)"
      fi
      if [[ "$got" == "$reps" ]]; then
        echo "  PASS analyze $capture: $got reps (scripted $reps)"
      else
        fail "analyze $capture: $got reps, scripted $reps"
      fi
    else
      echo "  SKIPPED analyze $capture: the analyzer is not ready yet:"
      sed 's/^/    /' "$out/$capture.err" | head -5
      [[ "$strict" == 1 ]] && fail "analyzer not ready (HIL_STRICT=1)"
    fi
  done
else
  echo "  SKIPPED analyze: $analyzer not built (swift build first); capture left for it in $out"
  [[ "$strict" == 1 ]] && fail "analyzer missing (HIL_STRICT=1)"
fi

# --- Hook: drive the daemon itself ------------------------------------------
if [[ -n "${LIFTBUDDYD:-}" ]]; then
  link2="$out/clip-daemon"
  say "LIFTBUDDYD set: a fresh simulated clip for $LIFTBUDDYD"
  start_harness "$link2" "$out/clip_sim-daemon.log"
  export HIL_OUT="$out" HIL_REPS="$reps" HIL_PTY="$link2"
  rc=0
  # shellcheck disable=SC2086  # LIFTBUDDYD_ARGS is a word list on purpose
  daemon_seconds="${LIFTBUDDYD_SECONDS:-$(awk -v s="$seconds" 'BEGIN { print s + 10 }')}"
  timeout --signal=INT --kill-after=5 "$daemon_seconds" \
    "$LIFTBUDDYD" --source "serial:$link2" ${LIFTBUDDYD_ARGS:-} \
    >"$out/liftbuddyd.out" 2>"$out/liftbuddyd.err" || rc=$?
  stop_harness
  say "liftbuddyd exited with $rc after ${daemon_seconds} s (124/130 = stopped by the timeout)"
  tail -n 20 "$out/liftbuddyd.out" "$out/liftbuddyd.err" || true
  if [[ -n "${LIFTBUDDYD_CHECK:-}" ]]; then
    if bash -c "$LIFTBUDDYD_CHECK"; then
      echo "  PASS LIFTBUDDYD_CHECK"
    else
      fail "LIFTBUDDYD_CHECK: $LIFTBUDDYD_CHECK"
    fi
  else
    echo "  NOT JUDGED: set LIFTBUDDYD_CHECK to a command that checks \$HIL_OUT/liftbuddyd.* for \$HIL_REPS reps"
  fi
fi

say "captures in $out"
if ((failures > 0)); then
  echo "firmware HIL: $failures failure(s)"
  exit 1
fi
echo "firmware HIL: OK"
