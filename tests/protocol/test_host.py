"""The host side: EngineProcess against our engine and against deliberately broken ones."""

from __future__ import annotations

import random
import sys
import time

import pytest
from mep_pipe import broken, engine_command

from matador.core.errors import MatadorError
from matador.core.rules import Rules
from matador.core.state import HandState
from matador.core.view import PlayerView
from matador.protocol.host import EngineOption, EngineProcess, ProtocolError, Transcript


def opening(seed: int = 3) -> HandState:
    return HandState.new(Rules.from_preset("classic"), 2, random.Random(seed))


def test_handshake_options_and_a_move_with_a_transcript() -> None:
    transcript = Transcript()
    state = opening()
    view = PlayerView.of(state, state.to_move)
    with EngineProcess(engine_command("pimc:8it"), transcript=transcript) as engine:
        assert engine.id["name"] == "matador pimc:8it"
        assert engine.options["iterations"] == EngineOption(
            "Iterations", "spin", "8", 0, 10_000_000)
        assert engine.options["level"].vars[0] == "custom"
        engine.set_option("Seed", 3)
        engine.is_ready()
        engine.new_hand()
        engine.position(view)
        result = engine.go(iterations=5)
        assert result.move in view.legal_moves and "info samples 5" in result.info
        assert engine.play(view) in view.legal_moves
        values = engine.analyse(view, iterations=6)
        assert sorted(v.move for v in values) == sorted(view.legal_moves)
        assert all(0 <= v.win <= 1 and v.samples == 6 for v in values)
        assert engine.alive
    assert not engine.alive
    sent = transcript.sent()
    assert sent[:3] == ["mep", "setoption name Seed value 3", "isready"]
    assert sent[-1] == "quit" and f"position {view.dumps()}" in sent
    assert transcript.received()[-1] == "analysisok"


def test_refusals_are_errors_but_the_engine_stays_in_step() -> None:
    state = opening()
    with EngineProcess(engine_command("greedy")) as engine:
        with pytest.raises(ProtocolError, match="unknown option 'Colour'") as e:
            engine.set_option("Colour", "red")
        assert e.value.kind == "refused"
        engine.position('{"rules": 1}')
        with pytest.raises(ProtocolError, match="error position: ") as e:
            engine.go()
        assert e.value.kind == "refused" and engine.alive
        other = PlayerView.of(state, 1 - state.to_move)
        with pytest.raises(ProtocolError, match=f"seat {other.seat} is not to move"):
            engine.analyse(other)
        view = PlayerView.of(state, state.to_move)
        assert engine.play(view) in view.legal_moves  # back in step


def test_an_engine_that_cannot_start() -> None:
    with pytest.raises(ProtocolError, match="cannot run 'no-such-engine-xyz'") as e:
        EngineProcess("no-such-engine-xyz --fast")
    assert e.value.kind == "start" and isinstance(e.value, MatadorError)
    with pytest.raises(ProtocolError, match="empty command"):
        EngineProcess("   ")


def test_an_engine_that_exits_at_the_handshake() -> None:
    with pytest.raises(ProtocolError) as e:
        EngineProcess(broken("handshake_exit"))
    assert e.value.kind == "start"
    assert "exited with status 3 before answering 'mep'" in str(e.value)
    assert "cannot load my weights" in str(e.value)


def test_a_silent_engine_at_the_handshake_times_out() -> None:
    start = time.monotonic()
    with pytest.raises(ProtocolError, match=r"did not answer 'mep' within 0\.5 s") as e:
        EngineProcess([sys.executable, "-c", "import time; time.sleep(60)"],
                      handshake_timeout=0.5)
    assert e.value.kind == "start" and time.monotonic() - start < 5


def test_an_engine_that_crashes_on_go() -> None:
    state = opening()
    engine = EngineProcess(broken("crash"))
    with pytest.raises(ProtocolError) as e:
        engine.play(PlayerView.of(state, state.to_move))
    assert e.value.kind == "crash"
    assert "exited with status 1 before answering 'go'" in str(e.value)
    assert "RuntimeError: boom: the engine fell over" in str(e.value)
    assert not engine.alive
    with pytest.raises(ProtocolError, match="out of play after an earlier failure"):
        engine.go()
    engine.quit()  # harmless


@pytest.mark.slow  # waits out a timeout: the whole run only
def test_an_engine_that_hangs_is_killed_after_the_timeout() -> None:
    state = opening()
    engine = EngineProcess(broken("hang"))
    start = time.monotonic()
    with pytest.raises(ProtocolError, match=r"did not answer 'go' within 1\.1 s") as e:
        engine.play(PlayerView.of(state, state.to_move), movetime=100)  # waits 0.1 s + 1 s
    took = time.monotonic() - start
    assert e.value.kind == "timeout" and 1.0 <= took < 3.0
    assert not engine.alive and engine._proc.poll() is not None  # killed, not left running


def test_an_engine_that_plays_an_illegal_move() -> None:
    state = opening()
    view = PlayerView.of(state, state.to_move)
    with EngineProcess(broken("illegal")) as engine:
        with pytest.raises(ProtocolError, match=r"played \S+, which is illegal at ply 0 "
                                                r"for seat \d \(legal: ") as e:
            engine.play(view)
        assert e.value.kind == "illegal"
        assert engine.alive  # in step: it may go on


@pytest.mark.parametrize(("mode", "message"), [
    ("text", "answered 'The quick brown fox jumps over the lazy dog' to 'go'"),
    ("move", "answered 'bestmove L9-9': not a move in record notation"),
])
def test_an_engine_that_prints_garbage(mode: str, message: str) -> None:
    state = opening()
    engine = EngineProcess(broken("garbage", mode))
    with pytest.raises(ProtocolError, match=message) as e:
        engine.play(PlayerView.of(state, state.to_move))
    assert e.value.kind == "invalid" and not engine.alive


def test_an_engine_that_refuses_every_go() -> None:
    state = opening()
    with EngineProcess(broken("refuse")) as engine:
        with pytest.raises(ProtocolError, match="refused to move: 'error go: I would rather "
                                                "not'") as e:
            engine.play(PlayerView.of(state, state.to_move))
        assert e.value.kind == "refused" and engine.alive
