#!/usr/bin/env python3
"""HTTP/1.1 test server for podcli with injectable faults. Standard library only.

Usage: python3 fault_server.py --root DIR [--no-stdin-watch]

Binds 127.0.0.1 on an ephemeral port and prints "PORT <n>" as its first stdout line.
Serves until killed, or until its stdin reaches EOF (so it dies with the test process
that spawned it). Pass --no-stdin-watch to run it by hand or from a shell script where
stdin is /dev/null.

Content endpoints (GET and HEAD; Range, If-Range, ETag, Last-Modified; If-None-Match and
If-Modified-Since answer 304 when the validator matches):
  /files/<relpath>        files under --root ("." and ".." components are rejected)
  /gen/<size>.mp3         <size> deterministic bytes: ID3v2.4 header (tag size 0) + noise;
                          depends on the path's version (see /__version); ETag "v<version>"
  /html/<anything>        ~2 KB captive-portal-like text/html page
Redirects (query string preserved):
  /redirect/<n>/<rest>    302 -> /redirect/<n-1>/<rest>; /redirect/0/<rest> -> /<rest>
  /permanent/<rest>       301 -> /<rest>
  /moved/<rest>           308 -> /<rest>
  /loop/<anything>        302 -> itself
  /to-file/<anything>     302 -> file:///etc/passwd
  /to-host/<host>/<rest>  302 -> http://<host>:<this port>/<rest> (another host name, same server)
Any method (GET, HEAD, POST, PUT):
  /echo/<anything>        200 application/json {"method", "path", "headers": {lowercased name:
                          value}, "body": the request body as text}; basic=B and status=C (every
                          time) as below; pad=N adds N spaces after the JSON; nolength=1 sends no
                          Content-Length (the body ends when the connection closes)
Faults (query parameters on content URLs, combinable):
  drop=N         headers with the true length, then N body bytes, then close   (first `times`)
  status=C       answer C with a short body; retry_after=S adds Retry-After: S   (first `times`)
  times=K        how many requests get drop/status (default 1). The counter is per exact
                 path+query and counts GET requests only; a HEAD sees the fault the next GET
                 would get (status only) without consuming it. status wins over drop.
  slow=B         pace the body at about B bytes/s
  norange=1      ignore Range and If-Range: always 200 with the whole body
  cl_extra=N     claim N more bytes of Content-Length than sent, send the body, then close
  ctype=V        override Content-Type
  disposition=N  add Content-Disposition: attachment; filename="N" (verbatim, UTF-8 bytes)
  gzip=1         send the whole body gzip-compressed when the client accepts gzip
  nocache=1      ignore If-None-Match and If-Modified-Since: always the whole body
  basic=B        401 unless the request has "Authorization: Basic B" (B: base64 of a URL's user:password)
Control:
  /__version/<path>?v=N   set the content version of <path> (e.g. /gen/1000.mp3); 204
  /__stats[?wait=S]       JSON {"requests": [...]} in arrival order (no /__ requests); waits up
                          to S seconds for in-flight requests to finish first
  /__reset                forget stats, fault counters and versions; 204
"""

import argparse
import email.utils
import gzip
import hashlib
import html
import json
import os
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BLOCK_SIZE = 1 << 20
ID3_HEADER = b"ID3\x04\x00\x00\x00\x00\x00\x00"
GEN_EPOCH = 1704067200  # 2024-01-01T00:00:00Z; Last-Modified of /gen is this + version days

_lock = threading.Lock()
_done = threading.Condition(_lock)
_records = []          # stats, arrival order
_in_flight = 0         # content requests whose handler has not finished
_counters = {}         # path+query -> GET requests seen
_versions = {}         # path -> version
_blocks = {}           # version -> 1 MiB block


def gen_block(version):
    with _lock:
        block = _blocks.get(version)
    if block is not None:
        return block
    seed = hashlib.sha256(b"podcli-fault-server-gen-v%d" % version).digest()
    parts = []
    for i in range(BLOCK_SIZE // 32):
        parts.append(hashlib.sha256(seed + i.to_bytes(4, "little")).digest())
    block = b"".join(parts)
    with _lock:
        _blocks.setdefault(version, block)
        return _blocks[version]


def http_date(ts):
    return email.utils.formatdate(ts, usegmt=True)


PORTAL_HTML = (
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<title>Sign in to Guest Wi-Fi</title>\n"
    "<style>body{font-family:sans-serif;margin:2em auto;max-width:40em}"
    "form{border:1px solid #ccc;padding:1em}</style>\n</head>\n<body>\n"
    "<h1>Welcome to Guest Wi-Fi</h1>\n"
    "<p>You must accept the terms of use before you can reach the Internet.</p>\n"
    "<form method=\"post\" action=\"/portal/accept\">\n"
    "<label>Room number <input name=\"room\"></label>\n"
    "<label>Last name <input name=\"name\"></label>\n"
    "<label><input type=\"checkbox\" name=\"tos\"> I accept the terms of use</label>\n"
    "<button type=\"submit\">Connect</button>\n</form>\n"
    + "".join(
        "<p class=\"terms\">%d. The network is provided as is, without any warranty. "
        "Traffic may be logged and bandwidth may be limited.</p>\n" % i
        for i in range(1, 15)
    )
    + "</body>\n</html>\n"
).encode("utf-8")


class Body:
    """What a content endpoint serves: size, validators and a way to read byte ranges."""

    def __init__(self, size, ctype, etag, last_modified, path=None, gen_version=None, data=None):
        self.size = size
        self.ctype = ctype
        self.etag = etag
        self.last_modified = last_modified  # seconds since epoch
        self.path = path                    # a real file: sendfile
        self.gen_version = gen_version      # synthetic audio
        self.data = data                    # bytes in memory

    def chunks(self, start, end, chunk):
        """Yield memoryviews covering [start, end) of the body, each at most `chunk` bytes."""
        if self.path is not None:
            with open(self.path, "rb") as f:
                f.seek(start)
                pos = start
                while pos < end:
                    b = f.read(min(chunk, end - pos))
                    if not b:
                        return
                    pos += len(b)
                    yield memoryview(b)
        elif self.gen_version is not None:
            block = memoryview(gen_block(self.gen_version))
            pos = start
            while pos < end:
                if pos < len(ID3_HEADER):
                    piece = memoryview(ID3_HEADER)[pos:min(end, len(ID3_HEADER))]
                else:
                    off = (pos - len(ID3_HEADER)) % BLOCK_SIZE
                    piece = block[off:off + min(chunk, end - pos, BLOCK_SIZE - off)]
                pos += len(piece)
                yield piece
        else:
            view = memoryview(self.data)
            for pos in range(start, end, chunk):
                yield view[pos:min(end, pos + chunk)]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fault_server/1"
    sys_version = ""
    record = None  # the stats record of the current content request

    def version_string(self):
        return self.server_version

    def log_message(self, format, *args):  # quiet
        pass

    # --- plumbing ---------------------------------------------------------------------

    def send_header(self, keyword, value):
        # Header values go out as UTF-8 bytes (http.server would insist on latin-1).
        value = str(value).replace("\r", "").replace("\n", "")
        super().send_header(keyword, value.encode("utf-8").decode("latin-1"))

    def send_response(self, code, message=None):
        super().send_response(code, message)
        if self.record is not None:
            with _lock:
                self.record["status"] = code

    def add_sent(self, n):
        if self.record is not None:
            with _lock:
                self.record["body_bytes_sent"] += n

    def write_body(self, data):
        self.wfile.write(data)
        self.add_sent(len(data))

    def simple(self, code, text=b"", ctype="text/plain; charset=utf-8", headers=(), body=True):
        if isinstance(text, str):
            text = text.encode("utf-8")
        self.send_response(code)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        if body and self.command != "HEAD" and text:
            self.write_body(text)

    def abort_connection(self):
        """Close the connection with a FIN (not an RST, which could discard data the
        client has not read yet), so the client sees a short body."""
        self.close_connection = True
        try:
            self.wfile.flush()
        except OSError:
            pass
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    # --- entry points -----------------------------------------------------------------

    def do_GET(self):
        self.dispatch()

    do_HEAD = do_POST = do_PUT = do_GET

    def _unsupported(self):
        self.record = None
        self.close_connection = True
        self.simple(405, "method not allowed\n", headers=[("Allow", "GET, HEAD")])

    do_DELETE = do_PATCH = do_OPTIONS = _unsupported

    def request_body(self):
        """The request's body (read once, so the connection can be kept alive)."""
        if not hasattr(self, "_body"):
            length = int(self.headers.get("Content-Length") or 0)
            self._body = self.rfile.read(length) if length > 0 else b""
        return self._body

    def authorized(self, params):
        """False (after answering 401) when basic=B asks for credentials the request lacks."""
        if "basic" in params and self.headers.get("Authorization") != "Basic " + params["basic"]:
            self.simple(401, "credentials needed\n", headers=[("WWW-Authenticate", 'Basic realm="test"')])
            return False
        return True

    def dispatch(self):
        global _in_flight
        self.record = None
        if hasattr(self, "_body"):
            del self._body  # the previous request's, on a kept-alive connection
        self.request_body()
        # http.server decodes the request line as latin-1; undo that so raw UTF-8 in the
        # URL and %-escaped UTF-8 both end up as the same text.
        target = self.path.encode("latin-1", "replace").decode("utf-8", "replace")
        split = urllib.parse.urlsplit(target)
        path = urllib.parse.unquote(split.path)
        query = split.query
        if path.startswith("/__"):
            try:
                self.control(path, query)
            except (ConnectionError, BrokenPipeError, socket.timeout, OSError):
                self.close_connection = True
            return
        record = {
            "method": self.command,
            "path": self.path,
            "range": self.headers.get("Range"),
            "if_range": self.headers.get("If-Range"),
            "user_agent": self.headers.get("User-Agent"),
            "if_none_match": self.headers.get("If-None-Match"),
            "if_modified_since": self.headers.get("If-Modified-Since"),
            "accept_encoding": self.headers.get("Accept-Encoding"),
            "status": 0,
            "body_bytes_sent": 0,
            # Seconds on the server's monotonic clock: when the request arrived and when its
            # response ended, so tests can tell which requests overlapped.
            "started": time.monotonic(),
            "finished": None,
        }
        with _lock:
            _records.append(record)
            _in_flight += 1
        self.record = record
        try:
            self.route(path, query)
        except (ConnectionError, BrokenPipeError, socket.timeout, OSError):
            self.close_connection = True
        finally:
            with _lock:
                record["finished"] = time.monotonic()
                _in_flight -= 1
                _done.notify_all()

    def control(self, path, query):
        params = urllib.parse.parse_qs(query)
        if path.startswith("/__version/"):
            target = path[len("/__version"):]
            try:
                v = int(params["v"][0])
            except (KeyError, ValueError):
                self.simple(400, "need ?v=N\n")
                return
            with _lock:
                _versions[target] = v
            self.simple(204)
        elif path == "/__stats":
            wait = float(params.get("wait", ["0"])[0])
            deadline = time.monotonic() + wait
            with _lock:
                while _in_flight > 0:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    _done.wait(left)
                payload = json.dumps({"requests": [dict(r) for r in _records]})
            self.simple(200, payload, ctype="application/json")
        elif path == "/__reset":
            with _lock:
                _records.clear()
                _counters.clear()
                _versions.clear()
            self.simple(204)
        else:
            self.simple(404, "unknown control path\n")

    def route(self, path, query):
        qs = ("?" + query) if query else ""
        parts = path.split("/")
        if path.startswith("/echo/"):
            self.echo(query)
        elif self.command not in ("GET", "HEAD") and not path.startswith("/to-"):
            self.simple(405, "method not allowed\n", headers=[("Allow", "GET, HEAD")])
        elif path.startswith("/files/"):
            body = self.file_body(path[len("/files/"):])
            if body is None:
                self.simple(404, "not found\n")
                return
            self.content(body, query)
        elif path.startswith("/gen/") and path.endswith(".mp3"):
            try:
                size = int(path[len("/gen/"):-len(".mp3")])
                if size < 0:
                    raise ValueError
            except ValueError:
                self.simple(404, "bad size\n")
                return
            with _lock:
                v = _versions.get(path, 1)
            body = Body(size, "audio/mpeg", '"v%d"' % v, GEN_EPOCH + 86400 * v, gen_version=v)
            self.content(body, query)
        elif path.startswith("/html/"):
            body = Body(len(PORTAL_HTML), "text/html; charset=utf-8",
                        '"portal-%d"' % len(PORTAL_HTML), GEN_EPOCH, data=PORTAL_HTML)
            self.content(body, query)
        elif path.startswith("/redirect/") and len(parts) >= 4:
            try:
                n = int(parts[2])
            except ValueError:
                self.simple(404, "bad redirect count\n")
                return
            rest = "/".join(parts[3:])
            target = "/" + rest if n <= 0 else "/redirect/%d/%s" % (n - 1, rest)
            self.redirect(302, urllib.parse.quote(target) + qs)
        elif path.startswith("/permanent/"):
            self.redirect(301, urllib.parse.quote(path[len("/permanent"):]) + qs)
        elif path.startswith("/moved/"):
            self.redirect(308, urllib.parse.quote(path[len("/moved"):]) + qs)
        elif path.startswith("/loop/"):
            self.redirect(302, self.path)
        elif path.startswith("/to-file/"):
            self.redirect(302, "file:///etc/passwd")
        elif path.startswith("/to-host/") and len(parts) >= 4:
            rest = "/".join(parts[3:])
            self.redirect(302, "http://%s:%d/%s%s" % (parts[2], self.server.server_address[1], rest, qs))
        else:
            self.simple(404, "not found\n")

    def echo(self, query):
        params = {k: v[-1] for k, v in urllib.parse.parse_qs(query, keep_blank_values=True).items()}
        if not self.authorized(params):
            return
        if "status" in params:
            self.simple(int(params["status"]), "injected status %s\n" % params["status"])
            return
        payload = json.dumps({
            "method": self.command,
            "path": self.path,
            "headers": {k.lower(): v for k, v in self.headers.items()},
            "body": self.request_body().decode("utf-8", "replace"),
        }).encode("utf-8") + b" " * int(params.get("pad", "0"))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if params.get("nolength") == "1":
            self.close_connection = True
            self.send_header("Connection", "close")
        else:
            self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if self.command != "HEAD":
            self.write_body(payload)

    def redirect(self, code, location):
        text = "<html><body>Moved: <a href=\"%s\">here</a></body></html>\n" % html.escape(location)
        self.simple(code, text, ctype="text/html", headers=[("Location", location)])

    def file_body(self, rel):
        parts = [p for p in rel.split("/") if p != ""]
        if not parts or any(p in (".", "..") or "\0" in p for p in parts):
            return None
        full = os.path.join(self.server.root, *parts)
        try:
            st = os.stat(full)
        except OSError:
            return None
        if not os.path.isfile(full):
            return None
        ext = os.path.splitext(full)[1].lower()
        ctype = {
            ".mp3": "audio/mpeg",
            ".m4a": "audio/mp4",
            ".aac": "audio/aac",
            ".opus": "audio/ogg",
            ".ogg": "audio/ogg",
            ".flac": "audio/flac",
            ".xml": "application/rss+xml",
            ".rss": "application/rss+xml",
            ".html": "text/html",
            ".opml": "text/x-opml",
            ".atom": "application/atom+xml",
        }.get(ext, "application/octet-stream")
        return Body(st.st_size, ctype, '"%d-%d"' % (st.st_size, st.st_mtime_ns),
                    st.st_mtime, path=full)

    # --- the content path, with faults -------------------------------------------------

    def content(self, body, query):
        params = {k: v[-1] for k, v in urllib.parse.parse_qs(query, keep_blank_values=True).items()}

        def intparam(name, default=None):
            try:
                return int(params[name])
            except (KeyError, ValueError):
                return default

        key = self.path
        times = intparam("times", 1)
        with _lock:
            seen = _counters.get(key, 0)
            if self.command == "GET":
                _counters[key] = seen + 1
        faulted = seen < times
        head = self.command == "HEAD"

        if not self.authorized(params):
            return

        status = intparam("status")
        if status is not None and faulted:
            headers = []
            if "retry_after" in params:
                headers.append(("Retry-After", params["retry_after"]))
            self.simple(status, "injected status %d\n" % status, headers=headers)
            return

        ctype = params.get("ctype", body.ctype)
        if intparam("nocache", 0) != 1 and self.headers.get("Range") is None and self.not_modified(body):
            self.send_response(304)
            self.send_header("ETag", body.etag)
            self.send_header("Last-Modified", http_date(body.last_modified))
            self.end_headers()
            return
        if intparam("gzip", 0) == 1 and "gzip" in (self.headers.get("Accept-Encoding") or ""):
            data = b"".join(bytes(piece) for piece in body.chunks(0, body.size, BLOCK_SIZE))
            packed = gzip.compress(data)
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(packed)))
            self.send_header("ETag", body.etag)
            self.send_header("Last-Modified", http_date(body.last_modified))
            self.end_headers()
            if not head:
                self.write_body(packed)
            return
        size = body.size
        start, end = 0, size     # the byte range to send: [start, end)
        code = 200
        extra = []

        rng = self.headers.get("Range")
        if rng is not None and intparam("norange", 0) != 1:
            if_range = self.headers.get("If-Range")
            if if_range is None or self.validator_matches(if_range, body):
                parsed = parse_range(rng, size)
                if parsed == "unsatisfiable":
                    self.simple(416, "range not satisfiable\n",
                                headers=[("Content-Range", "bytes */%d" % size)])
                    return
                if parsed is not None:
                    start, end = parsed
                    code = 206
                    extra.append(("Content-Range", "bytes %d-%d/%d" % (start, end - 1, size)))

        length = end - start
        cl_extra = intparam("cl_extra", 0) or 0
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(length + max(0, cl_extra)))
        self.send_header("Accept-Ranges", "none" if intparam("norange", 0) == 1 else "bytes")
        self.send_header("ETag", body.etag)
        self.send_header("Last-Modified", http_date(body.last_modified))
        if "disposition" in params:
            self.send_header("Content-Disposition", 'attachment; filename="%s"' % params["disposition"])
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        if head:
            return

        drop = intparam("drop")
        slow = intparam("slow")
        to_send = length
        if drop is not None and faulted:
            to_send = max(0, min(drop, length))

        if slow is not None and slow > 0:
            self.send_paced(body, start, start + to_send, slow)
        elif body.path is not None and to_send > 0:
            with open(body.path, "rb") as f:
                sent = self.sendfile(f, start, to_send)
            if sent < to_send:
                self.abort_connection()
                return
        else:
            for piece in body.chunks(start, start + to_send, BLOCK_SIZE):
                self.write_body(piece)

        if to_send < length or cl_extra > 0:
            self.abort_connection()

    def sendfile(self, f, offset, count):
        """Zero-copy send of [offset, offset+count) of f, counting bytes as they go (so the
        stats of a client killed mid-transfer stay close to the truth)."""
        self.wfile.flush()
        out_fd, in_fd = self.connection.fileno(), f.fileno()
        total = 0
        while total < count:
            try:
                n = os.sendfile(out_fd, in_fd, offset + total, min(count - total, 8 << 20))
            except InterruptedError:
                continue
            if n == 0:
                break
            total += n
            self.add_sent(n)
        return total

    def send_paced(self, body, start, end, rate):
        step = max(1, rate // 20)   # about 20 writes per second
        interval = step / float(rate)
        next_at = time.monotonic()
        for piece in body.chunks(start, end, step):
            delay = next_at - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            self.write_body(piece)
            next_at += interval

    def not_modified(self, body):
        """True when the request's If-None-Match or If-Modified-Since says the client has it."""
        none_match = self.headers.get("If-None-Match")
        if none_match is not None:
            return body.etag in [v.strip() for v in none_match.split(",")] or none_match.strip() == "*"
        since = self.headers.get("If-Modified-Since")
        if since is not None:
            try:
                return int(body.last_modified) <= email.utils.parsedate_to_datetime(since).timestamp()
            except (TypeError, ValueError):
                return False
        return False

    @staticmethod
    def validator_matches(if_range, body):
        v = if_range.strip()
        if v.startswith('"') or v.startswith("W/"):
            return v == body.etag  # strong comparison; weak validators never match
        try:
            t = email.utils.parsedate_to_datetime(v).timestamp()
        except (TypeError, ValueError, IndexError):
            return False
        return int(t) == int(body.last_modified)


def parse_range(value, size):
    """(start, end) exclusive, "unsatisfiable", or None when the header is to be ignored."""
    value = value.strip()
    if not value.startswith("bytes="):
        return None
    spec = value[len("bytes="):].strip()
    if "," in spec or "-" not in spec:
        return None
    first, last = (s.strip() for s in spec.split("-", 1))
    try:
        if first == "":
            n = int(last)
            if n <= 0:
                return "unsatisfiable"
            return (max(0, size - n), size) if size > 0 else "unsatisfiable"
        start = int(first)
        end = size if last == "" else min(size, int(last) + 1)
    except ValueError:
        return None
    if start < 0 or (last != "" and int(last) < start):
        return None
    if start >= size:
        return "unsatisfiable"
    return (start, end)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def handle_error(self, request, client_address):
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, BrokenPipeError, socket.timeout, TimeoutError)):
            return
        super().handle_error(request, client_address)


def watch_stdin():
    try:
        while os.read(0, 65536):
            pass
    except OSError:
        pass
    os._exit(0)


def serve(server, watch=True):
    """Prints "PORT <n>" for the test that started us, then serves until stdin ends (with `watch`)."""
    sys.stdout.write("PORT %d\n" % server.server_address[1])
    sys.stdout.flush()
    if watch:
        threading.Thread(target=watch_stdin, daemon=True).start()
    server.serve_forever(poll_interval=0.5)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--no-stdin-watch", action="store_true")
    args = ap.parse_args()

    # Do NOT close inherited descriptors here: swift-corelibs-foundation's Process learns
    # that a child exited from EOF on a socket the child inherits; closing it makes
    # Foundation block in waitpid() on us, and then no other child's exit is ever noticed.
    # (Foundation already closes every other descriptor in the child.)

    if not os.path.isdir(args.root):
        sys.exit("fault_server.py: --root %s is not a directory" % args.root)
    server = Server(("127.0.0.1", args.port), Handler)
    server.root = os.path.abspath(args.root)
    sys.stdout.write("PORT %d\n" % server.server_address[1])
    sys.stdout.flush()
    if not args.no_stdin_watch:
        threading.Thread(target=watch_stdin, daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
