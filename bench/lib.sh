# Shared by the benchmarks (sourced): the report, podcli's build, and measuring a command.
# Expects BENCH_DIR, PACKAGE, SCRATCH_PATH, WORK, REPORT and die() to be set by the script.

# say TEXT: a line on stdout and in the report.
say() { printf '%s\n' "$*" | tee -a "$REPORT"; }

# build_podcli: sets PODCLI to a release build (into SCRATCH_PATH) unless it names one already.
build_podcli() {
    if [[ -z ${PODCLI:-} ]]; then
        echo "building podcli (release, scratch path $SCRATCH_PATH)..." >&2
        swift build -c release --product podcli --scratch-path "$SCRATCH_PATH" --package-path "$PACKAGE" >&2
        PODCLI=$(swift build -c release --scratch-path "$SCRATCH_PATH" --package-path "$PACKAGE" --show-bin-path)/podcli
    fi
    [[ -x $PODCLI ]] || die "no podcli at $PODCLI"
}

# Wall and CPU (user + sys) from bash's `time` (ms resolution), peak RSS from GNU time's %M
# (KiB), both from the same wait4. Every contender runs under exactly one GNU time.
TIMEFORMAT='%3R %3U %3S'

# measure NAME CMD...: runs CMD (stdout to $WORK/NAME.out); appends "wall cpu rss user sys" to
# $WORK/NAME.tsv and prints the raw line to the report (names padded to MEASURE_WIDTH).
measure() {
    local name=$1
    shift
    local bt=$WORK/$name.bashtime gt=$WORK/$name.gnutime
    if ! { time /usr/bin/time -f '%e %U %S %M' -o "$gt" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"; } 2>"$bt"; then
        die "$name failed: $(tail -n 5 "$WORK/$name.err")"
    fi
    local wall user sys rss
    read -r wall user sys <"$bt"
    rss=$(awk '{ print $4 }' "$gt")
    printf '%s %s %s %s %s\n' "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }')" "$rss" \
        "$user" "$sys" >>"$WORK/$name.tsv"
    say "  $(printf "%-${MEASURE_WIDTH:-16}s" "$name") wall $wall user $user sys $sys rss $rss KiB   [gnu: $(cat "$gt")]"
}

# rounds NAME CMD...: ROUNDS timed runs (after one untimed) of CMD.
rounds() {
    local name=$1
    shift
    "$@" >/dev/null 2>&1 || true
    rm -f "$WORK/$name.tsv"
    for ((r = 1; r <= ROUNDS; r++)); do measure "$name" "$@"; done
}

# sql_search WORD: the sqlite3 CLI's version of issue 15's `list -s WORD` on podcli's database:
# every match ranked, then the page.
sql_search() {
    echo "SELECT e.id, e.title FROM episode_search JOIN episodes AS e ON e.id = episode_search.rowid
      WHERE episode_search MATCH '\"$1\"*' ORDER BY episode_search.rank, e.sort_date DESC LIMIT 50"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
col_median() { cut -d' ' -f"$2" "$WORK/$1.tsv" | median; }
col_max() { cut -d' ' -f"$2" "$WORK/$1.tsv" | sort -g | tail -n 1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "inf"; else printf "%.2f", a / b }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }'; }

# plain_library EPISODES: sets PLAIN to a library of EPISODES generated straight into podcli's schema
# by gen_search_library.py under WORK (made once, then reused). Expects PODCLI and PY.
plain_library() {
    PLAIN=$WORK/plain-$1
    if [[ ! -f $PLAIN/.done ]]; then
        rm -rf "$PLAIN"
        "$PODCLI" --home "$PLAIN" list >/dev/null 2>&1
        "$PY" "$BENCH_DIR/gen_search_library.py" "$PLAIN/podcli.db" --episodes "$1" >&2
        sqlite3 "$PLAIN/podcli.db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
        touch "$PLAIN/.done"
    fi
}

# use_workdir DIR PREFIX: WORK is DIR (made if missing, kept) or, with DIR empty, a new
# temporary directory removed at exit; at exit (and on INT/TERM) nginx is stopped too.
use_workdir() {
    if [[ -n $1 ]]; then
        WORK=$1
        mkdir -p "$WORK"
        OWN_WORK=0
    else
        WORK=$(mktemp -d "${TMPDIR:-/tmp}/$2.XXXXXX")
        OWN_WORK=1
    fi
    WORK=$(cd "$WORK" && pwd)
    trap bench_cleanup EXIT
    trap 'exit 130' INT TERM
}
bench_cleanup() {
    stop_nginx
    if ((OWN_WORK)); then rm -rf "$WORK"; fi
}

NGINX_PID=
stop_nginx() {
    if [[ -n $NGINX_PID ]]; then
        kill "$NGINX_PID" 2>/dev/null || true
        wait "$NGINX_PID" 2>/dev/null || true
        NGINX_PID=
    fi
}

# start_nginx ROOT PORT [HTTP_DIRECTIVES]: nginx serving ROOT on 127.0.0.1:PORT (config and logs
# in $WORK/nginx), in place of one started before, with HTTP_DIRECTIVES added to its http block
# (a limit_rate); started in the background, it sets NGINX_PID (stop_nginx, and the clean-up at
# exit, stop it) and returns once it answers.
start_nginx() {
    stop_nginx
    mkdir -p "$WORK/nginx"
    cat >"$WORK/nginx/nginx.conf" <<NGINX
daemon off;
master_process off;
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 256; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    etag on;
    ${3:-}
    types { application/rss+xml xml; text/x-opml opml; audio/mpeg mp3; }
    client_body_temp_path $WORK/nginx; proxy_temp_path $WORK/nginx; fastcgi_temp_path $WORK/nginx;
    uwsgi_temp_path $WORK/nginx; scgi_temp_path $WORK/nginx;
    server { listen 127.0.0.1:$2; root $1; }
}
NGINX
    /usr/sbin/nginx -e "$WORK/nginx/error.log" -c "$WORK/nginx/nginx.conf" &
    NGINX_PID=$!
    for _ in $(seq 100); do
        # Any HTTP answer (a 404 too) says it listens.
        curl -s -o /dev/null "http://127.0.0.1:$2/" && return 0
        kill -0 "$NGINX_PID" 2>/dev/null || die "nginx exited: $(cat "$WORK/nginx/error.log")"
        sleep 0.1
    done
    die "nginx did not answer on 127.0.0.1:$2"
}

# stop_pulse_and_server: the clean-up at exit of a script that starts a sound server
# (start_pulse) or a file server (serve_files): stops them, then bench_cleanup.
stop_pulse_and_server() {
    for pid in ${KEEPER_PID:-} ${SERVER_PID:-} ${PULSE_PID:-}; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    bench_cleanup
}

# start_pulse SINK: a private PulseAudio daemon (as in TestSupport.PulseAudioServer: no
# default.pa, its own daemon.conf, runtime and state directories, no D-Bus, no real-time
# scheduling) with a null sink SINK (a clocked sink: playback is paced in real time) at RATE Hz
# and CHANNELS channels, listening on PULSE_SOCKET; its files in PULSE_DIR. Sets PULSE_PID and
# KEEPER_PID (the caller's clean-up stops them); PLAYER_ENV reaches it.
start_pulse() {
    mkdir -p "$PULSE_DIR"/{runtime,state,home,config}
    chmod 700 "$PULSE_DIR/runtime"
    echo "# private" >"$PULSE_DIR/daemon.conf"
    echo "autospawn = no" >"$PULSE_DIR/client.conf"
    env -u DBUS_SESSION_BUS_ADDRESS -u DISPLAY -u WAYLAND_DISPLAY -u PULSE_SERVER \
        HOME="$PULSE_DIR/home" XDG_RUNTIME_DIR="$PULSE_DIR/runtime" XDG_CONFIG_HOME="$PULSE_DIR/config" \
        XDG_STATE_HOME="$PULSE_DIR/state" PULSE_RUNTIME_PATH="$PULSE_DIR/runtime" PULSE_STATE_PATH="$PULSE_DIR/state" \
        PULSE_CONFIG="$PULSE_DIR/daemon.conf" \
        pulseaudio -n --daemonize=no --system=no --exit-idle-time=-1 --use-pid-file=no \
        --high-priority=no --realtime=no --log-target=file:"$PULSE_DIR/pulseaudio.log" --log-level=info \
        -L "module-null-sink sink_name=$1 rate=$RATE channels=$CHANNELS" \
        -L "module-native-protocol-unix socket=$PULSE_SOCKET auth-anonymous=1" </dev/null &
    PULSE_PID=$!
    local ok=
    for _ in $(seq 500); do
        if "${PLAYER_ENV[@]}" pactl info >/dev/null 2>&1; then ok=1; break; fi
        kill -0 "$PULSE_PID" 2>/dev/null || break
        sleep 0.01
    done
    [[ -n $ok ]] || die "pulseaudio did not start: $(tail -n 20 "$PULSE_DIR/pulseaudio.log")"
    # Keep the null sink awake: with no stream it renders in 2 s blocks and a new stream waits
    # for the current block to end (0.2-1.2 s at random); a silent 20 ms stream keeps the
    # blocks short. It needs one old block to pass before it takes effect.
    "${PLAYER_ENV[@]}" pacat --playback --raw --latency-msec=20 --rate="$RATE" --channels="$CHANNELS" \
        --format=s16le /dev/zero </dev/null >/dev/null 2>&1 &
    KEEPER_PID=$!
    sleep 2.5
    kill -0 "$KEEPER_PID" 2>/dev/null || die "pacat (the silent stream keeping the sink awake) exited"
}

# serve_files ROOT: Tests/Support/fault_server.py serving ROOT on loopback (PORT, SERVER_PID;
# stop_serving stops it).
serve_files() {
    "${PY:-python3}" "$PACKAGE/Tests/Support/fault_server.py" --root "$1" --no-stdin-watch \
        >"$WORK/server.out" 2>"$WORK/server.err" &
    SERVER_PID=$!
    for _ in $(seq 100); do
        grep -q '^PORT ' "$WORK/server.out" 2>/dev/null && break
        sleep 0.1
    done
    PORT=$(awk '/^PORT /{print $2; exit}' "$WORK/server.out")
    [[ -n $PORT ]] || die "fault_server.py did not start: $(cat "$WORK/server.err")"
}
stop_serving() {
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
}

# fetch_episode FILE: podcli fetches FILE (under the served ROOT) into PODCLI_HOME; prints its id.
fetch_episode() {
    local url="http://127.0.0.1:$PORT/files/$(basename "$1")"
    "$PODCLI" --home "$PODCLI_HOME" --quiet fetch "$url" >/dev/null || die "podcli fetch $url failed"
    "$PODCLI" --home "$PODCLI_HOME" list --json >"$WORK/list.json"
    "$PY" -c '
import json, sys
episodes = json.load(open(sys.argv[1]))
if isinstance(episodes, dict):
    episodes = episodes.get("episodes", [])
print(next(e["id"] for e in episodes if e.get("url") == sys.argv[2]))' "$WORK/list.json" "$url" ||
        die "no episode for $url in podcli list --json"
}
