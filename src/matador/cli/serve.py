"""``matador serve``: run the online server (FastAPI and uvicorn) until interrupted."""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
from pathlib import Path
from typing import Any

from matador.cli.common import CliError
from matador.core.errors import quote

EXAMPLES = """\
examples:
  matador serve                                   SQLite in your data directory, 127.0.0.1:8000
  matador serve --port 0                          any free port (the URL is printed)
  matador serve --db postgresql://matador@localhost/matador --host 0.0.0.0
  matador serve --engine mybot="python3 my_engine.py" --bot-workers 2

It prints the URL to open once the home page answers. Several processes may
serve the same tables from one PostgreSQL database (each its own --port).
The protocol is described in docs/server.md.
"""


def add_parser(commands: Any) -> None:
    """Register ``serve`` on the subparsers action ``commands``."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "serve", help="run the server for online play (browser tables, bots, spectators)",
        description="Serve Matador tables over HTTP and WebSockets: people play with invite "
                    "links, bots fill empty seats, every move is stored before it is shown.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=int, default=8000,
                        help="the port (default 8000; 0 picks a free one)")
    parser.add_argument("--db", metavar="URL", default=os.environ.get("MATADOR_DB"),
                        help="a SQLAlchemy database URL, e.g. postgresql://user@host/db "
                             "(default: $MATADOR_DB, else SQLite in the user's data directory)")
    parser.add_argument("--data-dir", type=Path, metavar="DIR",
                        help="where the default SQLite database lives")
    parser.add_argument("--engine", action="append", default=[], metavar="NAME=COMMAND",
                        help="offer an MEP engine for seats as NAME (repeatable)")
    parser.add_argument("--bot-workers", type=int, default=1, metavar="N",
                        help="processes for bot searches (default 1)")
    parser.add_argument("--public-url", default="", metavar="URL",
                        help="the address users reach the server at, for invite links")
    parser.add_argument("--http-limit", type=rate, default=(120.0, 5.0), metavar="BURST/RATE",
                        help="requests an address may burst to, and per second after "
                             "(default 120/5)")
    parser.add_argument("--create-limit", type=rate, default=(20.0, 0.2), metavar="BURST/RATE",
                        help="tables an address may create in a burst, and per second after "
                             "(default 20/0.2)")
    parser.add_argument("--log-level", default="warning",
                        choices=["critical", "error", "warning", "info", "debug"])
    parser.set_defaults(run=run, parser=parser)


def rate(text: str) -> tuple[float, float]:
    """An argparse type: ``BURST/RATE`` (two positive numbers).

    >>> rate("120/5")
    (120.0, 5.0)
    """
    burst, sep, per_second = text.partition("/")
    try:
        values = (float(burst), float(per_second))
    except ValueError:
        values = (0.0, 0.0)
    if not sep or min(values) <= 0:
        raise argparse.ArgumentTypeError(f"{quote(text)} is not BURST/RATE (e.g. 120/5)")
    return values


def run(args: argparse.Namespace) -> int:
    """Run ``serve`` with parsed arguments until interrupted; return the exit status."""
    try:
        import uvicorn

        from matador.server.config import Settings
        from matador.web import create_app
    except ImportError as e:
        raise CliError("serve", f"the server needs its extra: pip install 'matador[server]' "
                                f"({e.name} is missing)") from None
    engines = {}
    for item in args.engine:
        name, sep, command = item.partition("=")
        if not sep or not name.strip() or not command.strip():
            raise CliError("--engine", f"{quote(item)} is not NAME=COMMAND")
        if name.strip() in engines:
            raise CliError("--engine", f"{quote(name.strip())} is given twice")
        engines[name.strip()] = command.strip()
    if args.bot_workers < 1:
        raise CliError("--bot-workers", "must be 1 or more")
    settings = Settings(db_url=args.db, data_dir=args.data_dir, engines=engines,
                        bot_workers=args.bot_workers, public_url=args.public_url,
                        http_capacity=args.http_limit[0], http_per_second=args.http_limit[1],
                        create_capacity=args.create_limit[0],
                        create_per_second=args.create_limit[1])
    if not 0 <= args.port <= 65535:
        raise CliError("--port", f"{args.port} is not a port (0..65535)")
    listener = listen(args.host, args.port)
    try:
        app = create_app(settings)
    except Exception as e:  # a bad URL, a missing driver
        listener.close()
        raise CliError("--db", str(e)) from None
    config = uvicorn.Config(app, host=args.host, port=args.port, ws_max_size=4096,
                            log_level=args.log_level, lifespan="on",
                            timeout_graceful_shutdown=5)
    server = uvicorn.Server(config)
    return asyncio.run(_serve(server, listener, args.host))


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host`` and ``port``, before anything else starts, so that an
    address in use or one this machine does not have is a clear error."""
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as e:
        raise CliError("--host", f"{quote(host)} is not an address of this machine ({e})"
                       ) from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as e:
        sock.close()
        where = "--port" if e.errno in (98, 13) else "--host"  # EADDRINUSE, EACCES
        raise CliError(where, f"cannot listen on {quote(host)} port {port}: "
                              f"{e.strerror or e}") from None
    return sock


async def _serve(server: Any, listener: socket.socket, host: str) -> int:
    task = asyncio.create_task(server.serve(sockets=[listener]))
    while not server.started:
        if task.done():
            await task
            return 1  # startup failed (uvicorn logged why)
        await asyncio.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    print(f"matador serve: open http://{shown}:{port}/", flush=True)
    await task
    return 0 if not getattr(server, "force_exit", False) else 1


__all__ = ["add_parser", "run"]
