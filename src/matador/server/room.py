"""A live table in this process: the referee, its stored steps, its clients and its driver.

A :class:`Room` holds one :class:`~matador.table.referee.Table` and never
decides a rule itself: every move goes through :meth:`Table.submit`, every
hand through :meth:`Table.deal` (with a provably fair deal, :mod:`.fair`),
every chat line, presence change or contribution through
:meth:`Table.add_event`, so each client sees one versioned event sequence,
and every message to a client is built from :meth:`Event.for_recipient`
and :func:`~matador.table.snapshot.snapshot` for that client alone.

Each input to the referee is a *step* (``deal``, ``move``, ``event``,
``forfeit``), applied in memory, then stored (:class:`~.db.Writer`), and
only then acknowledged and sent to clients; a step the database refuses
(another process stored one at the same place) is undone by rebuilding the
table from the database. Rebuilding replays the stored steps in order, so
the events and their versions are the same as before a crash.

The room's state beyond the referee (names, presence, the deal waiting for
contributions, mutes, bots standing in for absent people, clocks) is read
from the events by :meth:`Room._absorb`, the same way live and on rebuild.
A driver task per room does what the table waits for: a bot's move (in the
process pool), the commitment and the deal of the next hand, a bot standing
in for a person absent on their turn after the grace period, a move on a
spent clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from matador.core.state import Deal
from matador.server.chat import ChatError, clean_text, phrase_text
from matador.server.config import TableConfig
from matador.server.connection import Conn
from matador.server.db import StepWrite, TableRows
from matador.server.fair import FairError, FairProof, commitment, derive_deal, parse_contribution
from matador.server.protocol import (
    CLOSE_TAKEN_OVER,
    PROTOCOL_VERSION,
    ClientMessage,
    ProtocolError,
    error_message,
)
from matador.table.events import SPECTATOR, Event
from matador.table.players import PlayerError
from matador.table.referee import Phase, Table, TableError
from matador.table.snapshot import brief_json, snapshot

if TYPE_CHECKING:
    from matador.server.hub import Hub

log = logging.getLogger("matador.server")

GAME_KINDS = frozenset({"match_start", "hand_start", "move", "hand_end", "match_end", "forfeit"})
"""Event kinds that change the position: a move chosen before the last of them is stale."""


def new_secret() -> bytes:
    """A fresh secret to commit to before a hand (32 bytes from :mod:`secrets`)."""
    return secrets.token_bytes(32)


def token_hash(token: str) -> str:
    """How a seat or spectator token is stored: its SHA-256 (hex)."""
    return hashlib.sha256(token.encode()).hexdigest()


def seat_seed(bot_seed: int, hand: int, ply: int, seat: int) -> int:
    """The seed of a bot's move: from the table's secret bot seed and the move's place."""
    digest = hashlib.sha256(f"{bot_seed}:{hand}:{ply}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass
class SeatState:
    """A seat as the room knows it."""

    kind: str
    spec: str
    token_hash: str | None
    name: str | None = None
    claimed: bool = False
    online: bool = False
    """As the event sequence says (all processes agree on it)."""


@dataclass
class Pending:
    """A deal that waits for the human seats' contributions."""

    hand: int
    commitment: str
    awaiting: list[int]
    contributions: dict[int, str | None] = field(default_factory=dict)
    since: float = field(default_factory=time.monotonic)
    secret: str | None = None
    """Known in the process that committed (else read from the database when dealing)."""

    def missing(self) -> list[int]:
        """Seats that have not contributed yet."""
        return [s for s in self.awaiting if s not in self.contributions]


class Room:
    """One table in this process (see the module docstring)."""

    def __init__(self, hub: Hub, rows: TableRows) -> None:
        self.hub = hub
        self.id: str = rows.row["id"]
        self.created: float = rows.row["created"]
        self.config = TableConfig.from_json(json.loads(rows.row["config"]))
        self.spectator_hash: str = rows.row["spectator_hash"]
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self.last_local = False
        """Whether this process stored the last step (else it came from another process)."""
        self.idle_since: float | None = None
        """Since when the game is over and nobody is connected (the hub unloads it later)."""
        self._build(rows)

    # -- building from stored steps -----------------------------------------------------------

    def _build(self, rows: TableRows) -> None:
        cfg = self.config
        self.seats = [SeatState(s["kind"], s["spec"], s["token_hash"], s.get("name"))
                      for s in rows.seats]
        self.table = Table(cfg.rules, cfg.players, single_hand=cfg.single_hand, meta={
            "table": self.id, "seats": [_seat_label(s) for s in cfg.seats]})
        self.game_version = self.table.version
        self.pending: Pending | None = None
        self.replaced: set[int] = set()
        self.marked = bool(rows.row.get("marked"))
        self.mutes: dict[int, set[int]] = {}
        self.rematch: set[int] = set()
        self.next_table: str | None = rows.row.get("next_table")
        now = time.monotonic()
        self.turn_started = now
        self.offline_since: dict[int, float] = {}
        self.banks: list[float] | None = (
            [cfg.clock.bank] * cfg.players if cfg.clock is not None else None)
        for step in rows.steps:
            self._replay_step(step.version, step.kind, step.data)
        # the server was down meanwhile: clocks and grace periods start again now
        self.turn_started = time.monotonic()
        for s in range(cfg.players):
            self.offline_since[s] = self.turn_started

    def _replay_step(self, version: int, kind: str, data: Mapping[str, Any]) -> list[Event]:
        if version != self.table.version + 1:
            raise RuntimeError(f"table {self.id}: stored step {version} does not follow "
                               f"version {self.table.version}")
        events = self._apply(kind, data)
        self._after(kind, data, events)
        return events

    def _apply(self, kind: str, data: Mapping[str, Any]) -> list[Event]:
        """Feed one step to the referee (raises :class:`TableError`, nothing changed)."""
        t = self.table
        if kind == "move":
            return t.submit(data["seat"], data["move"])
        if kind == "deal":
            deal = Deal.parse(data["deal"], t.rules, t.players)
            return t.deal(deal=deal, meta=data.get("meta"))
        if kind == "event":
            private = {int(k): v for k, v in (data.get("private") or {}).items()}
            audience = data.get("audience")
            return [t.add_event(data["kind"], data["public"], private, audience)]
        if kind == "forfeit":
            return t.forfeit(data["seat"], data["reason"], data["message"])
        raise RuntimeError(f"unknown step kind {kind!r}")

    def _after(self, kind: str, data: Mapping[str, Any], events: Iterable[Event]) -> None:
        """Update the room's own state after a step (live or replayed)."""
        if kind == "move" and self.banks is not None and data.get("banks") is not None:
            self.banks = [float(b) for b in data["banks"]]
        for e in events:
            self._absorb(e)

    def _absorb(self, e: Event) -> None:
        p = e.public
        kind = e.kind
        if kind in GAME_KINDS:
            self.game_version = e.version
            self.turn_started = time.monotonic()
        if kind == "hand_start":
            self.pending = None
        elif kind == "deal_commit":
            self.pending = Pending(p["hand"], p["commitment"], list(p["awaiting"]))
        elif kind == "contribution" and self.pending is not None:
            self.pending.contributions[p["seat"]] = p["value"]
        elif kind == "seat":
            s = self.seats[p["seat"]]
            s.name = p["name"]
            s.claimed = True
        elif kind == "presence":
            self.seats[p["seat"]].online = p["online"]
            if not p["online"]:
                self.offline_since[p["seat"]] = time.monotonic()
        elif kind == "replaced":
            self.replaced.add(p["seat"])
            self.marked = True
        elif kind == "returned":
            self.replaced.discard(p["seat"])
        elif kind == "mute":
            muted = self.mutes.setdefault(p["seat"], set())
            (muted.add if p["muted"] else muted.discard)(p["target"])
        elif kind == "rematch":
            self.rematch.add(p["seat"])
        elif kind == "next_table":
            self.next_table = p["table"]

    async def _reload(self) -> None:
        """Rebuild from the database (after a refused step, or a gap in notifications)."""
        rows = await asyncio.to_thread(self.hub.store.load, self.id)
        if rows is None:
            raise RuntimeError(f"table {self.id} vanished from the database")
        self._build(rows)
        self.last_local = False
        for conn in self.conns:
            conn.version = min(conn.version, self.table.version)
        self._flush()
        self.kick()

    async def catch_up(self, version: int | None = None) -> None:
        """Apply the steps other processes stored since this room's version (under the lock)."""
        if version is not None and version <= self.table.version:
            return
        found = await asyncio.to_thread(self.hub.store.steps_after, self.id, self.table.version)
        try:
            for step in found:
                self._replay_step(step.version, step.kind, step.data)
        except (RuntimeError, TableError):
            await self._reload()
            return
        if found:
            self.last_local = False
            self._heal_presence()
            self._flush()
            self.kick()

    def _heal_presence(self) -> None:
        """Another process said a seat went offline, but it is connected here: say online."""
        for s, seat in enumerate(self.seats):
            if not seat.online and any(c.seat == s for c in self.conns):
                self.hub.spawn(self._event_task("presence", {"seat": s, "online": True}))

    async def all_offline(self) -> None:
        """Say offline every seat the log shows online but no client of this process holds
        (after a restart of a single server)."""
        for s, seat in enumerate(self.seats):
            if seat.online and not any(c.seat == s for c in self.conns):
                with contextlib.suppress(ProtocolError):
                    await retrying(lambda s=s: self._depart(s))  # type: ignore[misc]

    async def _event_task(self, kind: str, public: dict[str, Any]) -> None:
        async with self.lock:
            with contextlib.suppress(ProtocolError):
                await self.event(kind, public)

    # -- steps ---------------------------------------------------------------------------

    async def step(self, kind: str, data: dict[str, Any], *,
                   secret: tuple[int, str] | None = None,
                   before_flush: Callable[[], None] | None = None) -> list[Event]:
        """Apply, store, then send one step (call with :attr:`lock` held).

        Raises :class:`ProtocolError` (the referee's code, ``conflict`` or
        ``internal``) with the table unchanged.
        """
        version = self.table.version + 1
        try:
            events = self._apply(kind, data)
        except TableError as e:
            raise ProtocolError(e.code, e.why, e.rule) from None
        move = None
        if kind == "move":
            pub = events[0].public
            data = {**data, "move": pub["id"], "hand": pub["hand"], "ply": pub["ply"]}
            move = (pub["hand"], pub["ply"], data["seat"], pub["id"])
        update: dict[str, Any] = {}
        if any(e.kind == "match_end" for e in events):
            update["status"] = "over"
        if any(e.kind == "replaced" for e in events):
            update["marked"] = True
        if any(e.kind == "next_table" for e in events):
            update["next_table"] = events[-1].public["table"]
        write = StepWrite(self.id, version, kind, data, move=move, secret=secret,
                          table_update=update or None, notify_version=self.table.version)
        try:
            stored = await self.hub.writer.write(write)
        except Exception as e:
            log.exception("table %s: storing step %d failed", self.id, version)
            await self._reload()
            raise ProtocolError("internal", f"the move could not be stored ({type(e).__name__})"
                                ) from None
        if not stored:
            await self._reload()
            raise ProtocolError("conflict", "another process stored a step at this version "
                                            "first; the table was reloaded")
        self.last_local = True
        self._after(kind, data, events)
        if before_flush is not None:
            before_flush()
        self._flush()
        self.kick()
        return events

    async def event(self, kind: str, public: dict[str, Any],
                    audience: Iterable[int] | None = None) -> Event:
        """Store a host event (chat, presence...) as a step (call with the lock held)."""
        data: dict[str, Any] = {"kind": kind, "public": public,
                                "audience": None if audience is None else sorted(audience)}
        return (await self.step("event", data))[0]

    # -- messages ----------------------------------------------------------------------------

    def room_info(self, recipient: int) -> dict[str, Any]:
        """What a client needs besides the game: seats, presence, the pending deal, clocks."""
        info: dict[str, Any] = {
            "table": self.id,
            "seats": [{"seat": i, "kind": s.kind, "name": s.name, "online": s.online,
                       "claimed": s.claimed, "bot": s.spec if s.kind != "human" else None,
                       "replaced": i in self.replaced}
                      for i, s in enumerate(self.seats)],
            "marked": self.marked,
            "next_table": self.next_table,
            "rematch": sorted(self.rematch),
        }
        p = self.pending
        info["fair"] = None if p is None else {
            "hand": p.hand, "commitment": p.commitment, "awaiting": p.missing(),
            "contributions": {str(k): v for k, v in sorted(p.contributions.items())}}
        clock = self.config.clock
        if clock is not None and self.banks is not None:
            remaining = None
            to_move = self.table.to_move
            if to_move is not None and self.seats[to_move].kind == "human":
                spent = time.monotonic() - self.turn_started
                remaining = max(0.0, clock.per_move + self.banks[to_move] - spent)
            info["clock"] = {"per_move": clock.per_move, "banks": [round(b, 1) for b in self.banks],
                             "to_move": to_move, "remaining": remaining}
        else:
            info["clock"] = None
        if recipient != SPECTATOR:
            info["muted"] = sorted(self.mutes.get(recipient, ()))
        return info

    def _flush(self) -> None:
        """Send every client the events it has not had, with its view and the room."""
        cache: dict[tuple[int, int], str] = {}
        top = self.table.version
        for conn in list(self.conns):
            if conn.version >= top or conn.closed:
                continue
            key = (conn.recipient, conn.version)
            text = cache.get(key)
            if text is None:
                text = json.dumps(self._events_message(conn.recipient, conn.version),
                                  separators=(",", ":"), ensure_ascii=False)
                cache[key] = text
            conn.send_text(text)
            conn.version = top

    def _events_message(self, recipient: int, since: int) -> dict[str, Any]:
        return {"type": "events", "version": self.table.version,
                "events": self.table.events_since(since, recipient),
                "view": brief_json(self.table, recipient), "room": self.room_info(recipient)}

    def _snapshot_message(self, recipient: int) -> dict[str, Any]:
        return {"type": "snapshot", "version": self.table.version,
                "snapshot": snapshot(self.table, recipient), "room": self.room_info(recipient)}

    # -- clients -------------------------------------------------------------------------------

    def authenticate(self, token: str) -> int | None:
        """The recipient a token opens (a seat, or :data:`SPECTATOR`), or ``None``."""
        h = token_hash(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and hmac.compare_digest(h, s.token_hash):
                return i
        if hmac.compare_digest(h, self.spectator_hash):
            return SPECTATOR
        return None

    async def join(self, conn: Conn, recipient: int, version: int | None) -> None:
        """Welcome a client: replay what it missed or send a snapshot; mark the seat online."""
        await self._welcome(conn, recipient, version)
        if conn.seat is not None:
            await retrying(lambda: self._arrive(conn))

    async def _welcome(self, conn: Conn, recipient: int, version: int | None) -> None:
        async with self.lock:
            if self.hub.multi:
                await self.catch_up()
            conn.recipient = recipient
            conn.seat = None if recipient == SPECTATOR else recipient
            if conn.seat is not None:
                for other in [c for c in self.conns if c.seat == conn.seat]:
                    other.send(error_message("taken_over", "this seat was opened elsewhere"))
                    other.close(CLOSE_TAKEN_OVER, "seat opened elsewhere")
                    self.conns.discard(other)
            conn.send({"type": "welcome", "protocol": PROTOCOL_VERSION, "table": self.id,
                       "you": conn.seat, "role": "spectator" if conn.seat is None else "seat",
                       "version": self.table.version})
            self._resync(conn, version)
            self.conns.add(conn)

    async def _arrive(self, conn: Conn) -> None:
        """The seat's person is here: claimed, named, online, back from a bot's stand-in."""
        async with self.lock:
            if self.hub.multi:
                await self.catch_up()
            assert conn.seat is not None
            seat = self.seats[conn.seat]
            name = conn.name or seat.name or f"Player {conn.seat + 1}"
            if not seat.claimed or (conn.name and conn.name != seat.name):
                await self.event("seat", {"seat": conn.seat, "name": name})
            if not seat.online:
                await self.event("presence", {"seat": conn.seat, "online": True})
            if conn.seat in self.replaced:
                await self.event("returned", {"seat": conn.seat})

    def _resync(self, conn: Conn, version: int | None) -> None:
        top = self.table.version
        limit = self.hub.settings.replay_limit
        if version is not None and 0 <= version <= top and top - version <= limit:
            conn.send(self._events_message(conn.recipient, version))
        else:
            conn.send(self._snapshot_message(conn.recipient))
        conn.version = top

    async def sync(self, conn: Conn, version: int) -> None:
        """A client asks again for what it missed since ``version``."""
        async with self.lock:
            self._resync(conn, version)

    async def leave(self, conn: Conn) -> None:
        """A client went away: the seat goes offline when it was its last connection."""
        async with self.lock:
            if conn not in self.conns:
                return
            self.conns.discard(conn)
        with contextlib.suppress(ProtocolError):
            await retrying(lambda: self._depart(conn.seat))

    async def _depart(self, s: int | None) -> None:
        async with self.lock:
            if self.hub.multi:
                await self.catch_up()
            if s is None or any(c.seat == s for c in self.conns) or not self.seats[s].online:
                return
            await self.event("presence", {"seat": s, "online": False})

    async def handle(self, conn: Conn, msg: ClientMessage) -> None:
        """Act on a joined client's message; an error goes back to that client only."""
        try:
            if msg.type == "move":
                await retrying(lambda: self._move(conn, msg))
            elif msg.type == "contribute":
                await retrying(lambda: self._contribute(conn, msg))
            elif msg.type == "chat":
                if not conn.chat.take():
                    raise ProtocolError("chat_flood", "too many chat lines; wait a few seconds")
                await retrying(lambda: self._chat(conn, msg))
            elif msg.type == "mute":
                await retrying(lambda: self._mute(conn, msg))
            elif msg.type == "rematch":
                await retrying(lambda: self._rematch(conn, msg))
            elif msg.type == "sync":
                await self.sync(conn, msg.fields["version"])
            elif msg.type == "ping":
                conn.send({"type": "pong", "ref": msg.ref, "version": self.table.version})
            elif msg.type == "hello":
                raise ProtocolError("already_joined", "this connection has already said hello")
        except ProtocolError as e:
            conn.send(error_message(e.code, e.why, rule=e.rule, ref=msg.ref,
                                    version=self.table.version))

    def _seat_of(self, conn: Conn) -> int:
        if conn.seat is None:
            raise ProtocolError("spectator", "a spectator cannot do this")
        return conn.seat

    async def _move(self, conn: Conn, msg: ClientMessage) -> None:
        seat = self._seat_of(conn)
        async with self.lock:
            if self.hub.multi:
                await self.catch_up()
            version = msg.fields["version"]
            if version > self.table.version:
                raise ProtocolError("bad_version", f"version {version} is newer than the "
                                                   f"table's ({self.table.version})")
            if version < self.game_version:
                raise ProtocolError("stale", f"the move was chosen at version {version}, but "
                                             f"the position changed at {self.game_version}")
            data: dict[str, Any] = {"seat": seat, "move": msg.fields["move"], "by": "person"}
            if self.banks is not None and self.config.clock is not None \
                    and self.table.to_move == seat:
                spent = time.monotonic() - self.turn_started
                banks = list(self.banks)
                banks[seat] = max(0.0, banks[seat] - max(0.0, spent - self.config.clock.per_move))
                data["banks"] = [round(b, 3) for b in banks]

            def ack() -> None:
                conn.send({"type": "ack", "ref": msg.ref, "version": self.table.version})

            await self.step("move", data, before_flush=ack)

    async def _contribute(self, conn: Conn, msg: ClientMessage) -> None:
        seat = self._seat_of(conn)
        async with self.lock:
            p = self.pending
            if (p is None or p.hand != msg.fields["hand"] or seat not in p.awaiting
                    or seat in p.contributions):
                raise ProtocolError("no_contribution_needed",
                                    f"no deal waits for seat {seat}'s contribution to hand "
                                    f"{msg.fields['hand']}")
            try:
                value = parse_contribution(msg.fields["value"])
            except FairError as e:
                raise ProtocolError("bad_contribution", str(e)) from None

            def ack() -> None:
                conn.send({"type": "ack", "ref": msg.ref, "version": self.table.version})

            data = {"kind": "contribution", "public": {"hand": p.hand, "seat": seat,
                                                      "value": value.hex()}, "audience": None}
            await self.step("event", data, before_flush=ack)

    async def _chat(self, conn: Conn, msg: ClientMessage) -> None:
        try:
            phrase = msg.fields["phrase"]
            text = phrase_text(phrase, conn.lang) if phrase else clean_text(msg.fields["text"])
        except ChatError as e:
            raise ProtocolError(e.code, str(e)) from None
        async with self.lock:
            if conn.seat is None:
                name = conn.name or "spectator"
                audience: list[int] = [SPECTATOR]
                channel = "spectators"
            else:
                name = self.seats[conn.seat].name or f"Player {conn.seat + 1}"
                audience = [s for s in range(self.table.players)
                            if conn.seat not in self.mutes.get(s, ())]
                channel = "players"
            await self.event("chat", {"seat": conn.seat, "name": name, "channel": channel,
                                      "text": text, "phrase": phrase}, audience)

    async def _mute(self, conn: Conn, msg: ClientMessage) -> None:
        seat = self._seat_of(conn)
        target = msg.fields["seat"]
        if not 0 <= target < self.table.players or target == seat:
            raise ProtocolError("bad_message", f"mute: seat must be another seat "
                                               f"(0..{self.table.players - 1})")
        async with self.lock:
            await self.event("mute", {"seat": seat, "target": target,
                                      "muted": msg.fields["muted"]}, [seat])

    async def _rematch(self, conn: Conn, msg: ClientMessage) -> None:
        seat = self._seat_of(conn)
        async with self.lock:
            if not self.table.is_over:
                raise ProtocolError("not_over", "the game is not over yet")
            if self.next_table is not None or seat in self.rematch:
                return
            await self.event("rematch", {"seat": seat})
            humans = [s for s, st in enumerate(self.seats) if st.kind == "human" and st.claimed]
            if all(s in self.rematch for s in humans):
                new_id = await self.hub.create_rematch(self)
                await self.event("next_table", {"table": new_id})

    # -- the driver ---------------------------------------------------------------------------

    def start(self) -> None:
        """Start the driver task."""
        if self._driver is None:
            self._driver = asyncio.get_running_loop().create_task(self._drive(),
                                                                  name=f"room-{self.id}")

    async def stop(self) -> None:
        """Stop the driver and close every client."""
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._driver
            self._driver = None
        for conn in list(self.conns):
            conn.stop()
        self.conns.clear()

    def kick(self) -> None:
        """Tell the driver the table changed."""
        self._wake.set()

    def next_action(self, now: float) -> tuple[str, Any, float] | None:
        """What the table waits for: ``(action, argument, seconds from now)``, or ``None``."""
        t = self.table
        settings = self.hub.settings
        remote = 0.0 if self.last_local or not self.hub.multi else settings.takeover
        if t.is_over:
            return None
        if t.phase is Phase.WAITING:
            p = self.pending
            if p is None:
                return ("commit", None, remote)
            missing = p.missing()
            if not missing:
                return ("deal", None, remote)
            due = [when for when, _s in self._contributions_due(p, now)]
            if due:
                return ("skip", None, max(0.0, min(due) - now))
            return None
        s = t.to_move
        assert s is not None
        seat = self.seats[s]
        if seat.kind != "human" or s in self.replaced:
            return ("bot", s, remote)
        options: list[tuple[str, Any, float]] = []
        if not seat.online:
            since = max(self.turn_started, self.offline_since.get(s, now))
            options.append(("replace", s, since + self.config.grace - now))
        clock = self.config.clock
        if clock is not None and self.banks is not None:
            options.append(("timeout", s,
                            self.turn_started + clock.per_move + self.banks[s] - now))
        if not options:
            return None
        action = min(options, key=lambda o: o[2])
        return (action[0], action[1], max(0.0, action[2]))

    def _contributions_due(self, p: Pending, now: float) -> list[tuple[float, int]]:
        """``(when, seat)``: when each missing contribution of a seat someone has claimed
        is skipped. An absent person's waits ``contribution_wait`` from when they left (or
        from the commitment); a connected one's from the commitment, so that a client that
        never sends one (or whose contribution was lost) cannot stall the table."""
        wait = self.hub.settings.contribution_wait
        out = []
        for s in p.missing():
            seat = self.seats[s]
            if not seat.claimed:
                continue  # the first hand waits for every person to arrive
            start = p.since if seat.online else max(p.since, self.offline_since.get(s, now))
            out.append((start + wait, s))
        return out

    async def _drive(self) -> None:
        while True:
            self._wake.clear()
            todo = self.next_action(time.monotonic())
            if todo is None:
                await self._wake.wait()
                continue
            action, arg, delay = todo
            if delay > 0:
                try:
                    await asyncio.wait_for(self._wake.wait(), delay)
                    continue  # something changed: look again
                except TimeoutError:
                    pass
            try:
                await self._act(action, arg)
            except asyncio.CancelledError:
                raise
            except ProtocolError as e:
                log.info("table %s: %s refused: %s", self.id, action, e)
            except Exception:
                log.exception("table %s: %s failed", self.id, action)
                await asyncio.sleep(1.0)

    async def _act(self, action: str, arg: Any) -> None:
        if action == "bot":
            await self._bot_move(arg, "bot")
        elif action == "timeout":
            await self._bot_move(arg, "timeout")
        elif action == "replace":
            async with self.lock:
                if self.next_action(time.monotonic()) != ("replace", arg, 0.0):
                    return
                await self.event("replaced", {"seat": arg, "by": self.config.replacement,
                                              "reason": "absent"})
        elif action == "commit":
            async with self.lock:
                if self.pending is not None or self.table.phase is not Phase.WAITING:
                    return
                secret = new_secret()
                hand = self.table.hand_number + 1
                awaiting = self.config.human_seats()
                await self.step("event", {"kind": "deal_commit", "audience": None, "public": {
                    "hand": hand, "commitment": commitment(secret), "awaiting": awaiting,
                    "scheme": "matador-fair-v1"}}, secret=(hand, secret.hex()))
                if self.pending is not None:
                    self.pending.secret = secret.hex()
        elif action == "skip":
            async with self.lock:
                p = self.pending
                if p is None:
                    return
                now = time.monotonic()
                for when, s in self._contributions_due(p, now):
                    if when <= now:
                        await self.event("contribution", {
                            "hand": p.hand, "seat": s, "value": None,
                            "absent": not self.seats[s].online})
        elif action == "deal":
            async with self.lock:
                await self._deal()

    async def _deal(self) -> None:
        p = self.pending
        if p is None or p.missing() or self.table.phase is not Phase.WAITING:
            return
        secret = p.secret
        if secret is None:
            secret = await asyncio.to_thread(self.hub.store.secret, self.id, p.hand)
            if secret is None:
                raise RuntimeError(f"table {self.id}: the secret of hand {p.hand} is lost")
        proof = FairProof.make(bytes.fromhex(secret), {
            s: None if v is None else bytes.fromhex(v) for s, v in p.contributions.items()})
        deal = derive_deal(self.table.rules, self.table.players, proof.seed(),
                           self.table.next_leader)
        await self.step("deal", {"deal": deal.to_json(), "meta": {"fair": proof.to_json()}})

    async def _bot_move(self, seat: int, reason: str) -> None:
        async with self.lock:
            t = self.table
            if t.to_move != seat:
                return
            key = (t.hand_number, t.ply)
            view = t.view(seat)
            mask = t.legal_mask()
            st = self.seats[seat]
            spec = st.spec if st.kind != "human" else self.config.replacement
            engine = st.kind == "engine"
        seed = seat_seed(self.config.bot_seed, key[0], key[1], seat)
        error: PlayerError | None = None
        move = -1
        if not mask & (mask - 1) and not engine:
            move = mask.bit_length() - 1  # the lone legal move: no need to think
        else:
            try:
                if engine:
                    move = await self.hub.engine_move(self, seat, view, random.Random(seed))
                else:
                    move = await self.hub.think(spec, view, seed)
            except PlayerError as e:
                error = e
            except Exception as e:  # a broken bot is a fault of its seat
                error = PlayerError(f"{type(e).__name__}: {e}", "error")
        async with self.lock:
            t = self.table
            if (t.hand_number, t.ply) != key or t.to_move != seat:
                return
            if error is not None:
                await self.step("forfeit", {"seat": seat, "reason": error.kind,
                                            "message": str(error)})
                return
            data: dict[str, Any] = {"seat": seat, "move": move, "by": reason}
            if reason == "timeout" and self.banks is not None:
                banks = list(self.banks)
                banks[seat] = 0.0
                data["banks"] = banks
            try:
                await self.step("move", data)
            except ProtocolError as e:
                if e.code not in ("conflict",):
                    await self.step("forfeit", {"seat": seat, "reason": "illegal",
                                                "message": e.why})

    # -- reading ---------------------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """The table as the lobby shows it (no secret, no token)."""
        t = self.table
        return {"id": self.id, "config": self.config.to_json(private=False),
                "players": t.players, "phase": t.phase.value, "hand": t.hand_number,
                "scores": list(t.scores), "winner": t.winner, "end_reason": t.end_reason,
                "version": t.version, "marked": self.marked, "next_table": self.next_table,
                "seats": self.room_info(SPECTATOR)["seats"],
                "records": len(t.records)}

    def records_jsonl(self) -> str:
        """Every finished hand's record, one JSON line each (``matador replay --jsonl``)."""
        return "".join(r.dumps() + "\n" for r in self.table.records)


async def retrying(action: Callable[[], Awaitable[None]], attempts: int = 12) -> None:
    """Run ``action``, again when another process stored a step first (``conflict``): the
    room has been reloaded, and the action checks everything again (a move chosen before
    the other process's move is then ``stale``).

    Every conflict means the other process made progress, and it may store several steps
    in a row (a person arriving is a seat step and a presence step, then a contribution),
    so a few attempts are not enough; a short random pause between them keeps two
    processes from colliding in step again.
    """
    for attempt in range(attempts):
        try:
            await action()
            return
        except ProtocolError as e:
            if e.code != "conflict" or attempt == attempts - 1:
                raise
        await asyncio.sleep(random.uniform(0.0, 0.005 * (attempt + 1)))


def _seat_label(seat: Any) -> str:
    if seat.kind == "human":
        return "human"
    return f"{seat.kind}:{seat.spec}"


__all__ = ["GAME_KINDS", "Pending", "Room", "SeatState", "new_secret", "retrying", "seat_seed",
           "token_hash"]
