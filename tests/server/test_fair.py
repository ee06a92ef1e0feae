"""Fair deals (matador.server.fair): the derivation is a valid deal, deterministic, fed by
every contribution, and the checks catch a wrong secret, deal or leader."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matador.core.record import Record
from matador.core.rules import PRESETS, Rules
from matador.core.state import Deal, highest_double_leader
from matador.server.fair import (
    FairError,
    FairProof,
    commitment,
    derive_deal,
    derive_seed,
    parse_contribution,
    stream,
    uniform,
    verify_deal,
    verify_record,
)


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.sampled_from(PRESETS), st.integers(2, 4),
       st.lists(st.binary(min_size=16, max_size=64), max_size=4))
def test_a_derived_deal_is_a_valid_deal(secret: bytes, preset: str, players: int,
                                        values: list[bytes]) -> None:
    rules = Rules.from_preset(preset)
    if not rules.allows_players(players):
        return
    proof = FairProof.make(secret, dict(enumerate(values)))
    deal = derive_deal(rules, players, proof.seed(), None)
    # the record parser checks every tile once, the sizes, the set-aside (R1, R12)
    again = Deal.parse(deal.to_json(), rules, players)
    assert again == deal
    if rules.first_leader.value == "highest_double":  # R14
        assert deal.leader == highest_double_leader(deal.hands)
    assert derive_deal(rules, players, proof.seed(), None) == deal  # deterministic
    assert verify_deal(rules, players, proof, deal, first_hand=True) == []


def test_every_contribution_changes_the_seed() -> None:
    secret = bytes(32)
    base = derive_seed(secret, {0: bytes(16), 1: bytes(16)})
    assert derive_seed(secret, {0: bytes(16), 1: b"\x01" + bytes(15)}) != base
    assert derive_seed(secret, {0: bytes(16), 1: None}) != base
    assert derive_seed(b"\x01" + bytes(31), {0: bytes(16), 1: bytes(16)}) != base
    # a seat's value is bound to the seat: swapping two seats' values changes the seed
    a, b = bytes(16), b"\x02" * 16
    assert derive_seed(secret, {0: a, 1: b}) != derive_seed(secret, {0: b, 1: a})


def test_uniform_is_unbiased_and_in_range() -> None:
    draw = stream(b"uniform")
    counts = Counter(uniform(draw, 7) for _ in range(7000))
    assert set(counts) == set(range(7))
    assert max(counts.values()) - min(counts.values()) < 200


def test_the_checks_catch_tampering() -> None:
    rules = Rules.from_preset("classic")
    proof = FairProof.make(bytes(range(32)), {0: bytes(16)})
    deal = derive_deal(rules, 2, proof.seed(), None)
    wrong_secret = FairProof(proof.commitment, "00" * 32, proof.contributions)
    assert "the secret's SHA-256 is not the published commitment" in verify_deal(
        rules, 2, wrong_secret, deal, first_hand=True)
    swapped = Deal((deal.hands[1], deal.hands[0]), deal.boneyard, deal.set_aside, deal.leader)
    assert "the hands are not the ones the seed deals" in verify_deal(
        rules, 2, proof, swapped, first_hand=True)
    lot = Rules.from_preset("classic", {"first_leader": "lot"})
    by_lot = derive_deal(lot, 3, proof.seed(), None)
    other = Deal(by_lot.hands, by_lot.boneyard, by_lot.set_aside, (by_lot.leader + 1) % 3)
    assert any("lot" in p for p in verify_deal(lot, 3, proof, other, first_hand=True))
    record = Record(rules, deal, (), {"hand": 1, "fair": proof.to_json()})
    assert verify_record(record)["verified"] is True
    assert verify_record(Record(rules, deal, (), {"hand": 1}))["verified"] is False


def test_later_hands_take_the_leader_the_rules_give() -> None:
    rules = Rules.from_preset("classic")
    proof = FairProof.make(random.Random(1).randbytes(32), {})
    deal = derive_deal(rules, 3, proof.seed(), 2)
    assert deal.leader == 2
    assert verify_deal(rules, 3, proof, deal, first_hand=False) == []


@pytest.mark.parametrize("value", [None, 5, "", "ab", "zz" * 16, "0" * 31, "00" * 65])
def test_bad_contributions(value: object) -> None:
    with pytest.raises(FairError):
        parse_contribution(value)


def test_proof_json_round_trip_and_errors() -> None:
    proof = FairProof.make(bytes(32), {1: bytes(20), 2: None})
    assert FairProof.from_json(proof.to_json()) == proof
    assert commitment(bytes(32)) == proof.commitment
    for bad in ({}, {"scheme": "x"}, {**proof.to_json(), "secret": "zz"},
                {**proof.to_json(), "contributions": [{"seat": -1, "value": None}]},
                {**proof.to_json(), "contributions": "no"}):
        with pytest.raises(FairError):
            FairProof.from_json(bad)
