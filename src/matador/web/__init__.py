"""The browser client of ``matador serve``: the lobby, the table and the replay viewer.

The client is plain ES modules with JSDoc types (``static/``, checked by
``tsc --checkJs --noEmit`` in CI) shipped as package data, so ``pip install``
serves it with no Node.js. It holds no rule code: it renders what the server
sends (views, legal moves with their tile, end and orientation) and sends the
person's choices. :func:`create_app` is the server's application
(:func:`matador.server.app.create_app`) with the pages, the static files and
the few JSON routes the client needs besides the table protocol (why a tile
cannot be laid, hints, the review, the score sheet, replays of records).
"""

from __future__ import annotations

from matador.web.app import STATIC_DIR, create_app

__all__ = ["STATIC_DIR", "create_app"]
