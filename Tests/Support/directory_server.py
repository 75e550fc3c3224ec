#!/usr/bin/env python3
"""A podcast directory on 127.0.0.1 for podcli's tests: the iTunes Search and Lookup APIs and
Podcast Index's search/byterm, answering with bodies shaped as their documentation gives them.
Standard library only.

Usage: python3 directory_server.py --catalogue FILE --key KEY --secret SECRET [--no-stdin-watch]

FILE is JSON: {"apple": [iTunes result objects], "podcastindex": [Podcast Index feed objects]}, each
object exactly as the directory lists a podcast. Prints "PORT <n>" first; exits when stdin ends.

  /search?media=podcast&entity=podcast&term=T&limit=N   {"resultCount", "results"}: the apple
        entries whose collectionName or artistName holds every word of T (any case), at most N;
        text/javascript, as Apple sends it. 400 without media=podcast.
  /lookup?id=N          {"resultCount", "results"}: the apple entries whose collectionId is N
  /api/1.0/search/byterm?q=T&max=N   {"status", "feeds", "count", "query", "description"}: the
        podcastindex entries whose title or author holds every word of T, at most N. 401 unless
        User-Agent is set, X-Auth-Key is KEY, X-Auth-Date is Unix seconds within 5 minutes of now
        and Authorization is the hexadecimal SHA-1 of KEY + SECRET + X-Auth-Date.
Bad answers: /fault/<mode>/<any path above>
  html      200 text/html, a web page          forbidden  403
  empty     no results                         miscount   resultCount (count) one more than sent
  nofeed    every result without feedUrl (url) declined   Podcast Index's status "false"
  notjson   200 with a body that is not JSON   wrongtype  resultCount (count) as text
Control: /__requests: JSON [{"path", "headers": {lowercased name: value}}] of the requests so far.
"""

import argparse
import hashlib
import json
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from fault_server import serve  # beside this script, on sys.path as its folder

_lock = threading.Lock()
_requests = []


def matches(term, *fields):
    text = " ".join(f for f in fields if isinstance(f, str)).lower()
    return all(word in text for word in term.lower().split())


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, ctype="application/json"):
        data = body if isinstance(body, bytes) else body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/__requests":
            with _lock:
                return self.send(200, json.dumps(_requests))
        with _lock:
            _requests.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}})
        query = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
        path, mode = url.path, None
        if path.startswith("/fault/"):
            _, _, mode, rest = path.split("/", 3)
            path = "/" + rest
        if mode == "html":
            return self.send(200, "<!DOCTYPE html><html><body><h1>Sign in to continue</h1></body></html>", "text/html")
        if mode == "forbidden":
            return self.send(403, "<html><body>Forbidden</body></html>", "text/html")
        if mode == "notjson":
            return self.send(200, "resultCount=3", "text/javascript; charset=utf-8")
        if path == "/search":
            if query.get("media") != "podcast" or query.get("entity") != "podcast":
                return self.send(400, json.dumps({"errorMessage": "Invalid value(s) for key(s): [mediaType]"}))
            found = [p for p in self.server.catalogue.get("apple", [])
                     if matches(query.get("term", ""), p.get("collectionName"), p.get("artistName"))]
            return self.apple(found[: int(query.get("limit", "50"))], mode)
        if path == "/lookup":
            found = [p for p in self.server.catalogue.get("apple", []) if str(p.get("collectionId")) == query.get("id")]
            return self.apple(found, mode)
        if path == "/api/1.0/search/byterm":
            if not self.signed():
                return self.send(401, json.dumps({"status": "false", "description": "Authorization failed"}))
            term = query.get("q", "")
            found = [p for p in self.server.catalogue.get("podcastindex", [])
                     if matches(term, p.get("title"), p.get("author"))]
            return self.podcastindex(found[: int(query.get("max", "10"))], term, mode)
        self.send(404, json.dumps({"errorMessage": "not found"}))

    def apple(self, results, mode):
        results = self.faulted(results, mode, "feedUrl")
        count = len(results) + (1 if mode == "miscount" else 0)
        body = {"resultCount": str(count) if mode == "wrongtype" else count, "results": results}
        self.send(200, "\n\n\n" + json.dumps(body) + "\n", "text/javascript; charset=utf-8")

    def podcastindex(self, feeds, term, mode):
        feeds = self.faulted(feeds, mode, "url")
        count = len(feeds) + (1 if mode == "miscount" else 0)
        if mode == "declined":
            body = {"status": "false", "feeds": [], "count": 0, "query": term, "description": "Too many requests"}
        else:
            body = {"status": "true", "feeds": feeds, "count": str(count) if mode == "wrongtype" else count,
                    "query": term, "description": "Found matching feeds"}
        self.send(200, json.dumps(body), "application/json")

    @staticmethod
    def faulted(results, mode, feed_key):
        if mode == "empty":
            return []
        if mode == "nofeed":
            return [{k: v for k, v in r.items() if k != feed_key} for r in results]
        return results

    def signed(self):
        key, date = self.headers.get("X-Auth-Key"), self.headers.get("X-Auth-Date", "")
        if not self.headers.get("User-Agent") or key != self.server.key or not date.isdigit():
            return False
        if abs(int(date) - time.time()) > 300:
            return False
        expected = hashlib.sha1((self.server.key + self.server.secret + date).encode("utf-8")).hexdigest()
        return self.headers.get("Authorization") == expected


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--catalogue", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--secret", required=True)
    ap.add_argument("--no-stdin-watch", action="store_true")
    args = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with open(args.catalogue, encoding="utf-8") as f:
        server.catalogue = json.load(f)
    server.key, server.secret = args.key, args.secret
    serve(server, watch=not args.no_stdin_watch)


if __name__ == "__main__":
    main()
