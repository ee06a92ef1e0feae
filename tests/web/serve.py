"""``matador serve`` for the browser tests: the same application (:func:`matador.web.create_app`)
with the lobby's rate limits lifted and short waits, on a port given or free.

    python tests/web/serve.py --data-dir DIR [--port N]

Prints ``matador serve: open http://127.0.0.1:PORT/`` once the server answers, as
``matador serve`` does.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import uvicorn

from matador.server.config import Settings
from matador.web import create_app


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    settings = Settings(data_dir=args.data_dir, bot_workers=1, contribution_wait=5.0,
                        http_capacity=10_000.0, http_per_second=10_000.0,
                        create_capacity=10_000.0, create_per_second=10_000.0)
    app = create_app(settings)
    config = uvicorn.Config(app, host="127.0.0.1", port=args.port, ws_max_size=4096,
                            log_level="warning", lifespan="on")
    server = uvicorn.Server(config)

    async def serve() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started:
            if task.done():
                await task
                return
            await asyncio.sleep(0.02)
        port = server.servers[0].sockets[0].getsockname()[1]
        print(f"matador serve: open http://127.0.0.1:{port}/", flush=True)
        await task

    asyncio.run(serve())


if __name__ == "__main__":
    main()
