"""Online play: ``matador serve``, a web server over the referee.

* :mod:`matador.server.app`: the FastAPI application (lobby JSON, pages, the
  tables' WebSocket);
* :mod:`matador.server.hub` and :mod:`matador.server.room`: the live tables of
  a process, each a :class:`~matador.table.referee.Table` fed by the network;
* :mod:`matador.server.db`: storage (SQLAlchemy 2, Alembic migrations, SQLite
  or PostgreSQL);
* :mod:`matador.server.fair`: provably fair deals (standard library only, so
  ``matador verify`` works without the server's dependencies);
* :mod:`matador.server.protocol`: messages, error codes, close codes.

The modules other than :mod:`~matador.server.fair`, :mod:`~matador.server.chat`
and :mod:`~matador.server.limits` need the ``server`` extra
(``pip install 'matador[server]'``). docs/server.md describes the protocol.
"""
