#!/usr/bin/env bash
# Show notes rendered (issue 26): every description of the corpus feeds through `PlainText`
# (libxml2's HTML parser since issue 26), timed in a release build. See bench/README.md ("Show notes").
#
# Environment:
#   ROUNDS=20           timed rounds (the median is printed)
#   CORPUS=/work/shared/corpus/feeds
#   OUT=bench/out/html-render.txt   the rendered text, to compare two builds
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROUNDS=${ROUNDS:-20}
CORPUS=${CORPUS:-/work/shared/corpus/feeds}
OUT=${OUT:-$BENCH_DIR/out/html-render.txt}
mkdir -p "$(dirname "$OUT")"

cd "$BENCH_DIR/html-render"
swift build -c release >/dev/null
BINARY=$(swift build -c release --show-bin-path)/RenderShowNotes
shopt -s nullglob
"$BINARY" "$ROUNDS" "$OUT" "$CORPUS"/*.xml "$CORPUS"/*.rss
