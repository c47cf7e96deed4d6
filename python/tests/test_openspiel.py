"""The OpenSpiel adapter (cardboard.openspiel): OpenSpiel's own MCTS,
evaluate_bots, random_sim_test and Python IS-MCTS play rules files through
it; information states survive resampling; states pickle."""

import pickle

import cardboard
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="the openspiel extra is not installed: pip install './python[openspiel]'"
)
np = pytest.importorskip("numpy")

from cardboard import openspiel as cos  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402

Info = pyspiel.GameType.Information


def dealt(game):
    """A game's state just after its chance node."""
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 1.0)]
    state.apply_action(0)
    assert not state.is_chance_node()
    return state


def test_game_type_and_sizes():
    hex5 = cos.load_game("examples/hex.rcy", SIZE=5)
    agram = cos.load_game("games/agram.rcy", NUMP=3)
    for game, rules, info in [
        (hex5, cardboard.load("examples/hex.rcy", SIZE=5), Info.PERFECT_INFORMATION),
        (agram, cardboard.load("games/agram.rcy", NUMP=3), Info.IMPERFECT_INFORMATION),
    ]:
        kind = game.get_type()
        assert kind.short_name == "cardboard"
        assert kind.information == info
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
        assert game.num_players() == rules.num_players
        assert game.num_distinct_actions() == rules.num_actions
        assert game.max_chance_outcomes() == 1
        assert game.observation_tensor_shape() == list(rules.observation_shape)
        assert game.get_parameters()["path"] == rules.path
    assert agram.num_players() == 3


def test_the_game_string_loads_the_same_game():
    game = cos.load_game("games/agram.rcy", NUMP=2, HANDSIZE=3)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.num_players() == 2
    # The same rng_seed deals the same games, another seed others.
    assert str(dealt(game)) == str(dealt(again))
    other = cos.load_game("games/agram.rcy", rng_seed=1, NUMP=2, HANDSIZE=3)
    assert str(dealt(other)) != str(dealt(cos.load_game("games/agram.rcy", NUMP=2, HANDSIZE=3)))


def test_a_state_is_the_cardboard_game_of_its_seed():
    game = cos.load_game("examples/connect4.rcy")
    state = dealt(game)
    rules = cardboard.load("examples/connect4.rcy")
    mirror = rules.new_state(state.seed)
    rng = np.random.RandomState(3)
    while not state.is_terminal():
        assert state.current_player() == mirror.current_player
        assert state.legal_actions() == mirror.legal_actions()
        assert state.observation_string(0) == cos._observation_text(mirror, 0)
        assert np.array_equal(
            np.asarray(state.observation_tensor(1)).reshape(rules.observation_shape),
            mirror.observation_tensor(1),
        )
        action = int(rng.choice(state.legal_actions()))
        assert state.action_to_string(state.current_player(), action) == rules.action_name(action)
        state.apply_action(action)
        mirror.apply_action(action)
    assert mirror.is_terminal()
    assert state.returns() == mirror.returns()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL


def test_mcts_plays_hex_to_the_end_with_evaluate_bots():
    game = cos.load_game("examples/hex.rcy", SIZE=5)
    rng = np.random.RandomState(7)
    bots = [
        mcts.MCTSBot(game, 2.0, 20, mcts.RandomRolloutEvaluator(1, rng), random_state=rng),
        pyspiel.make_uniform_random_bot(1, 7),
    ]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, rng)
    assert state.is_terminal()
    assert sorted(returns) == [0.0, 1.0]  # Hex has no draws
    assert state.cardboard_state.returns() == returns
    assert len(state.history()) == state.cardboard_state.decision + 1


def test_mcts_takes_a_win_in_one():
    game = cos.load_game("examples/tictactoe.rcy")
    state = dealt(game)

    def at(row, col):
        moves = state.cardboard_state.legal_moves()
        for m in moves:
            space = m.steps[0]["storage"].get("space")
            if space and (space["row"], space["col"]) == (row, col):
                return state.cardboard_state.action_of(m)
        raise AssertionError("no move at %d,%d" % (row, col))

    for row, col in [(0, 0), (1, 0), (0, 1), (1, 1)]:
        state.apply_action(at(row, col))
    win = at(0, 2)
    bot = mcts.MCTSBot(
        game, 2.0, 300, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
        random_state=np.random.RandomState(1), solve=True,
    )
    assert bot.step(state) == win
    state.apply_action(win)
    assert state.is_terminal() and state.returns() == [1.0, 0.0]


@pytest.mark.parametrize(
    "path,settings",
    [("examples/tictactoe.rcy", {}), ("examples/hex.rcy", {"SIZE": 4}),
     ("games/agram.rcy", {"NUMP": 3, "HANDSIZE": 3})],
)
def test_openspiel_random_sim_test(path, settings):
    game = cos.load_game(path, **settings)
    # OpenSpiel's own consistency walk (legal actions, clones, observation
    # and information state strings and tensors, returns at the end).
    # Its `serialize=True` part goes through SerializeGameAndState, which a
    # sampled-stochastic Python game cannot pass (OpenSpiel asks for the
    # game's generator state in C++); pickling is checked below instead.
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_states_pickle_and_deserialize():
    game = cos.load_game("games/agram.rcy", NUMP=2, HANDSIZE=3)
    state = dealt(game)
    state.apply_action(state.legal_actions()[0])
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state)
    assert again.history() == state.history()
    assert again.information_state_string(1) == state.information_state_string(1)
    assert str(game.deserialize_state(state.serialize())) == str(state)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    # A resampled state has no seed to replay.
    guess = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    with pytest.raises(TypeError):
        pickle.dumps(guess)


@pytest.mark.parametrize("nump", [2, 3])
def test_information_states_survive_resampling(nump):
    """At every decision of random Agram games, a state resampled for a
    seat has the seat's information state, observation string and tensor,
    while the cards it cannot see were dealt anew: none of the three holds
    a hidden card."""
    game = cos.load_game("games/agram.rcy", NUMP=nump, HANDSIZE=4)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = np.random.RandomState(nump)
    changed = 0
    for _ in range(3):
        state = dealt(game)
        while not state.is_terminal():
            for seat in range(nump):
                guess = state.resample_from_infostate(seat, sampler)
                assert guess.information_state_string(seat) == state.information_state_string(seat)
                assert guess.observation_string(seat) == state.observation_string(seat)
                assert guess.observation_tensor(seat) == state.observation_tensor(seat)
                assert guess.current_player() == state.current_player()
                if seat == state.current_player():
                    assert guess.legal_actions() == state.legal_actions()
                changed += str(guess) != str(state)
                # Played on, the guess keeps growing the seat's record.
                action = guess.legal_actions()[0]
                before = guess.information_state_string(seat)
                guess.apply_action(action)
                assert guess.information_state_string(seat).startswith(before)
            # Another seat's information state differs from this one's.
            assert state.information_state_string(0) != state.information_state_string(1)
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert changed > 0, "resampling never dealt a hidden card anew"


def test_python_ismcts_plays_agram():
    game = cos.load_game("games/agram.rcy", NUMP=2, HANDSIZE=3)
    rng = np.random.RandomState(5)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 30, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(0)
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert abs(sum(state.returns()) - 1.0) < 1e-9


def test_random_bots_play_agram_with_evaluate_bots():
    game = cos.load_game("games/agram.rcy", NUMP=3, HANDSIZE=3)
    rng = np.random.RandomState(0)
    for _ in range(5):
        bots = [pyspiel.make_uniform_random_bot(p, int(rng.randint(1 << 30))) for p in range(3)]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert len(returns) == 3 and abs(sum(returns) - 1.0) < 1e-9


def test_max_decisions_stops_a_game():
    game = cos.load_game("examples/tictactoe.rcy", max_decisions=3)
    assert game.max_game_length() == 4
    state = dealt(game)
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal()
    assert state.returns() == [0.5, 0.5]


def test_a_game_without_an_action_space_is_refused():
    assert not cardboard.load("examples/chess.rcy").has_action_space
    with pytest.raises(cardboard.NoActionSpace):
        cos.load_game("examples/chess.rcy")
