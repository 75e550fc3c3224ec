#!/usr/bin/env bash
# Remote benchmark (issue 25): podcli's exchange with a gpodder.net (mygpo API 2) server over
# loopback, for an account holding 200 subscriptions and 20,000 episode actions uploaded by
# another device ("phone"), against curl fetching the same replies in the same run. See
# bench/README.md ("Remote").
#
# The server is gpodder-fastapi-router under uvicorn (Tests/Support/gpodder_server.py, in the venv
# scripts/install-deps.sh makes), seeded once through its API (bench/seed_gpodder.py, POSTs of
# 2,000 actions) and restarted on a copy of that database before every first exchange. The feeds
# (bench/gen_remote.py account: 200 feeds of 100 episodes, the episodes the actions name) are
# served by nginx on loopback.
#
# podcli's library holds those 200 feeds and 20,000 episodes before the first exchange (an OPML
# import and a sync before any server is set, `download none`), as for a listener whose podcli
# joins the account the phone already uses. Timed, every round:
#   first   `podcli sync --quiet` with the server set, on a copy of that library: register, link,
#           the subscriptions down (none new), its outbox (200 subscribe entries) up, 20,000 actions down and
#           merged; then the refresh of 200 feeds (all 304) and no downloads;
#   warm    the same again, WARM times (nothing new: the boundary action comes down again);
#   local   `podcli sync --no-remote --quiet` on the same library: the refresh alone, so that
#           first - local and warm - local are the exchange alone;
#   curl    curl -f --netrc-file NETRC (the password never in argv) GETting what podcli GETs:
#           the device's subscription changes and the account's episode actions since 0 (first),
#           then since the timestamps those replies gave (warm); replies to /dev/null.
#   fresh   a new device's first exchange: a home holding only the settings; the exchange
#           subscribes to the 200 feeds and reads each (from nginx) before it merges the actions.
# EXCHANGE="remote sync" (words after `podcli --home HOME`) times another podcli command as the
# exchange; LOCAL= (empty) leaves out the local run then.
#
# Environment:
#   ROUNDS=3 WARM=3          first exchanges (each on a restarted server), warm ones after each
#   FEEDS=200 EPISODES=20000 the account's size (one action per episode)
#   EXCHANGE="sync --quiet"  LOCAL="sync --no-remote --quiet"   podcli's timed commands
#   PODCLI=                  a podcli binary to use; unset: build release into SCRATCH_PATH
#   SCRATCH_PATH=.build      SwiftPM scratch path for that build (relative: to the package)
#   REMOTE_WORK=             scratch dir (kept, the seeded account reused); unset: a new one under $TMPDIR
#   FRESH=1                  also time a new device's first exchange (FRESH= leaves it out)
#   ONLY_PEER=1              only the server, the seeding and curl (no podcli exchange)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PACKAGE=$(cd "$BENCH_DIR/.." && pwd)
ROUNDS=${ROUNDS:-3}
WARM=${WARM:-3}
FEEDS=${FEEDS:-200}
EPISODES=${EPISODES:-20000}
read -r -a EXCHANGE <<<"${EXCHANGE-sync --quiet}"
read -r -a LOCAL <<<"${LOCAL-sync --no-remote --quiet}"
ONLY_PEER=${ONLY_PEER:-}
FRESH=${FRESH-1}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
[[ $SCRATCH_PATH = /* ]] || SCRATCH_PATH=$PACKAGE/$SCRATCH_PATH
PY=/usr/bin/python3
VENV_PY=/opt/podcli-gpodder-server/bin/python3
USER_NAME=bench
DEVICE=podcli-bench
WARM_TARGET=1 # seconds, the issue's target for a warm exchange over loopback

die() { echo "remote.sh: $*" >&2; exit 1; }

missing=()
[[ -x $VENV_PY ]] || missing+=("the gpodder server's venv ($VENV_PY): scripts/install-deps.sh")
[[ -x /usr/sbin/nginx ]] || missing+=("nginx (/usr/sbin/nginx): scripts/install-deps.sh")
command -v sqlite3 >/dev/null || missing+=("sqlite3: scripts/install-deps.sh")
command -v curl >/dev/null || missing+=("curl: apt-get install -y curl")
[[ -x /usr/bin/time ]] || missing+=("GNU time (/usr/bin/time): scripts/install-deps.sh")
[[ -n ${PODCLI:-} || -n $ONLY_PEER ]] || command -v swift >/dev/null || missing+=("swift (or set PODCLI to a built podcli)")
if ((${#missing[@]})); then
    printf 'remote.sh: missing %s\n' "${missing[@]}" >&2
    exit 1
fi

# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"
use_workdir "${REMOTE_WORK:-}" podcli-remote
trap 'stop_gpodder; bench_cleanup' EXIT
mkdir -p "$BENCH_DIR/out"
REPORT=$BENCH_DIR/out/remote-$(date +%Y-%m-%d-%H%M%S).txt
: >"$REPORT"
MEASURE_WIDTH=14
[[ -n $ONLY_PEER ]] || build_podcli

free_port() { "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# The ports are kept with the data (the feed and enclosure URLs name one, podcli's config the other).
[[ -f $WORK/ports ]] || echo "$(free_port) $(free_port)" >"$WORK/ports"
read -r FEED_PORT GPODDER_PORT <"$WORK/ports"
FEED_BASE=http://127.0.0.1:$FEED_PORT
SERVER=http://127.0.0.1:$GPODDER_PORT
ACCOUNT=$WORK/account
SEEDED=$WORK/seeded.sqlite
LIVE=$WORK/server/gpodder.sqlite

# The password: one file, read by the server's launcher, the seeding, podcli's password command
# and curl's netrc; never on a command line.
PASSWORD_FILE=$WORK/password
[[ -f $PASSWORD_FILE ]] || printf 'bench-%s\n' "$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')" >"$PASSWORD_FILE"
chmod 600 "$PASSWORD_FILE"
NETRC=$WORK/netrc
printf 'machine 127.0.0.1 login %s password %s\n' "$USER_NAME" "$(head -n 1 "$PASSWORD_FILE")" >"$NETRC"
chmod 600 "$NETRC"
CURL=(curl -s -S -f --netrc-file "$NETRC")

GPODDER_PID=
stop_gpodder() {
    if [[ -n $GPODDER_PID ]]; then
        kill "$GPODDER_PID" 2>/dev/null || true
        wait "$GPODDER_PID" 2>/dev/null || true
        GPODDER_PID=
    fi
}
# start_gpodder ARGS...: Tests/Support/gpodder_server.py on GPODDER_PORT; returns once it listens.
start_gpodder() {
    stop_gpodder
    mkdir -p "$WORK/server"
    rm -f "$WORK/server/out" # the previous server's PORT line must not be read as this one's
    "$VENV_PY" "$PACKAGE/Tests/Support/gpodder_server.py" --port "$GPODDER_PORT" --no-stdin-watch "$@" \
        >"$WORK/server/out" 2>"$WORK/server/err" &
    GPODDER_PID=$!
    for _ in $(seq 600); do
        grep -q '^PORT ' "$WORK/server/out" 2>/dev/null && return 0
        kill -0 "$GPODDER_PID" 2>/dev/null || die "the gpodder server exited: $(tail -n 5 "$WORK/server/err")"
        sleep 0.1
    done
    die "the gpodder server did not start in 60 s"
}
# fresh_server: the server on a new copy of the seeded account.
fresh_server() {
    stop_gpodder
    rm -f "$LIVE"
    cp "$SEEDED" "$LIVE"
    start_gpodder --database "$LIVE" --existing --user "$USER_NAME" --password-file "$PASSWORD_FILE"
    # One untimed request: the server's first (imports, the database opened) is charged to no one.
    "${CURL[@]}" -o /dev/null "$SERVER/api/2/devices/$USER_NAME.json"
}

say "# podcli remote benchmark, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
[[ -n $ONLY_PEER ]] || say "podcli: $PODCLI (source $(git -C "$PACKAGE" describe --always --dirty 2>/dev/null || echo unknown)); exchange: podcli ${EXCHANGE[*]}; local part: podcli ${LOCAL[*]:-(none)}"
say "server: gpodder-fastapi-router $("$VENV_PY" -c 'import importlib.metadata as m; print(m.version("gpodder-fastapi-router"))') (uvicorn, SQLite) on $SERVER; feeds: nginx on $FEED_BASE"
say "peer: $(curl --version | head -n 1 | cut -d' ' -f1-2), --netrc-file; rounds: $ROUNDS first exchanges, $WARM warm ones after each"

# --- the account (generated and seeded once per work dir) ----------------------------------------
start_nginx "$ACCOUNT" "$FEED_PORT"
if [[ ! -f $SEEDED ]]; then
    rm -rf "$ACCOUNT" "$WORK/server"
    echo "generating the account..." >&2
    "$PY" "$BENCH_DIR/gen_remote.py" account "$ACCOUNT" --base-url "$FEED_BASE" --feeds "$FEEDS" --episodes "$EPISODES"
    start_nginx "$ACCOUNT" "$FEED_PORT"
    echo "seeding the server..." >&2
    start_gpodder --database "$WORK/server/seeding.sqlite" --user "$USER_NAME" --password-file "$PASSWORD_FILE"
    "$PY" "$BENCH_DIR/seed_gpodder.py" "$SERVER" "$USER_NAME" "$PASSWORD_FILE" "$ACCOUNT" >"$WORK/seed.out" ||
        die "seeding failed"
    stop_gpodder
    mv "$WORK/server/seeding.sqlite" "$SEEDED"
fi
say "account: $(cat "$WORK/seed.out" 2>/dev/null || echo "seeded before") ($(stat -c %s "$SEEDED") bytes of SQLite)"

# --- podcli's library before it meets the server (made once per work dir) ------------------------
# home.snapshot: the 200 feeds read (download none) before any server is set; fresh.snapshot: a
# new device, nothing but the settings.
HOME_SNAPSHOT=$WORK/home.snapshot
FRESH_SNAPSHOT=$WORK/fresh.snapshot
PODCLI_HOME=$WORK/home
podcli() { "$PODCLI" --home "$PODCLI_HOME" "$@"; }
set_server() {
    podcli config set gpodder-server "$SERVER" >/dev/null
    podcli config set gpodder-user "$USER_NAME" >/dev/null
    podcli config set gpodder-device "$DEVICE" >/dev/null
    podcli config set gpodder-password-command "head -n 1 $PASSWORD_FILE" >/dev/null
}
if [[ -z $ONLY_PEER && ! -f $HOME_SNAPSHOT/podcli.db ]]; then
    echo "making podcli's libraries..." >&2
    rm -rf "$PODCLI_HOME" "$FRESH_SNAPSHOT"
    podcli config set download none >/dev/null
    set_server
    cp -a "$PODCLI_HOME" "$FRESH_SNAPSHOT"
    rm -rf "$PODCLI_HOME"
    podcli --quiet import "$ACCOUNT/feeds.opml" >/dev/null
    podcli config set download none >/dev/null
    podcli sync --quiet
    set_server
    rm -rf "$HOME_SNAPSHOT"
    cp -a "$PODCLI_HOME" "$HOME_SNAPSHOT"
fi
db_value() { sqlite3 -readonly "$PODCLI_HOME/podcli.db" "$1"; }
restore_home() { rm -rf "$PODCLI_HOME"; cp -a "${1:-$HOME_SNAPSHOT}" "$PODCLI_HOME"; }
if [[ -z $ONLY_PEER ]]; then
    restore_home
    [[ $(db_value 'SELECT count(*) FROM feeds') = "$FEEDS" && $(db_value 'SELECT count(*) FROM episodes') = "$EPISODES" ]] ||
        die "podcli's library holds $(db_value 'SELECT count(*) FROM feeds') feeds and $(db_value 'SELECT count(*) FROM episodes') episodes"
    say "podcli's library: $FEEDS feeds, $EPISODES episodes, outbox $(db_value "SELECT group_concat(n, ', ') FROM (SELECT count(*) || ' ' || action AS n FROM outbox GROUP BY action)")"
fi

# What the phone's actions leave on each episode once merged (the newest per episode wins; a play
# within 30 s of the end marks it played): the counts the first exchange must produce.
read -r WANT_PLAYED WANT_STARTED < <("$PY" -c '
import json, sys
newest = {}
for a in json.load(open(sys.argv[1])):
    if a["episode"] not in newest or a["timestamp"] >= newest[a["episode"]]["timestamp"]:
        newest[a["episode"]] = a
plays = [a for a in newest.values() if a["action"] == "play"]
print(sum(a["position"] >= a["total"] - 30 for a in plays), sum(0 < a["position"] < a["total"] - 30 for a in plays))
' "$ACCOUNT/actions.json")

# --- curl's URLs ----------------------------------------------------------------------------------
subscriptions_url() { echo "$SERVER/api/2/subscriptions/$USER_NAME/phone.json?since=$1"; }
actions_url() { echo "$SERVER/api/2/episodes/$USER_NAME.json?since=$1"; }
fresh_server
"${CURL[@]}" -o "$WORK/subscriptions.json" "$(subscriptions_url 0)" -o "$WORK/actions.json" "$(actions_url 0)"
read -r SUBS_SINCE ACTIONS_SINCE GOT_SUBS GOT_ACTIONS < <("$PY" -c '
import json, sys
s, a = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
print(s["timestamp"], a["timestamp"], len(s["add"]), len(a["actions"]))' "$WORK/subscriptions.json" "$WORK/actions.json")
[[ $GOT_SUBS = "$FEEDS" && $GOT_ACTIONS = "$EPISODES" ]] || die "the server gave curl $GOT_SUBS subscriptions and $GOT_ACTIONS actions"
"${CURL[@]}" -o "$WORK/actions-warm.json" "$(actions_url "$ACTIONS_SINCE")"
WARM_ACTIONS=$("$PY" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["actions"]))' "$WORK/actions-warm.json")
say "replies: subscriptions $(stat -c %s "$WORK/subscriptions.json") bytes, actions $(stat -c %s "$WORK/actions.json") bytes ($GOT_ACTIONS); warm: since $SUBS_SINCE / $ACTIONS_SINCE ($WARM_ACTIONS action(s) at the boundary)"

# --- the rounds -----------------------------------------------------------------------------------
curl_first() { measure curl-first "${CURL[@]}" -o /dev/null "$(subscriptions_url 0)" -o /dev/null "$(actions_url 0)"; }
curl_warm() {
    measure curl-warm "${CURL[@]}" -o /dev/null "$(subscriptions_url "$SUBS_SINCE")" -o /dev/null "$(actions_url "$ACTIONS_SINCE")"
}
# podcli_first [NAME]: the first exchange, measured as NAME (podcli-first), and what it left.
podcli_first() {
    measure "${1:-podcli-first}" "$PODCLI" --home "$PODCLI_HOME" "${EXCHANGE[@]}"
    local played started
    if [[ $(db_value 'SELECT count(*) FROM feeds') != "$FEEDS" || $(db_value 'SELECT count(*) FROM episodes') != "$EPISODES" ]]; then
        say "    FLAG: after the first exchange podcli holds $(db_value 'SELECT count(*) FROM feeds') feeds and $(db_value 'SELECT count(*) FROM episodes') episodes"
        FLAGS=$((FLAGS + 1))
    fi
    played=$(db_value 'SELECT count(*) FROM playback_state WHERE played = 1')
    started=$(db_value 'SELECT count(*) FROM playback_state WHERE played = 0 AND position_ms > 0')
    # Flagged, not fatal: the figures of a run that merged wrongly are kept, and say so.
    if [[ $played != "$WANT_PLAYED" || $started != "$WANT_STARTED" ]]; then
        say "    FLAG: after the first exchange podcli holds $played played and $started started episodes, not $WANT_PLAYED and $WANT_STARTED"
        FLAGS=$((FLAGS + 1))
    fi
    local waiting
    waiting=$(db_value 'SELECT count(*) FROM outbox')
    if [[ $waiting != 0 ]]; then
        say "    FLAG: after the first exchange the outbox holds $waiting entries"
        FLAGS=$((FLAGS + 1))
    fi
}
podcli_warm() {
    local before
    before=$(db_value 'SELECT count(*), sum(played), sum(position_ms), max(updated_at) FROM playback_state')
    measure podcli-warm "$PODCLI" --home "$PODCLI_HOME" "${EXCHANGE[@]}"
    if [[ $(db_value 'SELECT count(*), sum(played), sum(position_ms), max(updated_at) FROM playback_state') != "$before" ]]; then
        say "    FLAG: a warm exchange changed playback states"
        FLAGS=$((FLAGS + 1))
    fi
}

FLAGS=0
say ""
say "raw (wall, user, sys in s; GNU time %e %U %S %M):"
rm -f "$WORK"/*.tsv
for ((r = 1; r <= ROUNDS; r++)); do
    say "  round $r (server restarted on the seeded account$([[ -n $ONLY_PEER ]] || echo ", podcli's library restored")):"
    fresh_server
    if [[ -n $ONLY_PEER ]]; then
        curl_first
        for ((w = 1; w <= WARM; w++)); do curl_warm; done
        continue
    fi
    restore_home
    sync
    if ((r % 2)); then podcli_first; curl_first; else curl_first; podcli_first; fi
    say "    (sync.log: $(tail -n 2 "$PODCLI_HOME/sync.log" | tr -s ' \n' ' ' | cut -c 1-200))"
    for ((w = 1; w <= WARM; w++)); do
        if (((r + w) % 2)); then podcli_warm; curl_warm; else curl_warm; podcli_warm; fi
    done
    if ((${#LOCAL[@]})); then measure podcli-local "$PODCLI" --home "$PODCLI_HOME" "${LOCAL[@]}"; fi
    if [[ -n $FRESH ]]; then
        say "  round $r, a new device (server restarted, podcli's home holding only the settings):"
        fresh_server
        restore_home "$FRESH_SNAPSHOT"
        sync
        podcli_first podcli-fresh
        say "    (sync.log: $(tail -n 2 "$PODCLI_HOME/sync.log" | tr -s ' \n' ' ' | cut -c 1-200))"
    fi
done
stop_gpodder

# --- summary --------------------------------------------------------------------------------------
row() {
    [[ -f $WORK/$2.tsv ]] || return 0
    say "$(printf '%-44s %9s s %9s s %7s MB' "$1" "$(col_median "$2" 1)" "$(col_median "$2" 2)" "$(mb "$(col_max "$2" 3)")")"
}
say ""
say "$(printf '%-44s %11s %11s %10s' "$FEEDS subscriptions, $EPISODES actions" 'median wall' 'median CPU' 'max RSS')"
row "podcli first exchange (${EXCHANGE[*]})" podcli-first
row "podcli warm exchange" podcli-warm
row "podcli local part (${LOCAL[*]:-})" podcli-local
row "podcli first exchange, a new device" podcli-fresh
row "curl first (2 GETs, since 0)" curl-first
row "curl warm (2 GETs, since the replies' stamps)" curl-warm
if [[ -z $ONLY_PEER ]]; then
    for kind in first warm; do
        a=$(col_median "podcli-$kind" 1)
        b=$(col_median "curl-$kind" 1)
        line="$(printf '%-44s %9sx %10sx %9sx' "podcli / curl, $kind" "$(ratio "$a" "$b")" \
            "$(ratio "$(col_median "podcli-$kind" 2)" "$(col_median "curl-$kind" 2)")" \
            "$(ratio "$(col_max "podcli-$kind" 3)" "$(col_max "curl-$kind" 3)")")"
        if [[ -f $WORK/podcli-local.tsv ]]; then
            alone=$(awk -v a="$a" -v l="$(col_median podcli-local 1)" 'BEGIN { printf "%.3f", a - l }')
            if awk -v a="$alone" 'BEGIN { exit !(a > 0) }'; then
                line+="   exchange alone (- local) $alone s = $(ratio "$alone" "$b")x curl"
            else
                line+="   exchange alone (- local) $alone s: within the noise"
            fi
        fi
        say "$line"
    done
    warm=$(col_median podcli-warm 1)
    say "warm exchange: $warm s (target < $WARM_TARGET s over loopback: $(awk -v w="$warm" -v t=$WARM_TARGET 'BEGIN { print (w < t) ? "PASS" : "FAIL" }'))"
fi
[[ -n $ONLY_PEER ]] || say "checked: the first exchange leaves $WANT_PLAYED played and $WANT_STARTED started episodes and an empty outbox; a warm one changes no playback state ($FLAGS flag(s))"
say ""
say "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
say "report: ${REPORT#"$PACKAGE"/}"
