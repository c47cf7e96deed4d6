"""cardboard from Python: load a rules file, play it move by move, simulate it.

The engine is Rust (the extension module ``cardboard._cardboard``); this
module gives it a small Python face. See docs/python.md for every call with
an example.
"""

import json

import numpy as np

from ._cardboard import Encoding as _Encoding
from ._cardboard import Game as _Game
from ._cardboard import IllegalMoveError, NoActionSpace, RulesError
from ._cardboard import State as _State
from ._cardboard import VectorGame as _VectorGame
from ._cardboard import simulate_json as _simulate_json

__all__ = [
    "load",
    "simulate",
    "Game",
    "State",
    "Move",
    "Report",
    "VectorGame",
    "RulesError",
    "IllegalMoveError",
    "NoActionSpace",
]


class Move:
    """One legal move as the player to move may read it (the protocol's move).

    ``id`` is its index among the legal moves, ``text`` what it does (a card
    the player cannot see is written ``a card``), ``steps`` what it moves or
    sets (a list of dicts, as in docs/protocol.md), ``label`` the short name
    of the move where the observation gives one (else ``None``), and
    ``decision`` the decision it belongs to.
    """

    __slots__ = ("id", "text", "steps", "label", "decision", "data")

    def __init__(self, data, decision):
        self.data = data
        self.id = data["id"]
        self.text = data["text"]
        self.steps = data.get("steps", [])
        self.label = data.get("label")
        self.decision = decision

    def __repr__(self):
        return "Move(id=%r, text=%r)" % (self.id, self.text)

    def __eq__(self, other):
        return isinstance(other, Move) and (self.id, self.text, self.decision) == (
            other.id,
            other.text,
            other.decision,
        )

    def __hash__(self):
        return hash((self.id, self.text, self.decision))


class State:
    """One game in progress (made by ``Game.new_state``)."""

    __slots__ = ("_s", "_game")

    def __init__(self, inner, game):
        self._s = inner
        self._game = game

    @property
    def game(self):
        """The ``Game`` this state plays."""
        return self._game

    @property
    def current_player(self):
        """The seat that must decide now, or ``None`` once the game is over."""
        return self._s.current_player

    @property
    def num_players(self):
        """The number of seats."""
        return self._s.num_players

    @property
    def decision(self):
        """Decisions taken so far (0 at the start)."""
        return self._s.decision

    @property
    def status(self):
        """``running``, ``finished``, ``stopped: WHY`` or ``failed: WHY``."""
        return self._s.status

    def legal_moves(self):
        """The legal moves of the current player, as ``Move``s (none once over)."""
        decision = self._s.decision
        return [Move(m, decision) for m in json.loads(self._s.legal_moves_json())]

    def move_texts(self):
        """The legal moves' texts as transcripts write them (every card named)."""
        return self._s.move_texts()

    def apply(self, move):
        """Plays ``move``: a ``Move``, its id (an int), or its text (as
        transcripts write it, or as ``Move.text`` gives it when that names
        no hidden card). Raises ``IllegalMoveError`` when it is not legal,
        ``RulesError`` when the rules fail on it (the move is then taken
        back)."""
        if isinstance(move, Move):
            if move.decision != self._s.decision:
                raise IllegalMoveError(
                    "the move %r belongs to decision %d, the game is at decision %d"
                    % (move.text, move.decision, self._s.decision)
                )
            self._s.apply_id(move.id)
        elif isinstance(move, bool):
            raise TypeError("a move is a Move, an id (int) or a text (str), not a bool")
        elif isinstance(move, int):
            if move < 0:
                raise IllegalMoveError("there is no move %d" % move)
            self._s.apply_id(move)
        elif isinstance(move, str):
            self._s.apply_text(move)
        else:
            raise TypeError("a move is a Move, an id (int) or a text (str), not %r" % (move,))

    def undo(self):
        """Takes back the last move applied to this state (not one applied
        before it was cloned or resampled)."""
        self._s.undo()

    def clone(self):
        """An independent copy of the game."""
        return State(self._s.clone(), self._game)

    __copy__ = clone

    def is_terminal(self):
        """Whether the game is over (finished, stopped or failed)."""
        return self._s.is_terminal()

    def returns(self):
        """Each seat's reward once over: a win alone 1.0, a first place
        shared by k seats 1/k each, other places 0.0; a stopped or failed
        game 1/seats each. All 0.0 while the game runs."""
        return self._s.returns()

    def scores(self):
        """Each seat's score once the game finished, else ``None``."""
        return self._s.scores()

    def observation(self, seat):
        """What ``seat`` may see, as a dict: the protocol's observation JSON."""
        return json.loads(self._s.observation_json(seat))

    def resample(self, seat, seed):
        """A state ``seat`` cannot tell from this one: every card it has not
        seen dealt anew among the places of such cards, the chance to come
        drawn anew from ``seed`` (what information-set search uses)."""
        return State(self._s.resample(seat, seed), self._game)

    def observation_tensor(self, seat):
        """What ``seat`` may see as a ``numpy.ndarray`` of float32, of shape
        ``Game.observation_shape`` (docs/python.md, "Observation tensor",
        says the encoding); it never holds a card hidden from ``seat``."""
        enc = self._game._encoding()
        return np.frombuffer(enc.observation(self._s, seat), dtype=np.float32)

    def legal_actions(self):
        """The action indices of the legal moves, sorted (raises
        ``NoActionSpace`` when the game has none)."""
        return [a for a, _ in self._game._encoding().legal(self._s)]

    def legal_mask(self):
        """A ``numpy.ndarray`` of bool, shape ``(num_actions,)``: True for
        the legal actions of the seat to move (all False once over)."""
        enc = self._game._encoding()
        mask = np.zeros(enc.num_actions(), dtype=bool)
        mask[[a for a, _ in enc.legal(self._s)]] = True
        return mask

    def action_of(self, move):
        """The action index of a legal ``Move`` (or its id)."""
        if isinstance(move, Move):
            if move.decision != self._s.decision:
                raise IllegalMoveError(
                    "the move %r belongs to decision %d, the game is at decision %d"
                    % (move.text, move.decision, self._s.decision)
                )
            move = move.id
        for a, i in self._game._encoding().legal(self._s):
            if i == move:
                return a
        raise IllegalMoveError("there is no legal move %r" % (move,))

    def move_of_action(self, a):
        """The legal ``Move`` of action ``a`` (``IllegalMoveError`` when
        ``a`` is not legal now)."""
        i = self._game._encoding().move_id(self._s, _index(a))
        return self.legal_moves()[i]

    def apply_action(self, a):
        """Plays the move of action ``a``."""
        self._s.apply_id(self._game._encoding().move_id(self._s, _index(a)))

    def __str__(self):
        return str(self._s)

    def __repr__(self):
        return repr(self._s)


def _index(a):
    """An action index as an int (numpy integers included); a negative one
    is never legal."""
    if isinstance(a, (bool, np.bool_)):
        raise TypeError("an action is an int, not a bool")
    a = int(a)
    if a < 0:
        raise IllegalMoveError("there is no action %d" % a)
    return a


class Game:
    """The compiled rules of one file with its settings (``cardboard.load``)."""

    __slots__ = ("_g", "_enc")

    def __init__(self, inner):
        self._g = inner
        self._enc = None

    def _encoding(self):
        if self._enc is None:
            self._enc = _Encoding(self._g)
        return self._enc

    @property
    def num_players(self):
        """The number of seats."""
        return self._encoding().num_players

    @property
    def observation_shape(self):
        """The shape of ``State.observation_tensor``: ``(size,)``, fixed for
        the file and its settings."""
        return (self._encoding().size,)

    def observation_sections(self):
        """The parts of the observation tensor in order, each ``(name,
        offset, shape)``: ``seat``, ``turn``, ``over``, ``locations``,
        ``storages``, then ``board NAME`` for each board (planes, rows,
        columns), so ``t[o:o + prod(shape)].reshape(shape)`` is one part."""
        return [(n, o, tuple(s)) for n, o, s in self._encoding().sections()]

    @property
    def cards(self):
        """The card identities the tensor and the actions number, in order."""
        return self._encoding().cards()

    @property
    def has_action_space(self):
        """Whether the game has a fixed action space (never raises)."""
        return self._encoding().has_action_space()

    @property
    def num_actions(self):
        """The size of the fixed action space (``NoActionSpace`` when the
        game has none)."""
        return self._encoding().num_actions()

    def action_name(self, a):
        """A stable text for action ``a`` (``"D3"``, ``"B7->B5"``)."""
        return self._encoding().action_name(_index(a))

    @property
    def path(self):
        return self._g.path

    @property
    def settings(self):
        """The settings given to ``load``, as a dict of texts."""
        return dict(self._g.overrides)

    def new_state(self, seed=0):
        """A new game whose chance is seeded with ``seed`` (as ``cardboard run
        --seed``), at its first decision."""
        return State(self._g.new_state(seed), self)

    def __repr__(self):
        return "<cardboard.Game %r>" % self._g.path


def _settings(settings):
    return [(str(k), str(v)) for k, v in settings.items()]


def load(path, **settings):
    """Loads and checks the rules file at ``path``; ``settings`` change its
    declared constants as ``--set NAME=VALUE`` does (``load(p, NUMP=3)``).
    Raises ``RulesError`` with the rendered diagnostic (file:line:column)
    when the file has errors, ``OSError`` when it cannot be read."""
    return Game(_Game(str(path), _settings(settings)))


class VectorGame:
    """``n`` games of one rules file stepped together in Rust, across cores
    (rayon, ``RAYON_NUM_THREADS`` threads), the GIL released; numpy arrays
    in and out. A finished game starts again at once with a seed drawn
    from the vector's seed stream, so the same ``seed`` gives the same
    results for any number of threads. Needs a game with a fixed action
    space (``NoActionSpace`` otherwise)."""

    __slots__ = ("_v", "num_envs", "num_players", "observation_shape", "num_actions", "current_player")

    def __init__(self, path, n, seed=0, **settings):
        self._v = _VectorGame(str(path), n, seed, _settings(settings))
        self.num_envs = self._v.num_envs
        self.num_players = self._v.num_players
        self.observation_shape = (self._v.observation_size,)
        self.num_actions = self._v.num_actions
        self.current_player = np.frombuffer(self._v.current_players(), dtype=np.int64)

    def _arrays(self, obs, mask, seats):
        n = self.num_envs
        self.current_player = np.frombuffer(seats, dtype=np.int64)
        return (
            np.frombuffer(obs, dtype=np.float32).reshape((n,) + self.observation_shape),
            np.frombuffer(mask, dtype=np.bool_).reshape((n, self.num_actions)),
        )

    def reset(self):
        """Starts every game anew (the seed stream from its start): returns
        ``obs`` (float32, ``(n, *observation_shape)``, for the seat to move
        in each game) and ``mask`` (bool, ``(n, num_actions)``)."""
        obs, mask, _, _, seats = self._v.reset()
        return self._arrays(obs, mask, seats)

    def step(self, actions):
        """Plays ``actions`` (ints, shape ``(n,)``, each legal in its game)
        and returns ``obs, mask, rewards, done``: rewards float32 ``(n,
        num_players)`` (a finished game's ``returns()``, else 0), done bool
        ``(n,)``; a finished game is started again and its obs and mask are
        those of its new start."""
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        if actions.shape != (self.num_envs,):
            raise ValueError(
                "actions must have shape (%d,), not %r" % (self.num_envs, actions.shape)
            )
        obs, mask, rewards, done, seats = self._v.step(actions.tobytes())
        obs, mask = self._arrays(obs, mask, seats)
        rewards = np.frombuffer(rewards, dtype=np.float32).reshape((self.num_envs, self.num_players))
        return obs, mask, rewards, np.frombuffer(done, dtype=np.bool_)

    def __repr__(self):
        return "<cardboard.VectorGame %d games>" % self.num_envs


class Report(dict):
    """The ``--json`` report of a simulation, as a dict, with the per-game
    rows of ``--games-out`` as ``rows``: a ``pandas.DataFrame`` when pandas
    is installed, else a list of dicts (``None`` when not asked for)."""

    rows = None


def simulate(
    path,
    games,
    seats=None,
    jobs=0,
    seed=0,
    max_decisions=10000,
    rows=True,
    dataframe=None,
    **settings
):
    """Plays ``games`` games on ``jobs`` threads (0: every core), as
    ``cardboard simulate --json`` does, and returns its report: a ``Report``,
    the dict of the ``--json`` report.

    ``seats`` is ``--seats``'s text (``"mcts:200,random"``) or a list of
    such names (all random when left out); ``settings`` are ``--set``s.
    With ``rows`` (the default), ``report.rows`` holds one row per game (the
    rows of ``--games-out``): a ``pandas.DataFrame`` when pandas is
    installed, else a list of dicts (``dataframe=False`` keeps the list,
    ``dataframe=True`` requires pandas).
    """
    if seats is None:
        seats = ""
    elif not isinstance(seats, str):
        seats = ",".join(str(s) for s in seats)
    report, lines = _simulate_json(
        str(path), games, seats, jobs, seed, _settings(settings), max_decisions, None, rows
    )
    report = Report(json.loads(report))
    if rows:
        table = [json.loads(line) for line in lines.splitlines() if line.strip()]
        if dataframe is None or dataframe:
            try:
                import pandas
            except ImportError:
                if dataframe:
                    raise
            else:
                table = pandas.DataFrame(table)
        report.rows = table
    return report
