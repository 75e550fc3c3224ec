#!/usr/bin/env bash
# A speed change as the listener hears it (issue 23: within 100 ms, measured on the sink): podcli
# plays a 20 s sweep at 1x through an ALSA file tap into a private PulseAudio null sink kept awake;
# bench/speed_probe.py sends `speed 2` on the control socket after 2 s of sound and finds the
# first frame on the sink's monitor that differs from `mpg123 -s`. One JSON line per round.
#
# Environment:
#   ROUNDS=3         rounds
#   PODCLI=          a podcli binary to use; unset: build release into SCRATCH_PATH
#   SCRATCH_PATH=.build
#   SPEED_WORK=      scratch dir (kept); unset: a new one under $TMPDIR, deleted on exit
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PACKAGE=$(cd "$BENCH_DIR/.." && pwd)
ROUNDS=${ROUNDS:-3}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
[[ $SCRATCH_PATH = /* ]] || SCRATCH_PATH=$PACKAGE/$SCRATCH_PATH
PY=/usr/bin/python3
MPG123=/usr/bin/mpg123.bin
RATE=44100
CHANNELS=2

die() { echo "speed.sh: $*" >&2; exit 1; }
for tool in sox lame pulseaudio pactl pacat parec "$MPG123"; do
    command -v "$tool" >/dev/null || die "missing $tool: scripts/install-deps.sh installs it"
done

# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"
use_workdir "${SPEED_WORK:-}" podcli-speed
SERVER_PID= PULSE_PID= KEEPER_PID=
trap stop_pulse_and_server EXIT
REPORT=$WORK/report.txt
build_podcli

mkdir -p "$WORK/audio"
sox -R -V1 -n -r $RATE -c $CHANNELS -b 16 "$WORK/sweep.wav" synth 20 sine 200-4000 vol 0.5
lame --quiet -b 128 --cbr "$WORK/sweep.wav" "$WORK/audio/sweep.mp3"
"$MPG123" -q -s "$WORK/audio/sweep.mp3" >"$WORK/reference.raw"

PULSE_DIR=$WORK/pulse
PULSE_SOCKET=$PULSE_DIR/native
ALSA_HOME=$WORK/alsa-home
mkdir -p "$ALSA_HOME"
cat >"$ALSA_HOME/.asoundrc" <<EOF
pcm.bench_tap {
    type file
    slave { pcm { type pulse server "unix:$PULSE_SOCKET" device "bench_null" } }
    file "$WORK/tap.raw"
    format "raw"
    perm 0644
    truncate false
}
EOF
PLAYER_ENV=(env -u PODCLI_DEVICE HOME="$ALSA_HOME" XDG_CONFIG_HOME="$ALSA_HOME/.config"
    PULSE_SERVER="unix:$PULSE_SOCKET" PULSE_CLIENTCONFIG="$PULSE_DIR/client.conf")
start_pulse bench_null

PODCLI_HOME=$WORK/podcli-home
serve_files "$WORK/audio"
ID=$(fetch_episode "$WORK/audio/sweep.mp3")
stop_serving

for r in $(seq "$ROUNDS"); do
    rm -f "$WORK"/tap.raw*
    say "round $r: $("${PLAYER_ENV[@]}" "$PY" "$BENCH_DIR/speed_probe.py" --monitor bench_null.monitor \
        --reference "$WORK/reference.raw" --socket "$PODCLI_HOME/control" \
        --stop-command "${PLAYER_ENV[*]} $PODCLI --home $PODCLI_HOME stop" -- \
        "${PLAYER_ENV[@]}" "$PODCLI" --home "$PODCLI_HOME" play "$ID" --from 0 --device bench_tap)"
done
