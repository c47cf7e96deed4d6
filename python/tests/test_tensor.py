"""Observation tensors and fixed action spaces (docs/python.md): on every
shipped game and example the tensor keeps its shape and holds no card
hidden from its seat; on every one with an action space each legal move
has its own index and the index finds the move back."""

import random

import numpy as np
import pytest
from conftest import RULES

import cardboard


def random_game(game, seed, decisions):
    """The states of one random game, at most `decisions` of them."""
    state = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        yield state
        moves = state.legal_moves()
        if not moves:
            return
        state.apply(rng.choice(moves))


@pytest.mark.parametrize("path", RULES)
def test_tensor_shape_is_fixed_and_holds_no_hidden_card(path):
    game = cardboard.load(path)
    shape = game.observation_shape
    assert sum(int(np.prod(s)) for _, _, s in game.observation_sections()) == shape[0]
    for state in random_game(game, 3, 25):
        for seat in range(state.num_players):
            t = state.observation_tensor(seat)
            assert t.dtype == np.float32 and t.shape == shape
            # A state the seat cannot tell from this one (its unseen cards
            # dealt anew) gives the same tensor.
            try:
                other = state.resample(seat, 11)
            except ValueError:
                continue
            assert np.array_equal(t, other.observation_tensor(seat)), (path, seat)


@pytest.mark.parametrize("path", RULES)
def test_action_space_maps_each_legal_move_to_its_own_index(path):
    game = cardboard.load(path)
    if not game.has_action_space:
        with pytest.raises(cardboard.NoActionSpace):
            game.num_actions
        return
    n = game.num_actions
    names = {game.action_name(a) for a in range(n)}
    assert len(names) == n
    for state in random_game(game, 5, 40):
        try:
            actions = state.legal_actions()
        except cardboard.NoActionSpace:
            # Refused at this decision rather than mislead (docs/python.md).
            return
        mask = state.legal_mask()
        assert mask.dtype == np.bool_ and mask.shape == (n,)
        assert list(np.flatnonzero(mask)) == actions
        moves = state.legal_moves()
        indices = [state.action_of(m) for m in moves]
        assert sorted(indices) == actions
        for m in moves:
            assert state.move_of_action(state.action_of(m)) == m


def test_games_with_an_action_space():
    for path in ("examples/tictactoe.rcy", "examples/connect4.rcy", "examples/othello.rcy",
                 "examples/hex.rcy", "games/agram.rcy"):
        assert cardboard.load(path).has_action_space, path


def test_no_action_space_says_why():
    game = cardboard.load("examples/chess.rcy")
    assert not game.has_action_space
    with pytest.raises(cardboard.NoActionSpace, match="share one action"):
        game.num_actions
    with pytest.raises(ValueError):
        game.new_state().legal_mask()
    with pytest.raises(cardboard.NoActionSpace):
        cardboard.VectorGame("examples/chess.rcy", 2)


def test_apply_action_and_illegal_actions():
    game = cardboard.load("examples/connect4.rcy")
    state = game.new_state()
    a = state.legal_actions()[0]
    state.apply_action(np.int64(a))
    assert state.decision == 1
    with pytest.raises(cardboard.IllegalMoveError):
        state.apply_action(a + game.num_actions)
    with pytest.raises(cardboard.IllegalMoveError):
        state.move_of_action(-1)
    with pytest.raises(IndexError):
        game.action_name(game.num_actions)
