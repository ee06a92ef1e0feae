"""What a host (the server) uses of the referee beyond play_game: the next leader for a
deal it shuffles itself (R14, R23), the cheap per-recipient brief, snapshots before the
first deal."""

from __future__ import annotations

import random

import pytest

from matador.core.rules import Rules
from matador.core.state import Deal
from matador.table import SPECTATOR, Table, TableError, brief_json, snapshot


def play_hand(table: Table) -> None:
    while table.to_move is not None:
        s = table.to_move
        table.submit(s, table.legal_moves(s)[0])


def test_next_leader_follows_r14_then_r23() -> None:
    table = Table(Rules.from_preset("classic"), 3)
    assert table.next_leader is None  # R14 chooses from the deal
    table.deal(random.Random(4))
    play_hand(table)
    record = table.records[-1]
    outcome = record.state().outcome
    assert outcome is not None
    expected = outcome.winner if outcome.winner is not None else (record.deal.leader + 1) % 3
    assert table.next_leader == expected  # R23
    deal = Deal.random(table.rules, 3, random.Random(9), leader=table.next_leader)
    table.deal(deal=deal)
    assert table.to_move == expected


def test_brief_is_what_the_view_says_and_only_that() -> None:
    table = Table(Rules.from_preset("russian"), 3, single_hand=True)
    assert table.brief(0) == {} and table.brief(SPECTATOR) == {}
    table.deal(random.Random(2))
    rng = random.Random(3)
    while table.to_move is not None:
        for r in (0, 1, 2):
            b = table.brief(r)
            view = table.view(r)
            assert b["tiles"] == [str(t) for t in view.hand]
            assert b["legal"] == list(view.legal_move_ids())
            assert b["hand_sizes"] == list(view.hand_sizes)
            assert b["boneyard"] == view.boneyard_size
        spectator = brief_json(table, SPECTATOR)
        assert "tiles" not in spectator and "legal" not in spectator
        s = table.to_move
        table.submit(s, rng.choice(table.legal_moves(s)))
    assert table.brief(0)["to_move"] is None and brief_json(table, 1)["phase"] == "over"
    with pytest.raises(TableError):
        table.brief(3)


def test_snapshot_before_the_first_deal() -> None:
    table = Table(Rules.from_preset("classic"), 2)
    out = snapshot(table, 1)
    assert out["phase"] == "waiting" and "position" not in out and out["you"] == 1
    assert snapshot(table, SPECTATOR)["you"] is None
    with pytest.raises(TableError):
        snapshot(table, 2)
