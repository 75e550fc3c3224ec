#!/usr/bin/env bash
# Sync benchmark (issue 6): 200 feeds served by nginx on 127.0.0.1, 50 new episodes of ~3 MB
# spread over 25 of them, fetched by `podcli sync --jobs 8 --quiet`, `gpo update && gpo download`,
# podget, and for reference `curl --parallel --parallel-max 8` and sequential curl over the 50
# episode URLs, all in the same run: once with nginx unthrottled, once with every connection
# capped at RATE (nginx limit_rate). See bench/README.md ("Sync").
#
# Environment:
#   ROUNDS=3               timed rounds per server mode
#   SLOW_ROUNDS=ROUNDS     timed rounds of gpo and podget (podget takes over a minute a round)
#   JOBS=8                 podcli sync --jobs (the same parallelism as curl --parallel-max)
#   RATE=8m                nginx limit_rate per connection in the throttled mode
#   PODCLI=                a podcli binary to use; unset: build release into SCRATCH_PATH
#   SCRATCH_PATH=.build    SwiftPM scratch path for that build (relative: to the package)
#   SYNC_WORK=             scratch dir for the site and homes (kept); unset: a new one under
#                          $TMPDIR (default /tmp), deleted on exit. Needs about 1 GB.
#   ONLY=                  "unthrottled" or "throttled" to run one server mode only
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PACKAGE=$(cd "$BENCH_DIR/.." && pwd)
ROUNDS=${ROUNDS:-3}
SLOW_ROUNDS=${SLOW_ROUNDS:-$ROUNDS}
JOBS=${JOBS:-8}
RATE=${RATE:-8m}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
ONLY=${ONLY:-}
[[ $SCRATCH_PATH = /* ]] || SCRATCH_PATH=$PACKAGE/$SCRATCH_PATH
PY=/usr/bin/python3
NGINX=/usr/sbin/nginx

# The workload (bench/gen_sync.py).
FEEDS=200
OLD_ITEMS=20       # per feed, in phase 1 (4 KiB enclosures)
NEW_FEEDS=25       # feeds that get new episodes in phase 2
NEW_EPISODES=50    # in all, NEW_EPISODES / NEW_FEEDS per changed feed
MEAN_SIZE=3000000  # bytes per new episode, spread +- 1/6

# Targets from the issue.
PEER_SPEEDUP=5     # podcli at least 5x faster than the fastest of gpo and podget
CURL_RATIO=1.2     # podcli wall within 1.2x of curl --parallel's
RSS_LIMIT_MB=60    # podcli peak RSS under 60 MB

die() { echo "sync.sh: $*" >&2; exit 1; }

# --- tools ----------------------------------------------------------------------------------------
missing=()
[[ -x $NGINX ]] || missing+=("nginx ($NGINX): apt-get install -y nginx-light")
command -v gpo >/dev/null || missing+=("gpo: apt-get install -y gpodder")
command -v podget >/dev/null || missing+=("podget: apt-get install -y podget")
command -v wget >/dev/null || missing+=("wget (podget's downloader): apt-get install -y wget")
[[ -x $PY ]] || missing+=("$PY: apt-get install -y python3")
[[ -x /usr/bin/time ]] || missing+=("GNU time (/usr/bin/time): apt-get install -y time")
command -v curl >/dev/null || missing+=("curl: apt-get install -y curl")
[[ -n ${PODCLI:-} ]] || command -v swift >/dev/null || missing+=("swift (or set PODCLI to a built podcli)")
if ((${#missing[@]})); then
    printf 'sync.sh: missing %s\n' "${missing[@]}" >&2
    exit 1
fi
curl --help all 2>/dev/null | grep -q -- '--parallel-max' || die "curl has no --parallel-max (7.66 or later needed)"
case $ONLY in
'') MODES="unthrottled throttled" ;;
unthrottled | throttled) MODES=$ONLY ;;
*) die "ONLY must be unthrottled or throttled" ;;
esac

# --- scratch dir, server, cleanup (lib.sh) ---------------------------------------------------------
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"
use_workdir "${SYNC_WORK:-}" podcli-sync

mkdir -p "$BENCH_DIR/out"
REPORT=$BENCH_DIR/out/sync-$(date +%Y-%m-%d-%H%M%S).txt
: >"$REPORT"
MEASURE_WIDTH=24
build_podcli

row() {
    say "$(printf '%-40s %9s s %9s s %9s MB' "$1" "$(col_median "$2" 1)" "$(col_median "$2" 2)" "$(mb "$(col_max "$2" 3)")")"
}
# verdict_line LABEL VALUE PASS(0|1) TARGET_TEXT
verdict_line() {
    local v=PASS
    if [[ $3 != 1 ]]; then v=FAIL; FAILS=$((FAILS + 1)); fi
    say "$(printf '%-40s %10s   target %s: %s' "$1" "$2" "$4" "$v")"
}

# db_rows DB SQL: every row SQL gives on a read-only connection, fields separated by spaces.
db_rows() { "$PY" -c 'import sqlite3, sys
for row in sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True).execute(sys.argv[2]):
    print(*row)' "$1" "$2"; }

FAILS=0
FLAGS=0
say "# podcli sync benchmark, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
say "podcli: $PODCLI (source $(git -C "$PACKAGE" describe --always --dirty 2>/dev/null || echo unknown)), sync --jobs $JOBS --quiet"
say "peers: gpodder $(dpkg-query -W -f '${Version}' gpodder 2>/dev/null || echo '?') (gpo), podget $(dpkg-query -W -f '${Version}' podget 2>/dev/null || echo '?')\
 ($(wget --version | head -n1 | cut -d' ' -f1-3)), $(curl --version | head -n1 | cut -d' ' -f1-2), $("$NGINX" -v 2>&1 | sed 's|.*/|nginx |')"
say "rounds: $ROUNDS per mode (gpo and podget: $SLOW_ROUNDS); modes: $MODES (throttled: limit_rate $RATE per connection)"
say "data: $WORK ($(findmnt -n -o FSTYPE -T "$WORK" 2>/dev/null || echo '?')); page cache warm (nothing dropped); 'sync' (untimed) after every run"

# --- the site -------------------------------------------------------------------------------------
PORT=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
BASE=http://127.0.0.1:$PORT
SITE=$WORK/site
rm -rf "$SITE"
echo "generating the site..." >&2
"$PY" "$BENCH_DIR/gen_sync.py" "$SITE" --base-url "$BASE" --feeds $FEEDS --old-items $OLD_ITEMS \
    --new-feeds $NEW_FEEDS --new-episodes $NEW_EPISODES --mean-size $MEAN_SIZE
mkdir -p "$SITE/feeds"
cp "$SITE"/phase1/*.xml "$SITE/feeds/"
touch -d '-1 hour' "$SITE"/feeds/*.xml
NEW_BYTES=$(du -cb "$SITE"/media/new/*.mp3 | tail -n 1 | cut -f1)
mapfile -t NEW_URLS <"$SITE/new-urls.txt"
((${#NEW_URLS[@]} == NEW_EPISODES)) || die "gen_sync.py wrote ${#NEW_URLS[@]} new URLs"
sync

# serve MODE: nginx on $PORT serving $SITE, with limit_rate $RATE when MODE is throttled.
serve() {
    local limit=
    if [[ $1 = throttled ]]; then limit="limit_rate $RATE;"; fi
    start_nginx "$SITE" "$PORT" "$limit"
}

# --- phase 1 (untimed): subscribe every contender to the 200 feeds as they were -------------------
serve unthrottled
PODCLI_HOME=$WORK/podcli-home
GPO_HOME=$WORK/gpo-home
PODGET_DIR=$WORK/podget
export GPODDER_HOME=$GPO_HOME GPODDER_DOWNLOAD_DIR=$GPO_HOME/downloads
rm -rf "$PODCLI_HOME" "$GPO_HOME" "$PODGET_DIR" "$WORK"/*.snapshot
echo "phase 1: subscribing..." >&2

# podcli: import marks each feed's newest item new; an untimed sync downloads those 200 (4 KiB
# each), so the timed sync sees only the phase-2 episodes as new.
"$PODCLI" --home "$PODCLI_HOME" --quiet import "$SITE/feeds.opml" >/dev/null
"$PODCLI" --home "$PODCLI_HOME" sync --jobs "$JOBS" --quiet
PODCLI_SETUP_DOWNLOADS=$("$PODCLI" --home "$PODCLI_HOME" list --downloaded --json | "$PY" -c 'import json, sys; print(len(json.load(sys.stdin)))')
((PODCLI_SETUP_DOWNLOADS == FEEDS)) || die "podcli's setup sync downloaded $PODCLI_SETUP_DOWNLOADS episodes, not $FEEDS"

# gpo: import, then every episode marked old (gpo has no command for it; the GUI's "mark as
# old"): `gpo download` fetches only episodes that are new.
mkdir -p "$GPO_HOME"
gpo import "$SITE/feeds.opml" >"$WORK/gpo-import.out" 2>&1
[[ $(grep -c '^Successfully added' "$WORK/gpo-import.out") = "$FEEDS" ]] || die "gpo import did not add $FEEDS feeds"
"$PY" -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1]); db.execute("UPDATE episode SET is_new = 0"); db.commit()' "$GPO_HOME/Database"
[[ $(db_rows "$GPO_HOME/Database" 'SELECT count(*), sum(is_new) FROM episode') = "$((FEEDS * OLD_ITEMS)) 0" ]] ||
    die "gpo does not hold $((FEEDS * OLD_ITEMS)) old episodes"

# podget: its serverlist holds the 200 feeds; its log of completed downloads holds every old
# enclosure URL, so it fetches only the new ones. Its own config, session and log directories.
mkdir -p "$PODGET_DIR/conf" "$PODGET_DIR/library" "$PODGET_DIR/log"
cp "$SITE/serverlist" "$PODGET_DIR/conf/serverlist"
podget --dir_config "$PODGET_DIR/conf" --create-config podgetrc >/dev/null 2>&1
[[ -f $PODGET_DIR/conf/podgetrc ]] || die "podget did not create its podgetrc"
sed -i "s|^DIR_LIBRARY=.*|DIR_LIBRARY=$PODGET_DIR/library\nDIR_SESSION=$PODGET_DIR/session\nDIR_LOG=$PODGET_DIR/log|" \
    "$PODGET_DIR/conf/podgetrc"
cp "$SITE/old-urls.txt" "$PODGET_DIR/log/done"
: >"$PODGET_DIR/log/errors"

for dir in "$PODCLI_HOME" "$GPO_HOME" "$PODGET_DIR"; do cp -a "$dir" "$dir.snapshot"; done

# --- phase 2: 25 feeds get 2 new episodes each; the other 175 stay as they were (304) -------------
# (The copies get the current time as mtime, the others keep theirs from an hour ago: nginx's
# ETag and Last-Modified change for the 25 only.)
for feed in "$SITE"/phase2/*.xml; do cp "$feed" "$SITE/feeds/"; done
sync

# restore DIR: DIR as it was after phase 1 (the same path: homes record absolute paths).
restore() { rm -rf "$1"; cp -a "$1.snapshot" "$1"; }

# files_check DIR: "RIGHT TOTAL": how many of the audio files under DIR are exactly the served
# new episodes (name and SHA-256), and how many .mp3 files DIR holds in all.
files_check() {
    local right total
    total=$(find "$1" -type f -name '*.mp3' | wc -l)
    right=$(find "$1" -type f -name '*.mp3' -exec sha256sum {} + | sed 's|  .*/|  |' | sort |
        comm -12 - "$SITE/new.sha256" | wc -l)
    echo "$right $total"
}

# run_one MODE WHO: restores WHO's state, runs it timed, checks what it downloaded.
run_one() {
    local mode=$1 who=$2 got
    case $who in
    podcli)
        restore "$PODCLI_HOME"
        sync
        local started changed
        started=$(date +%s)
        measure "$mode-podcli" "$PODCLI" --home "$PODCLI_HOME" sync --jobs "$JOBS" --quiet
        # 25 feeds read anew (200), the other 175 answered 304 (changed_at older than the run).
        changed=$(db_rows "$PODCLI_HOME/podcli.db" "SELECT sum(changed_at >= $started), sum(checked_at >= $started), sum(failures) FROM feeds")
        [[ $changed = "$NEW_FEEDS $FEEDS 0" ]] || die "podcli's refresh: $changed (changed, checked, failures) instead of $NEW_FEEDS $FEEDS 0"
        # Exactly the 50 new episodes more, each recorded with the served bytes' SHA-256, and the
        # files on disk as recorded.
        local listed recorded
        listed=$("$PODCLI" --home "$PODCLI_HOME" list --downloaded --json | "$PY" -c 'import json, sys; print(len(json.load(sys.stdin)))')
        ((listed == PODCLI_SETUP_DOWNLOADS + NEW_EPISODES)) ||
            die "podcli lists $listed downloaded episodes, not $PODCLI_SETUP_DOWNLOADS + $NEW_EPISODES"
        recorded=$(db_rows "$PODCLI_HOME/podcli.db" 'SELECT sha256, relative_path FROM files' |
            sed 's| .*/|  |' | sort | comm -12 - "$SITE/new.sha256" | wc -l)
        ((recorded == NEW_EPISODES)) || die "podcli recorded only $recorded of the $NEW_EPISODES new episodes with the right SHA-256"
        got=$(files_check "$PODCLI_HOME/episodes")
        [[ $got = "$NEW_EPISODES $((PODCLI_SETUP_DOWNLOADS + NEW_EPISODES))" ]] ||
            die "podcli's episode files: $got (right, total) instead of $NEW_EPISODES $((PODCLI_SETUP_DOWNLOADS + NEW_EPISODES))"
        "$PODCLI" --home "$PODCLI_HOME" verify >/dev/null || die "podcli verify failed"
        SYNC_SUMMARY=$(tail -n 1 "$PODCLI_HOME/sync.log")
        ;;
    gpo)
        restore "$GPO_HOME"
        sync
        measure "$mode-gpo" bash -c 'gpo update && gpo download'
        got=$(files_check "$GPODDER_DOWNLOAD_DIR")
        ;;
    podget)
        restore "$PODGET_DIR"
        sync
        measure "$mode-podget" podget --dir_config "$PODGET_DIR/conf" --silent
        got=$(files_check "$PODGET_DIR/library")
        ;;
    curl-parallel | curl-sequential)
        local out=$WORK/$who parallel=()
        rm -rf "$out"
        mkdir -p "$out"
        sync
        if [[ $who = curl-parallel ]]; then parallel=(--parallel --parallel-max "$JOBS"); fi
        measure "$mode-$who" curl -s -S -f "${parallel[@]}" --output-dir "$out" --remote-name-all "${NEW_URLS[@]}"
        got=$(files_check "$out")
        [[ $got = "$NEW_EPISODES $NEW_EPISODES" ]] || die "$who: $got files (right, total), not $NEW_EPISODES"
        rm -rf "$out"
        ;;
    esac
    if [[ $who = gpo || $who = podget ]] && [[ $got != "$NEW_EPISODES $NEW_EPISODES" ]]; then
        say "  FLAG: $who downloaded $got (right, total) files instead of $NEW_EPISODES right"
        FLAGS=$((FLAGS + 1))
    fi
    sync
}

for mode in $MODES; do
    serve "$mode"
    rm -f "$WORK/$mode"-*.tsv
    say ""
    say "## $mode ($([[ $mode = throttled ]] && echo "nginx limit_rate $RATE per connection" || echo "no limit")):\
 $FEEDS feeds, $NEW_EPISODES new episodes ($NEW_BYTES bytes) in $NEW_FEEDS of them"
    say "raw (wall, user, sys in s; GNU time %e %U %S %M):"
    contenders=(podcli gpo podget curl-parallel curl-sequential)
    for ((r = 1; r <= ROUNDS; r++)); do
        say "  round $r:"
        for ((i = 0; i < ${#contenders[@]}; i++)); do
            who=${contenders[(i + r - 1) % ${#contenders[@]}]}
            if [[ $who = gpo || $who = podget ]] && ((r > SLOW_ROUNDS)); then continue; fi
            run_one "$mode" "$who"
            if [[ $who = podcli ]]; then say "    (podcli's sync.log: ${SYNC_SUMMARY#* sync: })"; fi
        done
    done
    say "checked every round: podcli read $NEW_FEEDS feeds anew (the others 304) and listed $PODCLI_SETUP_DOWNLOADS + $NEW_EPISODES downloaded episodes, recorded the"
    say "served SHA-256 of all $NEW_EPISODES new ones, their files match, podcli verify passed; each curl wrote the $NEW_EPISODES files"
    say ""
    say "$(printf '%-40s %11s %11s %12s' "$mode, $NEW_EPISODES x ~$(mb $((MEAN_SIZE / 1024))) MB" 'median wall' 'median CPU' 'max RSS')"
    row "podcli sync --jobs $JOBS" "$mode-podcli"
    row "gpo update && gpo download" "$mode-gpo"
    row "podget" "$mode-podget"
    row "curl --parallel-max $JOBS (50 URLs)" "$mode-curl-parallel"
    row "curl sequential (50 URLs)" "$mode-curl-sequential"
    podcli_wall=$(col_median "$mode-podcli" 1)
    gpo_wall=$(col_median "$mode-gpo" 1)
    podget_wall=$(col_median "$mode-podget" 1)
    fastest=$(printf '%s gpo\n%s podget\n' "$gpo_wall" "$podget_wall" | sort -g | head -n 1)
    speedup=$(ratio "${fastest% *}" "$podcli_wall")
    verdict_line "speed-up, fastest peer (${fastest#* }) / podcli" "${speedup}x" \
        "$(awk -v v="$speedup" -v t=$PEER_SPEEDUP 'BEGIN { print (v >= t) }')" ">= $PEER_SPEEDUP"
    vs_curl=$(ratio "$podcli_wall" "$(col_median "$mode-curl-parallel" 1)")
    verdict_line "podcli / curl --parallel (wall)" "${vs_curl}x" \
        "$(awk -v v="$vs_curl" -v t=$CURL_RATIO 'BEGIN { print (v <= t) }')" "<= $CURL_RATIO"
    rss=$(mb "$(col_max "$mode-podcli" 3)")
    verdict_line "podcli max RSS" "$rss MB" "$(awk -v v="$rss" -v t=$RSS_LIMIT_MB 'BEGIN { print (v < t) }')" "< $RSS_LIMIT_MB MB"
    say "(podcli/gpo $(ratio "$podcli_wall" "$gpo_wall")x, podcli/podget $(ratio "$podcli_wall" "$podget_wall")x,\
 podcli/curl sequential $(ratio "$podcli_wall" "$(col_median "$mode-curl-sequential" 1)")x wall)"
done
stop_nginx

say ""
say "load after: $(cut -d' ' -f1-3 /proc/loadavg); targets failed: $FAILS; peers flagged: $FLAGS"
say "report: ${REPORT#"$PACKAGE"/}"
