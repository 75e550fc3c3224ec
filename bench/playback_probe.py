#!/usr/bin/env python3
"""Runs one player and watches it, for bench/playback.sh. Python 3 standard library only.

Usage: playback_probe.py [options] -- COMMAND [ARG...]

Spawns COMMAND (stdout and stderr to files) and, until it exits:
  - polls the total size of the files matching --tap (an ALSA `file` plugin tap: one file per
    open of the device) every millisecond until it first grows, then every 100 ms: the time
    from the spawn to the first growth is "tap_first_ms";
  - with --monitor SOURCE, records the PulseAudio source SOURCE (a null sink's monitor) with
    `parec --raw --latency-msec=10` from before the spawn, and notes when the first non-zero
    byte arrives after the spawn: "monitor_first_ms" (the first sample the sink played,
    at most ~10 ms late);
  - samples VmRSS and VmHWM from /proc/PID/status every --rss-interval seconds;
  - with --stop-after S, sends SIGINT S seconds after the spawn (SIGKILL 10 s later).
It then reaps COMMAND with wait4, whose rusage is COMMAND's own CPU time and peak RSS (and
those of any children it reaped), not the probe's. The result is one JSON object on stdout:
  wall_s, user_s, sys_s, maxrss_kib, status, tap_first_ms, monitor_first_ms, tap_bytes,
  rss_kib (list of [seconds since spawn, VmRSS KiB]), hwm_kib (last VmHWM seen).
"""

import argparse
import glob
import json
import os
import signal
import subprocess
import sys
import threading
import time


def tap_size(pattern):
    total = 0
    for path in glob.glob(pattern):
        try:
            total += os.path.getsize(path)
        except FileNotFoundError:
            pass
    return total


def proc_status(pid):
    """(VmRSS, VmHWM) in KiB, or None once the process is gone or a zombie."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
    except (FileNotFoundError, ProcessLookupError):
        return None
    if "VmRSS" not in fields:  # zombie
        return None
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


class MonitorRecorder:
    """parec on a monitor source; notes when the first non-zero byte arrives after `armed_at`."""

    def __init__(self, source, env):
        self.process = subprocess.Popen(
            ["parec", "--raw", "--latency-msec=10", "--format=s16le", "--rate=44100", "--channels=2",
             "-d", source],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        self.armed_at = None
        self.first = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        fd = self.process.stdout.fileno()
        while True:
            chunk = os.read(fd, 4096)
            if not chunk:
                return
            if self.first is None and self.armed_at is not None and any(chunk):
                self.first = time.monotonic()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tap", help="glob of the tap's files")
    parser.add_argument("--monitor", help="PulseAudio source to record (e.g. SINK.monitor)")
    parser.add_argument("--rss-interval", type=float, default=1.0)
    parser.add_argument("--stop-after", type=float)
    parser.add_argument("--timeout", type=float, default=7200)
    parser.add_argument("--stdout", default=os.devnull)
    parser.add_argument("--stderr", default=os.devnull)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command")

    monitor = None
    if args.monitor:
        monitor = MonitorRecorder(args.monitor, os.environ)
        time.sleep(0.3)  # parec connected and streaming (silence) before the player starts

    out = os.open(args.stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    err = os.open(args.stderr, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    null = os.open(os.devnull, os.O_RDONLY)
    actions = [(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, out, 1), (os.POSIX_SPAWN_DUP2, err, 2)]
    if monitor:
        monitor.armed_at = time.monotonic()
    start = time.monotonic()
    pid = os.posix_spawnp(command[0], command, os.environ, file_actions=actions)
    for fd in (out, err, null):
        os.close(fd)

    tap_first = None
    rss = []
    hwm = 0
    next_rss = start
    stop_sent = kill_at = None
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        now = time.monotonic()
        if args.tap and tap_first is None and tap_size(args.tap) > 0:
            tap_first = now
        if now >= next_rss:
            st = proc_status(pid)
            if st:
                rss.append([round(now - start, 3), st[0]])
                hwm = max(hwm, st[1])
            next_rss += args.rss_interval
        if args.stop_after is not None and stop_sent is None and now - start >= args.stop_after:
            os.kill(pid, signal.SIGINT)
            stop_sent = now
            kill_at = now + 10
        if (kill_at is not None and now >= kill_at) or now - start > args.timeout:
            os.kill(pid, signal.SIGKILL)
            kill_at = float("inf")
        time.sleep(0.001 if (args.tap and tap_first is None) else 0.1)
    end = time.monotonic()
    if monitor:
        time.sleep(0.2)
        monitor.stop()

    def ms(t):
        return None if t is None else round((t - start) * 1000, 1)

    result = {
        "wall_s": round(end - start, 3),
        "user_s": usage.ru_utime,
        "sys_s": usage.ru_stime,
        "maxrss_kib": usage.ru_maxrss,
        "status": os.waitstatus_to_exitcode(status),
        "tap_first_ms": ms(tap_first),
        "monitor_first_ms": ms(monitor.first if monitor else None),
        "tap_bytes": tap_size(args.tap) if args.tap else None,
        "rss_kib": rss,
        "hwm_kib": hwm,
    }
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
