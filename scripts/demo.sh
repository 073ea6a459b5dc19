#!/usr/bin/env bash
# The first thing to run: installs what is needed, builds LiftBuddy, and
# starts the daemon replaying a bundled sample stream at its real pace, with
# its socket and JSON reports in ./demo, and its web view on loopback (open
# the URL it prints in a browser). Or watch it from a second terminal:
#
#   .build/release/liftbuddy watch --socket demo/liftbuddy.sock
#
# DEMO_HTTP=0.0.0.0:8080 scripts/demo.sh serves the page to phones on the LAN.
# Ctrl-C stops the daemon (the set in progress is written first).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --product liftbuddyd
swift build -c release --product liftbuddy
mkdir -p demo
sample="${1:-SampleStreams/squat-3sets-ble-typical.lbs}"
http="${DEMO_HTTP:-127.0.0.1:8080}"
echo
echo "liftbuddyd is replaying $sample in real time."
echo "Open the web view:     http://$http/   (the pairing code for its controls is printed below)"
echo "In a second terminal:  .build/release/liftbuddy watch --socket demo/liftbuddy.sock"
echo "Reports appear in demo/lifts/ as each set ends. Ctrl-C to stop."
echo
exec .build/release/liftbuddyd --source "replay:$sample" --socket demo/liftbuddy.sock \
  --output-dir demo/lifts --http "$http"
