"""Engines in the arena: broken engines forfeit and the host survives; the example engine plays."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from mep_pipe import MATADOR, ROOT, broken

from matador.arena import run_arena
from matador.protocol.host import ProtocolError
from matador.table.players import EnginePlayer, Player, make_player

EXAMPLE = f"{sys.executable} {ROOT / 'examples' / 'random_engine.py'}"


def broken_factory(started: list[EnginePlayer]) -> object:
    """Specs ``NAME[ ARGS]`` of broken test engines (0.5 s per move), built-in bots otherwise."""
    def factory(spec: str) -> Player:
        name, *args = spec.split()
        if name in ("crash", "hang", "illegal", "garbage", "refuse"):
            contestant = EnginePlayer(broken(name, *args), name=spec, timeout=0.5)
            started.append(contestant)
            return contestant
        return make_player(spec)
    return factory


@pytest.mark.parametrize(("spec", "kind", "message", "restarts"), [
    ("crash 2", "crash", "exited with status 1 before answering 'go'; its last words: "
                         "'RuntimeError: boom: the engine fell over'", True),
    pytest.param("hang 1", "timeout", "did not answer 'go' within 0.5 s", True,
                 marks=pytest.mark.slow),  # waits out the timeout: the whole run only
    ("illegal 1", "illegal", "which is illegal at ply", False),
    ("garbage", "invalid", "answered 'The quick brown fox", True),
    ("garbage move", "invalid", "'bestmove L9-9': not a move in record notation", True),
    ("refuse", "refused", "refused to move: 'error go: I would rather not'", False),
])
def test_a_broken_engine_forfeits_every_game_and_the_arena_carries_on(
        spec: str, kind: str, message: str, restarts: bool) -> None:
    started: list[EnginePlayer] = []
    result = run_arena([spec, "greedy"], players=2, deals=2 if kind != "timeout" else 1,
                       seed=4, factory=broken_factory(started), bootstrap=0)  # type: ignore[arg-type]
    games = len(result.games)
    assert len(result.forfeits) == games == result.bot(spec).forfeits
    assert result.bot(spec).score == 0.0 and result.bot("greedy").score == 1.0
    for f in result.forfeits:
        assert f.bot == spec and f.kind == kind and message in f.message, f
        assert f.message.startswith(f"engine {spec!r}")
    if spec.endswith((" 1", " 2")):  # good moves first: the first fault comes mid-hand
        assert result.forfeits[0].ply > 0
    # one contestant for the run's check, one playing the games
    player = started[-1]
    assert player.restarts == (games - 1 if restarts else 0)
    assert player.engine._proc.poll() is not None  # closed: no process left behind


def test_an_engine_that_cannot_start_is_a_clear_setup_error() -> None:
    with pytest.raises(ProtocolError, match=r"before answering 'mep'.*cannot load my weights"):
        run_arena([f"engine:{broken('handshake_exit')}", "greedy"], deals=1,
                  factory=make_player)
    with pytest.raises(ProtocolError, match="give the command after 'engine:'"):
        make_player("engine:  ")


def test_the_cli_reports_an_engine_that_cannot_start() -> None:
    done = subprocess.run([str(MATADOR), "arena", "greedy", "engine:no-such-engine-xyz",
                           "--preset", "classic", "--players", "2"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("error: bots: engine 'engine:no-such-engine-xyz': cannot run "
                                  "'no-such-engine-xyz'")


@pytest.mark.slow  # engine subprocesses: the whole run only
def test_the_example_engine_plays_full_hands_in_the_arena(tmp_path: Path) -> None:
    spec = f"engine:{EXAMPLE}"
    plot = tmp_path / "ladder.png"
    done = subprocess.run(
        [str(MATADOR), "arena", "greedy", spec, "--preset", "classic", "--players", "3",
         "--deals", "4", "--seed", "2",
         "--json", "-", "--plot", str(plot), "--bootstrap", "20"],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["bots"] == ["greedy", spec] and data["games"] == 12
    assert data["forfeits"] == {"greedy": 0, spec: 0}
    assert data["moves"][spec] > 0 and data["tables"] == [["greedy", spec, spec]]
    assert plot.stat().st_size > 0
    assert "points/hand" in done.stderr  # the table went to stderr with --json -


def test_the_example_engine_answers_the_protocol() -> None:
    from mep_pipe import Pipe

    pipe = Pipe(*EXAMPLE.split())
    try:
        assert pipe.ask("mep", "mepok")[-1] == "mepok"
        assert pipe.quiet("setoption name Seed value 9") == []
        assert pipe.quiet("setoption name Budget value 9")[0].startswith("error setoption:")
        assert pipe.quiet("position {}")[0] == "error position: rules: missing"
        assert pipe.ask("go", "error")[0].startswith("error go:")
        assert pipe.quiet("fly") == ["error unknown command 'fly'"]
    finally:
        assert pipe.close() == 0
