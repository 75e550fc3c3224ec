#!/usr/bin/env bash
# Fuzzes the feed parser with libFuzzer and AddressSanitizer.
# Usage: fuzz/run.sh [SECONDS]   (default 300). Seeds: the project's test feeds and, when present,
# ../shared/corpus/feeds. Findings (crash-*, timeout-*) land in fuzz/findings/.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-300}
scratch=${SCRATCH_PATH:-/tmp/podcli-fuzz-build}

swift build --package-path . --scratch-path "$scratch" -c debug -Xswiftc -sanitize=fuzzer,address
binary="$scratch/debug/FuzzFeeds"

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
cp ../Tests/Fixtures/feeds/* "$corpus"/ 2>/dev/null || true
cp ../../shared/corpus/feeds/*.xml ../../shared/corpus/feeds/*.rss "$corpus"/ 2>/dev/null || true
mkdir -p findings

# The Swift backtracer and ASan together can hang on a crash; let ASan report it.
SWIFT_BACKTRACE=enable=no "$binary" "$corpus" -max_total_time="$seconds" -max_len=262144 -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix=findings/ -print_final_stats=1
