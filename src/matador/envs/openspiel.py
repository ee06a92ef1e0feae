"""OpenSpiel's ``python_matador``: every preset, 2 to 4 players, with ``resample_from_infostate``.

Importing this module registers the game with ``pyspiel``::

    import pyspiel
    import matador.envs.openspiel
    game = pyspiel.load_game("python_matador", {"players": 3, "preset": "six",
                                                "rules": '{"draw": "until_playable"}'})

Parameters: ``players`` (2..4), ``preset`` (a preset name or alias),
``rules`` (a JSON object of RULES.md parameter overrides, ``""`` for none)
and ``utility`` (``win``: 1 to the winner, ``-1/(players-1)`` to each other
seat, 0 to all without a winner; ``points``: a seat's points minus the mean
of the others'). One game is one hand.

The tree. Chance deals the hands one tile at a time (seat 0's tiles first),
then, under ``first_leader = lot``, chooses the leader; player actions are
the 128 move ids of :mod:`matador.envs.encoding`. Every draw is the
player's action ``draw`` (id 126), legal when R16 forces it or R15's option
allows it, followed by a chance node whose outcome is the tile drawn,
uniform over the tiles no one has seen (boneyard and set-aside alike, which
deals exactly like a shuffled boneyard). A forced draw is not skipped over
automatically: the other players could then tell a forced draw (a chance
node at once) from a chosen one (an action) before seeing either, which
breaks the information sets that ``resample_from_infostate`` must respect.
Everything else (legality, scoring, the end of the hand) is the core's
:class:`~matador.core.state.HandState`.

What a player knows. ``information_state_string/tensor`` hold the player's
dealt tiles, the leader and every move with the mover (its own draws name
the tile); ``observation_string/tensor`` hold the standard observation of
:mod:`matador.envs.encoding` (the tensor is exactly the Gymnasium and
PettingZoo one). :meth:`MatadorState.resample_from_infostate` draws a state
with the same information state for the player, uniformly among the deals
consistent with everything it has seen (forced draws and passes included),
with the core's exact :class:`~matador.core.sampling.WorldSampler`; that is
what OpenSpiel's ISMCTS needs (:mod:`matador.envs.spielbots` has the bots).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from matador.core.errors import MatadorError
from matador.core.moves import (
    DRAW,
    MOVE_END,
    MOVE_NAMES,
    MOVE_TILE,
    NUM_MOVES,
    PLAY_BASE,
)
from matador.core.rules import FirstLeader, Rules, resolve_preset
from matador.core.sampling import sampler_for
from matador.core.state import Deal, HandState, highest_double_leader, move_ids
from matador.core.tables import tables_for
from matador.core.tiles import ALL_TILES, NAMES, NUM_TILES, PIPS, TILES, iter_bits, tiles_of
from matador.core.view import PlayerView
from matador.envs.encoding import Encoder, PublicTrack, encoder_for
from matador.envs.episode import Reward, reward_of, utilities

__all__ = [
    "DEFAULT_PARAMS",
    "GAME_TYPE",
    "MatadorGame",
    "MatadorObserver",
    "MatadorState",
    "check_resample",
    "max_moves",
]

DEFAULT_PARAMS: dict[str, Any] = {"players": 2, "preset": "classic", "rules": "",
                                  "utility": "win"}
"""The game's parameters and their defaults."""

GAME_TYPE = pyspiel.GameType(
    short_name="python_matador",
    long_name="Python Matador (the matador package's rules core)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)

_KINDS = 5  # history slot: opening, left, right, draw, pass
MAX_REJECTIONS = 10_000
"""Worlds drawn at most to find one where a seat waiting for its draw could draw."""


def max_moves(rules: Rules, players: int) -> int:
    """An upper bound on the moves (plays, draws, passes) of one hand.

    Plays: at most the tiles in play. Draws: at most the boneyard. A pass
    either follows a draw in the same turn (R16 ``one``, R15's option) or
    comes with an empty boneyard, where at most ``players - 1`` passes
    separate two plays before the hand is blocked (R19).
    """
    plays = NUM_TILES - rules.set_aside
    draws = plays - players * rules.hand_size_for(players)
    return plays + 2 * draws + (players - 1) * (plays + 1)


class _Setup:
    """The game's fixed facts, shared (never copied) by its states."""

    def __init__(self, rules: Rules, players: int, reward: Reward) -> None:
        self.rules = rules
        self.players = players
        self.reward = reward
        self.hand_size = rules.hand_size_for(players)
        self.boneyard = NUM_TILES - rules.set_aside - players * self.hand_size
        self.encoder: Encoder = encoder_for(rules, players)
        self.max_moves = max_moves(rules, players)
        self.lot = rules.first_leader is FirstLeader.LOT

    def __deepcopy__(self, memo: dict[int, Any]) -> _Setup:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_setup_from_json, (json.dumps(self.rules.to_json()), self.players,
                                   self.reward.value))


def _setup_from_json(rules: str, players: int, reward: str) -> _Setup:
    data = json.loads(rules)
    return _Setup(Rules.from_preset(data["preset"], data["overrides"]), players, Reward(reward))


def _parse_params(params: Mapping[str, Any] | None) -> _Setup:
    p = dict(DEFAULT_PARAMS)
    p.update(params or {})
    for key in p:
        if key not in DEFAULT_PARAMS:
            raise MatadorError(f"python_matador: unknown parameter {key!r} "
                               f"(known: {', '.join(DEFAULT_PARAMS)})")
    overrides: Any = {}
    if p["rules"]:
        try:
            overrides = json.loads(p["rules"])
        except (TypeError, ValueError):
            raise MatadorError(f"python_matador: rules {p['rules']!r} is not a JSON object "
                               "of parameter overrides") from None
    rules = Rules.from_preset(resolve_preset(str(p["preset"])), overrides)
    players = p["players"]
    rules.check_players(players)
    if p["utility"] not in ("win", "points"):
        raise MatadorError(f"python_matador: utility {p['utility']!r} is not 'win' or 'points'")
    return _Setup(rules, players, reward_of(p["utility"]))


class MatadorGame(pyspiel.Game):  # type: ignore[misc]
    """The game ``python_matador`` (see the module docstring)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        setup = _parse_params(params)
        self.setup = setup
        rules = setup.rules
        n = setup.players
        if setup.reward is Reward.WIN:
            low, high = -1.0 / (n - 1), 1.0
        else:
            plays = NUM_TILES - rules.set_aside
            bound = (sum(PIPS) + plays * (abs(rules.per_join) + abs(rules.per_matador)
                                          + abs(rules.exposed_target_bonus))
                     + abs(rules.pass_penalty) * setup.max_moves)
            low, high = -2.0 * bound, 2.0 * bound
        chance_nodes = n * setup.hand_size + (1 if setup.lot else 0) + setup.boneyard
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_MOVES,
            max_chance_outcomes=NUM_TILES,
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=chance_nodes + setup.max_moves,
        )
        super().__init__(GAME_TYPE, info, {**DEFAULT_PARAMS, **(params or {})})

    def new_initial_state(self) -> MatadorState:
        """The empty table, before the deal."""
        return MatadorState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, Any] | None = None) -> MatadorObserver:
        """An observer: the observation (default) or, with perfect recall, the information state."""
        return MatadorObserver(self.setup, iig_obs_type, params)


class _Hand:
    """The mutable facts of one state; copied cheaply (OpenSpiel deep-copies state attributes)."""

    __slots__ = ("core", "dealt", "drawn", "hist", "leader", "pending", "setup", "track",
                 "views")

    def __init__(self, setup: _Setup) -> None:
        self.setup = setup
        self.dealt: list[list[int]] = [[] for _ in range(setup.players)]
        self.leader = -1
        self.core: HandState | None = None
        self.track: PublicTrack | None = None
        self.drawn: list[int] = []
        """Tiles drawn so far, in order (the boneyard's first tiles)."""
        self.hist: list[tuple[int, int, int]] = []
        """Each move: (seat, move id, tile drawn or -1)."""
        self.pending = False
        """A draw is waiting for its chance outcome."""
        self.views: dict[int, PlayerView] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Hand:
        new = object.__new__(_Hand)
        new.setup = self.setup
        new.dealt = [d[:] for d in self.dealt]
        new.leader = self.leader
        new.core = self.core.copy() if self.core is not None else None
        new.track = self.track.copy() if self.track is not None else None
        new.drawn = self.drawn[:]
        new.hist = self.hist[:]
        new.pending = self.pending
        new.views = {}
        return new

    def __getstate__(self) -> dict[str, Any]:
        return {"setup": self.setup, "dealt": self.dealt, "leader": self.leader,
                "drawn": self.drawn, "hist": self.hist, "pending": self.pending}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.setup = data["setup"]
        self.dealt = data["dealt"]
        self.leader = data["leader"]
        self.drawn = data["drawn"]
        self.hist = data["hist"]
        self.pending = data["pending"]
        self.views = {}
        self.core = None
        self.track = None
        if self.leader >= 0:
            self.core = self._replay(len(self.drawn))
            self.track = PublicTrack.of(self.core)

    # -- phases ------------------------------------------------------------

    def dealing(self) -> bool:
        return self.leader < 0

    def undealt(self) -> int:
        mask = ALL_TILES
        for hand in self.dealt:
            for t in hand:
                mask &= ~(1 << t)
        return mask

    def pool(self) -> int:
        """Tiles no one has seen: the rest of the boneyard and the set-aside tiles."""
        mask = self.undealt()
        for t in self.drawn:
            mask &= ~(1 << t)
        return mask

    def deal_tile(self, t: int) -> None:
        setup = self.setup
        for hand in self.dealt:
            if len(hand) < setup.hand_size:
                hand.append(t)
                break
        if all(len(h) == setup.hand_size for h in self.dealt) and not setup.lot:
            self.leader = highest_double_leader(self.dealt)
            self._start()

    def set_leader(self, seat: int) -> None:
        self.leader = seat
        self._start()

    def _deal(self, drawn: Sequence[int]) -> Deal:
        setup = self.setup
        rest = list(iter_bits(self.undealt() & ~sum(1 << t for t in drawn)))
        bone = list(drawn) + rest[:setup.boneyard - len(drawn)]
        aside = rest[setup.boneyard - len(drawn):]
        return Deal(tuple(tuple(TILES[t] for t in h) for h in self.dealt),
                    tuple(TILES[t] for t in bone), tuple(TILES[t] for t in aside), self.leader)

    def _start(self) -> None:
        self.core = HandState(self.setup.rules, self._deal(()))
        self.track = PublicTrack.of(self.core)

    def _replay(self, draws: int) -> HandState:
        """The core state after the moves, with the first ``draws`` drawn tiles known."""
        state = HandState(self.setup.rules, self._deal(self.drawn[:draws]))
        for _, m, _ in self.hist:
            state.push(m)
        return state

    def play(self, m: int) -> None:
        core = self.core
        track = self.track
        assert core is not None and track is not None
        if m == DRAW:
            self.pending = True
            return
        track.update(core.to_move, m, core.left, core.right, core.drawn)
        self.hist.append((core.to_move, m, -1))
        core.push(m)

    def draw(self, t: int) -> None:
        core = self.core
        track = self.track
        assert core is not None and track is not None
        self.drawn.append(t)
        seat = core.to_move
        left, right, drawn = core.left, core.right, core.drawn
        state = self._replay(len(self.drawn))
        track.update(seat, DRAW, left, right, drawn)
        self.hist.append((seat, DRAW, t))
        state.push(DRAW)
        self.core = state
        self.pending = False

    def sample_deal(self, seat: int, rng: random.Random) -> Deal:
        """A deal drawn uniformly among those consistent with what ``seat`` knows.

        That another seat chose ``draw`` and waits for its tile is public
        too: its hand holds no tile it would have had to play (R15, R16).
        The core's view learns that from the draw move only, so worlds
        breaking it are rejected here (exact: the uniform law restricted to
        the worlds that keep it).
        """
        sampler = sampler_for(self.view(seat))
        core = self.core
        assert core is not None
        if not self.pending or core.to_move == seat:
            return sampler.sample_deal(rng)
        drawer = core.to_move
        tb = tables_for(self.setup.rules)
        void = tb.forced_free(core.left, core.right, tb.optional)
        for _ in range(MAX_REJECTIONS):
            world = sampler.sample(rng)
            if not world.hands[drawer] & void:
                return world.deal
        raise MatadorError(f"no world in {MAX_REJECTIONS} where seat {drawer} may draw")

    def view(self, seat: int) -> PlayerView:
        view = self.views.get(seat)
        if view is None:
            assert self.core is not None
            view = self.views[seat] = PlayerView.of(self.core, seat)
        return view


class MatadorState(pyspiel.State):  # type: ignore[misc]
    """One node of ``python_matador`` (see the module docstring)."""

    def __init__(self, game: MatadorGame) -> None:
        super().__init__(game)
        self._hand = _Hand(game.setup)

    # -- the OpenSpiel API -------------------------------------------------------

    def current_player(self) -> int:
        """The seat to move, or CHANCE during the deal and draws, or TERMINAL."""
        h = self._hand
        core = h.core
        if core is None or h.pending:
            return int(pyspiel.PlayerId.CHANCE)
        if core.outcome is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return core.to_move

    def _legal_actions(self, player: int) -> list[int]:
        core = self._hand.core
        assert core is not None and player == core.to_move
        return list(move_ids(core.legal_mask()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Deal or draw: every unseen tile, uniformly; the leader by lot: every seat."""
        h = self._hand
        if h.core is None and all(len(d) == h.setup.hand_size for d in h.dealt):
            n = h.setup.players
            return [(s, 1.0 / n) for s in range(n)]
        tiles = list(iter_bits(h.undealt() if h.core is None else h.pool()))
        p = 1.0 / len(tiles)
        return [(t, p) for t in tiles]

    def _apply_action(self, action: int) -> None:
        h = self._hand
        h.views = {}
        a = int(action)
        if h.core is None:
            if all(len(d) == h.setup.hand_size for d in h.dealt):
                h.set_leader(a)
            else:
                h.deal_tile(a)
        elif h.pending:
            h.draw(a)
        else:
            h.play(a)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            h = self._hand
            if h.core is None and all(len(d) == h.setup.hand_size for d in h.dealt):
                return f"leader {action}"
            verb = "deal" if h.core is None else "draw"
            return f"{verb} {NAMES[action]}"
        return MOVE_NAMES[action]

    def is_terminal(self) -> bool:
        """Whether the hand is over (R18, R19)."""
        core = self._hand.core
        return core is not None and core.outcome is not None

    def returns(self) -> list[float]:
        """Each seat's utility at the end (0 before)."""
        h = self._hand
        core = h.core
        if core is None or core.outcome is None:
            return [0.0] * h.setup.players
        return utilities(h.setup.reward, core.outcome.winner, core.outcome.points)

    def __str__(self) -> str:
        h = self._hand
        hands = " / ".join(" ".join(NAMES[t] for t in sorted(d)) for d in h.dealt)
        if h.core is None:
            return f"dealing: {hands}"
        core = h.core
        held = " / ".join(" ".join(NAMES[t] for t in tiles_of(m)) for m in core.hands)
        moves = " ".join(f"{s}:{MOVE_NAMES[m]}" + (f"({NAMES[t]})" if t >= 0 else "")
                         for s, m, t in h.hist)
        tail = " pending draw" if h.pending else ""
        return (f"dealt: {hands} | leader {h.leader} | moves: {moves}{tail} | held: {held} "
                f"| boneyard {core.boneyard_size}")

    # -- our additions -------------------------------------------------------

    @property
    def hand_state(self) -> HandState | None:
        """The core state of the hand (hidden information: for tests and referees only)."""
        return self._hand.core

    def view(self, player: int) -> PlayerView:
        """``player``'s :class:`PlayerView` (after the deal), what our bots are given."""
        h = self._hand
        if h.core is None:
            raise MatadorError("the hand is still being dealt: there is no view yet")
        return h.view(player)

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> MatadorState:
        """A state with the same information state for ``player_id``, hidden parts redrawn.

        Uniform over the deals consistent with everything the player has
        seen (:class:`~matador.core.sampling.WorldSampler`); the randomness
        comes from ``probability_sampler`` (a ``pyspiel`` sampler or any
        function returning floats in [0, 1)).
        """
        rng = random.Random(int(probability_sampler() * 2**32) << 32
                            | int(probability_sampler() * 2**32))
        h = self._hand
        game = self.get_game()
        new: MatadorState = game.new_initial_state()
        n = h.setup.players
        if h.core is None:  # mid-deal: the others' tiles so far are any unseen ones
            own = h.dealt[player_id]
            others = [t for t in range(NUM_TILES) if t not in own]
            rng.shuffle(others)
            it = iter(others)
            for s in range(n):
                for t in (own if s == player_id else [next(it) for _ in h.dealt[s]]):
                    new.apply_action(t)
            if h.leader >= 0:
                new.apply_action(h.leader)
            return new
        deal = h.sample_deal(player_id, rng)
        for s in range(n):
            for t in (h.dealt[s] if s == player_id else deal.hands[s]):
                new.apply_action(int(t))
        if h.setup.lot:
            new.apply_action(h.leader)
        k = 0
        for _, m, _ in h.hist:
            new.apply_action(m)
            if m == DRAW:
                new.apply_action(int(deal.boneyard[k]))
                k += 1
        if h.pending:
            new.apply_action(DRAW)
        return new


class MatadorObserver:
    """Observation or information state tensor and string (OpenSpiel's ``PyObserver``).

    Without perfect recall: the standard observation of
    :mod:`matador.envs.encoding` (``dict`` holds its pieces). With perfect
    recall, a ``history`` piece follows: one row per move (up to
    :func:`max_moves`): the mover counted from the player (one-hot), the
    kind (opening, left, right, draw, pass) and the tile laid, or drawn by
    the player itself.
    """

    def __init__(self, setup: _Setup, iig_obs_type: Any, params: Mapping[str, Any] | None
                 ) -> None:
        if params:
            raise MatadorError(f"python_matador observers take no parameters, got {params!r}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise MatadorError("python_matador observes one player's private and public "
                               "information only (private_info=SINGLE_PLAYER, public_info=True)")
        self.setup = setup
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        n = setup.players
        enc = setup.encoder
        self.row = n + _KINDS + NUM_TILES
        size = enc.size + (setup.max_moves * self.row if self.perfect_recall else 0)
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        for name, (lo, hi) in enc.offsets.items():
            self.dict[name] = self.tensor[lo:hi]
        if self.perfect_recall:
            self.dict["history"] = self.tensor[enc.size:].reshape(setup.max_moves, self.row)

    def set_from(self, state: MatadorState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s view of ``state``."""
        h = state._hand
        setup = self.setup
        enc = setup.encoder
        out = self.tensor[:enc.size]
        core = h.core
        n = setup.players
        if core is None:
            self.tensor.fill(0.0)
            own = sum(1 << t for t in h.dealt[player])
            enc.encode(out, player, own, 0, [ALL_TILES & ~own] * (n - 1), -1, -1, -1,
                       h.leader, False, [len(d) for d in h.dealt], 0, [0] * n, None)
            return
        assert h.track is not None
        enc.encode_state(out, core, h.track, player)
        if not self.perfect_recall:
            return
        rows = self.dict["history"]
        rows.fill(0.0)
        for i, (s, m, t) in enumerate(h.hist):
            row = rows[i]
            row[(s - player) % n] = 1.0
            if m < PLAY_BASE:
                kind, tile = 0, m
            elif m < DRAW:
                kind, tile = 1 + MOVE_END[m], MOVE_TILE[m]
            elif m == DRAW:
                kind, tile = 3, t if s == player else -1
            else:
                kind, tile = 4, -1
            row[n + kind] = 1.0
            if tile >= 0:
                row[n + _KINDS + tile] = 1.0

    def string_from(self, state: MatadorState, player: int) -> str:
        """``player``'s information state (perfect recall) or observation, as text."""
        h = state._hand
        own = " ".join(NAMES[t] for t in sorted(h.dealt[player]))
        if self.perfect_recall:
            moves = " ".join(
                f"{s}:draw {NAMES[t]}" if m == DRAW and s == player else f"{s}:{MOVE_NAMES[m]}"
                for s, m, t in h.hist
            )
            pending = ""
            if h.pending and h.core is not None:
                pending = f" | seat {h.core.to_move} draws"
            return f"p{player} | dealt {own} | leader {h.leader} | {moves}{pending}"
        core = h.core
        if core is None:
            return f"p{player} | dealing | hand {own}"
        assert h.track is not None
        hand = " ".join(NAMES[t] for t in tiles_of(core.hands[player]))
        n = h.setup.players
        unseen = ALL_TILES & ~(core.hands[player] | core.played)
        ends = "-" if core.left < 0 else f"{core.left}|{core.right}"
        over = core.outcome is not None
        parts = [
            f"p{player}", f"hand {hand}", f"ends {ends}", f"boneyard {core.boneyard_size}",
            "held " + " ".join(str(x.bit_count()) for x in core.hands),
            "points " + " ".join(str(x) for x in core.points),
            f"to move {-1 if over else core.to_move}" + (" drawn" if core.drawn and not over
                                                         else ""),
            "played " + " ".join(NAMES[t] for t in tiles_of(core.played)),
        ]
        for i in range(1, n):
            s = (player + i) % n
            might = h.track.might_hold(player, s, unseen)
            parts.append(f"seat {s} may hold " + " ".join(NAMES[t] for t in tiles_of(might)))
        if h.pending:
            parts.append("drawing")
        return " | ".join(parts)


def check_resample(state: MatadorState, player: int, sampler: Callable[[], float],
                   samples: int = 1) -> None:
    """Assert the resample invariant for ``player`` at ``state``; raise ``AssertionError`` if not.

    Each resampled state must give ``player`` the same information state
    string and tensor, observation string and tensor, the same current
    player, and (when the player is to move) the same legal actions; and it
    must be a state of the game (it was built by applying legal actions).
    """
    game = state.get_game()
    info = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    obs = game.make_py_observer()
    info.set_from(state, player)
    obs.set_from(state, player)
    want = (info.string_from(state, player), obs.string_from(state, player),
            info.tensor.copy(), obs.tensor.copy(), state.current_player())
    to_move = state.current_player() == player
    legal = state.legal_actions(player) if to_move else []
    for _ in range(samples):
        other = state.resample_from_infostate(player, sampler)
        info.set_from(other, player)
        obs.set_from(other, player)
        got = (info.string_from(other, player), obs.string_from(other, player),
               info.tensor, obs.tensor, other.current_player())
        assert got[0] == want[0], f"information state differs:\n{got[0]}\n{want[0]}"
        assert got[1] == want[1], f"observation differs:\n{got[1]}\n{want[1]}"
        assert np.array_equal(got[2], want[2]), "information state tensor differs"
        assert np.array_equal(got[3], want[3]), "observation tensor differs"
        assert got[4] == want[4], f"current player {got[4]} != {want[4]}"
        if to_move:
            assert other.legal_actions(player) == legal, "legal actions differ"


pyspiel.register_game(GAME_TYPE, MatadorGame)
