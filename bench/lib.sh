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

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
col_median() { cut -d' ' -f"$2" "$WORK/$1.tsv" | median; }
col_max() { cut -d' ' -f"$2" "$WORK/$1.tsv" | sort -g | tail -n 1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "inf"; else printf "%.2f", a / b }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }'; }

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
