#!/usr/bin/env bash
# Download benchmark: `podcli fetch` against `curl -o FILE && openssl dgst -sha256 FILE`, both
# fetching the same file from a server on 127.0.0.1 in the same run. See bench/README.md.
#
# Environment:
#   ROUNDS=5            timed rounds per size (ROUNDS_50=, ROUNDS_500= override one size)
#   SIZES="50 500"      file sizes in MiB
#   SCRATCH_PATH=.build SwiftPM scratch path for the release build (relative: to the package)
#   SERVER=auto         nginx (when /usr/sbin/nginx exists) or python (Tests/Support/fault_server.py)
#   WARMUP=1            untimed rounds per size before the timed ones
#   TMPDIR=/tmp         where the served files, downloads and podcli homes go (one file system)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PACKAGE=$(cd "$BENCH_DIR/.." && pwd)
ROUNDS=${ROUNDS:-5}
SIZES=${SIZES:-"50 500"}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
SERVER=${SERVER:-auto}
WARMUP=${WARMUP:-1}
[[ $SCRATCH_PATH = /* ]] || SCRATCH_PATH=$PACKAGE/$SCRATCH_PATH

# Targets from the issue.
WALL_TARGET=1.00    # podcli wall <= 1.00 x the pair's (median)
CPU_TARGET=1.10     # podcli user+sys <= 1.10 x the pair's (median)
RSS_LIMIT_KIB=39062 # podcli peak RSS < 40 MB = 40,000,000 bytes (GNU time reports KiB)

die() { echo "download.sh: $*" >&2; exit 1; }

for tool in curl openssl python3 /usr/bin/time swift; do
    command -v "$tool" >/dev/null || die "$tool is missing: apt-get install -y curl openssl python3 time (see bench/README.md)"
done
if [[ $SERVER = auto ]]; then
    if command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]]; then SERVER=nginx; else SERVER=python; fi
fi
[[ $SERVER = nginx || $SERVER = python ]] || die "SERVER must be auto, nginx or python"
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/podcli-bench.XXXXXX")
SERVER_PID=
cleanup() {
    if [[ -n $SERVER_PID ]]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$BENCH_DIR/out"
STAMP=$(date +%Y-%m-%d-%H%M%S)
REPORT=$BENCH_DIR/out/download-$STAMP.txt
: >"$REPORT"
say() { printf '%s\n' "$*" | tee -a "$REPORT"; }

# --- 1. build -------------------------------------------------------------------------------------
echo "building podcli (release, scratch path $SCRATCH_PATH)..." >&2
swift build -c release --product podcli --scratch-path "$SCRATCH_PATH" --package-path "$PACKAGE" >&2
BIN_DIR=$(swift build -c release --scratch-path "$SCRATCH_PATH" --package-path "$PACKAGE" --show-bin-path)
PODCLI=$BIN_DIR/podcli
[[ -x $PODCLI ]] || die "no podcli at $PODCLI"

# --- served files ---------------------------------------------------------------------------------
mkdir -p "$WORK/root" "$WORK/dl"
declare -A SOURCE_SHA
for mib in $SIZES; do
    file=$WORK/root/bench-$mib.mp3
    bytes=$((mib * 1024 * 1024))
    echo "generating $mib MiB..." >&2
    # An ID3v2.4 header (tag size 0), then pseudo-random bytes: podcli's sniffer accepts it as audio.
    { printf 'ID3\x04\x00\x00\x00\x00\x00\x00'; head -c $((bytes - 10)) /dev/urandom; } >"$file"
    [[ $(stat -c %s "$file") -eq $bytes ]] || die "generated $file has the wrong size"
    SOURCE_SHA[$mib]=$(openssl dgst -sha256 -r "$file" | cut -d' ' -f1)
done
sync   # so the write-back of the generated files does not land in the timed rounds

# --- server ---------------------------------------------------------------------------------------
if [[ $SERVER = nginx ]]; then
    PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    mkdir -p "$WORK/nginx"
    cat >"$WORK/nginx/nginx.conf" <<EOF
daemon off;
master_process off;
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 64; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    types { audio/mpeg mp3; }
    client_body_temp_path $WORK/nginx; proxy_temp_path $WORK/nginx; fastcgi_temp_path $WORK/nginx;
    uwsgi_temp_path $WORK/nginx; scgi_temp_path $WORK/nginx;
    server {
        listen 127.0.0.1:$PORT;
        location /files/ { alias $WORK/root/; }
    }
}
EOF
    "$NGINX" -e "$WORK/nginx/error.log" -c "$WORK/nginx/nginx.conf" &
    SERVER_PID=$!
    SERVER_DESC="nginx $("$NGINX" -v 2>&1 | sed 's|.*/||') (sendfile, 1 worker)"
else
    # fault_server.py exits when its stdin closes: hold a fifo open for it.
    mkfifo "$WORK/server.stdin"
    python3 "$PACKAGE/Tests/Support/fault_server.py" --root "$WORK/root" \
        <"$WORK/server.stdin" >"$WORK/server.out" 2>"$WORK/server.err" &
    SERVER_PID=$!
    exec {SERVER_STDIN}>"$WORK/server.stdin"
    for _ in $(seq 100); do
        grep -q '^PORT ' "$WORK/server.out" 2>/dev/null && break
        sleep 0.1
    done
    PORT=$(awk '/^PORT /{print $2; exit}' "$WORK/server.out")
    [[ -n $PORT ]] || die "fault_server.py did not start: $(cat "$WORK/server.err")"
    SERVER_DESC="Tests/Support/fault_server.py $(python3 -V 2>&1 | cut -d' ' -f2) (/files: sendfile)"
fi
for _ in $(seq 100); do
    curl -s -o /dev/null -r 0-0 "http://127.0.0.1:$PORT/files/bench-${SIZES%% *}.mp3" && break
    kill -0 "$SERVER_PID" 2>/dev/null || die "the $SERVER server exited"
    sleep 0.1
done

# --- measurement ----------------------------------------------------------------------------------
# Wall and CPU come from bash's `time` (millisecond resolution; GNU time prints only hundredths,
# too coarse for a ~0.1 s run), peak RSS from GNU time's %M (KiB). Both read the same wait4
# rusage; GNU time's own figures are kept in the raw lines as a cross-check. Each contender runs
# under exactly one GNU time, so its ~1-2 ms of overhead is the same for both.
TIMEFORMAT='%3R %3U %3S'

# measure NAME OUT CMD...: runs CMD with stdout to OUT; sets M_WALL M_CPU M_RSS M_GNU.
measure() {
    local name=$1 out=$2
    shift 2
    local bt=$WORK/$name.bashtime gt=$WORK/$name.gnutime
    if ! { time /usr/bin/time -f '%e %U %S %M' -o "$gt" "$@" >"$out" 2>"$WORK/$name.err"; } 2>"$bt"; then
        die "$name failed: $(cat "$WORK/$name.err")"
    fi
    local r u s
    read -r r u s <"$bt"
    M_WALL=$r M_USER=$u M_SYS=$s
    M_CPU=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.3f", u + s }')
    M_GNU=$(cat "$gt")
    M_RSS=$(awk '{print $4}' "$gt")
    # Both timers must agree to within GNU time's rounding; otherwise some other child of this
    # shell was reaped inside the timed window and the figures are not the contender's alone.
    awk -v w="$M_WALL" -v c="$M_CPU" -v g="$M_GNU" 'BEGIN {
        split(g, f, " "); d1 = w - f[1]; d2 = c - (f[2] + f[3])
        exit (d1 < -0.02 || d1 > 0.03 || d2 < -0.025 || d2 > 0.025) }' ||
        die "$name: bash time ($M_WALL s wall, $M_CPU s CPU) and GNU time ($M_GNU) disagree"
}

PAIR_SCRIPT='curl -s -S -f -o "$1" "$2" && openssl dgst -sha256 -r "$1"'

# run_pair URL FILE: sets P_WALL P_CPU P_RSS P_SHA. The pair's RSS is the max over its processes:
# wait4's ru_maxrss for `bash -c` is the largest peak among bash and the children it reaped.
run_pair() {
    measure pair "$WORK/pair.out" bash -c "$PAIR_SCRIPT" pair "$2" "$1"
    P_WALL=$M_WALL P_CPU=$M_CPU P_RSS=$M_RSS P_GNU=$M_GNU P_USER=$M_USER P_SYS=$M_SYS
    P_SHA=$(cut -d' ' -f1 "$WORK/pair.out")
    rm -f "$2"
}

# run_podcli URL HOME: sets Q_WALL Q_CPU Q_RSS Q_SHA Q_SIZE.
run_podcli() {
    rm -rf "$2"
    measure podcli /dev/null "$PODCLI" --home "$2" --quiet fetch "$1"
    Q_WALL=$M_WALL Q_CPU=$M_CPU Q_RSS=$M_RSS Q_GNU=$M_GNU Q_USER=$M_USER Q_SYS=$M_SYS
    "$PODCLI" --home "$2" show 1 --json >"$WORK/show.json"
    # (A command substitution, not a process substitution: bash reaps the latter late, and its
    # CPU time would land in the next `time`.)
    local fields
    fields=$(python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))
print(e["sha256"], e["size"], e["path"])' "$WORK/show.json")
    read -r Q_SHA Q_SIZE Q_PATH <<<"$fields"
    [[ -f $Q_PATH ]] || die "podcli recorded $Q_PATH but it is not there"
    rm -rf "$2"
}

# rss_alone: each of the pair's processes on its own under GNU time (an untimed run).
rss_alone() {
    local url=$1 file=$2
    /usr/bin/time -f '%M' -o "$WORK/curl.rss" curl -s -S -f -o "$file" "$url"
    /usr/bin/time -f '%M' -o "$WORK/openssl.rss" openssl dgst -sha256 -r "$file" >/dev/null
    rm -f "$file"
    echo "curl $(cat "$WORK/curl.rss") KiB, openssl $(cat "$WORK/openssl.rss") KiB"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
maximum() { sort -g | tail -n 1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }'; }
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { print (v <= t ? "PASS" : "FAIL") }'; }

say "# podcli download benchmark, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
say "podcli: $PODCLI (source $(git -C "$PACKAGE" describe --always --dirty 2>/dev/null || echo unknown))"
say "pair:   $(curl --version | head -n1 | cut -d' ' -f1-2), $(openssl version | cut -d' ' -f1-2)"
say "server: $SERVER_DESC on 127.0.0.1:$PORT; files in $WORK ($(findmnt -n -o FSTYPE -T "$WORK" 2>/dev/null || stat -f -c %T "$WORK"))"
say "page cache: warm (the served file stays cached; nothing is dropped). podcli fsyncs its file; curl does not."
say "order alternates each round; 'sync' (untimed) between runs; rounds: ${ROUNDS} (per-size overrides: ROUNDS_<MiB>)"

FAILS=0
declare -A PODCLI_RSS_BY_SIZE
for mib in $SIZES; do
    url="http://127.0.0.1:$PORT/files/bench-$mib.mp3"
    var=ROUNDS_$mib
    rounds=${!var:-$ROUNDS}
    pair_file=$WORK/dl/pair-$mib.mp3
    home=$WORK/home-$mib

    for ((w = 1; w <= WARMUP; w++)); do
        run_podcli "$url" "$home"
        run_pair "$url" "$pair_file"
        sync
    done
    alone=$(rss_alone "$url" "$pair_file")
    sync

    : >"$WORK/pair.tsv"
    : >"$WORK/podcli.tsv"
    say ""
    say "## $mib MiB ($((mib * 1024 * 1024)) bytes), $rounds rounds, source sha256 ${SOURCE_SHA[$mib]}"
    say "raw (bash time: wall user+sys in s; GNU time: %e %U %S %M):"
    for ((r = 1; r <= rounds; r++)); do
        if ((r % 2)); then order="pair podcli"; else order="podcli pair"; fi
        for who in $order; do
            if [[ $who = pair ]]; then
                run_pair "$url" "$pair_file"
                printf '%s\t%s\t%s\t%s\t%s\n' "$P_WALL" "$P_CPU" "$P_RSS" "$P_USER" "$P_SYS" >>"$WORK/pair.tsv"
                say "  round $r pair   wall $P_WALL cpu $P_CPU (user $P_USER sys $P_SYS) rss ${P_RSS} KiB   [gnu: $P_GNU]"
            else
                run_podcli "$url" "$home"
                printf '%s\t%s\t%s\t%s\t%s\n' "$Q_WALL" "$Q_CPU" "$Q_RSS" "$Q_USER" "$Q_SYS" >>"$WORK/podcli.tsv"
                say "  round $r podcli wall $Q_WALL cpu $Q_CPU (user $Q_USER sys $Q_SYS) rss ${Q_RSS} KiB   [gnu: $Q_GNU]"
            fi
            sync
        done
        # The benchmark is worthless if podcli recorded something else than the bytes served.
        if [[ $Q_SHA != "$P_SHA" || $Q_SHA != "${SOURCE_SHA[$mib]}" || $Q_SIZE -ne $((mib * 1024 * 1024)) ]]; then
            say "  round $r: CHECKSUM MISMATCH podcli $Q_SHA ($Q_SIZE bytes), openssl $P_SHA, source ${SOURCE_SHA[$mib]}"
            exit 1
        fi
    done

    pw=$(cut -f1 "$WORK/pair.tsv" | median)
    pc=$(cut -f2 "$WORK/pair.tsv" | median)
    pr=$(cut -f3 "$WORK/pair.tsv" | maximum)
    qw=$(cut -f1 "$WORK/podcli.tsv" | median)
    qc=$(cut -f2 "$WORK/podcli.tsv" | median)
    qr=$(cut -f3 "$WORK/podcli.tsv" | maximum)
    PODCLI_RSS_BY_SIZE[$mib]=$qr
    rw=$(ratio "$qw" "$pw")
    rc=$(ratio "$qc" "$pc")
    vw=$(verdict "$rw" "$WALL_TARGET")
    vc=$(verdict "$rc" "$CPU_TARGET")
    if ((qr < RSS_LIMIT_KIB)); then vr=PASS; else vr=FAIL; fi
    for v in $vw $vc $vr; do [[ $v = PASS ]] || FAILS=$((FAILS + 1)); done

    say "sha256: podcli's record == openssl's output == source in all $rounds rounds"
    say "pair processes alone (GNU time %M, untimed run): $alone"
    say ""
    say "$(printf '%-20s %12s %12s %12s' "$mib MiB" 'median wall' 'median CPU' 'max RSS')"
    say "$(printf '%-20s %10s s %10s s %9s MB' 'curl + openssl' "$pw" "$pc" "$(mb "$pr")")"
    say "$(printf '%-20s %10s s %10s s %9s MB' 'podcli fetch' "$qw" "$qc" "$(mb "$qr")")"
    say "$(printf '%-20s %11sx %11sx %12s' 'podcli / pair' "$rw" "$rc" '')"
    say "$(printf '%-20s %11s %12s %12s' 'target' "<= $WALL_TARGET" "<= $CPU_TARGET" '< 40 MB')"
    say "$(printf '%-20s %12s %12s %12s' 'verdict' "$vw" "$vc" "$vr")"
    say "(CPU split, median user / median sys: pair $(cut -f4 "$WORK/pair.tsv" | median) / $(cut -f5 "$WORK/pair.tsv" | median) s,\
 podcli $(cut -f4 "$WORK/podcli.tsv" | median) / $(cut -f5 "$WORK/podcli.tsv" | median) s)"
done

say ""
set -- $SIZES
if (($# > 1)); then
    first=${PODCLI_RSS_BY_SIZE[$1]} last=${PODCLI_RSS_BY_SIZE[${!#}]}
    say "podcli peak RSS $1 MiB -> ${!#} MiB: $(mb "$first") MB -> $(mb "$last") MB (flat means streaming)"
fi
say "load after: $(cut -d' ' -f1-3 /proc/loadavg); targets failed: $FAILS"
say "report: ${REPORT#"$PACKAGE"/}"
