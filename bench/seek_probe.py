#!/usr/bin/env python3
"""Times a player's first sound and its seeks as a listener hears them, for bench/playback.sh.
Python 3 standard library only.

Usage: seek_probe.py --monitor SOURCE --reference PCM [options] -- COMMAND [ARG...]

Records the PulseAudio source SOURCE (a null sink's monitor) with `parec --raw
--latency-msec=10` from before the spawn, noting when each piece arrives. Spawns COMMAND
(stdin a pipe, stdout and stderr to files), and:
  - first sound: the time from the spawn to the first non-zero sample on the monitor;
  - for each --seek SECONDS (in order): once the sound has played for --settle seconds (after the
    first sound, or after the previous seek's sound), sends `seek-to SECONDS` to --seek-socket (or
    runs --seek-command with {to} replaced by SECONDS, or writes --seek-stdin, {to} replaced, to
    COMMAND's stdin), and finds in the
    recording the audio of the reference (16-bit stereo 44.1 kHz, e.g. `mpg123 -s`) from that
    time: "seek -> sound" is the time from sending the seek to that audio's first sample on the
    monitor; the gap is the silence the sink played in between;
  - then stops COMMAND with --stop-command (or SIGINT) and reaps it.
The monitor is bit-exact (the sink mixes nothing else in but silence), so the audio is found by
its bytes. The result is one JSON object on stdout:
  first_sound_ms, seeks: [{to, sent_ms, sound_ms, seek_to_sound_ms, gap_ms, lost_frames}], status.
The sink must be kept awake (a silent stream playing all along, as bench/playback.sh does): an
idle null sink renders, and so records, in 2 s blocks, and the times would be those of the
blocks.
"""

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import playback_probe  # beside this script

RATE = 44100
FRAME = 4
BYTES_PER_SECOND = RATE * FRAME


class MonitorRecorder(playback_probe.MonitorRecorder):
    """parec on a monitor source (as playback_probe's); keeps every byte, with the time each piece
    arrived."""

    def __init__(self, source):
        self.lock = threading.Lock()
        self.data = bytearray()
        self.pieces = []  # (end offset, arrival time)
        super().__init__(source, os.environ)

    def _read(self):
        fd = self.process.stdout.fileno()
        while True:
            chunk = os.read(fd, 4096)
            if not chunk:
                return
            now = time.monotonic()
            with self.lock:
                self.data += chunk
                self.pieces.append((len(self.data), now))

    def snapshot(self):
        with self.lock:
            return bytes(self.data), list(self.pieces)

    def time_of(self, offset, pieces):
        """When the byte at `offset` was played: its piece's arrival less what came after it."""
        for end, arrived in pieces:
            if end > offset:
                return arrived - (end - offset) / BYTES_PER_SECOND
        return None

    def offset_at(self, when, pieces):
        for end, arrived in pieces:
            if arrived >= when:
                return end
        return pieces[-1][0] if pieces else 0


def first_nonzero(data, start):
    """The offset of the first frame at or after `start` that is not silence."""
    start -= start % FRAME
    zero = bytes(FRAME)
    for offset in range(start, len(data) - FRAME + 1, FRAME):
        if data[offset:offset + FRAME] != zero:
            return offset
    return None


def find_audio(data, reference, seconds, start):
    """Where the reference's audio from `seconds` on begins in the recording, at or after
    `start`: found by a piece from 0.1 s later, then followed back as far as it matches (a new
    stream of the pulse plugin may lose its first few hundred frames on the way to the sink)."""
    target = int(round(seconds * RATE)) * FRAME
    position = target + RATE // 10 * FRAME
    needle = reference[position:position + 2048 * FRAME]
    offset = data.find(needle, start)
    while offset >= 0 and offset % FRAME:
        offset = data.find(needle, offset + 1)
    if offset < 0:
        return None
    while position > target and offset >= FRAME and \
            data[offset - FRAME:offset] == reference[position - FRAME:position]:
        offset -= FRAME
        position -= FRAME
    return offset, (position - target) // FRAME


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--monitor", required=True)
    parser.add_argument("--reference", required=True, help="the reference decoding, s16le stereo 44.1 kHz")
    parser.add_argument("--seek", type=float, action="append", default=[])
    parser.add_argument("--settle", type=float, default=2.0)
    parser.add_argument("--seek-command", help="shell command; {to} is the time in seconds")
    parser.add_argument("--seek-stdin", help="text written to COMMAND's stdin; {to} is the time")
    parser.add_argument("--seek-socket", help="a podcli control socket: `seek-to {to}` is sent there "
                        "directly (no client process to start)")
    parser.add_argument("--stop-command")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--stdout", default=os.devnull)
    parser.add_argument("--stderr", default=os.devnull)
    parser.add_argument("--stdin-first", help="text written to COMMAND's stdin at once (mpg123 -R: LOAD)")
    parser.add_argument("--save", help="write the recording here (raw s16le stereo)")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command")
    reference = open(args.reference, "rb").read()

    monitor = MonitorRecorder(args.monitor)
    time.sleep(0.3)  # parec connected and streaming (silence) before the player starts
    out = open(args.stdout, "wb")
    err = open(args.stderr, "wb")
    start = time.monotonic()
    player = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=out, stderr=err)
    if args.stdin_first:
        player.stdin.write(args.stdin_first.encode() + b"\n")
        player.stdin.flush()

    def wait_for(predicate, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value is not None:
                return value
            if player.poll() is not None:
                return None
            time.sleep(0.002)
        return None

    def sound_after(offset):
        data, _ = monitor.snapshot()
        return first_nonzero(data, offset)

    _, pieces = monitor.snapshot()
    spawn_offset = monitor.offset_at(start, pieces)
    first = wait_for(lambda: sound_after(spawn_offset), args.timeout)
    result = {"first_sound_ms": None, "seeks": []}
    if first is not None:
        _, pieces = monitor.snapshot()
        first_time = monitor.time_of(first, pieces)
        result["first_sound_ms"] = round((first_time - start) * 1000, 1)
        heard_since = first_time
        for to in args.seek:
            time.sleep(max(0, heard_since + args.settle - time.monotonic()))
            _, pieces = monitor.snapshot()
            sent = time.monotonic()
            sent_offset = monitor.offset_at(sent, pieces)
            if args.seek_socket:
                with socket.socket(socket.AF_UNIX) as control:
                    control.connect(args.seek_socket)
                    control.sendall(f"seek-to {to:g}\n".encode())
                    control.recv(256)
            elif args.seek_command:
                subprocess.run(args.seek_command.replace("{to}", f"{to:g}"), shell=True, check=False,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            else:
                player.stdin.write(args.seek_stdin.replace("{to}", f"{to:g}").encode() + b"\n")
                player.stdin.flush()
            found = wait_for(lambda: (lambda d: find_audio(d, reference, to, max(0, sent_offset - BYTES_PER_SECOND)))(
                monitor.snapshot()[0]), 10)
            entry = {"to": to, "sent_ms": round((sent - start) * 1000, 1), "sound_ms": None,
                     "seek_to_sound_ms": None, "gap_ms": None}
            if found is not None:
                found, lost = found
                entry["lost_frames"] = lost
                data, pieces = monitor.snapshot()
                heard = monitor.time_of(found, pieces)
                entry["sound_ms"] = round((heard - start) * 1000, 1)
                entry["seek_to_sound_ms"] = round((heard - sent) * 1000, 1)
                # The silence just before the new audio: the sink had nothing to play.
                silent = 0
                offset = found - FRAME
                while offset >= 0 and data[offset:offset + FRAME] == bytes(FRAME):
                    silent += 1
                    offset -= FRAME
                entry["gap_ms"] = round(silent * 1000 / RATE, 1)
                heard_since = heard
            result["seeks"].append(entry)
    if args.stop_command:
        subprocess.run(args.stop_command, shell=True, check=False, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    else:
        player.send_signal(signal.SIGINT)
    try:
        player.stdin.close()
    except BrokenPipeError:
        pass
    try:
        status = player.wait(timeout=10)
    except subprocess.TimeoutExpired:
        player.kill()
        status = player.wait()
    monitor.stop()
    if args.save:
        with open(args.save, "wb") as f:
            f.write(monitor.snapshot()[0])
    result["status"] = status
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
