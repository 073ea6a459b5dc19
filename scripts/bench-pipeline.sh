#!/usr/bin/env bash
# Latency of a rep (and a lift) from the pipeline's loop to each of N socket
# subscribers, through the whole pipeline, while every set's report is
# written and fsynced. The variants run in rounds (each round runs every
# variant once, so they share the machine's minutes); each round replays 10
# sets of 10 reps at 16x (about 11 s a variant), so the default 3 rounds give
# each variant 300 reps and 30 lifts. Prints, per round and in all, the
# deliveries' p50/p99, the server's own part per event (to its last write),
# the last subscriber per event, the 1-minute load average as each round
# started, and where the slowest events' time went. Release build.
#
#   scripts/bench-pipeline.sh [SUBSCRIBERS] [REPORT_DIR] [--busy-disk]
#       [--load K [--load-apart]] [--rounds R] [--sets S] [--variants LIST]
#       [--source replay|ble] [--idle] [--tests-binary PATH]
#
# --source ble plays the stream at its recorded pace (1x: a round of 10 sets
# takes about 3 min a variant, so --sets 3 is a practical round) as ATT
# notifications from a clip on a socketpair, read by BLESource (this host
# has no Bluetooth; the daemon's part of the path is the same for any
# SOCK_SEQPACKET socket). --idle measures instead the idle cost of that BLE
# path: a still bar at 40 Hz, 30 s a variant and round after 5 s of
# warm-up, the process's threads' run time from schedstat, the clip's thread
# left out. --tests-binary runs a test binary built earlier (a copy of
# .build-socket-release/release/liftbuddyPackageTests.xctest from another
# commit) instead of building this tree, to compare two commits in the
# same minutes.
# REPORT_DIR defaults to .build-bench-reports in the package (the machine's
# disk). --busy-disk keeps that disk busy meanwhile with 64 MiB writes, each
# fsynced, from a second process, so that the reports' fsyncs are slow.
# --load K runs K busy loops (`while :; do :; done`, nice 0, this session)
# for the whole run, a controlled background load on top of the machine's;
# with --load-apart they (and the busy disk's writer) run in sessions of
# their own (setsid), so with the kernel's autogroups
# (kernel.sched_autogroup_enabled=1) they compete with the benchmark as
# groups, as other services or a login would under systemd.
# LIST (default inline,queued,pinned): inline = report written on the event
# path (the daemon before issue 9), queued = report on the writer's queue
# (the daemon with a replay or BLE), pinned = queued with the loop on the
# socket's event loop (the daemon with a serial clip);
# a suffix gives all but the subscribers' reader a priority: +nice-10
# (Nice=-10), +weight1000 (CPUWeight=1000, as a cgroup v1 cpu.shares). The
# priorities need root.
set -euo pipefail
cd "$(dirname "$0")/.."

export LIFTBUDDY_PIPELINE_BENCH=1
export LIFTBUDDY_PIPELINE_BENCH_SUBSCRIBERS=200
dir="$PWD/.build-bench-reports"
busy_disk=
tests_binary=
load=0
apart=
positional=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --busy-disk) busy_disk=1 ;;
    --load) load="$2"; shift ;;
    --load-apart) apart=1 ;;
    --rounds) export LIFTBUDDY_PIPELINE_BENCH_ROUNDS="$2"; shift ;;
    --variants) export LIFTBUDDY_PIPELINE_BENCH_VARIANTS="$2"; shift ;;
    --sets) export LIFTBUDDY_PIPELINE_BENCH_SETS="$2"; shift ;;
    --source) export LIFTBUDDY_PIPELINE_BENCH_SOURCE="$2"; shift ;;
    --idle) export LIFTBUDDY_PIPELINE_BENCH=0 LIFTBUDDY_PIPELINE_BENCH_IDLE=1 ;;
    --tests-binary) tests_binary="$2"; shift ;;
    *)
      positional=$((positional + 1))
      if [[ $positional == 1 ]]; then
        export LIFTBUDDY_PIPELINE_BENCH_SUBSCRIBERS="$1"
      elif [[ -n "$1" ]]; then
        dir="$1"
      fi
      ;;
  esac
  shift
done
mkdir -p "$dir"
export LIFTBUDDY_PIPELINE_BENCH_DIR="$dir"

flags=(-c release --scratch-path .build-socket-release -Xswiftc -enable-testing)
[[ -z "$tests_binary" ]] && swift build "${flags[@]}" --build-tests -j 1

helpers=()
trap 'for p in "${helpers[@]}"; do kill "$p" 2>/dev/null; done; rm -f "$dir/hog"' EXIT
apart_cmd=()
[[ -n "$apart" ]] && apart_cmd=(setsid)
if [[ -n "$busy_disk" ]]; then
  "${apart_cmd[@]}" bash -c 'while true; do dd if=/dev/zero of="$0/hog" bs=1M count=64 conv=fsync status=none; done' "$dir" &
  helpers+=($!)
fi
for ((i = 0; i < load; i++)); do
  "${apart_cmd[@]}" bash -c 'while :; do :; done' &
  helpers+=($!)
done
echo "bench-pipeline: $(date -u +%H:%M:%S) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg)," \
  "$load busy loops${apart:+ in a session of their own}${busy_disk:+, busy disk}," \
  "autogroups $(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo '?')"
if [[ -n "$tests_binary" ]]; then
  "$tests_binary" --testing-library swift-testing --filter PipelineLatencyBenchmark 2>&1
else
  swift test "${flags[@]}" --skip-build --filter PipelineLatencyBenchmark 2>&1
fi | grep -E "pipeline latency|idle \(|slowest|✘|passed after"
echo "bench-pipeline: done $(date -u +%H:%M:%S) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg)"
