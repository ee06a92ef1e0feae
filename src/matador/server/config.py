"""The server's settings, and the configuration of one table as the lobby accepts it.

>>> cfg = TableConfig.parse({"preset": "classic", "seats": ["human", "bot:normal"]})
>>> cfg.players, [s.kind for s in cfg.seats], cfg.rules.match_target
(2, ['human', 'bot'], 100)
>>> TableConfig.parse({"preset": "classic", "seats": ["human"]})
Traceback (most recent call last):
...
matador.server.config.ConfigError: seats: 1 players, but the rules allow 2 to 4
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from matador.core.errors import MatadorError, RulesError
from matador.core.rules import Rules, resolve_preset
from matador.players import LEVELS


class ConfigError(MatadorError):
    """A table configuration the lobby refuses: ``where`` names the field."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"{where}: {why}")
        self.where = where
        self.why = why


@dataclass(frozen=True)
class Settings:
    """How a server runs (``matador serve`` options; tests build their own)."""

    db_url: str | None = None
    """A SQLAlchemy URL; ``None``: SQLite in the user's data directory."""
    data_dir: Path | None = None
    """Where the default SQLite database lives (default: the platform's user data dir)."""
    engines: Mapping[str, str] = field(default_factory=dict)
    """MEP engines the operator offers for seats: name to command."""
    bot_workers: int = 1
    """Processes that run bot searches."""
    sqlite_synchronous: str = "FULL"
    """SQLite's ``synchronous`` pragma: FULL puts every commit on disk before it returns."""
    replay_limit: int = 200
    """The most events replayed to a reconnecting client; a longer gap gets a snapshot."""
    hello_timeout: float = 10.0
    """Seconds a new connection has to send ``hello``."""
    http_capacity: float = 120.0
    """HTTP requests a client address may burst to (``/api`` and the pages)."""
    http_per_second: float = 5.0
    """HTTP requests per second a client address gets back."""
    create_capacity: float = 20.0
    """Tables a client address may create in a burst."""
    create_per_second: float = 0.2
    """Tables per second a client address gets back."""
    chat_lines: int = 5
    """Chat lines a connection may send in :attr:`chat_seconds`."""
    chat_seconds: float = 10.0
    contribution_wait: float = 30.0
    """Seconds a deal waits for a seat's contribution: from when an absent person left,
    or from the commitment for one who is connected; then the seat is skipped."""
    takeover: float = 3.0
    """Seconds another process waits before it acts for a table (a bot's move, a deal)
    that the process which caused it should have done (several processes on PostgreSQL)."""
    unload_after: float = 60.0
    """Seconds a finished table nobody is connected to stays in memory."""
    upkeep_every: float = 5.0
    """Seconds between two rounds of upkeep (unloading finished tables, freezing for the GC)."""
    public_url: str = ""
    """The address of the server as users reach it (for invite links); default: the
    request's own."""


BOT_PREFIX = "bot:"
ENGINE_PREFIX = "engine:"


@dataclass(frozen=True)
class SeatConfig:
    """Who sits at a seat: a ``human``, a ``bot`` (``spec`` is a level) or an operator's
    ``engine`` (``spec`` is its name)."""

    kind: str
    spec: str = ""
    name: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The seat as stored."""
        out: dict[str, Any] = {"kind": self.kind, "spec": self.spec}
        if self.name is not None:
            out["name"] = self.name
        return out


@dataclass(frozen=True)
class ClockConfig:
    """A per-move time bank: ``per_move`` seconds free for each move, then the seat's
    ``bank`` runs down; when both are spent the seat's bot moves for it."""

    per_move: float
    bank: float

    def to_json(self) -> dict[str, Any]:
        """The clock as stored."""
        return {"per_move": self.per_move, "bank": self.bank}


@dataclass(frozen=True)
class TableConfig:
    """A table as created from the lobby (see :meth:`parse`)."""

    preset: str
    overrides: Mapping[str, Any]
    seats: tuple[SeatConfig, ...]
    single_hand: bool = False
    clock: ClockConfig | None = None
    grace: float = 60.0
    """Seconds an absent person's turn waits before a bot moves for them."""
    replacement: str = "normal"
    """The bot level that moves for an absent person or on a timeout."""
    bot_seed: int = 0
    """The seed of the table's bots (server-side only)."""
    rules: Rules = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        try:
            rules = Rules.from_preset(self.preset, dict(self.overrides))
        except RulesError as e:
            raise ConfigError(e.where, e.why) from None
        object.__setattr__(self, "rules", rules)

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.seats)

    def human_seats(self) -> list[int]:
        """The seats of people."""
        return [i for i, s in enumerate(self.seats) if s.kind == "human"]

    @classmethod
    def parse(cls, data: Any, engines: Mapping[str, str] | None = None) -> TableConfig:
        """Read the lobby's JSON: ``preset``, ``rules`` (``{NAME: VALUE}`` house rules,
        ``match_target`` among them), ``seats`` (each ``human``, ``bot:LEVEL``,
        ``engine:NAME`` or an object ``{"kind", "level"|"engine", "name"}``),
        ``single_hand``, ``clock`` (``{"per_move", "bank"}`` seconds or null), ``grace``
        and ``replacement`` (a level). Raises :class:`ConfigError`."""
        if not isinstance(data, Mapping):
            raise ConfigError("table", "must be a JSON object")
        known = {"preset", "rules", "seats", "single_hand", "clock", "grace", "replacement"}
        for key in data:
            if key not in known:
                raise ConfigError(str(key), f"unknown field (one of {', '.join(sorted(known))})")
        try:
            preset = resolve_preset(str(data.get("preset", "classic")))
        except RulesError as e:
            raise ConfigError("preset", e.why) from None
        overrides = data.get("rules", {}) or {}
        if not isinstance(overrides, Mapping):
            raise ConfigError("rules", "must be an object of NAME: VALUE house rules")
        raw_seats = data.get("seats")
        if not isinstance(raw_seats, list):
            raise ConfigError("seats", "must be a list (human, bot:LEVEL or engine:NAME)")
        seat_list = tuple(_seat(s, f"seats[{i}]", engines or {}) for i, s in enumerate(raw_seats))
        single = data.get("single_hand", False)
        if not isinstance(single, bool):
            raise ConfigError("single_hand", "must be true or false")
        clock = _clock(data.get("clock"))
        grace = data.get("grace", 60.0)
        if isinstance(grace, bool) or not isinstance(grace, int | float) or not 0 <= grace <= 3600:
            raise ConfigError("grace", "must be 0 to 3600 seconds")
        replacement = data.get("replacement", "normal")
        if replacement not in LEVELS:
            raise ConfigError("replacement", f"must be a bot level ({', '.join(LEVELS)})")
        cfg = cls(preset, dict(overrides), seat_list, single, clock, float(grace), replacement,
                  new_bot_seed())
        try:
            cfg.rules.check_players(cfg.players)
        except RulesError as e:
            raise ConfigError("seats", e.why) from None
        if not cfg.human_seats():
            raise ConfigError("seats", "a table needs at least one human seat")
        return cfg

    def to_json(self, *, private: bool = True) -> dict[str, Any]:
        """The configuration as stored (``private``: with the bots' seed)."""
        out: dict[str, Any] = {
            "preset": self.preset, "rules": dict(self.overrides),
            "seats": [s.to_json() for s in self.seats], "single_hand": self.single_hand,
            "clock": self.clock.to_json() if self.clock else None, "grace": self.grace,
            "replacement": self.replacement}
        if private:
            out["bot_seed"] = self.bot_seed
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableConfig:
        """A stored configuration (trusted: written by :meth:`to_json`)."""
        clock = data.get("clock")
        return cls(data["preset"], dict(data["rules"]),
                   tuple(SeatConfig(s["kind"], s["spec"], s.get("name")) for s in data["seats"]),
                   data["single_hand"],
                   ClockConfig(clock["per_move"], clock["bank"]) if clock else None,
                   data["grace"], data["replacement"], data.get("bot_seed", 0))


def table_request(form: dict[str, str]) -> dict[str, Any]:
    """The lobby's form as the JSON of ``POST /api/tables`` (:class:`ConfigError` if bad).

    >>> table_request({"preset": "classic", "seat0": "human", "seat1": "bot:easy",
    ...                "seat2": "none", "match_target": "50"})["rules"]
    {'match_target': 50}
    """
    rules: dict[str, Any] = {}
    for line in form.get("rules", "").splitlines():
        if not line.strip():
            continue
        name, sep, raw = line.partition("=")
        if not sep or not name.strip():
            raise ConfigError("rules", f"{line.strip()!r:.60} is not NAME=VALUE")
        try:
            rules[name.strip()] = json.loads(raw)
        except ValueError:
            rules[name.strip()] = raw.strip()
    target = form.get("match_target", "").strip()
    if target:
        if not target.isdigit():
            raise ConfigError("match_target", f"{target[:12]!r} is not a whole number")
        rules["match_target"] = int(target)
    seats = [form.get(f"seat{i}", "none") for i in range(4)]
    data: dict[str, Any] = {"preset": form.get("preset", "classic"), "rules": rules,
                            "seats": [s for s in seats if s != "none"],
                            "single_hand": form.get("single_hand") == "1"}
    per_move, bank = form.get("per_move", "").strip(), form.get("bank", "").strip()
    if per_move or bank:
        try:
            data["clock"] = {"per_move": float(per_move or 0), "bank": float(bank or 0)}
        except ValueError:
            raise ConfigError("clock", "seconds must be numbers") from None
    return data


def new_bot_seed() -> int:
    """A fresh secret seed for a table's bots."""
    return secrets.randbits(63)


def _seat(value: Any, where: str, engines: Mapping[str, str]) -> SeatConfig:
    name = None
    if isinstance(value, Mapping):
        kind = value.get("kind")
        raw_name = value.get("name")
        if raw_name is not None:
            if not isinstance(raw_name, str) or len(raw_name) > 40:
                raise ConfigError(f"{where}.name", "must be a string of 40 characters at most")
            name = raw_name
        spec = value.get("level") if kind == "bot" else value.get("engine")
    elif isinstance(value, str):
        kind, _, spec = value.partition(":")
    else:
        raise ConfigError(where, "must be human, bot:LEVEL, engine:NAME or an object")
    if kind == "human":
        return SeatConfig("human", "", name)
    if kind == "bot":
        if spec not in LEVELS:
            raise ConfigError(where, f"unknown bot level {spec!r:.40} (one of "
                                     f"{', '.join(LEVELS)})")
        return SeatConfig("bot", str(spec), name)
    if kind == "engine":
        if spec not in engines:
            offered = ", ".join(engines) or "none: the operator offers no engine"
            raise ConfigError(where, f"unknown engine {spec!r:.40} ({offered})")
        return SeatConfig("engine", str(spec), name)
    raise ConfigError(where, f"unknown seat kind {kind!r:.40} (human, bot or engine)")


def _clock(value: Any) -> ClockConfig | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ConfigError("clock", "must be null or {\"per_move\": SECONDS, \"bank\": SECONDS}")
    out = []
    for key in ("per_move", "bank"):
        v = value.get(key, 0)
        if isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v <= 86_400:
            raise ConfigError(f"clock.{key}", "must be 0 to 86400 seconds")
        out.append(float(v))
    if out[0] + out[1] <= 0:
        raise ConfigError("clock", "per_move and bank cannot both be 0")
    return ClockConfig(out[0], out[1])


__all__ = ["ClockConfig", "ConfigError", "SeatConfig", "Settings", "TableConfig", "table_request"]
