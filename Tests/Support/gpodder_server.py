#!/usr/bin/env python3
"""A real gpodder.net (mygpo API 2) server for podcli's tests: gpodder-fastapi-router under uvicorn.

Usage: PYTHON gpodder_server.py --database FILE --user NAME --password-file FILE [--no-stdin-watch]

PYTHON is the virtual environment scripts/install-deps.sh makes (/opt/podcli-gpodder-server/bin/python3):
Debian 12's FastAPI is too old for the router. The database is a SQLite file made fresh here (it must
not exist yet) with one user, NAME, whose password is the first line of the password file (so it is
never in argv). Hashed with bcrypt's fewest rounds: the server checks the password on every request,
and 12 rounds (its default) take a quarter of a second each on a loaded core.

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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password-file", required=True)
    parser.add_argument("--no-stdin-watch", action="store_true")
    args = parser.parse_args()

    if os.path.exists(args.database):
        sys.exit("gpodder_server.py: %s exists; the server starts on a fresh database" % args.database)
    with open(args.password_file, encoding="utf-8") as f:
        password = f.readline().rstrip("\n")

    import uvicorn
    from fastapi import FastAPI
    from gpodder_router import GPodderConfig, attach

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    port = listener.getsockname()[1]

    config = GPodderConfig(
        database_url="sqlite+aiosqlite:///" + os.path.abspath(args.database),
        base_url="http://127.0.0.1:%d" % port,
        bcrypt_rounds=4,
        enable_dashboard=False,
    )
    asyncio.run(prepare(config, args.user, password))
    app = FastAPI()
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
