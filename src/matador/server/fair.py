"""Provably fair deals: a committed server secret, the players' contributions, one shuffle.

Neither the server nor any one player picks a deal:

1. before a hand the server draws a 32-byte ``secret`` and publishes its
   ``commitment``, ``SHA-256(secret)`` (hex);
2. every human seat's client then sends a random ``contribution`` (16 to
   64 bytes, hex), seen by everyone;
3. the shuffle's seed is ``SHA-256("matador-fair-v1" 0x00 secret
   [seat contribution_length contribution]...)`` over the contributions in
   seat order (one byte each for the seat and the length);
4. the tiles ``0-0, 0-1, ... 6-6`` are shuffled by Fisher-Yates with numbers
   drawn from the seed (:func:`stream`, :func:`uniform`), then laid out as
   every deal is (R12): the ``set_aside`` tiles first, then each seat's hand
   in seat order, then the boneyard in draw order; the leader is the one the
   rules give (R14, R23), drawn from the same stream after the shuffle when
   the first hand is led by lot;
5. when the hand ends, the secret is revealed in the hand's record
   (``meta.fair``), and anyone can check the commitment and re-derive the
   deal (:func:`verify_record`, ``matador verify``).

The server cannot steer a deal once it has committed, and a player who sends
its contribution last cannot either: it does not know the secret. The scheme
uses only SHA-256 and integer arithmetic, so it can be checked in any
language from this description.

>>> from matador.core.rules import Rules
>>> secret = bytes(range(32))
>>> proof = FairProof.make(secret, {0: bytes(16), 1: None})
>>> proof.commitment == commitment(secret)
True
>>> deal = derive_deal(Rules.from_preset("classic"), 2, proof.seed(), leader=None)
>>> sorted(t for hand in deal.hands for t in hand) == sorted(deal.hands[0] + deal.hands[1])
True
>>> verify_deal(Rules.from_preset("classic"), 2, proof, deal, first_hand=True)
[]
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from matador.core.errors import MatadorError
from matador.core.record import Record
from matador.core.rules import FirstLeader, Rules
from matador.core.state import Deal, Seat, highest_double_leader
from matador.core.tiles import NUM_TILES, Tile

SCHEME = "matador-fair-v1"
"""The name of this scheme, written into every proof and hashed into every seed."""
SECRET_BYTES = 32
"""The size of the server's secret."""
MIN_CONTRIBUTION = 16
"""The shortest contribution a client may send, in bytes (128 bits)."""
MAX_CONTRIBUTION = 64
"""The longest contribution a client may send, in bytes."""


class FairError(MatadorError):
    """A contribution or proof that cannot be used (bad hex, wrong size, missing field)."""


def commitment(secret: bytes) -> str:
    """The published commitment to ``secret``: its SHA-256, as lowercase hex.

    >>> commitment(b"")[:16]
    'e3b0c44298fc1c14'
    """
    return hashlib.sha256(secret).hexdigest()


def parse_contribution(value: object) -> bytes:
    """A client's contribution: a hex string of 16 to 64 bytes; else :class:`FairError`.

    >>> parse_contribution("00" * 16) == bytes(16)
    True
    >>> parse_contribution("abc")
    Traceback (most recent call last):
    ...
    matador.server.fair.FairError: a contribution is 32 to 128 hex digits, not 'abc'
    """
    text = value if isinstance(value, str) else ""
    ok = (isinstance(value, str) and 2 * MIN_CONTRIBUTION <= len(text) <= 2 * MAX_CONTRIBUTION
          and len(text) % 2 == 0)
    if ok:
        try:
            return bytes.fromhex(text)
        except ValueError:
            pass
    raise FairError(f"a contribution is {2 * MIN_CONTRIBUTION} to {2 * MAX_CONTRIBUTION} "
                    f"hex digits, not {value!r:.40}")


def derive_seed(secret: bytes, contributions: Mapping[Seat, bytes | None]) -> bytes:
    """The shuffle's seed from the secret and the contributions (``None``: none came)."""
    h = hashlib.sha256(SCHEME.encode() + b"\0" + secret)
    for seat in sorted(contributions):
        value = contributions[seat]
        if value is not None:
            h.update(bytes([seat, len(value)]) + value)
    return h.digest()


def stream(seed: bytes) -> Iterator[int]:
    """The bytes drawn from ``seed``: ``SHA-256(seed || counter)`` for counter 0, 1, 2...
    (8 bytes, big-endian), concatenated."""
    counter = 0
    while True:
        yield from hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
        counter += 1


def uniform(draw: Iterator[int], n: int) -> int:
    """A number in ``0..n-1`` from the byte stream ``draw``, without bias: 4 bytes read as a
    big-endian integer ``u``, rejected while ``u >= n * (2**32 // n)``, then ``u % n``."""
    limit = (1 << 32) // n * n
    while True:
        u = int.from_bytes(bytes(next(draw) for _ in range(4)), "big")
        if u < limit:
            return u % n


def shuffle(seed: bytes) -> list[Tile]:
    """The 28 tiles in the order ``seed`` shuffles them to (Fisher-Yates, last place first).

    >>> len(set(shuffle(b"x"))) == 28
    True
    """
    return _shuffle(stream(seed))


def _shuffle(draw: Iterator[int]) -> list[Tile]:
    tiles = [Tile(t) for t in range(NUM_TILES)]
    for i in range(NUM_TILES - 1, 0, -1):
        j = uniform(draw, i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


def derive_deal(rules: Rules, players: int, seed: bytes, leader: Seat | None) -> Deal:
    """The deal ``seed`` gives (see the module docstring).

    ``leader`` is the seat the rules give the hand (:attr:`Table.next_leader
    <matador.table.referee.Table.next_leader>`), or ``None`` for the first
    hand: the holder of the best tile (R14), or a seat drawn by lot.
    """
    rules.check_players(players)
    draw = stream(seed)
    tiles = _shuffle(draw)
    k = rules.set_aside
    size = rules.hand_size_for(players)
    end = k + players * size
    hands = tuple(tuple(tiles[i:i + size]) for i in range(k, end, size))
    if leader is None:
        if rules.first_leader is FirstLeader.LOT:
            leader = uniform(draw, players)
        else:
            leader = highest_double_leader(hands)
    return Deal(hands, tuple(tiles[end:]), tuple(tiles[:k]), leader)


@dataclass(frozen=True)
class FairProof:
    """What a hand's record carries in ``meta.fair``: enough to check its deal."""

    commitment: str
    """``SHA-256(secret)``, published before the hand."""
    secret: str
    """The secret, as hex (revealed with the hand's record when it ends)."""
    contributions: tuple[tuple[Seat, str | None], ...]
    """Each human seat and its contribution as hex (``None``: it sent none in time)."""

    @classmethod
    def make(cls, secret: bytes, contributions: Mapping[Seat, bytes | None]) -> FairProof:
        """The proof of a deal shuffled from ``secret`` and ``contributions``."""
        return cls(commitment(secret), secret.hex(),
                   tuple((s, None if v is None else v.hex())
                         for s, v in sorted(contributions.items())))

    def seed(self) -> bytes:
        """The shuffle's seed (:func:`derive_seed`)."""
        return derive_seed(bytes.fromhex(self.secret), {
            s: None if v is None else bytes.fromhex(v) for s, v in self.contributions})

    def to_json(self) -> dict[str, Any]:
        """The ``meta.fair`` object of a record."""
        return {"scheme": SCHEME, "commitment": self.commitment, "secret": self.secret,
                "contributions": [{"seat": s, "value": v} for s, v in self.contributions]}

    @classmethod
    def from_json(cls, data: object) -> FairProof:
        """Read a ``meta.fair`` object; :class:`FairError` names what is missing or wrong."""
        if not isinstance(data, Mapping):
            raise FairError("meta.fair must be an object")
        if data.get("scheme") != SCHEME:
            raise FairError(f"meta.fair.scheme is {data.get('scheme')!r}, not {SCHEME!r}")
        values: list[str] = []
        for key in ("commitment", "secret"):
            value = data.get(key)
            if not isinstance(value, str):
                raise FairError(f"meta.fair.{key} must be a hex string")
            try:
                bytes.fromhex(value)
            except ValueError:
                raise FairError(f"meta.fair.{key} is not hex: {value!r:.80}") from None
            values.append(value)
        raw = data.get("contributions")
        if not isinstance(raw, list):
            raise FairError("meta.fair.contributions must be a list")
        contributions: list[tuple[Seat, str | None]] = []
        for i, item in enumerate(raw):
            seat = item.get("seat") if isinstance(item, Mapping) else None
            value = item.get("value") if isinstance(item, Mapping) else None
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 256:
                raise FairError(f"meta.fair.contributions[{i}].seat must be a seat number")
            if value is not None:
                try:
                    parse_contribution(value)
                except FairError as e:
                    raise FairError(f"meta.fair.contributions[{i}].value: {e}") from None
            contributions.append((seat, value))
        return cls(values[0], values[1], tuple(contributions))


def verify_deal(rules: Rules, players: int, proof: FairProof, deal: Deal, *,
                first_hand: bool) -> list[str]:
    """What is wrong with ``deal`` as the deal of ``proof`` (empty: it checks out).

    The commitment must be the secret's SHA-256, and the deal must be the one
    the seed gives: same hands, set-aside tiles and boneyard order. The
    leader must be the stream's under R14 ``lot`` in a first hand, else it is
    the rules' and checked by the referee and by replay.
    """
    problems = []
    if not hmac.compare_digest(commitment(bytes.fromhex(proof.secret)), proof.commitment.lower()):
        problems.append("the secret's SHA-256 is not the published commitment")
    lot = first_hand and rules.first_leader is FirstLeader.LOT
    expected = derive_deal(rules, players, proof.seed(), None if lot else deal.leader)
    if expected.hands != deal.hands:
        problems.append("the hands are not the ones the seed deals")
    if expected.set_aside != deal.set_aside:
        problems.append("the set-aside tiles are not the ones the seed gives")
    if expected.boneyard != deal.boneyard:
        problems.append("the boneyard is not in the order the seed gives")
    if lot and expected.leader != deal.leader:
        problems.append(f"seat {deal.leader} leads, but the lot gives seat {expected.leader}")
    if not lot and first_hand and deal.leader != highest_double_leader(deal.hands):
        problems.append("the leader does not hold the best tile (R14)")
    return problems


def verify_record(record: Record) -> dict[str, Any]:
    """Check a hand's record: ``{"hand", "verified", "problems"}`` (see :func:`verify_deal`).

    A record without ``meta.fair`` does not verify (``problems`` says so).
    """
    meta = dict(record.meta or {})
    hand = meta.get("hand")
    out: dict[str, Any] = {"hand": hand}
    if "fair" not in meta:
        return {**out, "verified": False, "problems": ["the record has no meta.fair proof"]}
    try:
        proof = FairProof.from_json(meta["fair"])
    except FairError as e:
        return {**out, "verified": False, "problems": [str(e)]}
    problems = verify_deal(record.rules, record.players, proof, record.deal,
                           first_hand=record.led_by_rule)
    return {**out, "verified": not problems, "commitment": proof.commitment,
            "problems": problems}


__all__ = ["MAX_CONTRIBUTION", "MIN_CONTRIBUTION", "SCHEME", "SECRET_BYTES", "FairError",
           "FairProof", "commitment", "derive_deal", "derive_seed", "parse_contribution",
           "shuffle", "stream", "uniform", "verify_deal", "verify_record"]
