#!/usr/bin/env bash
# MQTT benchmarks (issue 11; figures in BENCHMARKS.md).
#
#   scripts/bench-mqtt.sh load [RACKS] [SECONDS] [STREAM]
#       RACKS liftbuddyd (release build) replay STREAM in a loop at its own
#       pace (default: 50 racks, 60 s, SampleStreams/scenario-rack-session.lbs,
#       a 20 Hz recording), all publishing to one Mosquitto on loopback with
#       the sample class on (sample_rate_hz = 25: every reading of the 20 Hz
#       clip is a sample), then again with it off
#       (the alternative, same run). One mosquitto_sub takes everything.
#       Prints, per run: messages the daemons handed to libmosquitto and
#       dropped (their "MQTT: stopped" lines), messages the subscriber
#       received and the difference (loss), samples per rack per second,
#       and the CPU of the broker, the daemons (sum and mean) and the
#       subscriber over the measured window (utime + stime from /proc/PID/stat).
#
#   scripts/bench-mqtt.sh latency [EVENTS] [SPACING_MS]
#       publish→subscriber latency p50/p99/max of reps with 1 and 20 racks
#       publishing at once, each rack a rep every SPACING_MS (default 20)
#       (MQTTLatencyBenchmark). A release build of the test target
#       (-enable-testing, in .build-mqtt-release); LIFTBUDDY_BENCH_DEBUG=1
#       for the debug build.
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-load}"
if [[ "$mode" == latency ]]; then
  export LIFTBUDDY_MQTT_BENCH=1
  export LIFTBUDDY_MQTT_BENCH_EVENTS="${2:-500}"
  export LIFTBUDDY_MQTT_BENCH_SPACING_MS="${3:-20}"
  flags=(-c release --scratch-path .build-mqtt-release -Xswiftc -enable-testing)
  [[ "${LIFTBUDDY_BENCH_DEBUG:-0}" == 1 ]] && flags=()
  swift build -j 1 "${flags[@]}" --build-tests
  swift test -j 1 "${flags[@]}" --skip-build --filter MQTTLatencyBenchmark 2>&1 | tee /dev/stderr |
    grep -q '✔ Test publishToSubscriberLatency() passed'
  exit 0
fi
[[ "$mode" == load ]] || { echo "usage: $0 load|latency ..." >&2; exit 2; }

racks="${2:-50}"
seconds="${3:-60}"
stream="$(realpath "${4:-SampleStreams/scenario-rack-session.lbs}")"
warmup=5
bin="${LIFTBUDDY_BIN:-.build/release/liftbuddyd}"
if [[ -z "${LIFTBUDDY_BIN:-}" ]]; then swift build -c release -j 1 --product liftbuddyd >&2; fi
bin="$(realpath "$bin")"
tick=$(getconf CLK_TCK)
work=$(mktemp -d /tmp/liftbuddy-bench-mqtt-XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

# utime + stime of a process, in clock ticks.
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "mosquitto $(mosquitto -h 2>/dev/null | head -1 | awk '{print $3}'); $racks racks, ${seconds} s measured after ${warmup} s, stream $(basename "$stream")"

run() { # samples: on|off
  local mode=$1 dir="$work/$1" port
  mkdir -p "$dir"
  port=$(free_port)
  printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$port" >"$dir/mosquitto.conf"
  [[ $(id -u) == 0 ]] && echo "user root" >>"$dir/mosquitto.conf"
  mosquitto -c "$dir/mosquitto.conf" 2>"$dir/mosquitto.log" &
  local broker=$!
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
  mosquitto_sub -h 127.0.0.1 -p "$port" -t 'liftbuddy/#' -F '%t' >"$dir/received.txt" 2>"$dir/sub.log" &
  local sub=$!
  sleep 0.5
  # Above the clip's 20 Hz, so that every reading is a sample (at 20 the
  # pipeline's spacing check skips a reading that comes a little early).
  printf 'sample_rate_hz = 25\n' >"$dir/liftbuddyd.conf"
  local flags=() pids=()
  [[ $mode == on ]] && flags=(--mqtt-samples)
  for i in $(seq 1 "$racks"); do
    "$bin" --config "$dir/liftbuddyd.conf" --source "replay:$stream" --loop --speed 1 \
      --output-dir "$dir/lifts-$i" --socket "$dir/$i.sock" --mqtt "127.0.0.1:$port" \
      --rack "rack-$i" "${flags[@]}" 2>"$dir/rack-$i.log" &
    pids+=($!)
  done
  sleep "$warmup"
  local b0 s0 d0=0 t0 b1 s1 d1=0 t1
  b0=$(ticks $broker); s0=$(ticks $sub); for p in "${pids[@]}"; do d0=$((d0 + $(ticks "$p"))); done
  t0=$(date +%s.%N)
  sleep "$seconds"
  b1=$(ticks $broker); s1=$(ticks $sub); for p in "${pids[@]}"; do d1=$((d1 + $(ticks "$p"))); done
  t1=$(date +%s.%N)
  kill -TERM "${pids[@]}"
  wait "${pids[@]}" || true
  sleep 2
  kill "$sub" "$broker"
  wait "$sub" "$broker" 2>/dev/null || true
  local sent dropped received samples
  sent=$(grep -ho 'MQTT: stopped.* sent=[0-9]*' "$dir"/rack-*.log | grep -o 'sent=[0-9]*' | cut -d= -f2 | paste -sd+ | bc)
  dropped=$(grep -ho 'MQTT: stopped.*dropped=[0-9]*' "$dir"/rack-*.log | grep -o 'dropped=[0-9]*' | cut -d= -f2 | paste -sd+ | bc)
  stopped=$(grep -l 'MQTT: stopped' "$dir"/rack-*.log | wc -l)
  received=$(wc -l <"$dir/received.txt")
  samples=$(grep -c '/sample$' "$dir/received.txt" || true)
  reps=$(grep -c '/rep$' "$dir/received.txt" || true)
  lifts=$(grep -c '/lift$' "$dir/received.txt" || true)
  awk -v s="$samples" -v r="$racks" -v sent="$sent" -v dr="$dropped" -v rc="$received" \
    -v st="$stopped" -v reps="$reps" -v lifts="$lifts" -v w0="$t0" -v w1="$t1" -v tk="$tick" \
    -v b="$((b1 - b0))" -v d="$((d1 - d0))" -v sb="$((s1 - s0))" -v mode="$mode" -v run="$((seconds + warmup))" '
    BEGIN {
      wall = w1 - w0
      printf "samples %s: %d daemons stopped cleanly; handed to libmosquitto %d, dropped %d; received %d (%d samples, about %.1f a second per rack; %d reps, %d reports); lost %d\n", mode, st, sent, dr, rc, s, s / r / run, reps, lifts, sent - rc
      printf "samples %s: CPU over %.1f s: broker %.1f %%, daemons %.1f %% in all (%.2f %% each), subscriber %.1f %% (of one core)\n", mode, wall, 100 * b / tk / wall, 100 * d / tk / wall, 100 * d / tk / wall / r, 100 * sb / tk / wall
    }'
}

run on
run off
