#!/usr/bin/env bash
# podcli end to end on a built-in default, with no network beyond loopback: serves the project's
# own fixture episode on 127.0.0.1, fetches it into a fresh data directory, shows the record,
# and verifies the file against it.
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

mkdir -p "$work/www"
cp Tests/Fixtures/tone-44k-stereo.mp3 "$work/www/demo-episode.mp3"
mkfifo "$work/server.out"
python3 Tests/Support/fault_server.py --root "$work/www" --no-stdin-watch >"$work/server.out" &
server_pid=$!
read -r _ port <"$work/server.out"
url="http://127.0.0.1:$port/files/demo-episode.mp3"

run() {
    printf '\n$ podcli %s\n' "$*"
    "$podcli" --home "$work/podcli" "$@"
}
run fetch "$url"
run show 1
run verify
