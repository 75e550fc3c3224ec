#!/bin/sh
# Regenerates podcli's small audio fixtures with sox and lame (Debian: apt-get install sox lame).
# The outputs are committed; rerun only to change them. sox runs in repeatable mode (-R),
# so the same tool versions give the same bytes (SoX 14.4.2, LAME 3.100 made these).
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 3 s chord of 440 Hz + 660 Hz in both channels, 44.1 kHz stereo, 128 kbps CBR, ID3v2 tag.
sox -R -n -r 44100 -c 2 -b 16 "$tmp/tone.wav" synth 3 sine 440 synth 3 sine mix 660 gain -n -3
lame --quiet --noreplaygain -m s -b 128 --cbr \
    --id3v2-only --tt "podcli test tone" --ta "podcli" --tl "podcli fixtures" --ty 2024 \
    "$tmp/tone.wav" tone-44k-stereo.mp3

# 2 s of pink noise, 22.05 kHz mono, 64 kbps CBR, no tag.
sox -R -n -r 22050 -c 1 -b 16 "$tmp/noise.wav" synth 2 pinknoise gain -n -6
lame --quiet --noreplaygain -m m -b 64 --cbr "$tmp/noise.wav" noise-22k-mono.mp3

# A captive-portal page: what a hotel Wi-Fi answers instead of the episode.
cat > not-audio.html <<'HTML'
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Sign in to Guest Wi-Fi</title>
<meta http-equiv="refresh" content="30;url=/portal/login">
</head>
<body>
<h1>Welcome to Guest Wi-Fi</h1>
<p>Please accept the terms of use to connect to the Internet.</p>
<form method="post" action="/portal/accept">
  <label>Room number <input name="room"></label>
  <label>Last name <input name="name"></label>
  <label><input type="checkbox" name="tos"> I accept the terms of use</label>
  <button type="submit">Connect</button>
</form>
<p><small>Access is limited to 24 hours per device. Traffic may be logged.</small></p>
</body>
</html>
HTML

ls -l tone-44k-stereo.mp3 noise-22k-mono.mp3 not-audio.html
