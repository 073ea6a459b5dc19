#!/usr/bin/env bash
# Latency of the daemon's socket: from SocketServer.publish() of a rep event
# to its arrival at each of N subscribers, over real Unix sockets on this
# machine, in a release build. Prints one line with p50/p99/max.
#
#   scripts/bench-socket.sh [SUBSCRIBERS] [EVENTS]     defaults: 200 500
#
# The benchmark lives in the test target (Tests/LiftBuddyDaemonTests/
# SocketLatencyBenchmark.swift) because it builds its rep events with the
# core's internal initialisers; hence -enable-testing in a release build.
# It fails (non-zero exit) if an event is lost or p99 exceeds 5 ms.
set -euo pipefail
cd "$(dirname "$0")/.."

export LIFTBUDDY_SOCKET_BENCH=1
export LIFTBUDDY_SOCKET_BENCH_SUBSCRIBERS="${1:-200}"
export LIFTBUDDY_SOCKET_BENCH_EVENTS="${2:-500}"

flags=(-c release --scratch-path .build-socket-release -Xswiftc -enable-testing)
swift build "${flags[@]}" --build-tests
swift test "${flags[@]}" --skip-build --filter SocketLatencyBenchmark 2>&1 |
  tee /dev/stderr | grep -q '✔ Test publishToArrivalLatency() passed'
