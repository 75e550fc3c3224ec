#!/usr/bin/env bash
# Import benchmark (issue 25): `podcli import` of an AntennaPod database export of 200 feeds and
# 20,000 episodes (bench/gen_remote.py antennapod) into a fresh library, and a second import of the
# same file into that library (which changes nothing), against the sqlite3 CLI in the same run:
# reading the same rows (podcli's two SELECTs, the queue and the favourites, output to /dev/null),
# and copying them into a new database file (the same SELECTs into tables, one transaction).
# See bench/README.md ("Import").
#
# Environment:
#   ROUNDS=5                 timed rounds (each: podcli first import, podcli second import, the two peers)
#   FEEDS=200 EPISODES=20000 the export's size
#   PODCLI=                  a podcli binary to use; unset: build release into SCRATCH_PATH
#   SCRATCH_PATH=.build      SwiftPM scratch path for that build (relative: to the package)
#   IMPORT_WORK=             scratch dir (kept, the export reused); unset: a new one under $TMPDIR
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PACKAGE=$(cd "$BENCH_DIR/.." && pwd)
ROUNDS=${ROUNDS:-5}
FEEDS=${FEEDS:-200}
EPISODES=${EPISODES:-20000}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
[[ $SCRATCH_PATH = /* ]] || SCRATCH_PATH=$PACKAGE/$SCRATCH_PATH
PY=/usr/bin/python3

die() { echo "import.sh: $*" >&2; exit 1; }

missing=()
command -v sqlite3 >/dev/null || missing+=("sqlite3: scripts/install-deps.sh")
[[ -x /usr/bin/time ]] || missing+=("GNU time (/usr/bin/time): scripts/install-deps.sh")
[[ -x $PY ]] || missing+=("$PY: apt-get install -y python3")
[[ -n ${PODCLI:-} ]] || command -v swift >/dev/null || missing+=("swift (or set PODCLI to a built podcli)")
if ((${#missing[@]})); then
    printf 'import.sh: missing %s\n' "${missing[@]}" >&2
    exit 1
fi

# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"
use_workdir "${IMPORT_WORK:-}" podcli-import
mkdir -p "$BENCH_DIR/out"
REPORT=$BENCH_DIR/out/import-$(date +%Y-%m-%d-%H%M%S).txt
: >"$REPORT"
MEASURE_WIDTH=16
build_podcli

EXPORT=$WORK/AntennaPodBackup-$FEEDS-$EPISODES.db
if [[ ! -f $EXPORT ]]; then
    echo "generating the export..." >&2
    "$PY" "$BENCH_DIR/gen_remote.py" antennapod "$EXPORT" --feeds "$FEEDS" --episodes "$EPISODES"
fi
HOME_DIR=$WORK/home
COPY=$WORK/copy.db

# What podcli's AntennaPod reader asks (Sources/PodcliKit/Import/AntennaPodExport.swift), as the
# sqlite3 CLI runs it.
SELECT_FEEDS="SELECT id, title, download_url, link, description, author, language, image_url, username, password,
    state, auto_download, feed_playback_speed, feed_skip_intro, feed_skip_ending FROM Feeds ORDER BY id"
SELECT_EPISODES="SELECT FeedItems.feed, FeedItems.title, FeedMedia.download_url, FeedItems.item_identifier,
    FeedItems.pubDate, FeedItems.link, FeedItems.description, FeedItems.image_url, FeedMedia.duration,
    FeedMedia.filesize, FeedMedia.mime_type, FeedItems.read, FeedMedia.position, FeedMedia.last_played_time,
    FeedMedia.playback_completion_date, FeedItems.id IN (SELECT feeditem FROM Favorites),
    (SELECT min(id) FROM Queue WHERE feeditem = FeedItems.id)
    FROM FeedItems LEFT JOIN FeedMedia ON FeedMedia.feeditem = FeedItems.id ORDER BY FeedItems.id"
READ_SQL="SELECT name FROM sqlite_master WHERE type = 'table';
$SELECT_FEEDS;
$SELECT_EPISODES;"
COPY_SQL="ATTACH 'file:$EXPORT?mode=ro' AS export;
BEGIN;
CREATE TABLE feeds AS SELECT * FROM ($SELECT_FEEDS) ;
CREATE TABLE episodes AS SELECT * FROM ($SELECT_EPISODES);
COMMIT;"
COPY_SQL=${COPY_SQL//FROM Feeds/FROM export.Feeds}
COPY_SQL=${COPY_SQL//FROM FeedItems/FROM export.FeedItems}
COPY_SQL=${COPY_SQL//JOIN FeedMedia/JOIN export.FeedMedia}
COPY_SQL=${COPY_SQL//FROM Favorites/FROM export.Favorites}
COPY_SQL=${COPY_SQL//FROM Queue/FROM export.Queue}

library() { sqlite3 -readonly "$HOME_DIR/podcli.db" "$1"; }

say "# podcli import benchmark, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
say "podcli: $PODCLI (source $(git -C "$PACKAGE" describe --always --dirty 2>/dev/null || echo unknown))"
say "peer: $(sqlite3 --version | cut -d' ' -f1 | sed 's/^/sqlite3 /'); rounds: $ROUNDS"
say "export: $FEEDS feeds, $EPISODES episodes, $(stat -c %s "$EXPORT") bytes (AntennaPod's tables, WAL mode); data: $WORK ($(findmnt -n -o FSTYPE -T "$WORK" 2>/dev/null || echo '?'))"
say ""
say "raw (wall, user, sys in s; GNU time %e %U %S %M):"
rm -f "$WORK"/*.tsv
for ((r = 1; r <= ROUNDS; r++)); do
    say "  round $r:"
    # The peers go first in even rounds.
    for step in podcli peers; do
        if [[ $step = "$( ((r % 2)) && echo podcli || echo peers)" ]]; then
            rm -rf "$HOME_DIR"
            sync
            measure first-import "$PODCLI" --home "$HOME_DIR" import "$EXPORT"
            measure second-import "$PODCLI" --home "$HOME_DIR" import "$EXPORT"
        else
            measure sqlite3-read sqlite3 -readonly -cmd '.output /dev/null' "$EXPORT" "$READ_SQL"
            rm -f "$COPY"
            sync
            measure sqlite3-copy sqlite3 -cmd '.output /dev/null' "$COPY" "$COPY_SQL"
        fi
    done
    # Every round: what the first import said and holds, and that the second changed nothing.
    grep -q "^AntennaPod: imported $FEEDS feeds, $EPISODES episodes " "$WORK/first-import.out" ||
        die "the first import said: $(cat "$WORK/first-import.out")"
    grep -q "^AntennaPod: imported 0 feeds, 0 episodes (0 played, 0 positions), queue of 0, 0 starred" \
        "$WORK/second-import.out" || die "the second import said: $(cat "$WORK/second-import.out")"
    [[ $(library 'SELECT count(*) FROM feeds') = "$FEEDS" && $(library 'SELECT count(*) FROM episodes') = "$EPISODES" ]] ||
        die "the library holds $(library 'SELECT count(*) FROM feeds') feeds and $(library 'SELECT count(*) FROM episodes') episodes"
    [[ $(sqlite3 -readonly "$COPY" 'SELECT count(*) FROM episodes') = "$EPISODES" ]] || die "sqlite3 copied the wrong rows"
done
say "  (podcli said: $(cat "$WORK/first-import.out"))"

# The second import changes nothing: the library dumped before and after one more.
before=$(library .dump | sha256sum)
"$PODCLI" --home "$HOME_DIR" import "$EXPORT" >/dev/null
[[ $(library .dump | sha256sum) = "$before" ]] || die "a second import changed the library"
say "checked every round: the summary lines, $FEEDS feeds and $EPISODES episodes in the library, the copy's rows; and once that"
say "a second import leaves the library's dump byte for byte as it was"

say ""
say "$(printf '%-34s %11s %11s %10s' "$EPISODES episodes, $FEEDS feeds" 'median wall' 'median CPU' 'max RSS')"
for name in first-import second-import sqlite3-read sqlite3-copy; do
    say "$(printf '%-34s %9s s %9s s %7s MB' "$name" "$(col_median "$name" 1)" "$(col_median "$name" 2)" "$(mb "$(col_max "$name" 3)")")"
done
for pair in "first-import sqlite3-read" "first-import sqlite3-copy" "second-import sqlite3-read"; do
    read -r a b <<<"$pair"
    say "$(printf '%-34s %9sx %11sx %8sx' "$a / $b" "$(ratio "$(col_median "$a" 1)" "$(col_median "$b" 1)")" \
        "$(ratio "$(col_median "$a" 2)" "$(col_median "$b" 2)")" "$(ratio "$(col_max "$a" 3)" "$(col_max "$b" 3)")")"
done
say ""
say "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
say "report: ${REPORT#"$PACKAGE"/}"
