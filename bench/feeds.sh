#!/usr/bin/env bash
# Feed benchmarks (issue 3), each contender measured against its peer in the same run:
#   1. parse one 20,000-item feed (~28 MB): `podcli inspect` vs podcastparser vs ElementTree;
#   2. 200 feeds (87,000 items) served by nginx on 127.0.0.1: cold `podcli import OPML` vs
#      `gpo import OPML`, warm (all 304) `podcli refresh` vs `gpo update`.
# See bench/README.md ("Feeds").
#
# Environment:
#   ROUNDS=3               timed rounds of everything
#   GPO_COLD_ROUNDS=ROUNDS timed rounds of `gpo import` (about 1.5 min each on 2 cores)
#   PODCLI=                a podcli binary to use; unset: build release into SCRATCH_PATH
#   SCRATCH_PATH=.build    SwiftPM scratch path for that build (relative: to the package)
#   FEEDS_WORK=            scratch dir for the data and homes (kept); unset: a new one under
#                          $TMPDIR (default /tmp), deleted on exit. Needs about 1 GB.
#   ONLY=                  "parse" or "sync" to run one workload only
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PACKAGE=$(cd "$BENCH_DIR/.." && pwd)
ROUNDS=${ROUNDS:-3}
GPO_COLD_ROUNDS=${GPO_COLD_ROUNDS:-$ROUNDS}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
ONLY=${ONLY:-}
[[ $SCRATCH_PATH = /* ]] || SCRATCH_PATH=$PACKAGE/$SCRATCH_PATH
PY=/usr/bin/python3   # Debian's: the one that sees python3-podcastparser and runs gpo
NGINX=/usr/sbin/nginx

# Targets from the issue.
PARSE_SPEEDUP_PODCASTPARSER=10   # podcli at least 10x faster than podcastparser
PARSE_SPEEDUP_ETREE=1            # podcli faster than ElementTree
PARSE_RSS_FACTOR=3               # podcli peak RSS <= 3x the feed's size
COLD_SPEEDUP_GPO=20              # podcli import at least 20x faster than gpo
WARM_WALL_LIMIT=0.5              # podcli refresh (all 304) under 0.5 s

die() { echo "feeds.sh: $*" >&2; exit 1; }

# --- tools ----------------------------------------------------------------------------------------
missing=()
[[ -x $NGINX ]] || missing+=("nginx ($NGINX): apt-get install -y nginx-light")
command -v gpo >/dev/null || missing+=("gpo: apt-get install -y gpodder")
[[ -x $PY ]] || missing+=("$PY: apt-get install -y python3")
[[ -x $PY ]] && ! "$PY" -c 'import podcastparser' 2>/dev/null &&
    missing+=("podcastparser for $PY: apt-get install -y python3-podcastparser")
[[ -x /usr/bin/time ]] || missing+=("GNU time (/usr/bin/time): apt-get install -y time")
command -v curl >/dev/null || missing+=("curl: apt-get install -y curl")
[[ -n ${PODCLI:-} ]] || command -v swift >/dev/null || missing+=("swift (or set PODCLI to a built podcli)")
if ((${#missing[@]})); then
    printf 'feeds.sh: missing %s\n' "${missing[@]}" >&2
    exit 1
fi
[[ -z $ONLY || $ONLY = parse || $ONLY = sync ]] || die "ONLY must be parse or sync"

# --- scratch dir, server, cleanup (lib.sh) ---------------------------------------------------------
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"
use_workdir "${FEEDS_WORK:-}" podcli-feeds

mkdir -p "$BENCH_DIR/out"
REPORT=$BENCH_DIR/out/feeds-$(date +%Y-%m-%d-%H%M%S).txt
: >"$REPORT"
MEASURE_WIDTH=16
build_podcli
at_least() { awk -v v="$1" -v t="$2" 'BEGIN { print (v >= t ? "PASS" : "FAIL") }'; }
# row LABEL NAME: median wall, median CPU and max RSS of contender NAME.
row() {
    say "$(printf '%-34s %9s s %9s s %9s MB' "$1" "$(col_median "$2" 1)" "$(col_median "$2" 2)" "$(mb "$(col_max "$2" 3)")")"
}
# speedup LABEL PEER PODCLI [TARGET]: peer median / podcli median, for wall and for CPU; the
# verdict is on the wall ratio.
speedup() {
    local w c verdict=
    w=$(ratio "$(col_median "$2" 1)" "$(col_median "$3" 1)")
    c=$(ratio "$(col_median "$2" 2)" "$(col_median "$3" 2)")
    if [[ -n ${4:-} ]]; then
        verdict="target >= $4: $(at_least "$w" "$4")"
        if [[ $(at_least "$w" "$4") = FAIL ]]; then FAILS=$((FAILS + 1)); fi
    fi
    say "$(printf '%-34s %10sx %10sx   %s' "$1" "$w" "$c" "$verdict")"
}

FAILS=0
say "# podcli feed benchmark, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
say "podcli: $PODCLI (source $(git -C "$PACKAGE" describe --always --dirty 2>/dev/null || echo unknown))"
say "peers: podcastparser $("$PY" -c 'import podcastparser; print(podcastparser.__version__)'),\
 $("$PY" -V), gpodder $(dpkg-query -W -f '${Version}' gpodder 2>/dev/null || echo '?'); rounds: $ROUNDS (gpo import: $GPO_COLD_ROUNDS)"
say "data: $WORK ($(findmnt -n -o FSTYPE -T "$WORK" 2>/dev/null || echo '?')); page cache warm (nothing dropped)"

# --- 1. one large feed ----------------------------------------------------------------------------
# ElementTree contender: parse the whole document, then read from every item the fields podcli
# reads (dates and durations converted, like podcastparser does).
ETREE_SCRIPT='
import sys
import xml.etree.ElementTree as ET
from email.utils import parsedate_tz, mktime_tz
ITUNES = "{http://www.itunes.com/dtds/podcast-1.0.dtd}"
CONTENT = "{http://purl.org/rss/1.0/modules/content/}"
def seconds(text):
    total = 0.0
    for part in (text or "").strip().split(":"):
        total = total * 60 + float(part or 0)
    return total
items = []
for item in ET.parse(sys.argv[1]).getroot().iter("item"):
    enclosure = item.find("enclosure")
    if enclosure is None:
        continue
    date = parsedate_tz(item.findtext("pubDate") or "")
    items.append((
        item.findtext("title"), item.findtext("guid"), item.findtext("link"),
        mktime_tz(date) if date else None,
        enclosure.get("url"), int(enclosure.get("length") or 0), enclosure.get("type"),
        seconds(item.findtext(ITUNES + "duration")), item.findtext(ITUNES + "episode"),
        item.findtext(CONTENT + "encoded") or item.findtext("description"),
    ))
print(len(items))
'
PODCASTPARSER_SCRIPT='
import podcastparser, sys
feed = podcastparser.parse("file://" + sys.argv[1], open(sys.argv[1], "rb"))
print(len(feed["episodes"]))
'

if [[ $ONLY != sync ]]; then
    BIG=$WORK/big.xml
    "$PY" "$BENCH_DIR/gen_feeds.py" big "$BIG" --items 20000 >&2
    BIG_BYTES=$(stat -c %s "$BIG")
    mkdir -p "$WORK/inspect-home"
    run_parse() {
        case $1 in
        podcli) measure podcli "$PODCLI" --home "$WORK/inspect-home" inspect "$BIG" ;;
        podcastparser) measure podcastparser "$PY" -c "$PODCASTPARSER_SCRIPT" "$BIG" ;;
        etree) measure etree "$PY" -c "$ETREE_SCRIPT" "$BIG" ;;
        esac
    }
    say ""
    say "## 1. parse one feed: $BIG_BYTES bytes, 20000 items"
    say "raw (wall, user, sys in s; GNU time %e %U %S %M):"
    say "  warm-up (untimed figures, discarded):"
    for who in podcli podcastparser etree; do run_parse "$who"; done
    rm -f "$WORK"/{podcli,podcastparser,etree}.tsv
    contenders=(podcli podcastparser etree)
    for ((r = 1; r <= ROUNDS; r++)); do
        say "  round $r:"
        for ((i = 0; i < 3; i++)); do run_parse "${contenders[(i + r) % 3]}"; done
        # A fast wrong answer is not measured: all three must see every item.
        grep -q '^Episodes: *20000$' "$WORK/podcli.out" || die "podcli inspect did not find 20000 episodes: $(cat "$WORK/podcli.out")"
        [[ $(cat "$WORK/podcastparser.out") = 20000 ]] || die "podcastparser found $(cat "$WORK/podcastparser.out") episodes"
        [[ $(cat "$WORK/etree.out") = 20000 ]] || die "ElementTree found $(cat "$WORK/etree.out") items"
    done
    say "all three found 20000 episodes in every round"
    say ""
    say "$(printf '%-34s %11s %11s %12s' "parse $(mb $((BIG_BYTES / 1024))) MB, 20000 items" 'median wall' 'median CPU' 'max RSS')"
    row "podcli inspect" podcli
    row "podcastparser" podcastparser
    row "ElementTree + field reads" etree
    say "speed-up = peer / podcli:"
    speedup "  podcastparser / podcli" podcastparser podcli $PARSE_SPEEDUP_PODCASTPARSER
    speedup "  ElementTree / podcli" etree podcli $PARSE_SPEEDUP_ETREE
    rss_factor=$(awk -v k="$(col_max podcli 3)" -v b="$BIG_BYTES" 'BEGIN { printf "%.2f", k * 1024 / b }')
    verdict=$(awk -v v="$rss_factor" -v t="$PARSE_RSS_FACTOR" 'BEGIN { print (v <= t ? "PASS" : "FAIL") }')
    [[ $verdict = PASS ]] || FAILS=$((FAILS + 1))
    say "$(printf '%-34s %36s' "podcli max RSS / feed size" "${rss_factor}x   target <= ${PARSE_RSS_FACTOR}: $verdict")"
    rm -f "$BIG"
fi

# --- 2. 200 feeds over loopback -------------------------------------------------------------------
if [[ $ONLY != parse ]]; then
    PORT=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    BASE=http://127.0.0.1:$PORT
    rm -rf "$WORK/site"
    "$PY" "$BENCH_DIR/gen_feeds.py" many "$WORK/site" --base-url "$BASE" --feeds 200 --total 87000 >&2
    SITE_BYTES=$(du -sb "$WORK/site/feeds" | cut -f1)
    start_nginx "$WORK/site" "$PORT"
    OPML=$WORK/site/feeds.opml
    GPO_HOME=$WORK/gpo-home
    export GPODDER_HOME=$GPO_HOME GPODDER_DOWNLOAD_DIR=$GPO_HOME/dl

    # db_check DB SQL: prints the row SQL gives on a read-only connection.
    db_check() { "$PY" -c 'import sqlite3, sys
print(*sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True).execute(sys.argv[2]).fetchone())' "$1" "$2"; }

    run_podcli_cold_and_warm() {
        local home=$WORK/podcli-home
        rm -rf "$home"
        measure podcli-import "$PODCLI" --home "$home" import "$OPML"
        [[ $(db_check "$home/podcli.db" 'SELECT count(*) FROM episodes') = 87000 ]] ||
            die "podcli import recorded $(db_check "$home/podcli.db" 'SELECT count(*) FROM episodes') episodes, not 87000"
        sleep 1.1 # so a 200 (changed_at = now) would be told apart from a 304 (checked_at = now)
        measure podcli-refresh "$PODCLI" --home "$home" refresh
        # All 304: every feed checked after it last changed, none failed, nothing new.
        local check
        check=$(db_check "$home/podcli.db" 'SELECT sum(checked_at > changed_at), sum(failures), sum(etag IS NOT NULL) FROM feeds')
        [[ $check = "200 0 200" ]] || die "podcli refresh was not 200 x 304 (checked>changed, failures, etags: $check)"
    }

    run_gpo_cold() {
        rm -rf "$GPO_HOME"
        mkdir -p "$GPO_HOME"
        # gpodder keeps only 200 episodes per feed by default; podcli keeps all (up to 800 here).
        gpo set limit.episodes 1000 >/dev/null 2>&1
        measure gpo-import gpo import "$OPML"
        [[ $(grep -c '^Successfully added' "$WORK/gpo-import.out") = 200 ]] || die "gpo import did not add 200 feeds"
        [[ $(db_check "$GPO_HOME/Database" 'SELECT count(*) FROM episode') = 87000 ]] ||
            die "gpo import recorded $(db_check "$GPO_HOME/Database" 'SELECT count(*) FROM episode') episodes, not 87000"
    }

    run_gpo_warm() {
        measure gpo-update gpo update
        [[ $(db_check "$GPO_HOME/Database" 'SELECT count(*), sum(http_etag IS NOT NULL) FROM podcast') = "200 200" ]] ||
            die "gpo does not hold an etag for every feed"
    }

    say ""
    say "## 2. $(grep -c '<outline' "$OPML") feeds, 87000 items, $SITE_BYTES bytes, nginx $("$NGINX" -v 2>&1 | sed 's|.*/||') on 127.0.0.1:$PORT"
    say "raw (wall, user, sys in s; GNU time %e %U %S %M):"
    for ((r = 1; r <= ROUNDS; r++)); do
        say "  round $r:"
        if ((r % 2)); then order="podcli gpo"; else order="gpo podcli"; fi
        for who in $order; do
            if [[ $who = podcli ]]; then
                run_podcli_cold_and_warm
            else
                if ((r <= GPO_COLD_ROUNDS)); then run_gpo_cold; fi
                run_gpo_warm
            fi
        done
        if ((r == 1)); then
            # nginx answers the validators podcli stored with 304 (gpo sends its stored etags the same way).
            # (A command substitution, not a process substitution, which bash reaps late.)
            validators=$("$PY" -c 'import sqlite3, sys
for url, etag in sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True).execute("SELECT url, etag FROM feeds"):
    print(url, etag)' "$WORK/podcli-home/podcli.db")
            notmod=0
            while read -r url etag; do
                code=$(curl -s -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "$url")
                if [[ $code = 304 ]]; then notmod=$((notmod + 1)); fi
            done <<<"$validators"
            [[ $notmod = 200 ]] || die "nginx answered only $notmod of 200 stored etags with 304"
        fi
    done
    say "checked: both recorded 87000 episodes after every import; every podcli refresh was 200 x 304"
    say "(checked_at > changed_at for all feeds); nginx answers all 200 stored etags with 304"
    say ""
    say "$(printf '%-34s %11s %11s %12s' "200 feeds, $(mb $((SITE_BYTES / 1024))) MB" 'median wall' 'median CPU' 'max RSS')"
    row "podcli import (cold)" podcli-import
    row "gpo import (cold, $GPO_COLD_ROUNDS rounds)" gpo-import
    speedup "  gpo / podcli, cold" gpo-import podcli-import $COLD_SPEEDUP_GPO
    row "podcli refresh (warm, 304)" podcli-refresh
    row "gpo update (warm, 304)" gpo-update
    speedup "  gpo / podcli, warm" gpo-update podcli-refresh
    warm=$(col_median podcli-refresh 1)
    verdict=$(awk -v v="$warm" -v t="$WARM_WALL_LIMIT" 'BEGIN { print (v < t ? "PASS" : "FAIL") }')
    [[ $verdict = PASS ]] || FAILS=$((FAILS + 1))
    say "$(printf '%-34s %36s' "podcli refresh median wall" "$warm s   target < $WARM_WALL_LIMIT s: $verdict")"
    say "(CPU is the client's only; nginx's is not counted for either. The cold runs write each"
    say " client's database from scratch: podcli $(du -sb "$WORK/podcli-home" | cut -f1) bytes, gpo $(du -sb "$GPO_HOME" | cut -f1) bytes.)"
fi

say ""
say "load after: $(cut -d' ' -f1-3 /proc/loadavg); targets failed: $FAILS"
say "report: ${REPORT#"$PACKAGE"/}"
