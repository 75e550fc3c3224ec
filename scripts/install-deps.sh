#!/usr/bin/env bash
# Installs the Debian 12 packages podcli builds, runs and tests with.
# (The Swift 6.3 toolchain itself is expected on PATH.)
set -euo pipefail

packages=(
    # libraries podcli links
    libcurl4-openssl-dev libsqlite3-dev libssl-dev libxml2-dev libmpg123-dev libasound2-dev
    # speed with the pitch kept (Sonic, as AntennaPod and Pocket Casts) and EBU R128 loudness
    libsonic-dev libebur128-dev
    # zlib deflates the transcripts' text the library keeps (Sources/CZlib, schema 18)
    zlib1g-dev
    # how SwiftPM finds libxml2's headers (/usr/include/libxml2)
    pkg-config
    # the tests' loopback HTTP server and the demo; mpg123's own decoder as the tests' reference
    python3 ca-certificates mpg123
    # sound without a sound card, for the playback tests and bench/playback.sh
    # (Tests/Support/SoundDevices.swift): aplay proves the capture devices; a private PulseAudio
    # daemon with a null sink paces playback in real time, reached through ALSA's pulse plugin
    alsa-utils pulseaudio pulseaudio-utils libasound2-plugins
    # sd-bus (libsystemd) for logind's sleep signal on the system bus; the tests run a private
    # dbus-daemon and send signals with dbus-send
    libsystemd-dev dbus-daemon dbus-bin
    # the MPRIS tests drive podcli with the real playerctl
    playerctl
    # the notification tests' recording org.freedesktop.Notifications server
    # (Tests/Support/notification_server.py, run with Debian's /usr/bin/python3)
    python3-dbus python3-gi
    # libgd crops and scales the artwork (PNG, JPEG, GIF, WebP in; JPEG out)
    libgd-dev
    # FFmpeg decodes every format that is not MPEG audio (AAC/M4A, Opus, Vorbis, FLAC, ALAC):
    # Sources/CFFmpeg loads libavformat, libavcodec and libswresample with dlopen, compiling
    # against their headers. The ffmpeg command makes the tests' fixtures, is their reference
    # decode, and is bench/formats.sh's peer.
    libavformat-dev libavcodec-dev libavutil-dev libswresample-dev ffmpeg
    # bench/playback.sh: sox synthesizes an hour of sound, lame encodes it (CBR and VBR);
    # GNU time measures CPU and peak RSS
    sox lame time
    # bench/scale.sh: nginx serves the generated feeds on loopback; the sqlite3 CLI and newsboat
    # are the peers podcli's listing, search and refresh are timed against
    nginx-light sqlite3 newsboat
    # the killed-removal tests hold a syscall with strace's fault injection (delay_exit) and
    # kill podcli inside the window (Tests/podcliTests/DataSafetyTests.swift)
    strace
    # the venv of the gpodder.net-API test server below
    python3-venv
    # `podcli man`'s page is checked to render without a warning by both man page toolchains
    # (Tests/podcliTests/ManCommandTests.swift): groff -man -ww and mandoc -Tlint
    groff-base mandoc
    # the shells whose completion scripts 'podcli completions' generates; the tests load each
    # script into the real shell and complete with it (Tests/Support/CompletionShells.swift)
    zsh fish
    # a new login shell finds the installed completions and page (Tests/podcliTests/InstallScriptTests):
    # Debian's ~/.bashrc loads bash-completion, whose loader reads share/bash-completion; man-db's
    # man looks beside each bin on PATH
    bash-completion man-db
)

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The gpodder.net (mygpo API 2) server the sync tests talk to (Tests/Support/gpodder_server.py):
# gpodder-fastapi-router, an independent implementation of the API, from PyPI into a virtual
# environment at this fixed place (GPodderServer.swift looks here): Debian 12's FastAPI is too old
# for it, and it declares Python 3.12 while Debian's 3.11 runs it (hence --ignore-requires-python).
# The router's version is pinned, since the tests rely on how it behaves (since, timestamps).
gpodder_venv=/opt/podcli-gpodder-server
if ! "$gpodder_venv/bin/python3" -c "import gpodder_router, uvicorn, aiosqlite" 2>/dev/null; then
    as_root /usr/bin/python3 -m venv "$gpodder_venv"
    as_root "$gpodder_venv/bin/pip" install --quiet --disable-pip-version-check --ignore-requires-python \
        "gpodder-fastapi-router[sqlite]==0.1.3" uvicorn
fi
