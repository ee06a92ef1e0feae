"""The referee (matador.table): refusals with stable codes, events per recipient, no leaks."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from lanes import classic_preset_fast
from matador.core.moves import DRAW, PASS, Move
from matador.core.record import parse_record, replay
from matador.core.rules import PRESETS, Rules
from matador.core.state import Deal
from matador.core.tiles import NAMES
from matador.table import SPECTATOR, Phase, Table, TableError, snapshot
from matador.table.referee import recipients

TILE = re.compile(r"(?<![\d-])(\d)-(\d)(?![\d-])")


def tiles_in(obj: Any) -> set[str]:
    """Every tile named anywhere in a JSON value (moves like L5-4 name tile 4-5), except the
    rule fact ``matadors`` (which tiles are matadors, not who holds them)."""
    if isinstance(obj, dict):
        return set().union(*(tiles_in(v) for k, v in obj.items() if k != "matadors"))
    if isinstance(obj, list):
        return set().union(*(tiles_in(v) for v in obj)) if obj else set()
    if isinstance(obj, str):
        return {f"{min(int(a), int(b))}-{max(int(a), int(b))}" for a, b in TILE.findall(obj)}
    return set()


def random_table(preset: str, players: int) -> Table:
    return Table(Rules.from_preset(preset), players, single_hand=True)


def play_randomly(table: Table, rng: random.Random, check: Any = None) -> None:
    while not table.is_over:
        events = table.deal(rng)
        if check:
            check(events)
        while table.phase is Phase.PLAYING:
            s = table.to_move
            assert s is not None
            events = table.submit(s, rng.choice(table.legal_moves(s)))
            if check:
                check(events)


# -- refusals ---------------------------------------------------------------------------------


def test_refusals_have_codes_and_change_nothing() -> None:
    table = Table(Rules.from_preset("classic"), 2)
    with pytest.raises(TableError) as e:
        table.submit(0, "draw")
    assert e.value.code == "no_hand"
    with pytest.raises(TableError) as e:
        table.view(0)
    assert e.value.code == "no_hand"
    table.deal(random.Random(3))
    mover = table.to_move
    assert mover is not None
    other = 1 - mover
    version, moves = table.version, table.truth().moves
    cases = [
        (other, "draw", "not_your_turn", ""),
        (2, "draw", "not_a_seat", ""),
        (-1, "draw", "not_a_seat", ""),
        (mover, "L9-9", "invalid_move", ""),
        (mover, 500, "invalid_move", ""),
        (mover, "draw", "illegal", "R15"),    # the leader must open (R15)
        (mover, "R3-4", "illegal", "R6"),     # the line is empty: open with a tile
    ]
    for seat, move, code, rule in cases:
        with pytest.raises(TableError) as e:
            table.submit(seat, move)
        assert e.value.code == code, (seat, move, e.value)
        if rule:
            assert e.value.rule == rule
        assert table.version == version and table.truth().moves == moves
    with pytest.raises(TableError) as e:
        table.deal(random.Random(1))
    assert e.value.code == "hand_in_play"


def test_a_given_deal_must_have_the_leader_the_rules_choose() -> None:
    rules = Rules.from_preset("classic")
    deal = Deal.random(rules, 2, random.Random(5))
    wrong = Deal(deal.hands, deal.boneyard, deal.set_aside, 1 - deal.leader)
    table = Table(rules, 2)
    with pytest.raises(TableError) as e:
        table.deal(deal=wrong)
    assert e.value.code == "bad_deal" and "R14" in e.value.why
    assert table.version == 1 and table.phase is Phase.WAITING
    table.deal(deal=deal)
    assert table.to_move == deal.leader


def test_moves_after_the_end_are_refused() -> None:
    table = random_table("classic", 2)
    play_randomly(table, random.Random(1))
    assert table.is_over and table.phase is Phase.OVER
    with pytest.raises(TableError) as e:
        table.submit(0, "draw")
    assert e.value.code == "game_over"
    with pytest.raises(TableError) as e:
        table.deal(random.Random(1))
    assert e.value.code == "game_over"


# -- events -----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_versions_are_contiguous_and_records_replay(preset: str) -> None:
    rules = Rules.from_preset(preset, {"match_target": 30})
    for players in range(rules.players[0], rules.players[1] + 1):
        table = Table(rules, players)
        play_randomly(table, random.Random(players))
        assert [e.version for e in table.events] == list(range(1, table.version + 1))
        kinds = [e.kind for e in table.events]
        assert kinds[0] == "match_start" and kinds[-1] == "match_end"
        assert kinds.count("hand_start") == kinds.count("hand_end") == len(table.records)
        total = [0] * players
        for record in table.records:
            again = parse_record(record.dumps())
            assert replay(again).result == record.to_json()["result"]
            total = [a + b for a, b in zip(total, replay(again).result["points"], strict=True)]
        assert list(table.scores) == total
        assert table.winner == max(range(players), key=lambda s: total[s])


def test_rebuilding_from_the_deals_and_moves_gives_the_same_events() -> None:
    """What a server does after a restart: deal + moves give the same versioned events."""
    rules = Rules.from_preset("russian", {"match_target": 40})
    table = Table(rules, 3)
    play_randomly(table, random.Random(9))
    again = Table(rules, 3)
    for record in table.records:
        again.deal(deal=record.deal)
        for m in record.moves:
            again.submit(again.to_move or 0, m)
    assert [e.for_recipient(r) for e in again.events for r in recipients(3)] == \
        [e.for_recipient(r) for e in table.events for r in recipients(3)]


def test_the_drawn_tile_is_private_to_the_drawer() -> None:
    table = random_table("classic", 3)
    rng = random.Random(2)
    seen = 0
    table.deal(rng)
    while not table.is_over:
        s = table.to_move
        assert s is not None
        legal = table.legal_moves(s)
        move = Move.DRAW if DRAW in legal else rng.choice(legal)
        for e in table.submit(s, move):
            if e.kind == "move" and e.public["move"] == "draw":
                seen += 1
                assert "tile" in e.for_recipient(s)
                for r in recipients(3):
                    if r != s:
                        assert "tile" not in e.for_recipient(r)
    assert seen > 0


def test_audience_events_are_bare_version_bumps_for_the_others() -> None:
    table = random_table("classic", 2)
    event = table.add_event("chat", {"text": "gg"}, audience=[0, 1])
    assert event.for_recipient(0)["text"] == "gg"
    assert event.for_recipient(SPECTATOR) == {"version": event.version, "kind": "hidden"}


def test_views_and_scores_in_a_match_and_in_a_single_hand() -> None:
    rules = Rules.from_preset("classic", {"match_target": 20})
    match = Table(rules, 2)
    match.deal(random.Random(4))
    assert match.view(0).scores == (0, 0) and match.view(0).leader_by_rule
    single = Table(rules, 2, single_hand=True)
    single.deal(random.Random(4))
    assert single.view(0).scores is None


# -- no leaks ---------------------------------------------------------------------------------


def _known_tiles(table: Table, recipient: int, known: dict[int, set[str]], events: Any) -> None:
    """Update what each recipient may know after ``events``, then check their messages."""
    for e in events:
        if e.kind == "hand_start":
            for r in known:
                known[r] = set()
            for s in range(table.players):
                known[s] |= set(e.private[s]["tiles"])
        elif e.kind == "move":
            if e.public["type"] == "play":
                for r in known:
                    known[r].add(e.public["tile"])
            elif e.public["move"] == "draw":
                known[e.public["seat"]].add(e.private[e.public["seat"]]["tile"])
        elif e.kind == "hand_end":
            for r in known:
                known[r] = {NAMES[t] for t in range(28)}
        for r in known:
            leaked = tiles_in(e.for_recipient(r)) - known[r]
            assert not leaked, (r, e.for_recipient(r), leaked)
    for r in known:
        snap = snapshot(table, r)
        leaked = tiles_in(json.loads(json.dumps(snap))) - known[r]
        assert not leaked, (r, snap, leaked)
        if r == SPECTATOR:
            assert "tiles" not in snap.get("position", {}) and "legal" not in snap.get(
                "position", {})


@pytest.mark.parametrize("preset", classic_preset_fast(PRESETS))
def test_no_recipient_ever_sees_a_tile_it_may_not_know(preset: str) -> None:
    rules = Rules.from_preset(preset, {"match_target": 25})
    rng = random.Random(11)
    for players in range(rules.players[0], rules.players[1] + 1):
        for _ in range(2):
            table = Table(rules, players)
            known: dict[int, set[str]] = {r: set() for r in recipients(players)}
            play_randomly(table, rng, lambda ev, t=table, k=known: _known_tiles(t, 0, k, ev))


def test_the_leak_checker_catches_a_leak() -> None:
    """The checker above is not vacuous: a snapshot with another seat's tiles fails it."""
    table = random_table("classic", 2)
    events = table.deal(random.Random(3))
    known: dict[int, set[str]] = {r: set() for r in recipients(2)}
    _known_tiles(table, 0, known, events)
    leaky = {"hand": events[0].private[1]["tiles"]}
    assert tiles_in(leaky) - known[0]


def test_seat_snapshot_has_the_legal_moves_a_client_can_render() -> None:
    table = random_table("classic", 2)
    table.deal(random.Random(5))
    s = table.to_move
    assert s is not None
    snap = snapshot(table, s)
    position = snap["position"]
    assert snap["you"] == s and position["to_move"] == s
    assert [m["move"] for m in position["legal"]] == [str(m) for m in table.legal_moves(s)]
    for m in position["legal"]:
        assert m["type"] == "play" and m["end"] is None and m["tile"] in position["tiles"]
    other = snapshot(table, 1 - s)
    assert other["position"]["legal"] == []
    table.submit(s, position["legal"][0]["id"])
    mover = table.to_move
    assert mover is not None
    legal = snapshot(table, mover)["position"]["legal"]
    assert legal and all(m["type"] in ("play", "draw", "pass") for m in legal)
    for m in legal:
        if m["type"] == "play":
            assert m["end"] in ("L", "R") and {"touch", "exposed", "matador"} <= set(m)
    assert [m["id"] for m in legal] == sorted(m["id"] for m in legal)
    assert all((m["id"] == PASS) == (m["type"] == "pass") for m in legal)
