#!/usr/bin/env python3
"""A real gpodder.net (mygpo API 2) server for podcli's tests: gpodder-fastapi-router under uvicorn.

Usage: PYTHON gpodder_server.py --database FILE --user NAME --password-file FILE [--existing] [--port N]
                                 [--hold-upload N] [--no-stdin-watch]

PYTHON is the virtual environment scripts/install-deps.sh makes (/opt/podcli-gpodder-server/bin/python3):
Debian 12's FastAPI is too old for the router. The database is a SQLite file made fresh here (it must
not exist yet) with one user, NAME, whose password is the first line of the password file (so it is
never in argv). Hashed with bcrypt's fewest rounds: the server checks the password on every request,
and 12 rounds (its default) take a quarter of a second each on a loaded core. With --existing the
database is one an earlier server made (the user is there), served again on --port: a server
killed and started again.

--hold-upload N holds the Nth upload of episode actions unanswered and unread, after printing
"HOLDING UPLOAD N" to stderr: a test kills the server while a client's upload is under way.

Binds 127.0.0.1 on an ephemeral port and prints "PORT <n>" as its first stdout line once the
schema and the user are there and the socket listens. Serves until killed, or until its stdin
reaches EOF (so it dies with the test process that spawned it), as fault_server.py does.
"""

import argparse
import asyncio
import os
import socket
import sys
import threading

from fault_server import watch_stdin  # beside this script, on sys.path as its folder


async def prepare(config, user, password):
    from gpodder_router import Database
    from gpodder_router.services import users

    database = Database(config.database_url)
    try:
        await database.create_all()
        async with database.session() as session:
            await users.create_user(session, username=user, password=password, bcrypt_rounds=config.bcrypt_rounds)
    finally:
        await database.dispose()


def hold_upload(app, number):
    """Holds the `number`th POST of episode actions forever, before the router reads it."""
    uploads = [0]

    @app.middleware("http")
    async def hold(request, call_next):
        if request.method == "POST" and request.url.path.startswith("/api/2/episodes/"):
            uploads[0] += 1
            if uploads[0] == number:
                sys.stderr.write("HOLDING UPLOAD %d\n" % number)
                sys.stderr.flush()
                await asyncio.sleep(3600)
        return await call_next(request)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password-file", required=True)
    parser.add_argument("--existing", action="store_true")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--hold-upload", type=int, default=0)
    parser.add_argument("--no-stdin-watch", action="store_true")
    args = parser.parse_args()

    if os.path.exists(args.database) != args.existing:
        sys.exit("gpodder_server.py: %s %s" % (args.database, "is missing" if args.existing else "exists"))
    with open(args.password_file, encoding="utf-8") as f:
        password = f.readline().rstrip("\n")

    import uvicorn
    from fastapi import FastAPI
    from gpodder_router import GPodderConfig, attach

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(128)
    port = listener.getsockname()[1]

    config = GPodderConfig(
        database_url="sqlite+aiosqlite:///" + os.path.abspath(args.database),
        base_url="http://127.0.0.1:%d" % port,
        bcrypt_rounds=4,
        enable_dashboard=False,
    )
    if not args.existing:
        asyncio.run(prepare(config, args.user, password))
    app = FastAPI()
    if args.hold_upload:
        hold_upload(app, args.hold_upload)
    attach(app, config=config)

    if not args.no_stdin_watch:
        threading.Thread(target=watch_stdin, daemon=True).start()
    # Connections queue on the listening socket until uvicorn serves it.
    sys.stdout.write("PORT %d\n" % port)
    sys.stdout.flush()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on"))
    server.run(sockets=[listener])


if __name__ == "__main__":
    main()
