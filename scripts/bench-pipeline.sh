#!/usr/bin/env bash
# Latency of a rep (and a lift) from the pipeline's loop to each of N socket
# subscribers, through the whole pipeline, while every set's report is
# written and fsynced; in one run: the write inline on the event path (the
# daemon before issue 9), the report writer on its own queue (the daemon),
# and that with the loop on the socket server's event loop (measured, not
# used: see BENCHMARKS.md). Also prints the server's own part (to its last
# write) and where the three slowest events' time went. Release build.
#
#   scripts/bench-pipeline.sh [SUBSCRIBERS] [REPORT_DIR] [--busy-disk]
#
# REPORT_DIR defaults to .build-bench-reports in the package (the machine's
# disk). --busy-disk keeps that disk busy meanwhile with 64 MiB writes, each
# fsynced, from a second process, so that the reports' fsyncs are slow.
set -euo pipefail
cd "$(dirname "$0")/.."

export LIFTBUDDY_PIPELINE_BENCH=1
export LIFTBUDDY_PIPELINE_BENCH_SUBSCRIBERS="${1:-200}"
dir="${2:-$PWD/.build-bench-reports}"
mkdir -p "$dir"
export LIFTBUDDY_PIPELINE_BENCH_DIR="$dir"

hog=
if [[ "${3:-}" == "--busy-disk" ]]; then
  (while true; do dd if=/dev/zero of="$dir/hog" bs=1M count=64 conv=fsync status=none; done) &
  hog=$!
fi
trap '[[ -n "$hog" ]] && kill "$hog" 2>/dev/null; rm -f "$dir/hog"' EXIT

flags=(-c release --scratch-path .build-socket-release -Xswiftc -enable-testing)
swift build "${flags[@]}" --build-tests
swift test "${flags[@]}" --skip-build --filter PipelineLatencyBenchmark 2>&1 | grep -E "pipeline latency|slowest|✘|passed after"
