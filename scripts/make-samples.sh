#!/usr/bin/env bash
# Regenerates SampleStreams/: the curated simulated streams with their ground
# truth, and the hand-made edge cases. Deterministic: running it twice gives
# byte-identical files, so a diff after running it means the simulator changed.
#
#   scripts/make-samples.sh            # builds liftbuddy (debug) and writes SampleStreams/
#   LIFTBUDDY=/path/to/liftbuddy scripts/make-samples.sh
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/SampleStreams"
if [[ -z "${LIFTBUDDY:-}" ]]; then
  (cd "$root" && swift build --scratch-path .build-sim --product liftbuddy >/dev/null)
  LIFTBUDDY="$(cd "$root" && swift build --scratch-path .build-sim --show-bin-path)/liftbuddy"
fi
mkdir -p "$out"
rm -f "$out"/*.lbs "$out"/*.truth.json

sim() { # name, then simulate options
  local name="$1"; shift
  "$LIFTBUDDY" simulate "$@" --output "$out/$name.lbs"
}

# Every exercise, both timestamped transports, all three noise levels.
sim squat-serial-clean            --exercise squat --reps 5 --load 100 --seed 1 --transport serial --noise clean
sim squat-serial-typical          --exercise squat --reps 5 --load 120 --seed 2 --transport serial --noise typical
sim squat-ble-dirty               --exercise squat --reps 6 --load 90 --seed 3 --transport ble --noise dirty
sim bench_press-ble-clean         --exercise bench_press --reps 5 --load 70 --seed 4 --transport ble --noise clean
sim bench_press-serial-typical    --exercise bench_press --reps 8 --load 60 --seed 5 --transport serial --noise typical
sim bench_press-ble-dirty         --exercise bench_press --reps 4 --load 85 --seed 6 --transport ble --noise dirty
sim deadlift-serial-clean         --exercise deadlift --reps 5 --load 140 --seed 7 --transport serial --noise clean
sim deadlift-ble-typical          --exercise deadlift --reps 3 --load 170 --seed 8 --transport ble --noise typical
sim deadlift-serial-dirty         --exercise deadlift --reps 6 --load 120 --seed 9 --transport serial --noise dirty
sim overhead_press-serial-clean   --exercise overhead_press --reps 6 --load 40 --seed 10 --transport serial --noise clean
sim overhead_press-ble-typical    --exercise overhead_press --reps 5 --load 45 --seed 11 --transport ble --noise typical
sim overhead_press-serial-dirty   --exercise overhead_press --reps 4 --load 50 --seed 12 --transport serial --noise dirty --rate-hz 15
# Raw serial captures: no timestamps, timed by the header's rate_hz.
sim squat-raw-typical             --exercise squat --reps 5 --load 110 --seed 13 --transport raw --noise typical --rate-hz 20
sim bench_press-raw-dirty         --exercise bench_press --reps 5 --load 80 --seed 14 --transport raw --noise dirty
# Styles: a grinder with a sticking point, paused reps, dead-stop pulls.
sim squat-grinder-serial-typical  --exercise squat --reps 5 --load 135 --seed 15 --transport serial --noise typical --grinder
sim bench_press-paused-ble-typical --exercise bench_press --reps 4 --load 80 --seed 16 --transport ble --noise typical --paused
sim deadlift-paused-grinder-serial-clean --exercise deadlift --reps 4 --load 175 --seed 17 --transport serial --noise clean --paused --grinder
# Sessions: three sets with rests; bar already in hand (no rack moves); 40 Hz.
sim squat-3sets-ble-typical       --exercise squat --reps 5 --sets 3 --load 100 --seed 18 --transport ble --noise typical
sim bench_press-norack-serial-clean --exercise bench_press --reps 6 --load 60 --seed 19 --transport serial --noise clean --no-rack-moves
sim squat-rackmoves-serial-dirty  --exercise squat --reps 3 --load 140 --seed 20 --transport serial --noise dirty --rate-hz 40

# The repository's own firmware (Firmware/): `:<millis>` device-clock field,
# one decimal, 20 Hz, no line for out-of-range pings.
sim squat-fw-serial-typical       --exercise squat --reps 5 --load 110 --seed 22 --transport serial --noise typical --firmware liftbuddy
sim deadlift-fw-ble-dirty         --exercise deadlift --reps 5 --load 150 --seed 23 --transport ble --noise dirty --firmware liftbuddy
sim bench_press-fw-raw-clean      --exercise bench_press --reps 6 --load 75 --seed 24 --transport raw --noise clean --firmware liftbuddy

# Issue 8's scenarios (`liftbuddy simulate --list-scenarios`): one whole
# session per tuning scenario, named by it, with what happens around the sets
# (floor to rack, cleans, unracks, re-grips, clip handling, sensor faults).
# The held-out scenarios stay out of the repository: they are measured with
# `liftbuddy evaluate --split heldout`, never used as test fixtures.
scenario_seed=1
for scenario in plain-set rack-session floor-to-rack clean-and-press deadlift-platform \
    regrip-mid-set clip-handling sensor-faults legacy-sweep warm-up continuous-sets; do
  "$LIFTBUDDY" simulate --scenario "$scenario" --seed "$scenario_seed" --output "$out/scenario-$scenario.lbs"
done

# Hand-made edge cases, derived from a short clean stream where they need
# real reps, each with its truth (the source's truth renamed).
edge_from() { # edge name, awk program over the source's rows
  local name="$1" program="$2" src="$out/.edge-source.lbs"
  awk "$program" "$src" > "$out/$name.lbs"
  sed "s/\"stream\" : \"[^\"]*\"/\"stream\" : \"$name.lbs\"/" "${src%.lbs}.truth.json" > "$out/$name.truth.json"
}
"$LIFTBUDDY" simulate --exercise bench_press --reps 3 --load 70 --seed 21 --transport serial --noise clean \
  --no-rack-moves --rate-hz 20 --output "$out/.edge-source.lbs"
# CRLF line endings throughout, header included.
edge_from edge-crlf '{ printf "%s\r\n", $0 }'
# Every 50th data row is followed by a row timed 2.5 s earlier (rejected).
edge_from edge-backwards-time '{ print } !/^#/ && NR % 50 == 0 && $1 >= 2.5 { printf "%.3f s:%d\n", $1 - 2.5, 20 }'
# Overlong lines (600 characters) every 40th row, at the row's own time.
edge_from edge-overlong '{ print } !/^#/ && NR % 40 == 0 { l = "a:"; for (i = 0; i < 598; i++) l = l "7"; print $1 " " l }'
# NaN, infinity and empty values every 25th row.
edge_from edge-nan '{ print } !/^#/ && NR % 25 == 0 { k = (NR / 25) % 4; v = k == 0 ? "s:nan" : k == 1 ? "a:nan:nan" : k == 2 ? "s:inf" : "s:"; print $1 " " v }'
rm -f "$out/.edge-source.lbs" "$out/.edge-source.truth.json"

# A header and nothing else: no sets.
no_sets() { # name, note
  printf '{\n  "format" : "liftbuddy-truth 1",\n  "noise" : null,\n  "non_reps" : [\n\n  ],\n  "seed" : null,\n  "sets" : [\n\n  ],\n  "stream" : "%s.lbs",\n  "transport" : null\n}\n' "$1" > "$out/$1.truth.json"
}
printf '# liftbuddy-stream 1\n# exercise: squat\n# load_kg: 100\n# source: hand-made\n# rate_hz: 20\n' > "$out/edge-header-only.lbs"
no_sets edge-header-only
# Garbage only: binary noise, unknown prefixes, bad numbers, bad rows, NaN.
{
  printf '# liftbuddy-stream 1\n# exercise: deadlift\n# source: hand-made\n'
  for i in $(seq 0 199); do
    t=$(printf '%d.%03d' $((i / 20)) $(((i % 20) * 50)))
    case $((i % 8)) in
      0) printf '%s \x01\x02\xfe\xff\x80garbage\n' "$t" ;;
      1) printf '%s x:12\n' "$t" ;;
      2) printf '%s s:12x\n' "$t" ;;
      3) printf '%s s:nan\n' "$t" ;;
      4) printf '%s a:1.5\n' "$t" ;;
      5) printf 'not a row at all\n' ;;
      6) printf '%sabc s:140\n' "$t" ;;
      7) printf '%s s:-1e400\n' "$t" ;;
    esac
  done
} > "$out/edge-garbage-only.lbs"
no_sets edge-garbage-only

ls -l "$out"
