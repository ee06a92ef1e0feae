"""``matador deal``: new records (R12, R14) through the installed executable."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

#: (preset, players) -> (hand size, set aside), from the table of RULES.md section 7.
SIZES = {
    ("classic", 2): (5, 0), ("classic", 3): (5, 0), ("classic", 4): (5, 0),
    ("paluba", 2): (3, 3),
    ("russian", 2): (7, 0), ("russian", 3): (6, 0), ("russian", 4): (5, 0),
    ("six", 2): (6, 0), ("six", 3): (6, 0), ("six", 4): (7, 0),
}
ALL_TILES = sorted(f"{a}-{b}" for a in range(7) for b in range(a, 7))


def _r14_leader(hands: list[list[str]]) -> int:
    """R14 highest_double: the highest double's holder, else most pips, higher top half."""
    def rank(tile: str) -> tuple[int, int, int]:
        a, b = int(tile[0]), int(tile[2])
        return (1, a, 0) if a == b else (0, a + b, b)
    return max(range(len(hands)), key=lambda seat: max(rank(t) for t in hands[seat]))


def _deal(matador: Any, *args: str) -> dict[str, Any]:
    done = matador("deal", *args)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout.count("\n") == 1 and done.stdout.endswith("\n")
    record: dict[str, Any] = json.loads(done.stdout)
    return record


@pytest.mark.parametrize(("preset", "players"), list(SIZES))
def test_every_preset_and_player_count(matador: Any, preset: str, players: int) -> None:
    """A deal is a valid record with no moves that replays to the leader to move."""
    record = _deal(matador, "--preset", preset, "--players", str(players), "--seed", "11")
    assert list(record) == ["rules", "players", "deal", "moves"]  # no result
    assert record["rules"] == {"preset": preset, "overrides": {}}
    assert record["players"] == players
    assert record["moves"] == []
    deal = record["deal"]
    assert list(deal) == ["hands", "boneyard", "set_aside", "leader"]
    size, set_aside = SIZES[preset, players]
    assert [len(hand) for hand in deal["hands"]] == [size] * players
    assert len(deal["set_aside"]) == set_aside
    tiles = [t for hand in deal["hands"] for t in hand] + deal["boneyard"] + deal["set_aside"]
    assert sorted(tiles) == ALL_TILES
    if preset == "paluba":  # first_leader = lot
        assert 0 <= deal["leader"] < players
    else:
        assert deal["leader"] == _r14_leader(deal["hands"])
    done = matador("replay", "-", stdin=json.dumps(record))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == json.dumps({"over": False, "to_move": deal["leader"]}) + "\n"


def test_seed_is_deterministic(matador: Any) -> None:
    """The same seed deals the same bytes; another seed deals differently."""
    args = ["deal", "--preset", "russian", "--players", "3", "--seed"]
    first = matador(*args, "123").stdout
    assert first == matador(*args, "123").stdout
    assert first != matador(*args, "124").stdout


def test_without_seed(matador: Any) -> None:
    """Without --seed every deal is fresh (two deals of 28 tiles practically never agree)."""
    records = [_deal(matador, "--preset", "classic", "--players", "2") for _ in range(2)]
    assert records[0]["deal"] != records[1]["deal"]


def test_aliases_write_the_preset_name(matador: Any) -> None:
    """A user may name a preset by an alias; the record always names the preset itself."""
    for alias, preset in [("czech", "paluba"), ("Spanish", "classic"), ("six-matador", "six")]:
        record = _deal(matador, "--preset", alias, "--players", "2", "--seed", "1")
        assert record["rules"]["preset"] == preset


def test_out_file(matador: Any, tmp_path: Path) -> None:
    """--out writes the record to a file and nothing to stdout; --out - is stdout."""
    path = tmp_path / "hand.json"
    args = ["deal", "--preset", "six", "--players", "4", "--seed", "5"]
    done = matador(*args, "--out", path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert path.read_text() == matador(*args).stdout == matador(*args, "--out", "-").stdout


def test_overrides(matador: Any) -> None:
    """--set NAME=VALUE reads VALUE as JSON, else as a string; the record keeps the overrides."""
    record = _deal(matador, "--preset", "classic", "--players", "2", "--seed", "3",
                   "--set", "draw=one", "--set", "matador_anytime=false", "--set", "per_join=5",
                   "--set", "players=[2, 3]")
    assert record["rules"] == {"preset": "classic", "overrides": {
        "players": [2, 3], "matador_anytime": False, "draw": "one", "per_join": 5}}
    record = _deal(matador, "--preset", "paluba", "--players", "2", "--seed", "3",
                   "--set", 'hand_size={"2": 7}')
    assert record["rules"]["overrides"] == {"hand_size": {"2": 7}}
    assert [len(hand) for hand in record["deal"]["hands"]] == [7, 7]
    assert len(record["deal"]["set_aside"]) == 3
    record = _deal(matador, "--preset", "classic", "--players", "2", "--seed", "3",
                   "--set", "draw=one", "--set", "draw=until_playable")
    assert record["rules"]["overrides"] == {}  # the last --set wins; back to the preset value
    record = _deal(matador, "--preset", "six", "--players", "2", "--seed", "3",
                   "--set", "first_leader=lot")
    assert 0 <= record["deal"]["leader"] < 2
    done = matador("replay", "-", stdin=json.dumps(record))
    assert done.stdout == json.dumps({"over": False, "to_move": record["deal"]["leader"]}) + "\n"


@pytest.mark.parametrize(("override", "where"), [
    ("speed=3", "rules.overrides.speed"),
    ("draw=two", "rules.overrides.draw"),
    ("target=13", "rules.overrides.target"),
    ("target=seven", "rules.overrides.target"),
    ("matador_optional=1", "rules.overrides.matador_optional"),
    ('hand_size={"3": 7}', "players"),  # no size for 2 players (section 7: checked per deal)
    ("hand_size=15", "players"),  # 2 x 15 > 28 tiles
    ('hand_size={"5": 1}', "rules.overrides.hand_size.5"),
    ("players=[1, 4]", "rules.overrides.players"),
])
def test_override_errors(matador: Any, override: str, where: str) -> None:
    """A bad override: one line ``error: WHERE: WHY`` naming the parameter, exit 2."""
    done = matador("deal", "--preset", "classic", "--players", "2", "--set", override)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"error: {where}: ")
    assert done.stderr.count("\n") == 1


@pytest.mark.parametrize(("preset", "players"), [("paluba", 3), ("classic", 5),
                                                 ("six", 1), ("russian", 0)])
def test_wrong_player_count(matador: Any, preset: str, players: int) -> None:
    """A player count the preset does not allow is refused with an error naming players."""
    done = matador("deal", "--preset", preset, "--players", str(players))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("error: players: ")
    assert f"{players} players" in done.stderr
    assert done.stderr.count("\n") == 1


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "2"], "--preset"),
    (["--preset", "classic"], "--players"),
    (["--preset", "domino", "--players", "2"], "unknown preset 'domino'"),
    (["--preset", "classic", "--players", "two"], "--players"),
    (["--preset", "classic", "--players", "2", "--seed", "x"], "--seed"),
    (["--preset", "classic", "--players", "2", "--set", "draw"], "NAME=VALUE"),
    (["--preset", "classic", "--players", "2", "--set", "=one"], "NAME=VALUE"),
])
def test_bad_arguments(matador: Any, args: list[str], message: str) -> None:
    """Bad or missing arguments: argparse's usage and message, exit 2."""
    done = matador("deal", *args)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("usage: matador deal")
    assert message in done.stderr


def test_unwritable_out(matador: Any, tmp_path: Path) -> None:
    """An --out that cannot be written: ``error: PATH: WHY``, exit 2."""
    path = tmp_path / "no" / "such" / "dir.json"
    done = matador("deal", "--preset", "classic", "--players", "2", "--out", path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"error: {path}: ")
