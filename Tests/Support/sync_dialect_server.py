#!/usr/bin/env python3
"""A loopback stand-in for the sync servers no test can run here: gpodder.net's paging of episode
actions and the Nextcloud gPodder Sync app, answering with bodies shaped as their documentation and
source give them.

Usage: python3 sync_dialect_server.py --scenario FILE --log FILE [--page-size N] [--no-stdin-watch]

The scenario (JSON) holds "user", "password", "devices" (a sync-devices answer), "actions" (each an episode action in the API's
shape plus "epoch", its time in Unix seconds, which is not sent) and "subscriptions"
({"add": [...], "remove": [...]}). Every request is appended to the log as one JSON line
({"method", "path", "body"}, the body re-encoded with sorted keys) before it is answered.

- gpodder.net (mygpo, mygpo/api/advanced/__init__.py, get_episode_changes):
  GET /api/2/episodes/USER.json?since=S answers the actions with epoch >= S (inclusive), oldest
  first, at most --page-size (MAX_EPISODE_ACTIONS, 1000), and as "timestamp" the last one's epoch
  (the time now when there is none). POST answers {"timestamp", "update_urls": []}.
  GET /api/2/sync-devices/USER.json answers the scenario's devices; POST links the devices asked
  for, then answers 500, as mygpo's sync.py does (its answer names a `user` it never defined).
- Nextcloud gPodder Sync (README; EpisodeActionController, EpisodeActionMapper::findAll):
  GET /index.php/apps/gpoddersync/episode_action?since=S answers every action with epoch > S
  (exclusive) with its "id" and the action's name upper case as the README writes it, and the time
  now; GET .../subscriptions?since=S answers {"add", "remove", "timestamp"};
  POST .../episode_action/create and .../subscription_change/create answer {"timestamp"}.
- A path starting /html answers 200 with an HTML page (a login page a proxy sends), /shape 200 with
  JSON of another shape, /error 500, /badtime actions whose time cannot be read; the rest of the
  path is served as usual.
- Wrong or no basic auth: 401.

Binds 127.0.0.1 on an ephemeral port, prints "PORT <n>" and serves until its stdin reaches EOF.
"""

import argparse
import base64
import json
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from fault_server import watch_stdin  # beside this script, on sys.path as its folder

NEXTCLOUD = "/index.php/apps/gpoddersync/"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # quiet
        pass

    def do_GET(self):
        self.dispatch()

    def do_POST(self):
        self.dispatch()

    def reply(self, status, body, ctype="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def dispatch(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        server = self.server
        with server.lock:
            with open(server.log, "a", encoding="utf-8") as log:
                body = json.dumps(json.loads(raw), sort_keys=True) if raw else None
                log.write(json.dumps({"method": self.command, "path": self.path, "body": body}) + "\n")
        scenario = server.scenario
        expected = "Basic " + base64.b64encode(
            ("%s:%s" % (scenario["user"], scenario["password"])).encode()).decode()
        if self.headers.get("Authorization") != expected:
            return self.reply(401, {"message": "Current user is not logged in"})

        parsed = urllib.parse.urlsplit(self.path)
        path = parsed.path
        mode = None
        for prefix in ("/html", "/shape", "/error", "/badtime"):
            if path.startswith(prefix + "/"):
                mode, path = prefix[1:], path[len(prefix):]
        if mode == "html":
            return self.reply(200, b"<!DOCTYPE html><html><title>Log in</title></html>", "text/html; charset=utf-8")
        if mode == "shape":
            return self.reply(200, {"status": "ok", "actions": "none"})
        if mode == "error":
            return self.reply(500, b"Internal Server Error", "text/plain")
        since = int(urllib.parse.parse_qs(parsed.query).get("since", ["0"])[0])
        now = int(time.time())
        actions = scenario["actions"]
        if mode == "badtime":
            actions = [dict(a, timestamp="the day before") for a in actions]

        def sent(action):
            return {k: v for k, v in action.items() if k != "epoch"}

        if path == "/api/2/sync-devices/%s.json" % scenario["user"]:
            devices = scenario["devices"]
            if self.command == "POST":
                for group in json.loads(raw)["synchronize"]:
                    devices["synchronized"] = [g for g in devices["synchronized"] if not set(g) & set(group)]
                    devices["synchronized"].append(sorted(group))
                    devices["not-synchronized"] = [d for d in devices["not-synchronized"] if d not in group]
                # mygpo (api/advanced/sync.py) links, then names an undefined `user` in its answer.
                return self.reply(500, b"<h1>Server Error (500)</h1>", "text/html")
            return self.reply(200, devices)
        if path == "/api/2/episodes/%s.json" % scenario["user"]:
            if self.command == "POST":
                return self.reply(200, {"timestamp": now, "update_urls": []})
            page = sorted((a for a in actions if a["epoch"] >= since), key=lambda a: a["epoch"])
            page = page[: server.page_size]
            timestamp = page[-1]["epoch"] if page else now
            return self.reply(200, {"actions": [sent(a) for a in page], "timestamp": timestamp})
        if path == NEXTCLOUD + "episode_action":
            listed = [dict(sent(a), id=n + 1, action=a["action"].upper())
                      for n, a in enumerate(actions) if a["epoch"] > since]
            return self.reply(200, {"actions": listed, "timestamp": now})
        if path == NEXTCLOUD + "subscriptions":
            return self.reply(200, dict(scenario["subscriptions"], timestamp=now))
        if path in (NEXTCLOUD + "episode_action/create", NEXTCLOUD + "subscription_change/create"):
            return self.reply(200, {"timestamp": now})
        return self.reply(404, {"message": "no route " + path})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenario", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--page-size", type=int, default=1000)
    parser.add_argument("--no-stdin-watch", action="store_true")
    args = parser.parse_args()
    with open(args.scenario, encoding="utf-8") as f:
        scenario = json.load(f)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.scenario = scenario
    server.log = args.log
    server.page_size = args.page_size
    server.lock = threading.Lock()
    sys.stdout.write("PORT %d\n" % server.server_address[1])
    sys.stdout.flush()
    if not args.no_stdin_watch:
        threading.Thread(target=watch_stdin, daemon=True).start()
    server.serve_forever(poll_interval=0.5)


if __name__ == "__main__":
    main()
