"""What every bot is: a policy over one seat's :class:`PlayerView`, with a budget.

Bots never receive the full state: :meth:`Bot.choose` takes a
:class:`~matador.core.view.PlayerView` and refuses anything else. Randomness
is injected (``rng``), so a bot is deterministic for a given seed and
iteration budget. The one exception is :class:`OracleBot` (the ``cheater``),
a measuring stick that the arena alone feeds the true state.

>>> import random
>>> from matador.core.rules import Rules
>>> from matador.core.state import HandState
>>> from matador.core.view import PlayerView
>>> state = HandState.new(Rules.from_preset("classic"), 2, random.Random(1))
>>> bot = make_bot("greedy")
>>> bot.choose(PlayerView.of(state, state.to_move), random.Random(2)) in state.legal_moves
True
>>> bot.choose(state, random.Random(2))
Traceback (most recent call last):
...
TypeError: bots see a PlayerView, never the full state (got HandState)
"""

from __future__ import annotations

import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import ClassVar

from matador.core.errors import MatadorError, quote
from matador.core.moves import MOVES, Move
from matador.core.state import HandState
from matador.core.view import PlayerView


class BotError(MatadorError):
    """An unknown bot name, strength level or budget."""


SAMPLING_GRACE_MS = 500.0
"""How long past its time budget a search may still look for a sampled world, in ms: half
the 1000 ms a host waits beyond ``movetime`` (PROTOCOL.md)."""


@dataclass(frozen=True)
class Budget:
    """How long a search may think: milliseconds, iterations, or both (whichever ends first).

    >>> Budget.parse("500ms"), Budget.parse("2000it"), Budget.parse("1.5s")
    (Budget(millis=500.0, iterations=None), Budget(millis=None, iterations=2000), \
Budget(millis=1500.0, iterations=None))
    """

    millis: float | None = None
    iterations: int | None = None

    @classmethod
    def parse(cls, text: str) -> Budget:
        """Read ``500ms``, ``1.5s``, ``2000it`` (or ``2000``), or several joined by ``+``."""
        millis: float | None = None
        iterations: int | None = None
        for part in text.split("+"):
            m = re.fullmatch(r"\s*([0-9]{1,15}(?:\.[0-9]{1,15})?)\s*(ms|s|it|)\s*", part,
                             re.ASCII)
            if not m:
                raise BotError(f"{quote(text)} is not a budget (e.g. 500ms, 1s, 2000it)")
            value, unit = float(m.group(1)), m.group(2)
            if value <= 0:
                raise BotError(f"{quote(text)}: a budget must be positive")
            if unit == "ms":
                millis = value
            elif unit == "s":
                millis = value * 1000
            elif value != int(value):
                raise BotError(f"{quote(text)}: iterations are a whole number (e.g. 500it)")
            else:
                iterations = int(value)
        return cls(millis, iterations)

    def __str__(self) -> str:
        parts = []
        if self.millis is not None:
            parts.append(f"{self.millis:g}ms")
        if self.iterations is not None:
            parts.append(f"{self.iterations}it")
        return "+".join(parts)

    def clock(self) -> Callable[[int], bool]:
        """A function ``done(iterations_so_far)`` that says when the budget is spent."""
        limit = self.iterations
        deadline = None if self.millis is None else time.perf_counter() + self.millis / 1000
        if limit is None and deadline is None:
            limit = 1

        def done(i: int) -> bool:
            if limit is not None and i >= limit:
                return True
            return deadline is not None and i > 0 and time.perf_counter() >= deadline

        return done

    def give_up(self, grace: float = SAMPLING_GRACE_MS) -> Callable[[], bool]:
        """A function that turns true ``millis + grace`` ms from now (``grace`` without a time
        limit): how long a search may look for sampled worlds.

        A search samples its first world even past its time (:meth:`clock` allows
        one iteration); this bounds that wait, so that a view no deal can produce
        is found impossible within the budget and the grace a host allows. Once a
        world is found the view is possible: a search with a time limit goes on
        looking only within it, one without looks as long as it needs, so that
        an iteration budget gives the same search on any machine.
        """
        limit = time.perf_counter() + ((self.millis or 0.0) + grace) / 1000
        return lambda: time.perf_counter() >= limit


class Bot(ABC):
    """A player: picks a legal move for the seat of a view.

    Subclasses implement :meth:`_choose`; :meth:`choose` checks that it was
    given a view of a position where that seat is to move.
    """

    kind: ClassVar[str] = "bot"
    """The command-line name of this kind of bot."""
    default_budget: ClassVar[Budget | None] = None

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget if budget is not None else self.default_budget
        self.last_search: object | None = None
        """What the last search found (search bots set it; ``None`` for the others)."""

    @property
    def name(self) -> str:
        """The spec that rebuilds this bot (``pimc:500ms``)."""
        return f"{self.kind}:{self.budget}" if self.budget is not None and \
            self.budget != self.default_budget else self.kind

    def choose(self, view: PlayerView, rng: Random) -> Move:
        """The move this bot plays for ``view.seat``; ``view`` must be a :class:`PlayerView`."""
        if not isinstance(view, PlayerView):
            raise TypeError(f"bots see a PlayerView, never the full state "
                            f"(got {type(view).__name__})")
        if view.to_move != view.seat:
            raise BotError(f"seat {view.seat} is not to move")
        ids = view.legal_move_ids()
        if len(ids) == 1:
            return MOVES[ids[0]]
        return MOVES[self._choose(view, ids, rng)]

    @abstractmethod
    def _choose(self, view: PlayerView, legal: tuple[int, ...], rng: Random) -> int:
        """Pick one of ``legal`` (at least two move ids)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class OracleBot(Bot):
    """A bot that may also be given the true state (the ``cheater``), for measurement only."""

    def choose_with_truth(self, state: HandState, rng: Random) -> Move:
        """The move for the seat to move in ``state``, knowing every hand."""
        view = PlayerView.of(state, state.to_move)
        ids = view.legal_move_ids()
        if len(ids) == 1:
            return MOVES[ids[0]]
        return MOVES[self._choose_truth(state, view, ids, rng)]

    @abstractmethod
    def _choose_truth(self, state: HandState, view: PlayerView, legal: tuple[int, ...],
                      rng: Random) -> int:
        """Pick one of ``legal`` knowing ``state``."""

    def _choose(self, view: PlayerView, legal: tuple[int, ...], rng: Random) -> int:
        raise BotError("the cheater needs the true state: only the arena can run it")


_REGISTRY: dict[str, Callable[[Budget | None], Bot]] = {}

LEVELS: dict[str, str] = {}
"""Strength levels for play: level name to bot spec (filled in by :mod:`matador.players`)."""


def register(kind: str, factory: Callable[[Budget | None], Bot]) -> None:
    """Make a bot kind known to :func:`make_bot`."""
    _REGISTRY[kind] = factory


def bot_kinds() -> list[str]:
    """The registered bot kinds, in registration order."""
    return list(_REGISTRY)


def register_loader(kind: str, factory: Callable[[str], Bot]) -> None:
    """Make a bot kind known whose spec argument is text, not a budget (``policy:FILE``).

    Optional parts (:mod:`matador.envs.policy`) register themselves on import;
    :func:`make_bot` imports them through the ``matador.bots`` entry points
    of the installed packages, so this module never names them.
    """
    _LOADERS[kind] = factory


_LOADERS: dict[str, Callable[[str], Bot]] = {}
BOT_ENTRY_POINTS = "matador.bots"
"""The entry point group naming modules that register bot kinds when imported."""


def _load_plugin(kind: str) -> None:
    from importlib.metadata import entry_points

    for point in entry_points(group=BOT_ENTRY_POINTS, name=kind):
        try:
            point.load()
        except ImportError as e:
            raise BotError(f"bot {quote(kind)} needs a part that is not installed ({e.name}): "
                           "pip install 'matador[rl]'") from None


def make_bot(spec: str, *, oracles: bool = True) -> Bot:
    """Build a bot from ``kind[:budget]`` (``pimc:500ms``, ``ismcts:2000it``), a level name
    with or without a budget (``strong``, ``strong:200ms``: the level's bot at that budget),
    or ``kind:ARGUMENT`` for a kind registered with :func:`register_loader` (``policy:FILE``).
    With ``oracles=False`` (where an :class:`OracleBot` cannot play: an engine, a game) the
    error for an unknown bot does not offer the oracles; the caller refuses them.

    >>> make_bot("strong:200ms").name == LEVELS["strong"].partition(":")[0] + ":200ms"
    True
    """
    spec = spec.strip()
    if spec in LEVELS:
        spec = LEVELS[spec]
    kind, _, budget = spec.partition(":")
    if kind in LEVELS and kind not in _REGISTRY:  # a level given its own budget
        kind = LEVELS[kind].partition(":")[0]
    if kind not in _REGISTRY and kind not in _LOADERS:
        _load_plugin(kind)
    if kind in _LOADERS:
        if not budget:
            raise BotError(f"bot {quote(kind)} needs an argument: {kind}:FILE")
        return _LOADERS[kind](budget)
    if kind not in _REGISTRY:
        kinds = [k for k, f in _REGISTRY.items()
                 if oracles or not (isinstance(f, type) and issubclass(f, OracleBot))]
        known = ", ".join([*kinds, *_LOADERS, *LEVELS])
        raise BotError(f"unknown bot {quote(kind)} (one of {known})")
    return _REGISTRY[kind](Budget.parse(budget) if budget else None)
