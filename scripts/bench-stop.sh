#!/usr/bin/env bash
# How long SIGTERM takes to stop liftbuddyd in the middle of a set, and that
# the set's report is there afterwards. The daemon replays a sample stream at
# its recorded pace, is sent SIGTERM inside a set, and the time from the
# signal to its exit is taken (bash `wait`). Release build.
#
#   scripts/bench-stop.sh [RUNS] [--load K]
#
# --load K runs K busy loops (nice 0) meanwhile. Prints p50/p90/max over the
# runs and how many ended with status 0 and one report written.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=20
load=0
while [ $# -gt 0 ]; do
  case "$1" in
    --load) load="$2"; shift 2 ;;
    *) runs="$1"; shift ;;
  esac
done
swift build -c release --product liftbuddyd >/dev/null
daemon=.build/release/liftbuddyd
# This sample's only set runs from 9.4 s to 27.6 s: SIGTERM at 16 s is mid-set.
stream=SampleStreams/squat-fw-serial-typical.lbs
work=$(mktemp -d /tmp/liftbuddy-stop-XXXXXX)
busy=()
cleanup() {
  for p in "${busy[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 1 "$load"); do
  (while :; do :; done) &
  busy+=($!)
done
times=()
good=0
for i in $(seq 1 "$runs"); do
  out="$work/out-$i"
  mkdir -p "$out"
  "$daemon" --source "replay:$stream" --output-dir "$out" --socket "$work/d.sock" \
    2>"$work/err-$i" &
  pid=$!
  sleep 16
  t0=$(date +%s%N)
  kill -TERM "$pid"
  status=0
  wait "$pid" || status=$?
  t1=$(date +%s%N)
  times+=($(((t1 - t0) / 1000)))
  reports=$(find "$out" -name '*.json' | wc -l)
  if [ "$status" -eq 0 ] && [ "$reports" -eq 1 ]; then good=$((good + 1)); fi
done
printf '%s\n' "${times[@]}" | sort -n | awk -v runs="$runs" -v good="$good" -v load="$load" '
  { t[NR] = $1 }
  END {
    p50 = t[int((NR + 1) * 0.5)]; p90 = t[int((NR * 0.9) + 0.999)]
    printf "SIGTERM mid-set to exit, %d runs, %d busy loops: p50 %.1f ms, p90 %.1f ms, max %.1f ms; status 0 with the set written: %d of %d\n",
      NR, load, p50 / 1000, p90 / 1000, t[NR] / 1000, good, runs
  }'
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
