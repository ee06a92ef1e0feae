"""The first schema: tables, seats, steps, moves, fair_secrets.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the tables of :mod:`matador.server.db`."""
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("marked", sa.Boolean, nullable=False),
        sa.Column("spectator_hash", sa.String(64), nullable=False),
        sa.Column("next_table", sa.String(32), nullable=True),
    )
    op.create_index("tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("spec", sa.String(200), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("name", sa.String(100), nullable=True),
        sa.Column("claimed", sa.Boolean, nullable=False),
    )
    op.create_table(
        "steps",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "moves",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("move", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
    )
    op.create_table(
        "fair_secrets",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("secret", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    """Drop every table of the server."""
    for name in ("fair_secrets", "moves", "steps", "seats", "tables"):
        op.drop_table(name)
