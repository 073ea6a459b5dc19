#!/usr/bin/env bash
# Builds liftbuddy-fuzz with libFuzzer and AddressSanitizer and fuzzes one
# target for a while. See docs/fuzzing.md.
#
#   scripts/fuzz.sh [SECONDS] [TARGET] [LIBFUZZER_FLAG...]
#
# TARGET is core (default) or command; further arguments go to libFuzzer
# as they are (e.g. -seed=1 -len_control=0).
#
# Exits non-zero if the build fails or libFuzzer finds a crash, a leak, a
# timeout or an out-of-memory; the input that did it is left in
# fuzz-artifacts/TARGET/ (gitignored). The growing corpus lives in
# fuzz-artifacts/corpus/TARGET/, seeded from Tests/FuzzCorpus/TARGET/, so
# successive runs build on each other.
set -euo pipefail

duration="${1:-60}"
target="${2:-core}"
case "$target" in
  core | command) ;;
  *)
    echo "fuzz.sh: unknown target '$target' (core, command)" >&2
    exit 2
    ;;
esac

cd "$(dirname "$0")/.."
scratch=.build-fuzz
# The sanitizer build is separate from every other build: its objects are
# instrumented and must never be mixed with plain ones.
build_flags=(--scratch-path "$scratch" --product liftbuddy-fuzz
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DLIFTBUDDY_FUZZ)
swift build "${build_flags[@]}"
binary="$(swift build "${build_flags[@]}" --show-bin-path)/liftbuddy-fuzz"

corpus="fuzz-artifacts/corpus/$target"
artifacts="fuzz-artifacts/$target/"
mkdir -p "$corpus" "$artifacts"
if [ -d "Tests/FuzzCorpus/$target" ]; then
  cp -n "Tests/FuzzCorpus/$target"/* "$corpus"/ 2>/dev/null || true
fi

# A dictionary of the target's grammar, if there is one, guides mutations.
dictionary=()
if [ -f "Tests/FuzzCorpus/$target.dict" ]; then
  dictionary=(-dict="Tests/FuzzCorpus/$target.dict")
fi

# SWIFT_BACKTRACE=enable=no: Swift's backtracer would replace the
# sanitizer's report with its own. The limits keep a run bounded:
# -rss_limit_mb turns unbounded memory growth into a reported failure,
# -max_len matches the sizes the framer's bound makes interesting (a few
# lines of up to 256 bytes each). -close_fd_mask=1 closes the target's
# stdout, so that debugging prints in the code under test do not slow the
# run down; libFuzzer, Swift runtime errors and the sanitizer all report on
# stderr, which stays open.
#
# ASan's quarantine (freed memory held back to catch use-after-free) is
# 256 MB by default, which with the fuzzer's own memory crossed the 512 MB
# limit while merely loading a corpus of 2,400 inputs (live heap: 25 MB).
# 64 MB still catches a use of memory freed within the last few inputs.
export ASAN_OPTIONS="quarantine_size_mb=64${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
SWIFT_BACKTRACE=enable=no LIFTBUDDY_FUZZ_TARGET="$target" "$binary" "$corpus" \
  -max_total_time="$duration" \
  -rss_limit_mb=512 \
  -max_len=4096 \
  -timeout=10 \
  -close_fd_mask=1 \
  -artifact_prefix="$artifacts" \
  -print_final_stats=1 \
  "${dictionary[@]}" \
  "${@:3}"
