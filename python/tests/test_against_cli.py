"""The package against the `cardboard` binary: the same seed gives the same
game as `cardboard run --seed`, and `simulate` the same report as
`cardboard simulate --json`; an observation never holds a hidden card."""

import json
import re
import subprocess

import cardboard
import pytest
from conftest import RULES, binary


def transcript(path, seed):
    """The decisions of `cardboard run PATH --seed SEED`: for each, the seat,
    the legal moves' texts and the index played; and the final table."""
    out = subprocess.run(
        [binary(), "run", path, "--seed", str(seed)], capture_output=True, text=True, check=True
    ).stdout
    decisions = []
    for block in re.split(r"\n== decision \d+: ", out)[1:]:
        seat = int(re.match(r"player (\d+) ==", block).group(1))
        texts = re.findall(r"^  \d+: (.*)$", block, re.M)
        played = int(re.search(r"^plays (\d+): ", block, re.M).group(1))
        decisions.append((seat, texts, played))
    final = re.search(r"\n== finished after \d+ decisions ==\n(.*?)\nscores: (.*)\n", out, re.S)
    assert final is not None or "== finished" not in out, out[-2000:]
    return decisions, final


@pytest.mark.parametrize("path", RULES)
def test_same_game_as_run(path):
    seed = 42
    decisions, final = transcript(path, seed)
    assert decisions, "the transcript has decisions"
    state = cardboard.load(path).new_state(seed)
    for seat, texts, played in decisions:
        assert state.current_player == seat
        assert state.move_texts() == texts
        # The player's own view names the same moves where it sees their cards.
        seen = [m.text for m in state.legal_moves()]
        assert len(seen) == len(texts)
        assert all(a == b or "a card" in a for a, b in zip(seen, texts))
        state.apply(texts[played])
    if final is not None:
        assert state.status == "finished"
        assert str(state).strip() == final.group(1).strip()
        scores = [int(s) for s in re.findall(r"player \d+: (-?\d+)", final.group(2))]
        assert state.scores() == scores


def cards_of(view):
    """Each location of an observation: (owner, name) -> its cards or None."""
    places = {}
    for owner in view["owners"]:
        for loc in owner.get("locations", []):
            places[(owner["owner"], loc["name"])] = (loc["count"], loc.get("cards"))
    return places


def test_observation_hides_other_hands():
    state = cardboard.load("games/agram.rcy").new_state(7)
    seats = state.num_players
    steps = 0
    while not state.is_terminal():
        views = [cards_of(state.observation(s)) for s in range(seats)]
        table = str(state)
        for s in range(seats):
            mine = views[s]
            for (owner, name), (count, cards) in mine.items():
                # Every place is there with its count for every seat ...
                assert views[(s + 1) % seats][(owner, name)][0] == count
                if cards is not None:
                    assert len(cards) == count
                    for card in cards:
                        assert card["name"] in table  # the full state has it
            for other in range(seats):
                hand = mine.get(("p%d" % other, "HAND"))
                if hand is None or hand[0] == 0:
                    continue
                # ... a seat sees its own hand, and only a count of others'.
                if other == s:
                    assert hand[1] is not None
                else:
                    assert hand[1] is None
                    names = {c["name"] for c in views[other][("p%d" % other, "HAND")][1]}
                    text = json.dumps(state.observation(s))
                    leaked = [n for n in names if named(n, text) and not in_sight(n, mine)]
                    assert not leaked, "seat %d sees %s of p%d's hand" % (s, leaked, other)
        state.apply(state.legal_moves()[0])
        steps += 1
    assert steps > 0


def named(name, text):
    """Whether `text` names the card `name` (as a whole word)."""
    return re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(name), text) is not None


def in_sight(name, view):
    """Whether a card of this name lies somewhere `view` shows faces (a deck
    may hold two cards of one name)."""
    return any(cards and any(c["name"] == name for c in cards) for _, cards in view.values())


def test_resample_keeps_what_the_seat_sees():
    state = cardboard.load("games/agram.rcy").new_state(3)
    for _ in range(5):
        state.apply(state.legal_moves()[-1])
    seat = state.current_player
    differs = False
    for seed in range(8):
        other = state.resample(seat, seed)
        assert other.observation(seat) == state.observation(seat)
        differs |= str(other) != str(state)
    assert differs, "some resampled deal differs from the true one"


def test_simulate_matches_the_cli():
    path, games, seed = "examples/tictactoe.rcy", 200, 9
    report = cardboard.simulate(path, games, seed=seed, jobs=2, dataframe=False)
    out = subprocess.run(
        [binary(), "simulate", path, "--games", str(games), "--seed", str(seed), "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    cli = json.loads(out)
    timing = {"seconds", "games_per_second", "jobs"}
    assert {k: v for k, v in report.items() if k not in timing} == {
        k: v for k, v in cli.items() if k not in timing
    }
    assert report["games"] == games
    assert len(report.rows) == games
    assert sum(1 for row in report.rows if row.get("error")) == report["errors"]


def test_simulate_dataframe_and_seats():
    pandas = pytest.importorskip("pandas")
    report = cardboard.simulate("examples/tictactoe.rcy", 40, seats=["random", "random"])
    assert isinstance(report.rows, pandas.DataFrame)
    assert len(report.rows) == 40


def places_of(view):
    """Every location of an observation, on boards too: key -> (count, cards)."""
    places = cards_of(view)
    for board in view.get("boards", []):
        for space in board.get("spaces", []):
            for loc in space.get("locations", []):
                places[(space["owner"], loc["name"])] = (loc["count"], loc.get("cards"))
    return places


@pytest.mark.parametrize("path", RULES)
def test_moves_never_name_a_hidden_card(path):
    """On every game: each seat's view has every place with the same count
    as the others' views, and its moves (texts and steps) name no card that
    another seat sees and it does not (in the first decisions of a game)."""
    state = cardboard.load(path).new_state(5)
    rng = __import__("random").Random(1)
    for _ in range(60):
        if state.is_terminal():
            break
        views = [state.observation(s) for s in range(state.num_players)]
        places = [places_of(v) for v in views]
        for s, mine in enumerate(places):
            assert {k: c for k, (c, _) in mine.items()} == {k: c for k, (c, _) in places[0].items()}
            said = json.dumps(views[s].get("moves", []))
            for t, theirs in enumerate(places):
                for key, (_, cards) in theirs.items():
                    if cards is None or mine[key][1] is not None:
                        continue
                    leaked = [
                        c["name"] for c in cards if named(c["name"], said) and not in_sight(c["name"], mine)
                    ]
                    assert not leaked, "seat %d's moves name %s of %s, hidden from it" % (s, leaked, key)
        state.apply(rng.choice(state.legal_moves()))
