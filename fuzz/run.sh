#!/usr/bin/env bash
# Fuzzes the feed parser with libFuzzer and AddressSanitizer.
# Usage: fuzz/run.sh [SECONDS]   (default 300). Seeds: the project's test feeds and, when present,
# ../shared/corpus/feeds. Findings (crash-*, timeout-*) land in fuzz/findings/.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-300}
scratch=${SCRATCH_PATH:-/tmp/podcli-fuzz-build}

# SwiftPM also links podcli's build tool (EmbedSQL) with these flags, which fails ("gold: internal
# error", no LLVMFuzzerTestOneInput); FuzzFeeds does not need it and builds all the same.
swift build --package-path . --scratch-path "$scratch" -c debug --product FuzzFeeds -Xswiftc -sanitize=fuzzer,address
binary="$scratch/debug/FuzzFeeds"

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
# Seeds up to 128 KiB: with coverage and ASan in a debug build, a 1.6 MB feed alone takes
# seconds per run (it is linear: 70 ms in a release build), which would starve the search.
find ../Tests/Fixtures/feeds ../../shared/corpus/feeds -type f \( -name '*.xml' -o -name '*.rss' \) \
    -size -128k -exec cp {} "$corpus"/ \; 2>/dev/null || true
mkdir -p findings

# The Swift backtracer and ASan together can hang on a crash; let ASan report it.
SWIFT_BACKTRACE=enable=no "$binary" "$corpus" -max_total_time="$seconds" -max_len=131072 -timeout=20 \
    -rss_limit_mb=2048 -artifact_prefix=findings/ -print_final_stats=1
