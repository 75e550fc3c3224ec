#!/usr/bin/env bash
# podcli end to end on a built-in default, with no network beyond loopback: serves the project's
# own demo feed and its two episodes on 127.0.0.1, subscribes to the feed in a fresh data
# directory and downloads the newest episode, lists and shows what was recorded, verifies the
# file against its record, refreshes the feed (304: unchanged), exports the subscription, plays
# the episodes into a capture file, and lets `podcli sync` delete them once played.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product podcli >/dev/null
podcli=$(swift build --show-bin-path)/podcli

work=$(mktemp -d)
server_pid=
cleanup() {
    [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/www/feeds"
cp Tests/Fixtures/tone-44k-stereo.mp3 Tests/Fixtures/noise-22k-mono.mp3 "$work/www/"
cp Tests/Fixtures/feeds/demo.xml "$work/www/feeds/"
mkfifo "$work/server.out"
python3 Tests/Support/fault_server.py --root "$work/www" --no-stdin-watch >"$work/server.out" &
server_pid=$!
read -r _ port <"$work/server.out"
url="http://127.0.0.1:$port/files/feeds/demo.xml"

run() {
    printf '\n$ podcli %s\n' "$*"
    "$podcli" --home "$work/podcli" "$@"
}
run fetch "$url" --download 1
run feeds
run list
run show 1
run verify
run fetch "$url"
run export
# Play: one second of the episode not downloaded (it streams while it downloads), then the queue:
# that episode again from where it was left, and the other one. The ALSA device is a capture file
# (no sound card needed): what would reach the speaker is compared with mpg123's decoding.
run play 2 --for 1 --device "file:'$work/first.raw',raw"
run queue add 2 1
run play --device "file:'$work/rest_%r_%c.raw',raw"
run list
same_as_mpg123() { # FIXTURE CAPTURE...
    [[ $(mpg123 -q -s "Tests/Fixtures/$1" | md5sum) == $(cat "${@:2}" | md5sum) ]] ||
        { echo "playback of $1 differs from mpg123's decoding" >&2; exit 1; }
}
same_as_mpg123 tone-44k-stereo.mp3 "$work/first.raw" "$work/rest_44100_2.raw"
same_as_mpg123 noise-22k-mono.mp3 "$work/rest_22050_1.raw"
echo
echo "Both episodes reached the device sample for sample as mpg123 decodes them."
# What cron would run: nothing new in the feed; then, told to delete played episodes, it does.
run sync
run config set delete-played-after 0
run sync
run list --downloaded
