#!/usr/bin/env bash
# The one test command (README, .ci/run): everything that can be checked on
# this machine without hardware. Needs what scripts/setup.sh installs.
#
#   scripts/test.sh            # full run (19 min on 2 cores from a clean tree here, 29 on CI)
#   FUZZ_SECONDS=0 scripts/test.sh   # skip the sanitizer fuzz smoke
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0
failed=0
failures=()
timings=()
step() { # name, command...
  local name="$1"
  shift
  echo "== $name"
  local started=$SECONDS
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$name")
    echo "!! $name failed"
  fi
  # CI has a time budget (keep the whole run under 30 min): each check's
  # share is printed so the one that grew is found from the log.
  timings+=("$((SECONDS - started)) s  $name")
}

bin_dir() { swift build --show-bin-path; }

# 1. Swift: build (no warnings allowed in our targets) and every test target.
build_all() {
  swift build --build-tests 2>&1 | tee /tmp/liftbuddy-build.log | grep -E "error|warning: |Compiling|Build" | tail -5
  local status=${PIPESTATUS[0]}
  # Any warning but those inside dependency checkouts: the compiler's on our
  # sources, and SwiftPM's own (an unhandled file in a target, say).
  if grep "warning: " /tmp/liftbuddy-build.log | grep -v -e "/.build" -e "/checkouts/" | grep -q .; then
    echo "warnings in the project:"
    grep "warning: " /tmp/liftbuddy-build.log | grep -v -e "/.build" -e "/checkouts/" | sort -u | head -20
    return 1
  fi
  return "$status"
}
step "swift build (no warnings)" build_all
# The suite's log is kept: CI shows only the end of the output, so the
# summary at the bottom repeats which tests failed and why.
swift_test() {
  swift test 2>&1 | tee /tmp/liftbuddy-test.log
  return "${PIPESTATUS[0]}"
}
step "swift test" swift_test
# The issue's 20 racks through one broker, alone: beside the other suites
# its burst upsets their timing (the suite runs 5 racks).
step "MQTT: 20 racks, every rep and report once, in order" \
  env LIFTBUDDY_MQTT_RACKS=20 swift test --skip-build --filter MQTTManyRacksTests

# 2. The contract: our copy matches ../shared when it is there.
contract() {
  local shared=../shared/contract
  if [ -d "$shared" ]; then
    cmp docs/contract/lift-report.schema.json "$shared/lift-report.schema.json" &&
      cmp docs/contract/stream-format.md "$shared/stream-format.md" &&
      echo "docs/contract matches $shared"
  else
    echo "no $shared beside the project: nothing to compare"
  fi
}
step "contract copy matches" contract

# 3. Every report analyze prints for the samples is valid against the schema.
reports() {
  local b
  b="$(bin_dir)"
  for f in SampleStreams/*.lbs; do "$b/liftbuddy" analyze "$f" || return 1; done >/tmp/liftbuddy-sample-reports.jsonl
  /usr/bin/python3 scripts/validate-reports.py docs/contract/lift-report.schema.json /tmp/liftbuddy-sample-reports.jsonl
}
step "reports valid against the schema" reports
# (Accuracy against the targets is the Swift test "Accuracy on SampleStreams".)

# Streams we did not make: 24 sessions of a simulator, scored; `below` is
# an awk condition on the TOTAL row (columns: 5 exact %, 6 reports that
# were no set, 10 precision, 11 recall) that fails the step, printing it.
sessions_above_floor() {
  local name=$1 seed=$2 below=$3 d status
  d="$(mktemp -d)"
  /usr/bin/python3 "scripts/$name/simulate.py" --seed "$seed" --count 24 --out "$d" >/dev/null \
    || { rm -rf "$d"; return 1; }
  "$(bin_dir)/liftbuddy" evaluate "$d"/*.lbs --by none | tee "/tmp/liftbuddy-$name.txt" \
    | awk '$1 == "liftbuddy" && $2 == "TOTAL" {
        found = 1
        if ('"$below"') { print "below the floor: " $0; bad = 1 }
      } END { exit !(found && !bad) }'
  status=$?
  rm -rf "$d"
  return "$status"
}

# scripts/independent-sim, written from the contract and published
# biomechanics, not from our simulator. Seeds 9000–9023 were looked at
# (BENCHMARKS.md, fourteenth pass, 94.0 % exact then); the floor is two
# sets under what they measure now (fifty-sixth pass: 100.0 % exact of 66
# sets, no report that was no set, precision 1.000), so a regression fails
# here. Held-out seeds (50000 on) are for BENCHMARKS.md only.
independent() { sessions_above_floor independent-sim 9000 '$5 < 96 || $6 > 0 || $10 < 0.99'; }
step "independent simulator: 24 sessions above the floor" independent

# A third author, scripts/blind-sim, written blind: from the contract, the
# real recordings and published sources, never from the analyzer or either
# simulator. Seeds 7000000–7000023 were looked at (BENCHMARKS.md,
# fifty-sixth pass, final: 68.6 % exact of 70 sets, no report that was no
# set, precision 1.000, recall 0.923); the floor is two sets under that,
# so a regression on streams of an author we never tuned on fails here.
# Held-out seeds (7100000 on) are for BENCHMARKS.md only.
blind() { sessions_above_floor blind-sim 7000000 '$5 < 65 || $6 > 0 || $10 < 0.99 || $11 < 0.9'; }
step "blind simulator: 24 sessions above the floor" blind

# 4. The firmware: Uno image within flash/RAM, host tests, firmware in the loop.
step "firmware build (Uno)" make -C Firmware
step "firmware host tests" make -C Firmware test
# The firmware in simavr, its UART on a pty; liftbuddyd reads that pty as its
# serial clip and must report the scripted set: one set, every scripted rep.
hil() {
  local out
  out="$(mktemp -d)"
  env LIFTBUDDY="$(bin_dir)/liftbuddy" HIL_STRICT=1 HIL_OUT="$out" \
    LIFTBUDDYD="$(bin_dir)/liftbuddyd" \
    LIFTBUDDYD_ARGS="--output-dir $out/lifts --socket $out/liftbuddyd.sock --exercise squat" \
    LIFTBUDDYD_CHECK='/usr/bin/python3 scripts/check-hil-reports.py "$HIL_OUT/lifts" "$HIL_REPS"' \
    scripts/firmware-hil.sh
}
step "firmware in the loop (simavr → pty → liftbuddyd)" hil

# 5. The web view in headless Chromium (scripts/test-web.py, about a minute):
#    what the page shows against the report files, reconnect, 50 viewers, the
#    pairing code, hostile requests. Phone-size screenshots: web-screenshots/.
step "web view in Chromium" /usr/bin/python3 scripts/test-web.py "$(bin_dir)/liftbuddyd"
# The coach's room view (scripts/test-coach.py, about 30 s): a real Mosquitto,
# racks replaying streams with --mqtt, `liftbuddy coach`, the page in Chromium
# against the racks' report files; a SIGKILLed rack offline by its last will.
step "coach's room view in Chromium" /usr/bin/python3 scripts/test-coach.py "$(bin_dir)"

# 6. Fuzzing: the committed corpus replayed by the plain build, then a short
#    libFuzzer smoke with AddressSanitizer (long runs: scripts/fuzz.sh).
#    20 s a target: the sanitizer build is most of the check, and CI's
#    budget is tight (the whole run took 29 min on CI at 45 s a target).
step "fuzz corpus replay (core)" "$(bin_dir)/liftbuddy-fuzz" Tests/FuzzCorpus/core
step "fuzz corpus replay (command)" "$(bin_dir)/liftbuddy-fuzz" --target=command Tests/FuzzCorpus/command
if [ "${FUZZ_SECONDS:-20}" != 0 ]; then
  step "fuzz smoke (core)" scripts/fuzz.sh "${FUZZ_SECONDS:-20}" core
  step "fuzz smoke (command)" scripts/fuzz.sh "${FUZZ_SECONDS:-20}" command
fi

# 6. A real Linux kernel: the .deb installed in a Debian guest under qemu,
#    systemd as PID 1 starting the unit, BLE through the kernel's stack with an
#    emulated clip, udev and qemu's USB serial adapter (scripts/vm-test.sh),
#    with the release package (a debug build does not link with the static
#    Swift stdlib). CI runs every scenario (30 checks, about 5 min with the
#    image cached, 2.5-3 min more than the smoke set: see README). The guest
#    image is built on first use and cached (~/.cache/liftbuddy-vm).
#    LIFTBUDDY_VM=smoke runs the smoke set only (install, systemd, BLE
#    ble:auto); LIFTBUDDY_VM=0 skips the guest.
case "${LIFTBUDDY_VM:-1}" in
  0) ;;
  smoke) step "Debian guest under qemu (scripts/vm-test.sh --smoke)" scripts/vm-test.sh --smoke ;;
  *) step "Debian guest under qemu (scripts/vm-test.sh, every scenario)" scripts/vm-test.sh ;;
esac

echo
case " ${failures[*]} " in
  *" swift test "*)
    echo "swift test, what failed (from /tmp/liftbuddy-test.log):"
    grep -e "✘" -e "recorded an issue" -e "error: -" -e "' failed (" -e "Fatal error" -e "crashed" \
      /tmp/liftbuddy-test.log | cut -c1-400 | head -40
    ;;
esac
printf '%s\n' "${timings[@]}"
echo "total: $SECONDS s"
if [ "$failed" -gt 0 ]; then printf 'failed: %s\n' "${failures[@]}"; fi
echo "checks: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
