#!/usr/bin/env bash
# Playback benchmark (issue 4): `podcli play` against mpg123 (the same libmpg123, Debian's
# command-line player) in the same run, on a 60-minute CBR and a 60-minute VBR MP3.
#   1. full speed: decode the whole hour to ALSA's `null` device (it consumes at once):
#      `podcli play ID --device null` vs `mpg123 -t FILE` (decode only, no output) and
#      `mpg123 -o alsa -a null FILE`: CPU (user + sys), wall, peak RSS; ratios podcli / mpg123.
#   2. real time: a private PulseAudio daemon with a null sink (a clocked sink: playback is
#      paced in real time), reached through an ALSA `file` tap in front of it:
#      `podcli play ID --device TAP --for S` vs `mpg123 -o alsa -a TAP -n FRAMES FILE` (the
#      same S seconds): CPU, podcli's RSS every second (flat?), and the time from the spawn
#      to the first sample in the tap and on the sink's monitor.
#   3. seeks (issue 14): on the same sink, through the same tap, the time from the spawn to the
#      first sound and from each `seek-to` (sent straight to podcli's control socket; `J Ns` on
#      `mpg123 -R`'s stdin) to the first sample of the new place on the sink's monitor, found by
#      its bytes in the recording (bench/seek_probe.py).
# See bench/README.md ("Playback").
#
# Environment:
#   ROUNDS=3               timed rounds of each full-speed contender, per file
#   PACED_SECONDS=60       seconds of real-time playback per paced run (3600: the whole hour)
#   PACED_ROUNDS=1         paced rounds of each contender
#   PACED_FILES=cbr        which files to play in real time: "cbr", "vbr" or "cbr vbr"
#   SEEK_ROUNDS=5          rounds of part 3 per contender (three seeks each: to 30 s, 60 s, 10 s)
#   PODCLI=                a podcli binary to use; unset: build release into SCRATCH_PATH
#   SCRATCH_PATH=.build    SwiftPM scratch path for that build (relative: to the package)
#   MPG123_ONLY=           1: run only the mpg123 and PulseAudio parts (no podcli needed)
#   ONLY=                  "full", "paced" or "seek" to run one part only
#   AUDIO_DIR=/tmp/podcli-bench-audio   where the generated MP3s are cached (about 140 MB;
#                          635 MB more while generating)
#   MINUTES=60             length of the generated MP3s
#   PLAYBACK_WORK=         scratch dir (kept); unset: a new one under $TMPDIR, deleted on exit.
#                          Needs about 650 MB (the hour decoded once, for the check).
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PACKAGE=$(cd "$BENCH_DIR/.." && pwd)
ROUNDS=${ROUNDS:-3}
PACED_SECONDS=${PACED_SECONDS:-60}
PACED_ROUNDS=${PACED_ROUNDS:-1}
PACED_FILES=${PACED_FILES:-cbr}
SCRATCH_PATH=${SCRATCH_PATH:-.build}
[[ $SCRATCH_PATH = /* ]] || SCRATCH_PATH=$PACKAGE/$SCRATCH_PATH
MPG123_ONLY=${MPG123_ONLY:-}
ONLY=${ONLY:-}
SEEK_ROUNDS=${SEEK_ROUNDS:-5}
AUDIO_DIR=${AUDIO_DIR:-/tmp/podcli-bench-audio}
MINUTES=${MINUTES:-60}
PY=/usr/bin/python3
MPG123=/usr/bin/mpg123.bin   # /usr/bin/mpg123 is an alternatives link to it; no wrapper script
RATE=44100
CHANNELS=2
BYTES_PER_SECOND=$((RATE * CHANNELS * 2))
# The sound: independent pink noise per channel, a 3.7 Hz tremolo (syllable-like bursts), no
# content above 6 kHz: encodes like speech over music (LAME -V 2: about 180 kbit/s), nothing
# a codec can take for silence or for a pure tone. sox -R: the same bytes every time.
SYNTH="synth $((MINUTES * 60)) pinknoise pinknoise tremolo 3.7 80 lowpass 6000 vol 0.5"

die() { echo "playback.sh: $*" >&2; exit 1; }

# --- tools ----------------------------------------------------------------------------------------
missing=()
need() { command -v "$1" >/dev/null || missing+=("$1: apt-get install -y --no-install-recommends $2"); }
[[ -x $MPG123 ]] || missing+=("$MPG123: apt-get install -y mpg123")
need sox sox
need lame lame
need pulseaudio pulseaudio
need pactl pulseaudio-utils
need pacat pulseaudio-utils
need parec pulseaudio-utils
[[ -x /usr/bin/time ]] || missing+=("GNU time (/usr/bin/time): apt-get install -y time")
[[ -x $PY ]] || missing+=("$PY: apt-get install -y python3")
ls /usr/lib/*/alsa-lib/libasound_module_pcm_pulse.so >/dev/null 2>&1 ||
    missing+=("the ALSA pulse plugin: apt-get install -y --no-install-recommends libasound2-plugins")
[[ -n ${PODCLI:-} || -n $MPG123_ONLY ]] || command -v swift >/dev/null ||
    missing+=("swift (or set PODCLI to a built podcli, or MPG123_ONLY=1)")
if ((${#missing[@]})); then
    printf 'playback.sh: missing %s\n' "${missing[@]}" >&2
    echo "playback.sh: scripts/install-deps.sh installs all of them" >&2
    exit 1
fi
[[ -z $ONLY || $ONLY = full || $ONLY = paced || $ONLY = seek ]] || die "ONLY must be full, paced or seek"

# --- scratch dir (lib.sh), cleanup ----------------------------------------------------------------
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"
use_workdir "${PLAYBACK_WORK:-}" podcli-playback
SERVER_PID= PULSE_PID= KEEPER_PID=
cleanup() {
    for pid in $KEEPER_PID $SERVER_PID; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    if [[ -n $PULSE_PID ]]; then
        kill "$PULSE_PID" 2>/dev/null || true
        wait "$PULSE_PID" 2>/dev/null || true
    fi
    bench_cleanup
}
trap cleanup EXIT

mkdir -p "$BENCH_DIR/out"
REPORT=$BENCH_DIR/out/playback-$(date +%Y-%m-%d-%H%M%S).txt
: >"$REPORT"
MEASURE_WIDTH=22
if [[ -z $MPG123_ONLY ]]; then build_podcli; fi

# --- the audio (cached) ---------------------------------------------------------------------------
# AUDIO_DIR/speech-<MINUTES>min-{cbr128,vbrV2}.mp3 and, for each, .s16.md5: the MD5 of
# `mpg123 -s` (the reference decoding, 16-bit PCM, gapless).
mkdir -p "$AUDIO_DIR"
CBR=$AUDIO_DIR/speech-${MINUTES}min-cbr128.mp3
VBR=$AUDIO_DIR/speech-${MINUTES}min-vbrV2.mp3
if [[ ! -s $CBR.s16.md5 || ! -s $VBR.s16.md5 ]]; then
    echo "generating $MINUTES minutes of sound into $AUDIO_DIR (a few minutes, once)..." >&2
    raw=$AUDIO_DIR/source-${MINUTES}min.raw
    sox -R -V1 -n -r $RATE -c $CHANNELS -b 16 -e signed-integer -t raw "$raw" $SYNTH
    lame_in=(-r -s 44.1 --bitwidth 16 --signed --little-endian)
    lame --quiet "${lame_in[@]}" -b 128 --cbr "$raw" "$CBR.part" &
    cbr_job=$!
    lame --quiet "${lame_in[@]}" -V 2 "$raw" "$VBR.part" || die "lame -V 2 failed"
    wait $cbr_job || die "lame -b 128 failed"
    rm -f "$raw"
    mv "$CBR.part" "$CBR"
    mv "$VBR.part" "$VBR"
    for f in "$CBR" "$VBR"; do
        "$MPG123" -q -s "$f" | md5sum | cut -d' ' -f1 >"$f.s16.md5.part"
        mv "$f.s16.md5.part" "$f.s16.md5"
    done
fi
declare -A FILE=([cbr]=$CBR [vbr]=$VBR)
declare -A LABEL=([cbr]="CBR 128k" [vbr]="VBR -V 2")

# --- ALSA devices ---------------------------------------------------------------------------------
# A private HOME whose .asoundrc defines the devices (the layout of TestSupport.ALSACapture):
#   bench_capture  ALSA file plugin -> null: records everything, consumes at once (the check)
#   bench_tap      ALSA file plugin -> pulse (the private server): real time, recorded
# The file plugin opens FILE, then FILE.0001, ... when FILE exists (truncate false): players
# that open the device twice (mpg123 probes it first) leave an empty FILE; the tap is the
# sum of all of them.
PULSE_DIR=$WORK/pulse
PULSE_SOCKET=$PULSE_DIR/native
ALSA_HOME=$WORK/alsa-home
mkdir -p "$ALSA_HOME" "$WORK/taps"
cat >"$ALSA_HOME/.asoundrc" <<EOF
pcm.bench_capture {
    type file
    slave { pcm "null" }
    file "$WORK/taps/capture.raw"
    format "raw"
    perm 0644
    truncate false
}
pcm.bench_tap {
    type file
    slave { pcm { type pulse server "unix:$PULSE_SOCKET" device "bench_null" } }
    file "$WORK/taps/tap.raw"
    format "raw"
    perm 0644
    truncate false
}
EOF
PLAYER_ENV=(env -u PODCLI_DEVICE HOME="$ALSA_HOME" XDG_CONFIG_HOME="$ALSA_HOME/.config"
    PULSE_SERVER="unix:$PULSE_SOCKET" PULSE_CLIENTCONFIG="$PULSE_DIR/client.conf")
taps() { cat "$WORK/taps/$1.raw"* 2>/dev/null; }
clear_taps() { rm -f "$WORK/taps/"*; }

# --- episodes in a podcli library -----------------------------------------------------------------
PODCLI_HOME=$WORK/podcli-home
declare -A ID
if [[ -z $MPG123_ONLY ]]; then
    serve_files "$AUDIO_DIR"
    for kind in cbr vbr; do ID[$kind]=$(fetch_episode "${FILE[$kind]}"); done
    stop_serving
fi
# play ID ARGS...: podcli play from the start (not from a saved position), nothing after it.
podcli_play() {
    local id=$1
    shift
    "${PLAYER_ENV[@]}" "$PODCLI" --home "$PODCLI_HOME" play "$id" --from 0 "$@"
}

# --- measurement: measure, median, col_median, ratio, ... (lib.sh) ---------------------------------

say "# podcli playback benchmark, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ -z $MPG123_ONLY ]]; then
    say "podcli: $PODCLI (source $(git -C "$PACKAGE" describe --always --dirty 2>/dev/null || echo unknown))"
else
    say "podcli: not run (MPG123_ONLY=1)"
fi
say "peer: $("$MPG123" --version | head -n1), libmpg123 $(dpkg-query -W -f '${Version}' libmpg123-0 2>/dev/null || echo '?');\
 alsa-lib $(dpkg-query -W -f '${Version}' libasound2 2>/dev/null || echo '?'); $(pulseaudio --version)"
for kind in cbr vbr; do
    f=${FILE[$kind]}
    say "audio: $f ($(stat -c %s "$f") bytes, ${LABEL[$kind]}, $((MINUTES * 60)) s of sox '$SYNTH'; decoded MD5 $(cat "$f.s16.md5"))"
done

# --- 1. full speed --------------------------------------------------------------------------------
if [[ $ONLY = "" || $ONLY = full ]]; then
    say ""
    say "## 1. full speed: the whole $MINUTES minutes decoded to ALSA 'null', $ROUNDS rounds per file"
    for kind in cbr vbr; do
        f=${FILE[$kind]}
        if [[ -z $MPG123_ONLY ]]; then
            # The check (untimed): podcli on a capture device plays exactly what mpg123 -s decodes.
            clear_taps
            podcli_play "${ID[$kind]}" --device bench_capture >"$WORK/check.out" 2>"$WORK/check.err" ||
                die "podcli play ${ID[$kind]} --device bench_capture failed: $(tail -n 5 "$WORK/check.err")"
            got=$(taps capture | md5sum | cut -d' ' -f1)
            [[ $got = "$(cat "$f.s16.md5")" ]] ||
                die "podcli played something else than mpg123 -s decodes from $f (MD5 $got, $(taps capture | wc -c) bytes)"
            say "check: podcli on bench_capture == mpg123 -s, byte for byte ($(taps capture | wc -c) bytes)"
            clear_taps
        fi
        contenders=(mpg123-t-$kind mpg123-alsa-null-$kind)
        [[ -n $MPG123_ONLY ]] || contenders=(podcli-null-$kind "${contenders[@]}")
        n=${#contenders[@]}
        rm -f "$WORK"/*-"$kind".tsv
        say "### ${LABEL[$kind]}: $(basename "$f")"
        say "raw (wall, user, sys in s; GNU time %e %U %S %M):"
        run_full() {
            case $1 in
            podcli-null-*) measure "$1" "${PLAYER_ENV[@]}" "$PODCLI" --home "$PODCLI_HOME" play "${ID[$kind]}" --from 0 --device null ;;
            mpg123-t-*) measure "$1" "$MPG123" -q -t "$f" ;;
            mpg123-alsa-null-*) measure "$1" "${PLAYER_ENV[@]}" "$MPG123" -q -o alsa -a null "$f" ;;
            esac
        }
        say "  warm-up (discarded):"
        for who in "${contenders[@]}"; do run_full "$who"; done
        rm -f "$WORK"/*-"$kind".tsv
        for ((r = 1; r <= ROUNDS; r++)); do
            say "  round $r:"
            for ((i = 0; i < n; i++)); do run_full "${contenders[(i + r) % n]}"; done
        done
        say ""
        say "$(printf '%-34s %11s %11s %11s %11s' "${LABEL[$kind]}, ${MINUTES} min" 'median CPU' 'median wall' 'max RSS' 'CPU / hour')"
        for who in "${contenders[@]}"; do
            cpu=$(col_median "$who" 2)
            say "$(printf '%-34s %9s s %9s s %8s MB %9s s' "${who%-"$kind"}" "$cpu" "$(col_median "$who" 1)" "$(mb "$(col_max "$who" 3)")" \
                "$(awk -v c="$cpu" -v m="$MINUTES" 'BEGIN { printf "%.3f", c * 60 / m }')")"
        done
        if [[ -z $MPG123_ONLY ]]; then
            say "$(printf '%-34s %10sx %10sx' "podcli / mpg123 -t" "$(ratio "$(col_median podcli-null-$kind 2)" "$(col_median mpg123-t-$kind 2)")" \
                "$(ratio "$(col_median podcli-null-$kind 1)" "$(col_median mpg123-t-$kind 1)")")"
            say "$(printf '%-34s %10sx %10sx' "podcli / mpg123 -o alsa -a null" "$(ratio "$(col_median podcli-null-$kind 2)" "$(col_median mpg123-alsa-null-$kind 2)")" \
                "$(ratio "$(col_median podcli-null-$kind 1)" "$(col_median mpg123-alsa-null-$kind 1)")")"
            say "(CPU split, median user / sys: podcli $(col_median podcli-null-$kind 4) / $(col_median podcli-null-$kind 5) s,\
 mpg123 -t $(col_median mpg123-t-$kind 4) / $(col_median mpg123-t-$kind 5) s)"
        fi
        say ""
    done
fi

# --- 2. real time ---------------------------------------------------------------------------------
if [[ $ONLY != full ]]; then
    start_pulse bench_null

    FRAMES=$(((PACED_SECONDS * RATE + 1151) / 1152))   # MPEG frames of 1152 samples for mpg123 -n
    if [[ $ONLY != seek ]]; then
    say ""
    say "## 2. real time: $PACED_SECONDS s through an ALSA file tap into a PulseAudio null sink, $PACED_ROUNDS round(s)"
    say "podcli: play ID --from 0 --for $PACED_SECONDS --device bench_tap; mpg123: -o alsa -a bench_tap -n $FRAMES (MPEG frames)"
    say "tap first = spawn -> first bytes in the tap file (the file plugin writes a frame once the player has"
    say "  written one more ALSA buffer after it: includes the player's buffer size); monitor first = spawn ->"
    say "  first non-zero sample on the null sink's monitor (parec, 10 ms latency): what a listener would hear;"
    say "  peak RSS = VmHWM from /proc/PID/status (sampled every second; wait4's ru_maxrss is not the player's"
    say "  alone: a child spawned by Python starts on Python's memory, whose high-water mark exec() keeps)"
    say "raw:"
    paced_check_bytes=$((PACED_SECONDS * BYTES_PER_SECOND))
    for kind in $PACED_FILES; do
        f=${FILE[$kind]}
        [[ -n $f ]] || die "PACED_FILES: unknown file '$kind' (cbr or vbr)"
        contenders=(mpg123-paced-$kind)
        [[ -n $MPG123_ONLY ]] || contenders=(podcli-paced-$kind "${contenders[@]}")
        n=${#contenders[@]}
        rm -f "$WORK"/paced-*-"$kind".json
        # The reference for the checks: mpg123 -s of the first seconds.
        "$MPG123" -q -s -n $((FRAMES + 2)) "$f" >"$WORK/reference.raw"
        for ((r = 1; r <= PACED_ROUNDS; r++)); do
            for ((i = 0; i < n; i++)); do
                who=${contenders[(i + r) % n]}
                clear_taps
                case $who in
                podcli-*) cmd=("$PODCLI" --home "$PODCLI_HOME" play "${ID[$kind]}" --from 0 --for "$PACED_SECONDS" --device bench_tap) ;;
                mpg123-*) cmd=("$MPG123" -q -o alsa -a bench_tap -n "$FRAMES" "$f") ;;
                esac
                "${PLAYER_ENV[@]}" "$PY" "$BENCH_DIR/playback_probe.py" --tap "$WORK/taps/tap.raw*" \
                    --monitor bench_null.monitor --stdout "$WORK/$who.out" --stderr "$WORK/$who.err" \
                    --timeout $((PACED_SECONDS * 2 + 60)) -- "${cmd[@]}" >"$WORK/probe.json" ||
                    die "the probe failed on $who"
                "$PY" - "$WORK/probe.json" "$who" "$r" <<'EOF' | tee -a "$REPORT"
import json, sys
p = json.load(open(sys.argv[1]))
rss = [k for t, k in p["rss_kib"] if t >= 1.0] or [k for t, k in p["rss_kib"]]
print(f"  round {sys.argv[3]} {sys.argv[2]:<20} wall {p['wall_s']:.3f} user {p['user_s']:.3f} sys {p['sys_s']:.3f}"
      f" VmHWM {p['hwm_kib']} KiB (ru_maxrss {p['maxrss_kib']}); RSS samples {len(rss)}: min {min(rss)} max {max(rss)} first {rss[0]} last {rss[-1]} KiB;"
      f" tap first {p['tap_first_ms']} ms, monitor first {p['monitor_first_ms']} ms; tap {p['tap_bytes']} bytes; exit {p['status']}")
EOF
                status=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["status"])' "$WORK/probe.json")
                [[ $status = 0 ]] || die "$who exited with $status: $(tail -n 5 "$WORK/$who.err")"
                # A fast wrong answer is not measured: the tap holds the start of the reference.
                bytes=$(taps tap | wc -c)
                if [[ $who = podcli-* ]]; then
                    [[ $bytes -eq $paced_check_bytes ]] || die "podcli --for $PACED_SECONDS played $bytes bytes, not $paced_check_bytes"
                fi
                cmp -s <(taps tap) <(head -c "$bytes" "$WORK/reference.raw") ||
                    die "$who: the tap ($bytes bytes) is not the start of mpg123 -s's decoding"
                mv "$WORK/probe.json" "$WORK/paced-$who-$r.json"
            done
        done
        clear_taps
        say "check: every tap == the start of mpg123 -s's decoding, byte for byte"
        # Summary: medians over the rounds.
        "$PY" - "$WORK" "$kind" "$PACED_SECONDS" "${LABEL[$kind]}" "${contenders[@]}" <<'EOF' | tee -a "$REPORT"
import glob, json, statistics, sys
work, kind, seconds, label, contenders = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4], sys.argv[5:]
runs = {c: [json.load(open(p)) for p in sorted(glob.glob(f"{work}/paced-{c}-*.json"))] for c in contenders}
def med(c, f):
    values = [f(p) for p in runs[c] if f(p) is not None]
    return statistics.median(values) if values else None
def fmt(v, spec):
    return "-" if v is None else format(v, spec)
print()
print(f"{label}, {seconds:g} s real time        median CPU   CPU/hour  median wall  tap first  monitor first  peak RSS")
for c in contenders:
    cpu = med(c, lambda p: p["user_s"] + p["sys_s"])
    print(f"{c.replace('-' + kind, ''):<34} {cpu:8.3f} s {cpu * 3600 / seconds:8.2f} s {med(c, lambda p: p['wall_s']):10.3f} s"
          f" {fmt(med(c, lambda p: p['tap_first_ms']), '7.0f')} ms {fmt(med(c, lambda p: p['monitor_first_ms']), '10.0f')} ms"
          f" {max(p['hwm_kib'] for p in runs[c]) * 1024 / 1e6:6.1f} MB")
podcli = next((c for c in contenders if c.startswith("podcli")), None)
mpg = next(c for c in contenders if c.startswith("mpg123"))
if podcli:
    ratio = med(podcli, lambda p: p["user_s"] + p["sys_s"]) / med(mpg, lambda p: p["user_s"] + p["sys_s"])
    print(f"{'podcli / mpg123 CPU':<34} {ratio:8.2f}x")
    for p in runs[podcli]:
        rss = [(t, k) for t, k in p["rss_kib"] if t >= 1.0]
        if rss:
            values = [k for _, k in rss]
            print(f"podcli RSS every 1 s ({len(rss)} samples, from 1 s): min {min(values) / 1024:.1f} MiB, max {max(values) / 1024:.1f} MiB;"
                  f" at {rss[0][0]:.0f} s {rss[0][1] / 1024:.1f} MiB -> at {rss[-1][0]:.0f} s {rss[-1][1] / 1024:.1f} MiB"
                  f" ({(rss[-1][1] - rss[0][1]):+d} KiB); VmHWM {p['hwm_kib'] / 1024:.1f} MiB")
EOF
        say ""
    done
    fi

    # --- 3. seeks --------------------------------------------------------------------------------
    if [[ $ONLY = "" || $ONLY = seek ]]; then
    say ""
    say "## 3. seek -> sound and first sound on the sink's monitor (bench/seek_probe.py), CBR, $SEEK_ROUNDS round(s)"
    say "podcli: play ID --from 0 --device bench_tap, then 'seek-to S' on its control socket; mpg123: -R -o alsa"
    say "  -a bench_tap, 'LOAD FILE', then 'J Ss' on its stdin; seeks to 30, 60 and 10 s, each after 2 s of sound."
    say "first sound = spawn -> first non-zero sample on the monitor; seek -> sound = the seek sent -> the first"
    say "  sample of the new place on the monitor (found by its bytes); gap = the silence just before it"
    say "raw:"
    "$MPG123" -q -s -n $((70 * RATE / 1152)) "$CBR" >"$WORK/seek-reference.raw"
    contenders=(mpg123-seek)
    [[ -n $MPG123_ONLY ]] || contenders=(podcli-seek "${contenders[@]}")
    n=${#contenders[@]}
    rm -f "$WORK"/seek-*.json
    for ((r = 1; r <= SEEK_ROUNDS; r++)); do
        for ((i = 0; i < n; i++)); do
            who=${contenders[(i + r) % n]}
            clear_taps
            case $who in
            podcli-*)
                args=(--seek-socket "$PODCLI_HOME/control" --stop-command "${PLAYER_ENV[*]} $PODCLI --home $PODCLI_HOME stop"
                    -- "$PODCLI" --home "$PODCLI_HOME" play "${ID[cbr]}" --from 0 --device bench_tap) ;;
            mpg123-*)
                args=(--stdin-first "LOAD $CBR" --seek-stdin "J {to}s" --stop-command true
                    -- "$MPG123" -q -R -o alsa -a bench_tap) ;;
            esac
            "${PLAYER_ENV[@]}" "$PY" "$BENCH_DIR/seek_probe.py" --monitor bench_null.monitor \
                --reference "$WORK/seek-reference.raw" --seek 30 --seek 60 --seek 10 \
                --stdout "$WORK/$who.out" --stderr "$WORK/$who.err" "${args[@]}" >"$WORK/seek-$who-$r.json" ||
                die "the seek probe failed on $who"
            say "  round $r $who: $(cat "$WORK/seek-$who-$r.json")"
        done
    done
    "$PY" - "$WORK" "${contenders[@]}" <<'EOF' | tee -a "$REPORT"
import glob, json, statistics, sys
work, contenders = sys.argv[1], sys.argv[2:]
print()
print(f"{'':<14} {'first sound: median, max':>26} {'seek -> sound: median, max':>28} {'longest gap':>12} {'seeks found':>12}")
for c in contenders:
    runs = [json.load(open(p)) for p in sorted(glob.glob(f"{work}/seek-{c}-*.json"))]
    first = [r["first_sound_ms"] for r in runs if r["first_sound_ms"] is not None]
    seeks = [s for r in runs for s in r["seeks"]]
    found = [s["seek_to_sound_ms"] for s in seeks if s["seek_to_sound_ms"] is not None]
    gaps = [s["gap_ms"] for s in seeks if s["gap_ms"] is not None]
    def pair(values):
        return f"{statistics.median(values):7.1f} ms, {max(values):7.1f} ms" if values else "-"
    print(f"{c:<14} {pair(first):>26} {pair(found):>28} {max(gaps, default=0):9.1f} ms {len(found):>5} of {len(seeks)}")
EOF
    fi
fi

say "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
say "report: ${REPORT#"$PACKAGE"/}"
