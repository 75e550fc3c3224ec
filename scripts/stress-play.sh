#!/usr/bin/env bash
# Issue 14's proof that `play` exits cleanly under load: an episode whose itunes:image dribbles at
# 100 B/s (so the artwork thread is inside libcurl when the session ends), `play ID --for 1
# --device null` RUNS times with a busy loop on the other core. Counts the runs that did not exit 0
# (a crash at exit is rc 139). Not a test: a load run, minutes long.
#   PODCLI=.build/debug/podcli RUNS=1000 scripts/stress-play.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PODCLI=${PODCLI:-.build/debug/podcli}
RUNS=${RUNS:-400}
work=$(mktemp -d /tmp/podcli-stress.XXXXXX)
trap 'kill $busy $server 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/root"
cp Tests/Fixtures/tone-44k-stereo.mp3 "$work/root/episode.mp3"
head -c 200000 /dev/urandom > "$work/root/cover.jpg"
python3 Tests/Support/fault_server.py --root "$work/root" --no-stdin-watch > "$work/server.out" &
server=$!
for _ in $(seq 100); do grep -q PORT "$work/server.out" 2>/dev/null && break; sleep 0.05; done
port=$(awk '/PORT/ {print $2; exit}' "$work/server.out")
base="http://127.0.0.1:$port/files"
cat > "$work/root/feed.xml" <<FEED
<?xml version="1.0"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
<title>Stress</title>
<item><title>Dribbling cover</title><guid>stress-1</guid>
<itunes:image href="$base/cover.jpg?slow=100"/>
<enclosure url="$base/episode.mp3" type="audio/mpeg" length="1"/></item>
</channel></rss>
FEED
"$PODCLI" --home "$work/home" fetch "$base/feed.xml" --download all > /dev/null
( while :; do :; done ) & busy=$!
failed=0
declare -A codes=()
for i in $(seq "$RUNS"); do
  rc=0
  "$PODCLI" --home "$work/home" play 1 --from 0 --for 1 --device null > /dev/null 2> "$work/stderr" || rc=$?
  if [ "$rc" -ne 0 ]; then
    failed=$((failed + 1)); codes[$rc]=$(( ${codes[$rc]:-0} + 1 ))
    echo "run $i: exit $rc: $(head -c 300 "$work/stderr")" >&2
  fi
done
echo "play --for 1 under a busy loop: $failed of $RUNS runs failed${codes[*]:+ (exit codes: $(for c in "${!codes[@]}"; do printf '%s×%s ' "$c" "${codes[$c]}"; done))}"
[ "$failed" -eq 0 ]
