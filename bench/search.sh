#!/usr/bin/env bash
# Search benchmark (issue 26): `list -s` on a library of a million episodes, without and with 10,000
# hour-long transcripts, for a rare word and a word in half the library, against `podcli --version`
# (start-up) and the sqlite3 CLI ranking every match as podcli did before (what SQLite alone needs
# for that). Also the database's growth for the transcripts against their text. See bench/README.md
# ("search.sh").
#
# The library is written straight into podcli's schema by bench/gen_search_library.py (a minute or
# two of CPU, not scale.sh's 40-minute import over HTTP); kept in SEARCH_WORK and reused.
#
# Environment:
#   EPISODES=1000000     library size
#   TRANSCRIPTS=10000    hour-long transcripts (9,000 words each) on the newest episodes
#   ROUNDS=5             timed rounds of each command (the median is reported)
#   PODCLI=              a podcli binary; unset: build release into SCRATCH_PATH (default .build)
#   SEARCH_WORK=         scratch dir (kept, libraries reused); unset: a temporary one, deleted.
#                        About 3 GB at 1M.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PACKAGE=$(cd "$BENCH_DIR/.." && pwd)
EPISODES=${EPISODES:-1000000}
TRANSCRIPTS=${TRANSCRIPTS:-10000}
ROUNDS=${ROUNDS:-5}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
[[ $SCRATCH_PATH = /* ]] || SCRATCH_PATH=$PACKAGE/$SCRATCH_PATH
PY=/usr/bin/python3
TARGET_FACTOR=5 # list -s within 5x podcli --version

die() { echo "search.sh: $*" >&2; exit 1; }
command -v sqlite3 >/dev/null || die "missing sqlite3: scripts/install-deps.sh"
[[ -x /usr/bin/time ]] || die "missing GNU time (/usr/bin/time): scripts/install-deps.sh"
stop_nginx() { :; }
source "$BENCH_DIR/lib.sh"
use_workdir "${SEARCH_WORK:-}" podcli-search
REPORT=$WORK/report.txt
: >"$REPORT"
build_podcli
MEASURE_WIDTH=28

# A library of EPISODES, then a copy with TRANSCRIPTS; each made once.
plain_library "$EPISODES"
plain=$PLAIN
spoken=$WORK/spoken-$EPISODES-$TRANSCRIPTS
if [[ ! -f $spoken/.done ]]; then
    rm -rf "$spoken"
    cp -r "$plain" "$spoken"
    "$PODCLI" --home "$spoken" list -n 1 >/dev/null 2>&1 # the schema of this podcli
    "$PY" "$BENCH_DIR/gen_search_library.py" "$spoken/podcli.db" --episodes 0 --transcripts "$TRANSCRIPTS" \
        >"$spoken/.text-bytes"
    sqlite3 "$spoken/podcli.db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
    touch "$spoken/.done"
fi
"$PODCLI" --home "$plain" list -n 1 >/dev/null 2>&1 # migrated before timing

pages() { sqlite3 -readonly "$1/podcli.db" "PRAGMA page_count" ; }
page_size=$(sqlite3 -readonly "$plain/podcli.db" "PRAGMA page_size")
growth=$(( ($(pages "$spoken") - $(pages "$plain")) * page_size ))
text_bytes=$(sed -n 's/^transcript text: //p' "$spoken/.text-bytes" | cut -d' ' -f1)

ms() { awk -v s="$(col_median "$1" "${2:-1}")" 'BEGIN { printf "%.0f", s * 1000 }'; }

say "# podcli search benchmark, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
say "machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
say "podcli: $PODCLI (source $(git -C "$PACKAGE" describe --always --dirty 2>/dev/null || echo unknown)); $(sqlite3 --version | cut -d' ' -f1-2 | sed 's/^/sqlite3 /'); rounds: $ROUNDS"
say "raw (wall, user, sys in s):"
rounds version "$PODCLI" --version
declare -a rows=()
# name, library, word, what it is
while IFS='|' read -r name home word what; do
    rounds "$name" "$PODCLI" --home "$home" list -s "$word"
    rows+=("$name|$word|$what")
done <<LIST
plain-rare|$plain|100|in ~1 episode in 300 (titles and descriptions)
plain-common|$plain|kraków|in half the episodes
spoken-rare-text|$spoken|100|the same, with transcripts
spoken-common-text|$spoken|kraków|the same, with transcripts
spoken-rare-said|$spoken|zeppelin|once in 1 transcript in 50
spoken-common-said|$spoken|nebula|in nearly every segment of every transcript
LIST
rounds sql-rare sqlite3 -readonly "$plain/podcli.db" "$(sql_search 100)"
rounds sql-common sqlite3 -readonly "$plain/podcli.db" "$(sql_search kraków)"

startup=$(col_median version 1)
say ""
say "## $EPISODES episodes; $TRANSCRIPTS transcripts"
say "podcli --version: $(ms version) ms (CPU $(ms version 2) ms); sqlite3 ranking every match: '100' $(ms sql-rare) ms, 'kraków' $(ms sql-common) ms"
say "$(printf '%-20s %-10s %8s %8s %8s  %s' case word 'wall ms' 'x start' 'CPU ms' 'target: wall <= 5x start')"
for row in "${rows[@]}"; do
    IFS='|' read -r name word what <<<"$row"
    factor=$(ratio "$(col_median "$name" 1)" "$startup")
    verdict=$(awk -v f="$factor" -v t=$TARGET_FACTOR 'BEGIN { print (f <= t) ? "pass" : "FAIL" }')
    say "$(printf '%-20s %-10s %8s %8s %8s  %s (%s; %s)' "$name" "$word" "$(ms "$name")" "${factor}x" "$(ms "$name" 2)" "$verdict" "$what" "$(head -c 60 "$WORK/$name.err" | head -n 1)")"
done
say "database growth for the transcripts: $growth B, against $text_bytes B of their text ($(ratio "$growth" "$text_bytes")x)"
