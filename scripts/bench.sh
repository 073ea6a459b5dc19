#!/usr/bin/env bash
# Benchmarks: liftbuddy against the straightforward NumPy/SciPy baseline
# (scripts/baseline.py), same files, same run. Prints a Markdown report on
# stdout; progress goes to stderr. See docs/benchmarks-method.md.
#
# Usage: scripts/bench.sh [BUILD_DIR]    (default .build-release/release)
# Env:   PYTHON (default python3, needs numpy and scipy)
#        BENCH_DIR (default /tmp/liftbuddy-bench), RUNS (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${1:-.build-release/release}
BIN=$BUILD_DIR/liftbuddy
PY=${PYTHON:-python3}
BENCH_DIR=${BENCH_DIR:-/tmp/liftbuddy-bench}
RUNS=${RUNS:-3}
OUT=$BENCH_DIR/results
log() { echo "bench: $*" >&2; }

if [ ! -x "$BIN" ]; then
  log "no $BIN: building the release binary"
  swift build -c release --product liftbuddy --scratch-path .build-release >&2
  BIN=.build-release/release/liftbuddy
fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/liftbuddy
if [ ! -x /usr/bin/time ]; then
  log "installing /usr/bin/time (package time)"
  apt-get install -y time >&2
fi
"$PY" -c "import numpy, scipy" || { echo "bench: $PY lacks numpy/scipy" >&2; exit 1; }

if [ ! -f "$BENCH_DIR/bench-60min.lbs" ] || [ ! -f "$BENCH_DIR/bench-10h.lbs" ]; then
  log "generating benchmark streams in $BENCH_DIR"
  "$PY" scripts/make-bench-streams.py "$BIN" "$BENCH_DIR" >&2
fi
rm -rf "$OUT" && mkdir -p "$OUT"

now() { date +%s.%N; }
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
calc() { awk "BEGIN { printf \"%s\", $1 }"; }

# ---- throughput: best of $RUNS --------------------------------------------
declare -A ROWS SELF WALL BSELF BWALL RSS BRSS
for s in 60min 10h; do
  f=$BENCH_DIR/bench-$s.lbs
  ROWS[$s]=$(grep -vc '^#' "$f")
  best_self=0 best_wall=999999 best_bself=0 best_bwall=999999
  for i in $(seq "$RUNS"); do
    t0=$(now)
    "$BIN" analyze --stats "$f" > /dev/null 2> "$OUT/stats-$s-$i.txt"
    t1=$(now)
    lps=$(sed -n 's/.*: \([0-9.]*\) lines\/s.*/\1/p' "$OUT/stats-$s-$i.txt")
    wall=$(calc "$t1 - $t0")
    best_self=$(calc "($lps > $best_self) ? $lps : $best_self")
    best_wall=$(calc "($wall < $best_wall) ? $wall : $best_wall")
    log "liftbuddy $s run $i: $lps lines/s self-reported, ${wall} s wall"
  done
  for i in $(seq "$RUNS"); do
    t0=$(now)
    "$PY" scripts/baseline.py --stats "$f" > "$OUT/baseline-$s.jsonl" 2> "$OUT/bstats-$s-$i.txt"
    t1=$(now)
    lps=$(sed -n 's/.*: \([0-9.]*\) lines\/s.*/\1/p' "$OUT/bstats-$s-$i.txt")
    wall=$(calc "$t1 - $t0")
    best_bself=$(calc "($lps > $best_bself) ? $lps : $best_bself")
    best_bwall=$(calc "($wall < $best_bwall) ? $wall : $best_bwall")
    log "baseline.py $s run $i: $lps lines/s self-reported, ${wall} s wall"
  done
  SELF[$s]=$best_self WALL[$s]=$best_wall BSELF[$s]=$best_bself BWALL[$s]=$best_bwall
  # ---- peak memory (one run each under /usr/bin/time -v) ------------------
  /usr/bin/time -v "$BIN" analyze "$f" > /dev/null 2> "$OUT/time-liftbuddy-$s.txt"
  /usr/bin/time -v "$PY" scripts/baseline.py "$f" > /dev/null 2> "$OUT/time-baseline-$s.txt"
  RSS[$s]=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$OUT/time-liftbuddy-$s.txt")
  BRSS[$s]=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$OUT/time-baseline-$s.txt")
  log "max RSS $s: liftbuddy ${RSS[$s]} kB, baseline ${BRSS[$s]} kB"
done

# ---- accuracy: every SampleStreams/*.lbs with a truth file ---------------
mkdir -p "$OUT/acc-liftbuddy" "$OUT/acc-baseline"
files=()
for f in SampleStreams/*.lbs; do
  n=$(basename "$f" .lbs)
  [ -f "SampleStreams/$n.truth.json" ] || continue
  files+=("$f")
  "$BIN" analyze "$f" > "$OUT/acc-liftbuddy/$n.jsonl"
  "$PY" scripts/baseline.py "$f" > "$OUT/acc-baseline/$n.jsonl"
done
"$PY" scripts/bench-accuracy.py --truth-dir SampleStreams --label liftbuddy \
  --json "$OUT/acc-liftbuddy.json" "$OUT"/acc-liftbuddy/*.jsonl > "$OUT/acc-liftbuddy.txt"
"$PY" scripts/bench-accuracy.py --truth-dir SampleStreams --label baseline.py \
  --json "$OUT/acc-baseline.json" "$OUT"/acc-baseline/*.jsonl > "$OUT/acc-baseline.txt"
# One run, TOTAL only (--by none): the header row and the analyzer's TOTAL row.
EVAL_OUT=$("$BIN" evaluate --by none "${files[@]}")
EVAL_HEAD=$(grep -E '^ +streams ' <<<"$EVAL_OUT" | tr -s ' ')
EVAL_TOTAL=$(grep -E '^liftbuddy +TOTAL ' <<<"$EVAL_OUT" | tr -s ' ')
# Issue 8's measures on the scenario splits, the baseline script beside, and
# the real recordings when ../shared is there.
SPLIT_TUNE=$("$BIN" evaluate --split tune --by none --jobs 2 --baseline scripts/baseline.py --python "$PY")
SPLIT_HELDOUT=$("$BIN" evaluate --split heldout --by none --jobs 2 --baseline scripts/baseline.py --python "$PY")
REAL_DIR=../shared/real-data/calibrex-overhead-press
REAL_OUT="(no $REAL_DIR here)"
if [ -d "$REAL_DIR" ]; then
  REAL_OUT=$("$BIN" evaluate --real "$REAL_DIR" --baseline scripts/baseline.py --python "$PY")
fi
# The 60-minute stream has a truth file too (24 sets): score it the same way.
mkdir -p "$OUT/long-liftbuddy" "$OUT/long-baseline"
"$BIN" analyze "$BENCH_DIR/bench-60min.lbs" > "$OUT/long-liftbuddy/bench-60min.jsonl"
cp "$OUT/baseline-60min.jsonl" "$OUT/long-baseline/bench-60min.jsonl"
"$PY" scripts/bench-accuracy.py --truth-dir "$BENCH_DIR" --json "$OUT/long-liftbuddy.json" \
  "$OUT/long-liftbuddy/bench-60min.jsonl" > /dev/null
"$PY" scripts/bench-accuracy.py --truth-dir "$BENCH_DIR" --json "$OUT/long-baseline.json" \
  "$OUT/long-baseline/bench-60min.jsonl" > /dev/null

# ---- report ---------------------------------------------------------------
acc_row() {  # label json
  "$PY" - "$1" "$2" <<'EOF'
import json, sys
a = json.load(open(sys.argv[2]))
f = lambda v, d=3: "-" if v is None else f"{v:.{d}f}"
print(f"| {sys.argv[1]} | {a['streams']} | {a['sets']} | {a['reported_sets']} | {f(a['exact_sets_pct'], 1)} "
      f"| {a['reps']} | {a['matched']} | {a['extra']} | {a['missed']} | {f(a['mean_velocity_mps_mae'])} "
      f"| {f(a['peak_velocity_mps_mae'])} | {f(a['rom_cm_mae'], 2)} | {f(a['concentric_start_s_mae'])} "
      f"| {f(a['concentric_end_s_mae'])} |")
EOF
}
fmt() { awk "BEGIN { printf \"%.${2:-0}f\", $1 }"; }

CPU=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //' || true)
[ -n "$CPU" ] || CPU=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
PYV=$("$PY" -c "import sys, numpy, scipy; print(f'Python {sys.version.split()[0]}, NumPy {numpy.__version__}, SciPy {scipy.__version__}')")

cat <<EOF
## Machine

| | |
| --- | --- |
| date (UTC) | $(date -u +%Y-%m-%dT%H:%M:%SZ) |
| CPU | $CPU |
| cores (nproc) | $(nproc) |
| Swift | $(swift --version 2>&1 | grep -m1 'Swift version') |
| Python | $PYV |
| liftbuddy binary | \`$BIN\` (release) |
| commit | $(git rev-parse --short HEAD) |
| load average (1/5/15 min) at start / end | $LOAD_START / $(cut -d' ' -f1-3 /proc/loadavg) |

## Throughput (best of $RUNS runs)

Rows are the stream's data rows (\`s:\` and \`a:\` lines). "--stats" is each tool's
own timing from reading to output, without process start (for baseline.py: without
the interpreter start and the NumPy/SciPy imports); "wall" is the whole process
timed from the shell. Best of $RUNS runs each; "ratio" is how many times faster liftbuddy is.

| stream | rows | liftbuddy lines/s (--stats) | baseline.py lines/s (--stats) | ratio | liftbuddy wall s | baseline.py wall s | ratio | liftbuddy lines/s (wall) | baseline.py lines/s (wall) |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
EOF
for s in 60min 10h; do
  echo "| bench-$s.lbs | ${ROWS[$s]} | $(fmt "${SELF[$s]}") | $(fmt "${BSELF[$s]}") | $(fmt "${SELF[$s]} / ${BSELF[$s]}" 1)× | $(fmt "${WALL[$s]}" 3) | $(fmt "${BWALL[$s]}" 3) | $(fmt "${BWALL[$s]} / ${WALL[$s]}" 1)× | $(fmt "${ROWS[$s]} / ${WALL[$s]}") | $(fmt "${ROWS[$s]} / ${BWALL[$s]}") |"
done
cat <<EOF

## Peak memory (maximum resident set size, /usr/bin/time -v)

| stream | liftbuddy | baseline.py |
| --- | ---: | ---: |
EOF
for s in 60min 10h; do
  echo "| bench-$s.lbs | $(fmt "${RSS[$s]} / 1024" 1) MB | $(fmt "${BRSS[$s]} / 1024" 1) MB |"
done
cat <<EOF

## Accuracy (scripts/bench-accuracy.py, same scorer for both)

$(( ${#files[@]} )) SampleStreams files with truth. MAE over paired reps: velocities in m/s, ROM in cm, concentric start/end (t0/t1) in s.

| tool | streams | truth sets | reported sets | exact sets % | truth reps | paired | extra | missed | mean v MAE | peak v MAE | ROM MAE | t0 MAE | t1 MAE |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
$(acc_row "liftbuddy (SampleStreams)" "$OUT/acc-liftbuddy.json")
$(acc_row "baseline.py (SampleStreams)" "$OUT/acc-baseline.json")
$(acc_row "liftbuddy (bench-60min, 24 sets)" "$OUT/long-liftbuddy.json")
$(acc_row "baseline.py (bench-60min, 24 sets)" "$OUT/long-baseline.json")

Cross-check, \`liftbuddy evaluate\` on the same SampleStreams files (its own scorer):

\`\`\`
$EVAL_HEAD
$EVAL_TOTAL
\`\`\`

## Scenario splits (issue 8's measures; \`liftbuddy evaluate --split\`, same streams for both tools)

Tuning split (tune scenarios, seeds 1–8):

\`\`\`
$SPLIT_TUNE
\`\`\`

Held-out split (held-out scenarios, seeds 5000–5007; never tuned on):

\`\`\`
$SPLIT_HELDOUT
\`\`\`

Real recordings (rep counts per set):

\`\`\`
$REAL_OUT
\`\`\`

<details><summary>Per-file accuracy</summary>

\`\`\`
$(cat "$OUT/acc-liftbuddy.txt")

$(cat "$OUT/acc-baseline.txt")
\`\`\`

</details>
EOF
log "raw outputs in $OUT"
