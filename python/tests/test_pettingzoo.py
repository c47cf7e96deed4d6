"""The PettingZoo adapter (cardboard.pettingzoo): PettingZoo's own api_test
and seed_test on board examples and a card game; the environment plays the
engine's game of its seed."""

import random

import cardboard
import pytest

pytest.importorskip(
    "pettingzoo", reason="the pettingzoo extra is not installed: pip install './python[pettingzoo]'"
)
pytest.importorskip(
    "gymnasium", reason="the pettingzoo extra is not installed: pip install './python[pettingzoo]'"
)
np = pytest.importorskip("numpy")

from cardboard import pettingzoo as cpz  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

GAMES = [
    ("examples/tictactoe.rcy", {}),
    ("examples/connect4.rcy", {}),
    ("examples/hex.rcy", {"SIZE": 5}),
    ("games/agram.rcy", {"NUMP": 3, "HANDSIZE": 4}),
]


@pytest.mark.parametrize("path,settings", GAMES)
def test_pettingzoo_api_test(path, settings):
    api_test(cpz.env(path, **settings), num_cycles=100)


@pytest.mark.parametrize("path,settings", [GAMES[0], GAMES[3]])
def test_pettingzoo_seed_test(path, settings):
    seed_test(lambda: cpz.env(path, **settings), num_cycles=50)


@pytest.mark.parametrize("path,settings", GAMES)
def test_the_environment_plays_the_engines_game(path, settings):
    """A game through the environment is the engine's game of the same
    seed: masks, observations and rewards."""
    env = cpz.env(path, **settings)
    env.reset(seed=9)
    seed = random.Random(9).getrandbits(63)
    rules = cardboard.load(path, **settings)
    mirror = rules.new_state(seed)
    rng = np.random.RandomState(1)
    assert env.possible_agents == ["player_%d" % i for i in range(rules.num_players)]
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        seat = env.possible_agents.index(agent)
        assert np.array_equal(obs["observation"], mirror.observation_tensor(seat))
        assert obs["observation"].dtype == np.float32
        assert obs["action_mask"].dtype == np.int8
        if terminated or truncated:
            assert not obs["action_mask"].any()
            env.step(None)
            continue
        assert seat == mirror.current_player
        assert np.array_equal(obs["action_mask"].astype(bool), mirror.legal_mask())
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        mirror.apply_action(action)
    assert mirror.is_terminal()
    assert [totals[a] for a in env.possible_agents] == mirror.returns()
    assert env.agents == []


def test_truncation():
    env = cpz.env("examples/tictactoe.rcy", max_decisions=2)
    env.reset(seed=0)
    for _ in range(2):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    for agent in env.agent_iter():
        env.step(None)
    assert env.agents == []


def test_render_shows_the_table():
    env = cpz.env("examples/tictactoe.rcy", render_mode="ansi")
    env.reset(seed=1)
    assert env.render() == str(env.state)
    assert cpz.env("examples/tictactoe.rcy").render() is None
    with pytest.raises(ValueError):
        cpz.env("examples/tictactoe.rcy", render_mode="rgb_array")


def test_a_game_without_an_action_space_is_refused():
    assert not cardboard.load("examples/chess.rcy").has_action_space
    with pytest.raises(cardboard.NoActionSpace):
        cpz.env("examples/chess.rcy")
