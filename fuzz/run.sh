#!/usr/bin/env bash
# Fuzzes podcli's readers with libFuzzer and AddressSanitizer.
# Usage: fuzz/run.sh [SECONDS] [feeds|audio]   (default 300 s, feeds).
#   feeds: the feed parser; seeds are the project's test feeds and, when present, ../shared/corpus/feeds.
#   audio: the audio sniffer, the container checks, the embedded-picture and chapter readers; seeds are the
#          project's MP3s, the corpus's audio, and one second of each format ffmpeg writes.
# Findings (crash-*, timeout-*, oom-*) land in fuzz/findings/.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-300}
target=${2:-feeds}
scratch=${SCRATCH_PATH:-/tmp/podcli-fuzz-build}
case "$target" in
    feeds) product=FuzzFeeds ;;
    audio) product=FuzzAudio ;;
    *) echo "usage: fuzz/run.sh [SECONDS] [feeds|audio]" >&2; exit 64 ;;
esac

# SwiftPM also links podcli's build tool (EmbedSQL) with these flags, which fails ("gold: internal
# error", no LLVMFuzzerTestOneInput); the fuzzers do not need it and build all the same.
swift build --package-path . --scratch-path "$scratch" -c debug --product "$product" -Xswiftc -sanitize=fuzzer,address
binary="$scratch/debug/$product"

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
# Seeds up to 128 KiB: with coverage and ASan in a debug build, a 1.6 MB feed alone takes
# seconds per run (it is linear: 70 ms in a release build), which would starve the search.
if [[ $target == feeds ]]; then
    find ../Tests/Fixtures/feeds ../../shared/corpus/feeds -type f \( -name '*.xml' -o -name '*.rss' \) \
        -size -128k -exec cp {} "$corpus"/ \; 2>/dev/null || true
else
    find ../Tests/Fixtures ../../shared/corpus/audio -type f \( -name '*.mp[123]' -o -name '*.png' \) \
        -size -128k -exec cp {} "$corpus"/ \; 2>/dev/null || true
    if command -v ffmpeg >/dev/null; then
        tone=(-f lavfi -i "sine=frequency=440:duration=1")
        ffmpeg -v error -y "${tone[@]}" -c:a aac -movflags +faststart "$corpus/first.m4a"
        ffmpeg -v error -y "${tone[@]}" -c:a aac "$corpus/last.m4a"
        ffmpeg -v error -y "${tone[@]}" -c:a aac -f adts "$corpus/raw.aac"
        ffmpeg -v error -y "${tone[@]}" -c:a libopus "$corpus/tone.opus"
        ffmpeg -v error -y "${tone[@]}" -c:a libvorbis "$corpus/tone.ogg"
        printf ';FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=500\ntitle=One\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=500\nEND=1000\ntitle=Two\n' >"$corpus/chapters.txt"
        for name in chapters.mp3 chapters.m4a chapters.opus; do
            ffmpeg -v error -y "${tone[@]}" -i "$corpus/chapters.txt" -map 0 -map_chapters 1 "$corpus/$name"
        done
        rm "$corpus/chapters.txt"
        ffmpeg -v error -y "${tone[@]}" -c:a flac "$corpus/tone.flac"
    fi
fi
mkdir -p findings

# The Swift backtracer and ASan together can hang on a crash; let ASan report it.
SWIFT_BACKTRACE=enable=no "$binary" "$corpus" -max_total_time="$seconds" -max_len=131072 -timeout=20 \
    -rss_limit_mb=2048 -artifact_prefix=findings/ -print_final_stats=1
