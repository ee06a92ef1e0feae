"""Rules as data: every parameter of RULES.md section 7 and the four presets.

A :class:`Rules` is frozen and names the preset it was built from, so a
record can write it back as ``{"preset": ..., "overrides": {...}}``.

>>> rules = Rules.from_preset("classic", {"draw": "one"})
>>> rules.draw, rules.overrides()
(<Draw.ONE: 'one'>, {'draw': 'one'})
>>> Rules.from_preset("six").hand_size_for(4)
7
>>> Rules.from_preset("classic", {"target": 13})
Traceback (most recent call last):
...
matador.core.errors.RulesError: rules.overrides.target: 13 is out of range (1..12)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any, Final

from matador.core.errors import RulesError, field_path, quote
from matador.core.tiles import NUM_TILES, matador_mask


class FirstLeader(StrEnum):
    """Who leads the first hand of a match (R14)."""

    HIGHEST_DOUBLE = "highest_double"
    LOT = "lot"


class Draw(StrEnum):
    """The draw policy (R16)."""

    UNTIL_PLAYABLE = "until_playable"
    ONE = "one"


class GoingOut(StrEnum):
    """What playing one's last tile does (R18)."""

    ENDS_HAND = "ends_hand"
    AFTER_BONEYARD = "after_boneyard"
    NEVER = "never"


class HandPoints(StrEnum):
    """Points scored at the end of a hand (R21)."""

    PIPS_TO_WINNER = "pips_to_winner"
    NONE = "none"


HandSize = int | tuple[tuple[int, int], ...]
"""One hand size for every player count, or ``((players, size), ...)`` pairs."""

PRESETS: Final = ("classic", "paluba", "russian", "six")
"""The preset names a record may use, in RULES.md order."""

#: Names a user interface also accepts for presets.
PRESET_ALIASES: Final[Mapping[str, str]] = {
    "spanish": "classic",
    "matador": "classic",
    "czech": "paluba",
    "six-matador": "six",
    "six_matador": "six",
    "sixes": "six",
}


@dataclass(frozen=True)
class Rules:
    """One rule set: a preset name plus the value of every parameter of RULES.md section 7.

    Build it with :meth:`from_preset` (validated); the constructor trusts its
    arguments. ``preset`` is the preset whose values the overrides change.
    """

    preset: str = "classic"
    """The preset this rule set starts from (one of :data:`PRESETS`)."""
    players: tuple[int, int] = (2, 4)
    """Inclusive range of player counts, within 2..4."""
    target: int = 7
    """What touching halves must add up to (R3), 1..12."""
    set_aside: int = 0
    """Tiles removed unseen before the deal (R12)."""
    hand_size: HandSize = 5
    """Tiles dealt to each player (R12): see :meth:`hand_size_for`."""
    first_leader: FirstLeader = FirstLeader.HIGHEST_DOUBLE
    """Leader of the first hand (R14)."""
    matador_anytime: bool = True
    """Whether a non-joining matador may be played when a joining play exists (R10)."""
    matador_optional: bool = True
    """Whether a player whose every legal play is a matador may draw instead (R15)."""
    draw: Draw = Draw.UNTIL_PLAYABLE
    """The draw policy (R16)."""
    going_out: GoingOut = GoingOut.ENDS_HAND
    """What playing one's last tile does (R18)."""
    hand_points: HandPoints = HandPoints.PIPS_TO_WINNER
    """End-of-hand points (R21)."""
    per_join: int = 0
    """Points for each joining play (R22)."""
    per_matador: int = 0
    """Points for each matador tile played, the opening included (R22)."""
    exposed_target_bonus: int = 0
    """Points for each non-opening play whose exposed half equals the target (R22)."""
    pass_penalty: int = 0
    """Points subtracted for each pass (R22)."""
    match_target: int = 100
    """A match ends once a total reaches this (R23); 0 plays a single hand."""
    matadors: int = field(default=0, init=False, repr=False, compare=False)
    """The mask of matador tiles (R4), derived from ``target``."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "matadors", matador_mask(self.target))

    @classmethod
    def from_preset(cls, preset: str = "classic", overrides: Mapping[str, Any] | None = None,
                    *, where: str = "rules") -> Rules:
        """The preset named ``preset`` with ``overrides`` applied, validated.

        ``overrides`` maps parameter names to JSON values (``"draw": "one"``,
        ``"hand_size": {"2": 7}``, ``"players": [2, 3]``). A wrong preset,
        name, type or range raises :class:`RulesError` naming it; ``where`` is
        the prefix used in that name (``rules`` in records).
        """
        if not isinstance(preset, str) or preset not in _PRESET_VALUES:
            raise RulesError(
                f"unknown preset {quote(preset)} (one of {', '.join(PRESETS)})", f"{where}.preset"
            )
        values = dict(_PRESET_VALUES[preset])
        if overrides is None:
            overrides = {}
        elif not isinstance(overrides, Mapping):
            raise RulesError("overrides must be an object", f"{where}.overrides")
        for name, value in overrides.items():
            if name not in _PARAMETERS:
                raise RulesError(
                    f"unknown parameter {quote(name)} (known: {', '.join(_PARAMETERS)})",
                    field_path(f"{where}.overrides", name),
                )
            values[name] = _PARAMETERS[name](value, f"{where}.overrides.{name}")
        return cls(preset=preset, **values)

    def with_overrides(self, overrides: Mapping[str, Any]) -> Rules:
        """A copy with more overrides applied on top of this rule set's own, validated."""
        merged = self.overrides()
        merged.update(overrides)
        return Rules.from_preset(self.preset, merged)

    def hand_size_for(self, players: int) -> int:
        """Tiles dealt to each of ``players`` players.

        Raises :class:`RulesError` when ``hand_size`` is an object that does not
        name ``players``.
        """
        if isinstance(self.hand_size, int):
            return self.hand_size
        for n, size in self.hand_size:
            if n == players:
                return size
        named = ", ".join(str(n) for n, _size in self.hand_size)
        raise RulesError(f"no hand size for {players} players (hand_size names {named})",
                         "players")

    def allows_players(self, players: int) -> bool:
        """Whether a hand for ``players`` players can be dealt under these rules.

        See :meth:`check_players`, which says why not.
        """
        try:
            self.check_players(players)
        except RulesError:
            return False
        return True

    def check_players(self, players: object) -> int:
        """Check that a hand for ``players`` players can be dealt (R12, R13, section 7).

        The count must be an integer in the ``players`` range, ``hand_size``
        must give a size for it, and the deal may not need more than the 28
        tiles of the set (``players`` x hand size + ``set_aside``). Rules are
        checked per deal: rules whose range holds a count that could not be
        dealt are valid, and only a deal for that count is refused. This is
        the one player-count check of the package; it raises
        :class:`RulesError` at ``players``.

        >>> rules = Rules.from_preset("classic", {"hand_size": 2, "set_aside": 24})
        >>> rules.check_players(2)
        2
        >>> try:
        ...     rules.check_players(3)
        ... except RulesError as e:
        ...     print(e.where, "|", e.why[:50])
        players | a deal for 3 players needs 3 x 2 tiles (hand_size)
        """
        lo, hi = self.players
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(f"{quote(players)} is not a number of players", "players")
        if not lo <= players <= hi:
            allowed = f"only {lo}" if lo == hi else f"{lo} to {hi}"
            raise RulesError(f"{quote(players)} players, but the rules allow {allowed}",
                             "players")
        size = self.hand_size_for(players)
        need = players * size + self.set_aside
        if need > NUM_TILES:
            raise RulesError(
                f"a deal for {players} players needs {players} x {size} tiles (hand_size) + "
                f"{self.set_aside} set aside (set_aside) = {need} tiles, more than the "
                f"{NUM_TILES} of the set", "players")
        return players

    def is_matador(self, tile: int) -> bool:
        """Whether ``tile`` is a matador under these rules (R4)."""
        return bool(self.matadors >> tile & 1)

    def parameters(self) -> dict[str, Any]:
        """Every parameter as its JSON value, in RULES.md order."""
        return {name: _to_json(getattr(self, name)) for name in _PARAMETERS}

    def overrides(self) -> dict[str, Any]:
        """The JSON values of the parameters that differ from the preset."""
        base = _PRESET_VALUES[self.preset]
        return {
            name: _to_json(getattr(self, name))
            for name in _PARAMETERS
            if getattr(self, name) != base[name]
        }

    def to_json(self) -> dict[str, Any]:
        """The ``rules`` object of a record: ``{"preset": ..., "overrides": {...}}``."""
        return {"preset": self.preset, "overrides": self.overrides()}

    def replace(self, **changes: Any) -> Rules:
        """A copy with some parameters changed (Python values), validated."""
        merged = self.overrides()
        merged.update({k: _to_json(v) for k, v in changes.items()})
        return Rules.from_preset(self.preset, merged)


def resolve_preset(name: str) -> str:
    """The preset name for ``name`` or one of its aliases (``spanish``, ``czech``...)."""
    key = name.strip().lower()
    if key in _PRESET_VALUES:
        return key
    if key in PRESET_ALIASES:
        return PRESET_ALIASES[key]
    known = ", ".join(list(PRESETS) + sorted(PRESET_ALIASES))
    raise RulesError(f"unknown preset {quote(name)} (one of {known})", "preset")


def _to_json(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        if value and isinstance(value[0], tuple):
            return {str(n): size for n, size in value}
        return list(value)
    return value


def _int(lo: int | None = None, hi: int | None = None) -> Any:
    def parse(value: Any, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"{quote(value)} is not an integer", where)
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            rng = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
            raise RulesError(f"{quote(value)} is out of range ({rng})", where)
        return value

    return parse


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise RulesError(f"{quote(value)} is not true or false", where)
    return value


def _enum(kind: type[Enum]) -> Any:
    def parse(value: Any, where: str) -> Enum:
        try:
            return kind(value)
        except ValueError:
            choices = ", ".join(repr(m.value) for m in kind)
            raise RulesError(f"{quote(value)} is not one of {choices}", where) from None

    return parse


def _players(value: Any, where: str) -> tuple[int, int]:
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
    ):
        raise RulesError(f"{quote(value)} is not a pair [min, max] of player counts", where)
    lo, hi = value
    if not 2 <= lo <= hi <= 4:
        raise RulesError(f"{quote(list(value))} must satisfy 2 <= min <= max <= 4", where)
    return (lo, hi)


def _hand_size(value: Any, where: str) -> HandSize:
    if isinstance(value, Mapping):
        pairs: list[tuple[int, int]] = []
        for key, size in value.items():
            if key not in ("2", "3", "4"):
                raise RulesError(f"{quote(key)} is not a player count ('2', '3' or '4')",
                                 field_path(where, key))
            pairs.append((int(key), _int(1)(size, f"{where}.{key}")))
        if not pairs:
            raise RulesError("an empty object gives no hand size", where)
        return tuple(sorted(pairs))
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(
            f"{quote(value)} is not a hand size (an integer, or an object such as {{\"2\": 7}})",
            where,
        )
    return _int(1)(value, where)  # type: ignore[no-any-return]


_PARAMETERS: Final[dict[str, Any]] = {
    "players": _players,
    "target": _int(1, 12),
    "set_aside": _int(0, NUM_TILES),
    "hand_size": _hand_size,
    "first_leader": _enum(FirstLeader),
    "matador_anytime": _bool,
    "matador_optional": _bool,
    "draw": _enum(Draw),
    "going_out": _enum(GoingOut),
    "hand_points": _enum(HandPoints),
    "per_join": _int(),
    "per_matador": _int(),
    "exposed_target_bonus": _int(),
    "pass_penalty": _int(),
    "match_target": _int(0),
}

#: Names of every rule parameter, in RULES.md order.
PARAMETERS: Final = tuple(_PARAMETERS)

_PRESET_VALUES: Final[dict[str, dict[str, Any]]] = {
    "classic": {
        "players": (2, 4), "target": 7, "set_aside": 0, "hand_size": 5,
        "first_leader": FirstLeader.HIGHEST_DOUBLE, "matador_anytime": True,
        "matador_optional": True, "draw": Draw.UNTIL_PLAYABLE,
        "going_out": GoingOut.ENDS_HAND, "hand_points": HandPoints.PIPS_TO_WINNER,
        "per_join": 0, "per_matador": 0, "exposed_target_bonus": 0, "pass_penalty": 0,
        "match_target": 100,
    },
    "paluba": {
        "players": (2, 2), "target": 7, "set_aside": 3, "hand_size": 3,
        "first_leader": FirstLeader.LOT, "matador_anytime": False,
        "matador_optional": False, "draw": Draw.UNTIL_PLAYABLE,
        "going_out": GoingOut.AFTER_BONEYARD, "hand_points": HandPoints.PIPS_TO_WINNER,
        "per_join": 0, "per_matador": 0, "exposed_target_bonus": 0, "pass_penalty": 0,
        "match_target": 100,
    },
    "russian": {
        "players": (2, 4), "target": 7, "set_aside": 0,
        "hand_size": ((2, 7), (3, 6), (4, 5)),
        "first_leader": FirstLeader.HIGHEST_DOUBLE, "matador_anytime": True,
        "matador_optional": True, "draw": Draw.ONE,
        "going_out": GoingOut.NEVER, "hand_points": HandPoints.PIPS_TO_WINNER,
        "per_join": 10, "per_matador": 0, "exposed_target_bonus": 0, "pass_penalty": 0,
        "match_target": 100,
    },
    "six": {
        "players": (2, 4), "target": 6, "set_aside": 0,
        "hand_size": ((2, 6), (3, 6), (4, 7)),
        "first_leader": FirstLeader.HIGHEST_DOUBLE, "matador_anytime": True,
        "matador_optional": True, "draw": Draw.ONE,
        "going_out": GoingOut.NEVER, "hand_points": HandPoints.NONE,
        "per_join": 1, "per_matador": 10, "exposed_target_bonus": 5, "pass_penalty": 6,
        "match_target": 100,
    },
}


def _check_presets() -> None:
    for name in PRESETS:
        Rules.from_preset(name)


_check_presets()
