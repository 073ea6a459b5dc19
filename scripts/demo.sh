#!/usr/bin/env bash
# The first thing to run: installs what is needed, builds LiftBuddy, and
# starts the daemon replaying a bundled sample stream at its real pace, with
# its socket and JSON reports in ./demo. Watch it from a second terminal:
#
#   .build/release/liftbuddy watch --socket demo/liftbuddy.sock
#
# Ctrl-C stops the daemon (the set in progress is written first).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --product liftbuddyd
swift build -c release --product liftbuddy
mkdir -p demo
sample="${1:-SampleStreams/squat-3sets-ble-typical.lbs}"
echo
echo "liftbuddyd is replaying $sample in real time."
echo "In a second terminal:  .build/release/liftbuddy watch --socket demo/liftbuddy.sock"
echo "Reports appear in demo/lifts/ as each set ends. Ctrl-C to stop."
echo
exec .build/release/liftbuddyd --source "replay:$sample" --socket demo/liftbuddy.sock \
  --output-dir demo/lifts
