"""Alembic environment of the server's database: migrations run on the connection the
server hands over (``config.attributes["connection"]``), or on ``sqlalchemy.url``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from matador.server.db import metadata


def run() -> None:
    """Run the migrations online (the server always has a connection)."""
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite://")
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()


if hasattr(context, "config"):  # only under Alembic (pytest imports this file too)
    run()
