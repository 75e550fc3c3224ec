#!/usr/bin/env python3
"""Times a speed change as a listener hears it (issue 23: a speed key heard within 100 ms).
Python 3 standard library only.

Usage: speed_probe.py --monitor SOURCE --reference PCM --socket CONTROL [--rate 2] [--settle 2]
                      [--stop-command CMD] -- COMMAND [ARG...]

Records the PulseAudio source SOURCE (a null sink's monitor, kept awake as bench/playback.sh
keeps it) from before the spawn, as bench/seek_probe.py does. COMMAND plays at 1x, where podcli's
output is bit-exact to the reference (`mpg123 -s`, s16le stereo 44.1 kHz); after --settle s of
sound `speed RATE` is sent on the player's control socket, and the first frame on the monitor that
differs from the reference is the change heard. Prints one JSON object: sent_s (from the spawn),
heard_after_ms (the request sent -> the change on the sink), the longest silence after the first
sound (a gap), ref_start (bytes of the reference's start the sink lost)."""
import argparse
import json
import signal
import socket
import subprocess
import time

from seek_probe import MonitorRecorder, first_nonzero, FRAME, RATE  # beside this script


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--monitor", required=True)
    p.add_argument("--reference", required=True)
    p.add_argument("--socket", required=True)
    p.add_argument("--rate", default="2")
    p.add_argument("--settle", type=float, default=2.0)
    p.add_argument("--stop-command")
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args()
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    reference = open(a.reference, "rb").read()
    monitor = MonitorRecorder(a.monitor)
    time.sleep(0.3)
    start = time.monotonic()
    player = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    first = None
    while first is None and time.monotonic() - start < 20:
        data, pieces = monitor.snapshot()
        first = first_nonzero(data, monitor.offset_at(start, pieces))
        time.sleep(0.005)
    _, pieces = monitor.snapshot()
    t_first = monitor.time_of(first, pieces)
    time.sleep(max(0, t_first + a.settle - time.monotonic()))
    sent = time.monotonic()
    with socket.socket(socket.AF_UNIX) as c:
        c.connect(a.socket); c.sendall(f"speed {a.rate}\n".encode()); c.recv(256)
    time.sleep(1.5)
    data, pieces = monitor.snapshot()
    # The recording from the first sound is the reference from its start (at 1x, bit-exact).
    ref_start = reference.find(data[first:first + 4096])
    diverged = None
    off = first
    while off + FRAME <= len(data):
        r = ref_start + (off - first)
        if data[off:off + FRAME] != reference[r:r + FRAME]:
            diverged = off; break
        off += FRAME
    heard = monitor.time_of(diverged, pieces) if diverged is not None else None
    # The longest silence after the first sound: a gap.
    longest = run = 0
    for o in range(first, len(data) - FRAME, FRAME):
        if data[o:o+FRAME] == bytes(FRAME): run += 1; longest = max(longest, run)
        else: run = 0
    if a.stop_command: subprocess.run(a.stop_command, shell=True)
    else: player.send_signal(signal.SIGINT)
    player.wait(timeout=10)
    monitor.stop()
    print(json.dumps({"sent_s": round(sent - start, 3), "heard_after_ms": None if heard is None else round((heard - sent) * 1000, 1),
                      "ref_start": ref_start, "longest_silence_ms": round(longest * 1000 / RATE, 1)}))

if __name__ == "__main__":
    main()
