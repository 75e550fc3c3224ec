#!/usr/bin/env python3
"""Seeds an account on a gpodder.net (mygpo API 2) server through its API, as a phone would have
(Python 3 standard library only), for bench/remote.sh.

    seed_gpodder.py SERVER_URL USER PASSWORD_FILE ACCOUNT_DIR [--device phone] [--batch 2000]

registers DEVICE, uploads ACCOUNT_DIR/subscriptions.json as its subscription changes and
ACCOUNT_DIR/actions.json (bench/gen_remote.py account) as episode actions in POSTs of BATCH, then
reads both back (the account's subscriptions, every action since 0) and exits 1 unless the
server holds exactly what went up. The password is the first line of PASSWORD_FILE (never argv).
"""

import argparse
import base64
import json
import os
import sys
import time
import urllib.request


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("server")
    parser.add_argument("user")
    parser.add_argument("password_file")
    parser.add_argument("account_dir")
    parser.add_argument("--device", default="phone")
    parser.add_argument("--batch", type=int, default=2000)
    args = parser.parse_args()
    with open(args.password_file, encoding="utf-8") as f:
        password = f.readline().rstrip("\n")
    auth = "Basic " + base64.b64encode(("%s:%s" % (args.user, password)).encode()).decode()

    def call(method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(args.server.rstrip("/") + path, data=data, method=method,
                                         headers={"Authorization": auth, "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=300) as reply:
            text = reply.read()
        return json.loads(text) if text else None

    with open(os.path.join(args.account_dir, "subscriptions.json"), encoding="utf-8") as f:
        subscriptions = json.load(f)
    with open(os.path.join(args.account_dir, "actions.json"), encoding="utf-8") as f:
        actions = json.load(f)
    started = time.monotonic()
    call("POST", "/api/2/devices/%s/%s.json" % (args.user, args.device), {"caption": "Phone", "type": "mobile"})
    call("POST", "/api/2/subscriptions/%s/%s.json" % (args.user, args.device), subscriptions)
    for first in range(0, len(actions), args.batch):
        call("POST", "/api/2/episodes/%s.json" % args.user, actions[first:first + args.batch])

    held = call("GET", "/subscriptions/%s.json" % args.user)  # the simple API: all of the account's
    back = call("GET", "/api/2/episodes/%s.json?since=0" % args.user)["actions"]
    if sorted(held) != sorted(subscriptions["add"]) or len(back) != len(actions):
        sys.exit("seed_gpodder.py: the server holds %d subscriptions and %d actions, not %d and %d"
                 % (len(held), len(back), len(subscriptions["add"]), len(actions)))
    print("seeded %d subscriptions and %d episode actions (device %s, POSTs of %d) in %.1f s"
          % (len(held), len(back), args.device, args.batch, time.monotonic() - started))


if __name__ == "__main__":
    main()
