"""Random play through the Python API matches `simulate`'s statistics
within sampling error.

`simulate`'s random player draws each move uniformly among the legal moves
of the decision: `GameState::random_move` lists the moves and draws an
index, or (interpreter/engine/sample/) draws the options' slots in a random
order and plays the first legal one, which is uniform over the legal moves
too (each legal move is one slot, and first among the legal slots of a
random order with the same probability). So the Python player here is
`random.choice(state.legal_moves())` at every decision, forced ones
included, and the two must agree in law: per seat the share of completed
games won alone and the share tied for first, and the mean number of
decisions of a game.

Each figure is compared with a tolerance of `Z` standard errors of the
difference of the two estimates, computed from the data (a pooled
proportion for the rates, the two samples' variances for the mean
length). The games and moves are seeded, so the test gives the same
answer every run; with `Z = 5` a correct engine fails one comparison in
about 1.7 million. A player that is not uniform (always the last legal
move) is shown to fail the same comparison on tic-tac-toe, so the
tolerance is not too loose to see a wrong player.
"""

import math
import random

import cardboard
import pytest

Z = 5.0

# (rules file, settings, games each way): a board game, a board game with
# longer games, a card game with hidden hands and three seats. Each runs
# in a few seconds through Python.
CASES = [
    ("examples/tictactoe.rcy", {}, 1500),
    ("examples/connect4.rcy", {}, 400),
    ("games/agram.rcy", {"NUMP": 3}, 600),
]


def python_games(path, settings, games, choose):
    """Plays `games` games through the State API, `choose(rng, moves)`
    picking each move; per game (completed, wins alone, ties, decisions)."""
    game = cardboard.load(path, **settings)
    rng = random.Random(2024)
    out = []
    for seed in range(games):
        state = game.new_state(seed)
        while not state.is_terminal():
            state.apply(choose(rng, state.legal_moves()))
        seats = state.num_players
        finished = state.status == "finished"
        # The seats sharing first place (the protocol's outcome).
        first = state.observation(0)["outcome"]["winners"] if finished else []
        wins = [int(len(first) == 1 and s in first) for s in range(seats)]
        ties = [int(len(first) > 1 and s in first) for s in range(seats)]
        out.append((finished, wins, ties, state.decision))
    return out


def simulated(path, settings, games):
    """The same from `simulate` (its report, and the rows for the
    variance of the length)."""
    report = cardboard.simulate(path, games, seed=7, jobs=1, dataframe=False, **settings)
    assert report["errors"] == 0 and report["games"] == games
    lengths = [row["decisions"] for row in report.rows]
    return report, lengths


def rate_gap(k1, n1, k2, n2):
    """|p1 - p2| in standard errors (pooled); 0 when both are equal."""
    p1, p2, pooled = k1 / n1, k2 / n2, (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    return 0.0 if p1 == p2 else (abs(p1 - p2) / se if se > 0 else math.inf)


def mean_var(xs):
    m = sum(xs) / len(xs)
    return m, sum((x - m) ** 2 for x in xs) / (len(xs) - 1)


def gaps(path, settings, games, choose):
    """Each compared figure's gap in standard errors."""
    ours = python_games(path, settings, games, choose)
    report, lengths = simulated(path, settings, games)
    done = [g for g in ours if g[0]]
    n1, n2 = len(done), report["completed"]
    assert n1 > 0 and n2 > 0, "some games finish"
    out = {"completed": rate_gap(n1, len(ours), n2, report["games"])}
    for s in range(len(report["wins"])):
        out["seat %d wins" % s] = rate_gap(sum(g[1][s] for g in done), n1, report["wins"][s], n2)
        out["seat %d ties" % s] = rate_gap(sum(g[2][s] for g in done), n1, report["ties"][s], n2)
    m1, v1 = mean_var([g[3] for g in ours])
    m2, v2 = mean_var(lengths)
    assert m2 == pytest.approx(report["mean_decisions"])
    se = math.sqrt(v1 / len(ours) + v2 / len(lengths))
    out["mean decisions %.2f vs %.2f" % (m1, m2)] = (
        0.0 if m1 == m2 else (abs(m1 - m2) / se if se > 0 else math.inf)
    )
    return out


@pytest.mark.parametrize("path,settings,games", CASES)
def test_random_play_matches_simulate(path, settings, games):
    found = gaps(path, settings, games, lambda rng, moves: rng.choice(moves))
    far = {k: round(v, 2) for k, v in found.items() if v > Z}
    assert not far, "more than %g standard errors apart: %s" % (Z, far)


def test_a_biased_player_is_seen():
    """Always the last legal move: the comparison must tell it apart."""
    path, settings, games = CASES[0]
    found = gaps(path, settings, games, lambda rng, moves: moves[-1])
    assert max(found.values()) > Z, found
