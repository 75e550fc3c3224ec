#!/usr/bin/env bash
# Scale benchmark (issue 15): what the daily commands cost on libraries of 100k, 300k and 1M
# episodes (1,000 feeds served by nginx on 127.0.0.1), podcli against the sqlite3 CLI running the
# same queries on podcli's own database (what SQLite alone needs) and newsboat reloading the same
# feeds, in the same run. See bench/README.md ("Scale").
#
# For each size: cold `podcli import` (and, with BASELINE set, an older podcli's import of the same
# site, for the "no slower, no larger" targets); `podcli --version` (start-up); `list`, `feeds`,
# `show ID`, `list -s WORD`, each timed against the sqlite3 CLI's equivalent query; `list --all`
# (lines, RSS); warm `refresh` (all 304) and warm `sync` (all 304, `download none`: nothing to
# fetch); newsboat's cold and warm reload of the same feeds (up to NEWSBOAT_MAX episodes).
#
# Environment:
#   SIZES="100000 300000 1000000"  library sizes (episodes; 1,000 feeds of SIZE/1000 items each)
#   ROUNDS=5                 timed rounds of each quick command (the median is reported)
#   WORD=100                 what `list -s` searches for (the sqlite3 peer asks the same index):
#                            in about 1 episode in 100 (episode numbers), as a search is
#   COMMON_WORD=kraków       a second search, for a word in half of all episodes (shown, no target)
#   NEWSBOAT_MAX=100000      largest size newsboat is run at (its warm reload of 100k takes minutes)
#   BASELINE=                an older podcli binary whose cold import is measured beside
#   PODCLI=                  a podcli binary to use; unset: build release into SCRATCH_PATH
#   SCRATCH_PATH=.build      SwiftPM scratch path for that build (relative: to the package)
#   SCALE_WORK=              scratch dir (kept, and generated sites reused); unset: a new one under
#                            $TMPDIR (default /tmp), deleted on exit. 1M needs about 5 GB.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PACKAGE=$(cd "$BENCH_DIR/.." && pwd)
SIZES=${SIZES:-"100000 300000 1000000"}
ROUNDS=${ROUNDS:-5}
WORD=${WORD:-100}
COMMON_WORD=${COMMON_WORD:-kraków}
NEWSBOAT_MAX=${NEWSBOAT_MAX:-100000}
BASELINE=${BASELINE:-}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
[[ $SCRATCH_PATH = /* ]] || SCRATCH_PATH=$PACKAGE/$SCRATCH_PATH
PY=/usr/bin/python3
FEEDS=1000

# Targets from the issue.
STARTUP_FACTOR=3      # list, feeds, show, list -s within 3x podcli --version
ALL_RSS_MB=100        # list --all
SYNC_WALL=2           # warm sync, seconds
SYNC_REFRESH_FACTOR=3 # warm sync within 3x warm refresh
SYNC_RSS_MB=100

die() { echo "scale.sh: $*" >&2; exit 1; }

missing=()
[[ -x /usr/sbin/nginx ]] || missing+=("nginx (/usr/sbin/nginx): scripts/install-deps.sh")
command -v sqlite3 >/dev/null || missing+=("sqlite3: scripts/install-deps.sh")
command -v newsboat >/dev/null || missing+=("newsboat: scripts/install-deps.sh")
command -v curl >/dev/null || missing+=("curl: apt-get install -y curl")
[[ -x /usr/bin/time ]] || missing+=("GNU time (/usr/bin/time): scripts/install-deps.sh")
[[ -n ${PODCLI:-} ]] || command -v swift >/dev/null || missing+=("swift (or set PODCLI to a built podcli)")
if ((${#missing[@]})); then
    printf 'scale.sh: missing %s\n' "${missing[@]}" >&2
    exit 1
fi
[[ -z $BASELINE || -x $BASELINE ]] || die "BASELINE is not an executable: $BASELINE"

# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"
use_workdir "${SCALE_WORK:-}" podcli-scale

mkdir -p "$BENCH_DIR/out"
REPORT=$BENCH_DIR/out/scale-$(date +%Y-%m-%d-%H%M%S).txt
: >"$REPORT"
MEASURE_WIDTH=22
build_podcli

# --- nginx on 127.0.0.1, serving $WORK ------------------------------------------------------------
PORT=${PORT:-$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
BASE=http://127.0.0.1:$PORT
start_nginx "$WORK" "$PORT"

# --- helpers ----------------------------------------------------------------------------------------
# verdict VALUE OP LIMIT: PASS or FAIL (called in $(...), so the failures are counted from the
# report at the end).
verdict() {
    awk -v a="$1" -v b="$3" -v op="$2" 'BEGIN { r = (op == "<=") ? (a <= b) : (a < b); print (r ? "PASS" : "FAIL") }'
}
ms() { awk -v s="$(col_median "$1" 1)" 'BEGIN { printf "%.1f", s * 1000 }'; }
db_value() { sqlite3 -readonly "$1" "$2"; }

# The sqlite3 CLI's versions of podcli's queries, on podcli's database (read only).
SQL_LIST="SELECT e.id, e.title, f.title, e.state, e.duration_ms, e.sort_date,
  (SELECT sum(size) FROM files WHERE episode_id = e.id), coalesce(p.played, 0)
  FROM episodes AS e LEFT JOIN feeds AS f ON f.id = e.feed_id LEFT JOIN playback_state AS p ON p.episode_id = e.id
  ORDER BY e.sort_date DESC, e.id LIMIT 50"
SQL_FEEDS="SELECT f.id, f.title, f.episode_count,
  (SELECT count(*) FROM episodes WHERE feed_id = f.id AND is_new = 1),
  (SELECT count(*) FROM episodes WHERE feed_id = f.id AND state = 'downloaded')
  FROM feeds AS f ORDER BY f.title COLLATE NOCASE, f.id"
sql_show() { echo "SELECT e.*, t.* FROM episodes AS e LEFT JOIN episode_texts AS t ON t.episode_id = e.id WHERE e.id = $1"; }

say "# podcli scale benchmark, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
say "podcli: $PODCLI (source $(git -C "$PACKAGE" describe --always --dirty 2>/dev/null || echo unknown))"
[[ -z $BASELINE ]] || say "baseline: $BASELINE"
say "peers: $(sqlite3 --version | cut -d' ' -f1-2 | sed 's/^/sqlite3 /'), $(newsboat --version | head -n 1 | cut -d' ' -f1-2); rounds: $ROUNDS; search words: $WORD, $COMMON_WORD"
say "data: $WORK ($(findmnt -n -o FSTYPE -T "$WORK" 2>/dev/null || echo '?')); nginx on $BASE"

declare -A SUMMARY
for size in $SIZES; do
    site=$WORK/site-$size
    if [[ ! -f $site/feeds.opml || $(cat "$site/.base" 2>/dev/null) != "$BASE/site-$size" ]]; then
        rm -rf "$site"
        "$PY" "$BENCH_DIR/gen_feeds.py" many "$site" --base-url "$BASE/site-$size" --feeds $FEEDS --total "$size" \
            --min-items $((size / FEEDS)) --max-items $((size / FEEDS)) >&2
        echo "$BASE/site-$size" >"$site/.base"
    fi
    home=$WORK/home-$size
    say ""
    say "## $size episodes ($FEEDS feeds of $((size / FEEDS)), $(du -sb "$site/feeds" | cut -f1) bytes of XML)"
    say "raw (wall, user, sys in s; GNU time %e %U %S %M):"

    # Cold import, the baseline's first (it reads the same site), then podcli's.
    if [[ -n $BASELINE ]]; then
        rm -rf "$WORK/baseline-home"
        rm -f "$WORK/$size-baseline-import.tsv"
        measure "$size-baseline-import" "$BASELINE" --home "$WORK/baseline-home" import "$site/feeds.opml"
        base_db=$(stat -c %s "$WORK/baseline-home/podcli.db")
        rm -rf "$WORK/baseline-home"
    fi
    rm -rf "$home"
    rm -f "$WORK/$size-import.tsv"
    measure "$size-import" "$PODCLI" --home "$home" import "$site/feeds.opml"
    db=$home/podcli.db
    [[ $(db_value "$db" 'SELECT count(*) FROM episodes') = "$size" ]] || die "import recorded $(db_value "$db" 'SELECT count(*) FROM episodes') episodes, not $size"
    db_bytes=$(stat -c %s "$db")
    "$PODCLI" --home "$home" config set download none >/dev/null

    rounds "$size-version" "$PODCLI" --version
    rounds "$size-list" "$PODCLI" --home "$home" list
    rounds "$size-feeds" "$PODCLI" --home "$home" feeds
    show_id=$(db_value "$db" "SELECT id FROM episodes ORDER BY id LIMIT 1 OFFSET $((size / 2))")
    rounds "$size-show" "$PODCLI" --home "$home" show "$show_id"
    rounds "$size-search" "$PODCLI" --home "$home" list -s "$WORD"
    rounds "$size-sql-list" sqlite3 -readonly "$db" "$SQL_LIST"
    rounds "$size-sql-feeds" sqlite3 -readonly "$db" "$SQL_FEEDS"
    rounds "$size-sql-show" sqlite3 -readonly "$db" "$(sql_show "$show_id")"
    rounds "$size-sql-search" sqlite3 -readonly "$db" "$(sql_search "$WORD")"
    rounds "$size-common" "$PODCLI" --home "$home" list -s "$COMMON_WORD"
    rounds "$size-sql-common" sqlite3 -readonly "$db" "$(sql_search "$COMMON_WORD")"
    [[ $(wc -l <"$WORK/$size-list.out") = 51 ]] || die "list printed $(wc -l <"$WORK/$size-list.out") lines, not 51"
    [[ -s $WORK/$size-search.out ]] || die "list -s $WORD found nothing"

    rm -f "$WORK/$size-all.tsv"
    measure "$size-all" "$PODCLI" --home "$home" list --all
    [[ $(wc -l <"$WORK/$size-all.out") = $((size + 1)) ]] || die "list --all printed $(wc -l <"$WORK/$size-all.out") lines"
    rm -f "$WORK/$size-all.out"

    sleep 1.1 # so a 200 (changed_at = now) would be told apart from a 304
    rounds "$size-refresh" "$PODCLI" --home "$home" refresh
    rounds "$size-sync" "$PODCLI" --home "$home" sync --quiet
    [[ $(db_value "$db" 'SELECT sum(checked_at > changed_at), sum(failures) FROM feeds') = "$FEEDS|0" ]] ||
        die "the warm runs were not $FEEDS x 304"

    if ((size <= NEWSBOAT_MAX)); then
        nb=$WORK/newsboat-$size
        rm -rf "$nb"
        mkdir -p "$nb"
        sed -n 's/.*xmlUrl="\([^"]*\)".*/\1/p' "$site/feeds.opml" >"$nb/urls"
        printf 'max-items 0\nreload-threads 2\nshow-read-feeds yes\n' >"$nb/config"
        rm -f "$WORK/$size-newsboat-cold.tsv" "$WORK/$size-newsboat-warm.tsv"
        measure "$size-newsboat-cold" newsboat -u "$nb/urls" -c "$nb/cache.db" -C "$nb/config" -x reload
        measure "$size-newsboat-warm" newsboat -u "$nb/urls" -c "$nb/cache.db" -C "$nb/config" -x reload
        nb_items=$(db_value "$nb/cache.db" 'SELECT count(*) FROM rss_item')
        rm -rf "$nb"
    fi

    startup=$(col_median "$size-version" 1)
    say ""
    say "$(printf '%-26s %10s %10s %12s %12s' "$size episodes" 'podcli ms' 'sqlite3 ms' 'x --version' 'target <= 3x')"
    for what in list feeds show search; do
        factor=$(ratio "$(col_median "$size-$what" 1)" "$startup")
        say "$(printf '%-26s %10s %10s %11sx %12s' "$what" "$(ms "$size-$what")" "$(ms "$size-sql-$what")" "$factor" "$(verdict "$factor" '<=' "$STARTUP_FACTOR")")"
    done
    say "$(printf '%-26s %10s %10s %11sx %12s' "search '$COMMON_WORD' (half)" "$(ms "$size-common")" "$(ms "$size-sql-common")" "$(ratio "$(col_median "$size-common" 1)" "$startup")" '-')"
    say "$(printf '%-26s %10s' 'podcli --version' "$(ms "$size-version")")"
    all_rss=$(mb "$(col_max "$size-all" 3)")
    say "list --all: $(col_median "$size-all" 1) s, $all_rss MB RSS (target < $ALL_RSS_MB MB: $(verdict "$all_rss" '<' "$ALL_RSS_MB"))"
    sync_wall=$(col_median "$size-sync" 1)
    refresh_wall=$(col_median "$size-refresh" 1)
    sync_rss=$(mb "$(col_max "$size-sync" 3)")
    sync_factor=$(ratio "$sync_wall" "$refresh_wall")
    say "warm refresh: $refresh_wall s, $(mb "$(col_max "$size-refresh" 3)") MB; warm sync: $sync_wall s (target < $SYNC_WALL s: $(verdict "$sync_wall" '<' "$SYNC_WALL")), ${sync_factor}x refresh (target <= $SYNC_REFRESH_FACTOR: $(verdict "$sync_factor" '<=' "$SYNC_REFRESH_FACTOR")), $sync_rss MB (target < $SYNC_RSS_MB: $(verdict "$sync_rss" '<' "$SYNC_RSS_MB"))"
    import_wall=$(col_median "$size-import" 1)
    per_episode=$((db_bytes / size))
    line="cold import: $import_wall s, $(mb "$(col_max "$size-import" 3)") MB RSS; database $db_bytes bytes ($per_episode per episode)"
    if [[ -n $BASELINE ]]; then
        base_wall=$(col_median "$size-baseline-import" 1)
        line+="; baseline $base_wall s, $((base_db / size)) per episode (import $(ratio "$import_wall" "$base_wall")x: $(verdict "$import_wall" '<=' "$base_wall"); size: $(verdict "$per_episode" '<=' "$((base_db / size))"))"
    fi
    say "$line"
    if ((size <= NEWSBOAT_MAX)); then
        say "newsboat: cold reload $(col_median "$size-newsboat-cold" 1) s, $(mb "$(col_max "$size-newsboat-cold" 3)") MB; warm reload $(col_median "$size-newsboat-warm" 1) s, $(mb "$(col_max "$size-newsboat-warm" 3)") MB ($nb_items items)"
    fi
    SUMMARY[$size]="$(ms "$size-version") $(ms "$size-list") $(ms "$size-feeds") $(ms "$size-show") $(ms "$size-search") $(col_median "$size-all" 1) $all_rss $refresh_wall $sync_wall $sync_rss $import_wall $per_episode"
    rm -rf "$home"
done

say ""
say "## Growth"
say "$(printf '%-9s %8s %8s %8s %8s %9s %9s %8s %9s %8s %8s %9s %8s' size 'ver ms' 'list ms' 'feeds ms' 'show ms' 'search ms' 'all s' 'all MB' 'refresh s' 'sync s' 'sync MB' 'import s' 'B/ep')"
for size in $SIZES; do
    # shellcheck disable=SC2086
    say "$(printf '%-9s %8s %8s %8s %8s %9s %9s %8s %9s %8s %8s %9s %8s' "$size" ${SUMMARY[$size]})"
done
say ""
say "load after: $(cut -d' ' -f1-3 /proc/loadavg); targets failed: $(grep -o 'FAIL' "$REPORT" | wc -l)"
say "report: ${REPORT#"$PACKAGE"/}"
