"""Fixtures for the MEP tests: engines driven through pipes, broken engines, views."""

from __future__ import annotations

collect_ignore = ["engines"]  # scripts run as engine processes, never imported by pytest
