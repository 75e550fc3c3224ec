#!/usr/bin/env bash
# Formats benchmark (issue 16): podcli playing a 60-minute AAC-LC 64 kbit/s M4A and a 60-minute
# Opus file, against the `ffmpeg` command (the same libavcodec) in the same run; and podcli's
# start-up against a build of BASELINE (default: main, before FFmpeg) in the same run.
#   1. full speed: `podcli play ID --device null` vs `ffmpeg -i FILE -f null -`: CPU, wall,
#      peak RSS (farm-bench, pairs A B A B, ratio per pair). Target: CPU <= 1.15x ffmpeg.
#   2. real time on a paced device (a private PulseAudio null sink behind an ALSA file tap):
#      RSS every second (flat, < 45 MB), time from the spawn to the first sample at the tap
#      and on the sink's monitor (bench/playback_probe.py). Target: first sound < 150 ms (the
#      PulseAudio plugin's own start-up excepted: see bench/README.md, "Playback").
#   3. start-up: `podcli --version`, `podcli list`, and MP3 playback (`play ID --for 1 --device
#      null`), this build vs BASELINE: wall, CPU and peak RSS. Target: within 5 %.
# See bench/README.md ("Formats").
#
# Environment:
#   RUNS=5                  farm-bench runs per comparison
#   PACED_SECONDS=60        seconds of real-time playback per paced run
#   BASELINE=main           the git revision start-up is compared with
#   PODCLI= / BASELINE_PODCLI=   binaries to use; unset: release builds (SCRATCH_PATH, and a
#                           scratch of its own for BASELINE, from `git archive`)
#   SCRATCH_PATH=.build     SwiftPM scratch path for this build (relative: to the package)
#   AUDIO_DIR=/tmp/podcli-bench-formats   where the generated hour files are cached (~75 MB)
#   MINUTES=60              length of the generated files
#   FORMATS_WORK=           scratch dir (kept); unset: a new one, deleted on exit
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PACKAGE=$(cd "$BENCH_DIR/.." && pwd)
RUNS=${RUNS:-5}
PACED_SECONDS=${PACED_SECONDS:-60}
BASELINE=${BASELINE:-main}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
[[ $SCRATCH_PATH = /* ]] || SCRATCH_PATH=$PACKAGE/$SCRATCH_PATH
AUDIO_DIR=${AUDIO_DIR:-/tmp/podcli-bench-formats}
MINUTES=${MINUTES:-60}
PY=/usr/bin/python3

die() { echo "formats.sh: $*" >&2; exit 1; }
for tool in ffmpeg farm-bench pulseaudio pactl pacat parec git swift; do
    command -v "$tool" >/dev/null || die "missing $tool (scripts/install-deps.sh installs the Debian ones)"
done
[[ -x /usr/bin/time ]] || die "missing GNU time (/usr/bin/time): apt-get install -y time"

if [[ -n ${FORMATS_WORK:-} ]]; then
    WORK=$FORMATS_WORK
    mkdir -p "$WORK"
else
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/podcli-formats.XXXXXX")
fi
REPORT=$WORK/report.txt
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    [[ -n ${FORMATS_WORK:-} ]] || rm -rf "$WORK"
}
trap cleanup EXIT
# shellcheck source=lib.sh
source "$BENCH_DIR/lib.sh"

# --- builds -----------------------------------------------------------------------------------------
build_podcli
if [[ -z ${BASELINE_PODCLI:-} ]]; then
    revision=$(git -C "$PACKAGE" rev-parse --short "$BASELINE")
    source_dir=/tmp/podcli-bench-baseline-$revision
    if [[ ! -x $source_dir/.build/release/podcli ]]; then
        echo "building $BASELINE ($revision) for the start-up comparison..." >&2
        rm -rf "$source_dir" && mkdir -p "$source_dir"
        git -C "$PACKAGE" archive "$revision" | tar -x -C "$source_dir"
        swift build -c release --product podcli --package-path "$source_dir" >&2
    fi
    BASELINE_PODCLI=$source_dir/.build/release/podcli
fi

# --- audio: an hour of speech-like sound, encoded once --------------------------------------------
# Pink noise with a 3.7 Hz tremolo (syllable-like bursts) under 6 kHz, as bench/playback.sh's.
mkdir -p "$AUDIO_DIR"
M4A=$AUDIO_DIR/hour-aac-64k.m4a
OPUS=$AUDIO_DIR/hour.opus
MP3=$AUDIO_DIR/hour-128k.mp3
SOURCE="anoisesrc=color=pink:sample_rate=44100:amplitude=0.3:duration=$((MINUTES * 60)):seed=16,tremolo=f=3.7:d=0.8,lowpass=f=6000,aformat=channel_layouts=stereo"
encode() {
    local output=$1
    shift
    [[ -s $output ]] && return
    echo "encoding $output..." >&2
    ffmpeg -v error -nostdin -y -f lavfi -i "$SOURCE" "$@" "$output.part.${output##*.}"
    mv "$output.part.${output##*.}" "$output"
}
encode "$M4A" -c:a aac -b:a 64k -movflags +faststart
encode "$OPUS" -c:a libopus -b:a 48k
encode "$MP3" -c:a libmp3lame -b:a 128k

# --- libraries: the files fetched over loopback, by each build ------------------------------------
serve_files "$AUDIO_DIR"
PIDS+=("$SERVER_PID")
HOME_NEW=$WORK/home-new
HOME_OLD=$WORK/home-old
fetch_id() { # BINARY HOME FILE: fetches FILE, prints its episode number
    "$1" --home "$2" --quiet fetch "http://127.0.0.1:$PORT/files/$(basename "$3")" --json |
        "$PY" -c 'import json, sys; print(json.load(sys.stdin)["id"])'
}
M4A_ID=$(fetch_id "$PODCLI" "$HOME_NEW" "$M4A")
OPUS_ID=$(fetch_id "$PODCLI" "$HOME_NEW" "$OPUS")
MP3_NEW=$(fetch_id "$PODCLI" "$HOME_NEW" "$MP3")
MP3_OLD=$(fetch_id "$BASELINE_PODCLI" "$HOME_OLD" "$MP3")

say "# podcli formats benchmark, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
say "machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
say "podcli: $PODCLI ($(git -C "$PACKAGE" describe --always --dirty)); baseline: $BASELINE_PODCLI ($BASELINE)"
say "peer: $(ffmpeg -version | head -n1)"
say "files: $(du -h "$M4A" | cut -f1) $(basename "$M4A"), $(du -h "$OPUS" | cut -f1) $(basename "$OPUS"), $(du -h "$MP3" | cut -f1) $(basename "$MP3")"

# bench NAME A B: farm-bench of A against B (one string each), its summary in the report.
bench() {
    say ""
    say "## $1"
    farm-bench -n "$RUNS" --timeout 3600 --vs "$3" -- $2 2>&1 | tee -a "$REPORT"
}

# --- 1. full speed ---------------------------------------------------------------------------------
bench "AAC-LC 64k M4A, 60 min, decoded to null: podcli (A) vs ffmpeg (B)" \
    "$PODCLI --home $HOME_NEW play $M4A_ID --from 0 --device null" "ffmpeg -v error -nostdin -i $M4A -f null -"
bench "Opus 48k, 60 min, decoded to null: podcli (A) vs ffmpeg (B)" \
    "$PODCLI --home $HOME_NEW play $OPUS_ID --from 0 --device null" "ffmpeg -v error -nostdin -i $OPUS -f null -"

# --- 3. start-up against the baseline --------------------------------------------------------------
bench "podcli --version: this build (A) vs $BASELINE (B)" "$PODCLI --version" "$BASELINE_PODCLI --version"
bench "podcli list: this build (A) vs $BASELINE (B)" "$PODCLI --home $HOME_NEW list" "$BASELINE_PODCLI --home $HOME_OLD list"
bench "MP3 (60 min, 128k) playback, --for 1 to null: this build (A) vs $BASELINE (B)" \
    "$PODCLI --home $HOME_NEW play $MP3_NEW --from 0 --for 1 --device null" \
    "$BASELINE_PODCLI --home $HOME_OLD play $MP3_OLD --from 0 --for 1 --device null"

# --- 2. real time -----------------------------------------------------------------------------------
PULSE_DIR=$WORK/pulse
PULSE_SOCKET=$PULSE_DIR/native
ALSA_HOME=$WORK/alsa-home
mkdir -p "$ALSA_HOME" "$WORK/taps" "$PULSE_DIR"/{runtime,state,home,config}
chmod 700 "$PULSE_DIR/runtime"
cat >"$ALSA_HOME/.asoundrc" <<ALSA
pcm.bench_tap {
    type file
    slave { pcm { type pulse server "unix:$PULSE_SOCKET" device "bench_null" } }
    file "$WORK/taps/tap.raw"
    format "raw"
    perm 0644
    truncate false
}
ALSA
echo "# private" >"$PULSE_DIR/daemon.conf"
echo "autospawn = no" >"$PULSE_DIR/client.conf"
PLAYER_ENV=(env -u PODCLI_DEVICE HOME="$ALSA_HOME" XDG_CONFIG_HOME="$ALSA_HOME/.config"
    PULSE_SERVER="unix:$PULSE_SOCKET" PULSE_CLIENTCONFIG="$PULSE_DIR/client.conf")
env -u DBUS_SESSION_BUS_ADDRESS HOME="$PULSE_DIR/home" XDG_RUNTIME_DIR="$PULSE_DIR/runtime" \
    XDG_CONFIG_HOME="$PULSE_DIR/config" XDG_STATE_HOME="$PULSE_DIR/state" PULSE_RUNTIME_PATH="$PULSE_DIR/runtime" \
    PULSE_STATE_PATH="$PULSE_DIR/state" PULSE_CONFIG="$PULSE_DIR/daemon.conf" \
    pulseaudio -n --daemonize=no --system=no --exit-idle-time=-1 --use-pid-file=no --high-priority=no \
    --realtime=no --log-target=file:"$PULSE_DIR/pulseaudio.log" \
    -L "module-null-sink sink_name=bench_null rate=48000 channels=2" \
    -L "module-native-protocol-unix socket=$PULSE_SOCKET auth-anonymous=1" </dev/null &
PIDS+=($!)
for _ in $(seq 500); do "${PLAYER_ENV[@]}" pactl info >/dev/null 2>&1 && break; sleep 0.01; done
# A silent stream keeps the null sink rendering in short blocks (see playback.sh).
"${PLAYER_ENV[@]}" pacat --playback --raw --latency-msec=20 --rate=48000 --channels=2 --format=s16le /dev/zero \
    </dev/null >/dev/null 2>&1 &
PIDS+=($!)
sleep 2.5
for pair in "M4A:$M4A_ID" "Opus:$OPUS_ID"; do
    name=${pair%%:*} id=${pair#*:}
    rm -f "$WORK/taps/"*
    "${PLAYER_ENV[@]}" "$PY" "$BENCH_DIR/playback_probe.py" --tap "$WORK/taps/tap.raw*" --monitor bench_null.monitor \
        --stdout "$WORK/paced.out" --stderr "$WORK/paced.err" --timeout $((PACED_SECONDS * 2 + 60)) -- \
        "$PODCLI" --home "$HOME_NEW" play "$id" --from 0 --for "$PACED_SECONDS" --device bench_tap >"$WORK/probe.json" ||
        die "the probe failed"
    say ""
    say "## $name, $PACED_SECONDS s in real time on the paced sink"
    "$PY" - "$WORK/probe.json" <<'SUMMARY' | tee -a "$REPORT"
import json, sys
p = json.load(open(sys.argv[1]))
rss = [k for t, k in p["rss_kib"] if t >= 1.0] or [k for t, k in p["rss_kib"]]
print(f"  user {p['user_s']:.3f} s sys {p['sys_s']:.3f} s; VmHWM {p['hwm_kib']} KiB; RSS every second: "
      f"min {min(rss)} max {max(rss)} first {rss[0]} last {rss[-1]} KiB ({len(rss)} samples); "
      f"first sample at the tap {p['tap_first_ms']} ms, on the sink's monitor {p['monitor_first_ms']} ms; exit {p['status']}")
SUMMARY
done
say ""
[[ -n ${FORMATS_WORK:-} ]] || cp "$REPORT" "${TMPDIR:-/tmp}/podcli-formats-report.txt"
say "report: ${FORMATS_WORK:+$REPORT}${FORMATS_WORK:-${TMPDIR:-/tmp}/podcli-formats-report.txt}"
