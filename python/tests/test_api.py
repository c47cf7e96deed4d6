"""The package's API on every shipped game and example: load, random play to
the end through legal_moves/apply, undo, clone, observation, returns."""

import copy
import random

import cardboard
import pytest
from conftest import RULES

# A random game longer than this many decisions is cut (the engine's own
# limit is 10,000; every shipped game ends far sooner).
MAX_DECISIONS = 3000


def test_every_game_is_found():
    assert any(r.startswith("games/") for r in RULES)
    assert any(r.startswith("examples/") for r in RULES)


@pytest.mark.parametrize("path", RULES)
def test_random_play_undo_clone(path):
    game = cardboard.load(path)
    state = game.new_state(11)
    rng = random.Random(5)
    start_text = str(state)
    start_obs = [state.observation(s) for s in range(state.num_players)]
    played = 0
    while not state.is_terminal() and played < MAX_DECISIONS:
        moves = state.legal_moves()
        assert moves, "a running game offers a move"
        assert [m.id for m in moves] == list(range(len(moves)))
        assert len(state.move_texts()) == len(moves)
        seat = state.current_player
        assert seat is not None and 0 <= seat < state.num_players
        move = rng.choice(moves)
        # Applying and taking back leaves the game as it was.
        before = (str(state), state.observation(seat))
        state.apply(move)
        state.undo()
        assert (str(state), state.observation(seat)) == before
        # A clone is independent: playing on it leaves the state alone.
        other = state.clone()
        other.apply(move.id)
        assert str(state) == before[0]
        assert other.decision == state.decision + 1
        state.apply(move)
        played += 1
    if state.is_terminal():
        assert state.current_player is None
        assert state.legal_moves() == []
        returns = state.returns()
        assert len(returns) == state.num_players
        assert abs(sum(returns) - 1.0) < 1e-9
        if state.status == "finished":
            assert len(state.scores()) == state.num_players
            assert state.observation(0)["outcome"]["scores"] == state.scores()
    else:
        assert state.returns() == [0.0] * state.num_players
    # Every move played is taken back, to the start.
    for _ in range(played):
        state.undo()
    assert str(state) == start_text
    assert [state.observation(s) for s in range(state.num_players)] == start_obs
    with pytest.raises(cardboard.IllegalMoveError):
        state.undo()


def test_moves_and_errors():
    state = cardboard.load("examples/tictactoe.rcy").new_state(1)
    moves = state.legal_moves()
    assert len(moves) == 9
    first = moves[0]
    assert (first.id, first.decision) == (0, 0)
    assert isinstance(first.steps, list) and first.steps
    assert first.label is None or isinstance(first.label, str)
    state.apply(first.text)
    assert state.decision == 1
    # A move of an earlier decision, an id out of range, a text no move has.
    with pytest.raises(cardboard.IllegalMoveError):
        state.apply(first)
    with pytest.raises(cardboard.IllegalMoveError):
        state.apply(99)
    with pytest.raises(cardboard.IllegalMoveError):
        state.apply("no such move")
    with pytest.raises(TypeError):
        state.apply(1.5)
    with pytest.raises(IndexError):
        state.observation(2)
    assert copy.copy(state).decision == 1
    assert "decision 1" in repr(state)


def test_settings():
    game = cardboard.load("games/agram.rcy", NUMP=3)
    assert game.settings == {"NUMP": "3"}
    assert game.new_state(0).num_players == 3
    with pytest.raises(cardboard.RulesError, match="NO_SUCH_NAME"):
        cardboard.load("games/agram.rcy", NO_SUCH_NAME=3)


def test_bad_rules_file(tmp_path):
    bad = tmp_path / "bad.rcy"
    bad.write_text("(game\n  (setup (create players 2))\n  (stage player (end fals)))\n")
    with pytest.raises(cardboard.RulesError) as error:
        cardboard.load(bad)
    message = str(error.value)
    assert "%s:3:" % bad in message, message
    with pytest.raises(OSError, match="no-such-file"):
        cardboard.load(tmp_path / "no-such-file.rcy")


def test_the_gil_is_released_while_rust_works():
    """Python runs on in another thread while a simulation plays: the main
    thread counts loops while the simulation runs (holding the GIL, the
    engine would let it count a handful at most)."""
    import threading

    started = threading.Event()
    done = []

    def work():
        started.set()
        done.append(cardboard.simulate("games/agram.rcy", 10000, jobs=1, rows=False))

    thread = threading.Thread(target=work)
    thread.start()
    started.wait()
    loops = 0
    while thread.is_alive():
        loops += 1
    thread.join()
    assert done and done[0]["games"] == 10000
    assert done[0].rows is None
    assert loops > 100000, loops
