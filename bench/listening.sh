#!/usr/bin/env bash
# Listening benchmark (issue 23): the sound path's cost on a paced device, against mpg123 in the
# same run. A private PulseAudio daemon with a null sink paces every player in real time; each
# contender plays the same speech-like MP3 (pink-noise bursts with a 3.7 Hz tremolo, 1.5 s
# pauses between them: something for skip silence to do) for PACED_SECONDS of wall time:
#   mpg123          mpg123 -o alsa -a bench_sink -n FRAMES FILE (1.0x)
#   podcli-1x       podcli play ID --device bench_sink (1.0x, every filter off), stopped by SIGINT
#   base-1x         the same with BASE_PODCLI (the build before the issue), when it is set
#   podcli-2x-all   podcli play ID --speed 2 --skip-silence medium --loudness -16
# Measured by bench/playback_probe.py: CPU (user + sys from wait4), VmRSS every second and the
# high-water mark. Targets: podcli-2x-all CPU <= 2x mpg123's; its RSS flat and under 35 MB;
# podcli-1x within 5 % of base-1x (CPU and RSS). See bench/README.md ("Listening").
# Beside them, the floor of speed with the pitch kept: bench/sonic_floor.c, libsonic alone (no
# decoding, no device) at 2x on the media a 2x run of PACED_SECONDS plays, in podcli's chunks.
#
# Environment:
#   PACED_SECONDS=30   wall seconds each contender plays
#   ROUNDS=3           rounds (the order of the contenders rotates each round)
#   BASE_PODCLI=       a podcli built before the issue (e.g. from 6fa6d66), for base-1x
#   PODCLI=            a podcli binary to use; unset: build release into SCRATCH_PATH
#   SCRATCH_PATH=.build
#   AUDIO_DIR=/tmp/podcli-bench-audio   where the generated MP3 is cached
#   LISTENING_WORK=    scratch dir (kept); unset: a new one under $TMPDIR, deleted on exit
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PACKAGE=$(cd "$BENCH_DIR/.." && pwd)
PACED_SECONDS=${PACED_SECONDS:-30}
ROUNDS=${ROUNDS:-3}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
[[ $SCRATCH_PATH = /* ]] || SCRATCH_PATH=$PACKAGE/$SCRATCH_PATH
AUDIO_DIR=${AUDIO_DIR:-/tmp/podcli-bench-audio}
PY=/usr/bin/python3
MPG123=/usr/bin/mpg123.bin
RATE=44100
CHANNELS=2
BURSTS=40   # 40 x (8 s of sound + 1.5 s of pause): 6 min 20 s

die() { echo "listening.sh: $*" >&2; exit 1; }
for tool in sox lame pulseaudio pactl pacat parec; do
    command -v "$tool" >/dev/null || die "missing $tool: scripts/install-deps.sh installs it"
done
[[ -x $MPG123 && -x $PY ]] || die "missing mpg123 or python3: scripts/install-deps.sh installs them"

# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"
use_workdir "${LISTENING_WORK:-}" podcli-listening
SERVER_PID= PULSE_PID= KEEPER_PID=
trap stop_pulse_and_server EXIT

mkdir -p "$BENCH_DIR/out"
REPORT=$BENCH_DIR/out/listening-$(date +%Y-%m-%d-%H%M%S).txt
: >"$REPORT"
build_podcli

mkdir -p "$AUDIO_DIR"
SPEECH=$AUDIO_DIR/speech-pauses-${BURSTS}.mp3
if [[ ! -s $SPEECH ]]; then
    sox -R -V1 -n -r $RATE -c $CHANNELS -b 16 -e signed-integer -t raw - \
        synth 8 pinknoise pinknoise tremolo 3.7 80 lowpass 6000 vol 0.5 pad 0 1.5 repeat $((BURSTS - 1)) |
        lame --quiet -r -s 44.1 --bitwidth 16 --signed --little-endian -b 128 --cbr - "$SPEECH.part"
    mv "$SPEECH.part" "$SPEECH"
fi

PULSE_DIR=$WORK/pulse
PULSE_SOCKET=$PULSE_DIR/native
ALSA_HOME=$WORK/alsa-home
mkdir -p "$ALSA_HOME"
cat >"$ALSA_HOME/.asoundrc" <<EOF
pcm.bench_sink { type pulse server "unix:$PULSE_SOCKET" device "bench_null" }
EOF
PLAYER_ENV=(env -u PODCLI_DEVICE HOME="$ALSA_HOME" XDG_CONFIG_HOME="$ALSA_HOME/.config"
    PULSE_SERVER="unix:$PULSE_SOCKET" PULSE_CLIENTCONFIG="$PULSE_DIR/client.conf")

# The build before the issue cannot open a library of a later schema: it gets one of its own.
serve_files "$AUDIO_DIR"
if [[ -n ${BASE_PODCLI:-} ]]; then
    PODCLI_HOME=$WORK/base-home
    BASE_ID=$(PODCLI=$BASE_PODCLI fetch_episode "$SPEECH")
fi
PODCLI_HOME=$WORK/podcli-home
ID=$(fetch_episode "$SPEECH")
stop_serving
start_pulse bench_null

say "# podcli listening benchmark, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
say "machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
say "podcli: $PODCLI (source $(git -C "$PACKAGE" describe --always --dirty 2>/dev/null || echo unknown))"
say "base: ${BASE_PODCLI:-not set (BASE_PODCLI)}; peer: $("$MPG123" --version | head -n1)"
say "audio: $SPEECH ($BURSTS x 8 s of sound + 1.5 s of pause, 128 kbit/s CBR); $PACED_SECONDS s of wall time each, $ROUNDS rounds"
contenders=(mpg123 podcli-1x podcli-2x-all)
[[ -n ${BASE_PODCLI:-} ]] && contenders+=(base-1x)
n=${#contenders[@]}
# Any C compiler: the Swift toolchain's clang will do.
CC=${CC:-$(command -v cc || command -v clang)} || die "no C compiler for bench/sonic_floor.c"
"$CC" -O2 -o "$WORK/sonic_floor" "$BENCH_DIR/sonic_floor.c" -lsonic || die "cannot build bench/sonic_floor.c (libsonic-dev)"
"$MPG123" -q -s -n $(((2 * PACED_SECONDS * RATE + 1151) / 1152)) "$SPEECH" >"$WORK/2x-media.raw"
say "raw:"
for ((r = 1; r <= ROUNDS; r++)); do
    for ((i = 0; i < n; i++)); do
        who=${contenders[(i + r) % n]}
        stop=(--stop-after "$PACED_SECONDS")
        case $who in
        mpg123) cmd=("$MPG123" -q -o alsa -a bench_sink -n $(((PACED_SECONDS * RATE + 1151) / 1152)) "$SPEECH") stop=() ;;
        podcli-1x) cmd=("$PODCLI" --home "$PODCLI_HOME" play "$ID" --from 0 --device bench_sink) ;;
        base-1x) cmd=("$BASE_PODCLI" --home "$WORK/base-home" play "$BASE_ID" --from 0 --device bench_sink) ;;
        podcli-2x-all) cmd=("$PODCLI" --home "$PODCLI_HOME" play "$ID" --from 0 --device bench_sink
            --speed 2 --skip-silence medium --loudness -16) ;;
        esac
        "${PLAYER_ENV[@]}" "$PY" "$BENCH_DIR/playback_probe.py" "${stop[@]}" --monitor bench_null.monitor \
            --stdout "$WORK/$who.out" --stderr "$WORK/$who.err" --timeout $((PACED_SECONDS * 2 + 60)) \
            -- "${cmd[@]}" >"$WORK/$who-$r.json" || die "the probe failed on $who"
        "$PY" - "$WORK/$who-$r.json" "$who" "$r" <<'EOF' | tee -a "$REPORT"
import json, sys
p = json.load(open(sys.argv[1]))
rss = [k for t, k in p["rss_kib"] if t >= 1.0] or [k for _, k in p["rss_kib"]]
print(f"  round {sys.argv[3]} {sys.argv[2]:<14} wall {p['wall_s']:.2f} user {p['user_s']:.3f} sys {p['sys_s']:.3f}"
      f" VmHWM {p['hwm_kib']} KiB; RSS min {min(rss)} max {max(rss)} KiB; monitor first {p['monitor_first_ms']} ms; exit {p['status']}")
EOF
    done
    "$WORK/sonic_floor" $RATE $CHANNELS 2 <"$WORK/2x-media.raw" >"$WORK/sonic-floor-$r.json"
    say "  round $r libsonic-2x     $(cat "$WORK/sonic-floor-$r.json")"
done
"$PY" - "$WORK" "$ROUNDS" "${contenders[@]}" <<'EOF' | tee -a "$REPORT"
import json, statistics, sys
work, rounds, contenders = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
runs = {c: [json.load(open(f"{work}/{c}-{r}.json")) for r in range(1, rounds + 1)] for c in contenders}
cpu = {c: statistics.median(p["user_s"] + p["sys_s"] for p in runs[c]) for c in contenders}
hwm = {c: max(p["hwm_kib"] for p in runs[c]) / 1024 for c in contenders}
print()
print(f"{'':<14} {'median CPU':>11} {'peak RSS':>10} {'RSS first -> last (from 1 s)':>30}")
for c in contenders:
    rss = [k for p in runs[c] for t, k in p["rss_kib"] if t >= 1.0]
    spread = f"{rss[0] / 1024:.1f} -> {rss[-1] / 1024:.1f} MiB" if rss else "-"
    print(f"{c:<14} {cpu[c]:9.3f} s {hwm[c]:7.1f} MiB {spread:>30}")
def verdict(ok): return "pass" if ok else "FAIL"
r = cpu["podcli-2x-all"] / cpu["mpg123"]
print(f"podcli-2x-all / mpg123 CPU: {r:.2f}x (target <= 2x: {verdict(r <= 2)}); peak RSS {hwm['podcli-2x-all']:.1f} MiB"
      f" (target < 35 MB: {verdict(hwm['podcli-2x-all'] * 1.048576 < 35)})")
floor = statistics.median(json.load(open(f"{work}/sonic-floor-{r}.json"))["cpu_s"] for r in range(1, rounds + 1))
print(f"libsonic alone at 2x on the same media: {floor:.3f} s = {floor / cpu['mpg123']:.2f}x mpg123's whole CPU;"
      f" podcli-2x-all less it: {(cpu['podcli-2x-all'] - floor) / cpu['mpg123']:.2f}x")
if "base-1x" in cpu:
    c, m = cpu["podcli-1x"] / cpu["base-1x"], hwm["podcli-1x"] / hwm["base-1x"]
    print(f"podcli-1x / base-1x: CPU {c:.2f}x, peak RSS {m:.2f}x (target within 5 %: {verdict(c <= 1.05 and m <= 1.05)})")
EOF
say "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
say "report: ${REPORT#"$PACKAGE"/}"
