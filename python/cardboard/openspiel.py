"""OpenSpiel adapter: any rules file as a ``pyspiel`` game.

``cardboard.openspiel.load_game(path, **settings)`` returns a game built
with OpenSpiel's Python game API (a ``pyspiel.Game`` subclass registered
with ``pyspiel.register_game`` under the name ``cardboard``), so OpenSpiel's
own algorithms (MCTS, ``evaluate_bots``, ...) play any rules file that has a
fixed action space (``cardboard.Game.num_actions``). docs/python.md,
section "Adapters", says how chance, hidden information and the observers
map onto OpenSpiel's conventions; in short:

- Chance mode ``SAMPLED_STOCHASTIC``: cardboard's chance lives inside the
  engine under a seed, so a game starts at one chance node with a single
  outcome whose application draws that seed from the game's generator
  (seeded by the ``rng_seed`` parameter), as OpenSpiel's own
  sampled-stochastic games (negotiation) do.
- Imperfect information when the rules can hide cards (a location of kind
  ``iloc``, ``hloc`` or ``oloc``): the observation string and tensor are
  the seat's observation, the information state string is the seat's
  observations at every decision so far plus its own moves (what the
  engine calls "seen"); none of them holds a card hidden from the seat.
- ``state.resample_from_infostate(player, sampler)`` is
  ``cardboard.State.resample(player, seed)``.

Needs the ``openspiel`` extra (``pip install './python[openspiel]'``).
"""

import json
import random
import re

import numpy as np

import pyspiel

import cardboard

__all__ = ["load_game", "CardboardGame", "CardboardState", "SHORT_NAME"]

SHORT_NAME = "cardboard"

# The parameters every `cardboard` game takes, with their defaults. The
# rules file's own settings travel in `settings` ("NAME:VALUE;NAME:VALUE"),
# since OpenSpiel checks parameter names against this fixed list.
_PARAMETERS = {"path": "", "settings": "", "rng_seed": 0, "max_decisions": 10000}

# The kinds of location whose cards some seat may not see (docs/language.md).
_HIDING_KINDS = re.compile(r"\b(iloc|hloc|oloc)\b")


def _registered_type():
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="cardboard rules file",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=64,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_PARAMETERS),
    )


def _settings_text(settings):
    """`{"NUMP": 3}` as the `settings` parameter: `"NUMP:3"`."""
    parts = []
    for name, value in sorted(settings.items()):
        if isinstance(value, bool):
            value = "true" if value else "false"
        text = "%s:%s" % (name, value)
        if any(c in text for c in ";,()="):
            raise ValueError(
                "setting %s=%r cannot travel in an OpenSpiel game string "
                "(no ';', ',', '(', ')' or '=' in it)" % (name, value)
            )
        parts.append(text)
    return ";".join(parts)


def _settings_of(text):
    """The `settings` parameter back as a dict of texts."""
    settings = {}
    for part in filter(None, text.split(";")):
        name, sep, value = part.partition(":")
        if not sep:
            raise ValueError("a setting is NAME:VALUE, not %r" % part)
        settings[name] = value
    return settings


def _hides_cards(path):
    """Whether the rules file declares a location some seat may not see
    (its text, comments left out)."""
    with open(path, encoding="utf-8") as f:
        text = "\n".join(line.split(";", 1)[0] for line in f)
    return _HIDING_KINDS.search(text) is not None


class _Shared:
    """What every state of one game shares: the compiled rules and their
    sizes. OpenSpiel clones a Python state by deep copying its attributes:
    this one is shared, not copied."""

    def __init__(self, params):
        self.params = dict(params)
        self.path = params["path"]
        if not self.path:
            raise ValueError("a cardboard game needs its rules file: cardboard(path=FILE.rcy)")
        self.settings = _settings_of(params["settings"])
        self.max_decisions = int(params["max_decisions"])
        if self.max_decisions < 1:
            raise ValueError("max_decisions must be at least 1")
        self.rules = cardboard.load(self.path, **self.settings)
        self.num_actions = self.rules.num_actions  # raises NoActionSpace
        self.num_players = self.rules.num_players
        self.shape = tuple(self.rules.observation_shape)
        self.hidden = _hides_cards(self.path)
        # The latest game loaded with these parameters, for unpickling.
        _SHARED[_key(params)] = self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_shared_of, (self.params,))


_SHARED = {}


def _key(params):
    return tuple(sorted(params.items()))


def _shared_of(params):
    """The rules of a pickled state: those last loaded with its parameters
    in this process, else loaded now."""
    return _SHARED.get(_key(params)) or _Shared(params)


class _Engine:
    """One cardboard game in progress and how it got there: from its seed
    (then it can be replayed, and pickled as seed and actions), or resampled
    for a seat from another state (then it starts at `origin` with what each
    seat had seen before, `prefix`)."""

    __slots__ = ("shared", "state", "seed", "origin", "prefix", "actions")

    def __init__(self, shared, state, seed, origin=None, prefix=None, actions=None):
        self.shared = shared
        self.state = state
        self.seed = seed
        self.origin = origin
        self.prefix = prefix
        self.actions = actions if actions is not None else []

    def __deepcopy__(self, memo):
        return _Engine(
            self.shared,
            self.state.clone(),
            self.seed,
            self.origin,
            self.prefix,
            list(self.actions),
        )

    def __reduce__(self):
        if self.seed is None:
            raise TypeError(
                "a state resampled from an information state cannot be "
                "serialized (it has no seed to replay)"
            )
        return (_replayed, (self.shared, self.seed, [a for _, a in self.actions]))

    def start(self):
        """A fresh copy of the state these actions were applied to."""
        if self.origin is not None:
            return self.origin.clone()
        return self.shared.rules.new_state(self.seed)

    def seen_by(self, seat):
        """What `seat` has seen: its observation at each decision and the
        action it took at each of its own."""
        lines = list(self.prefix[seat]) if self.prefix is not None else []
        state = self.start()
        lines.append(_observation_text(state, seat))
        for mover, action in self.actions:
            if mover == seat:
                lines.append("seat %d plays %s" % (seat, self.shared.rules.action_name(action)))
            state.apply_action(action)
            lines.append(_observation_text(state, seat))
        return lines


def _replayed(shared, seed, actions):
    engine = _Engine(shared, shared.rules.new_state(seed), seed)
    for action in actions:
        engine.actions.append((engine.state.current_player, action))
        engine.state.apply_action(action)
    return engine


def _observation_text(state, seat):
    """The seat's observation as one line (the protocol's JSON, keys sorted,
    the rules file's static display section left out, the legal moves by
    their texts)."""
    obs = state.observation(seat)
    obs.pop("display", None)
    if "moves" in obs:
        obs["moves"] = [m["text"] for m in obs["moves"]]
    return json.dumps(obs, sort_keys=True, separators=(",", ":"))


class CardboardGame(pyspiel.Game):
    """A rules file as an OpenSpiel game (``load_game`` makes one; so does
    ``pyspiel.load_game("cardboard", {"path": ..., "settings": ...})``)."""

    def __init__(self, params=None):
        params = dict(_PARAMETERS, **(params or {}))
        shared = _Shared(params)  # the rules file read anew
        game_type = pyspiel.GameType(
            short_name=SHORT_NAME,
            long_name="cardboard: %s" % shared.path,
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
            information=(
                pyspiel.GameType.Information.IMPERFECT_INFORMATION
                if shared.hidden
                else pyspiel.GameType.Information.PERFECT_INFORMATION
            ),
            utility=pyspiel.GameType.Utility.CONSTANT_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=shared.num_players,
            min_num_players=shared.num_players,
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=dict(_PARAMETERS),
        )
        game_info = pyspiel.GameInfo(
            num_distinct_actions=shared.num_actions,
            max_chance_outcomes=1,
            num_players=shared.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=shared.max_decisions + 1,
        )
        super().__init__(game_type, game_info, params)
        # A game of its own generator: two games loaded alike deal alike.
        self._shared = shared
        self._rng = random.Random(int(params["rng_seed"]))

    @property
    def cardboard_game(self):
        """The ``cardboard.Game`` this game plays."""
        return self._shared.rules

    def new_initial_state(self, *args):
        """The chance node before the deal."""
        if args:
            raise ValueError("a cardboard game starts only at its chance node")
        return CardboardState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer OpenSpiel asks for: with perfect recall, the
        information state (a string only); else the seat's observation
        (string and tensor)."""
        if isinstance(iig_obs_type, dict):  # called as f(params)
            iig_obs_type, params = None, iig_obs_type
        return _Observer(self._shared, iig_obs_type, params)

    def __reduce__(self):
        return (_game_of, (self.get_parameters(), self._rng.getstate()))


def _game_of(params, rng_state):
    game = CardboardGame(params)
    game._rng.setstate(rng_state)
    return game


class CardboardState(pyspiel.State):
    """A game in progress: the chance node of the deal, then the cardboard
    game (``cardboard_state``) played with action indices."""

    def __init__(self, game):
        super().__init__(game)
        self._shared = game._shared
        self._engine = None
        self._deal = None  # the seed the deal will use (else drawn)
        self._stopped = False

    @property
    def cardboard_state(self):
        """The ``cardboard.State`` underneath (``None`` before the deal)."""
        return self._engine.state if self._engine is not None else None

    @property
    def seed(self):
        """The seed the deal drew (``None`` before it, or once resampled)."""
        return self._engine.seed if self._engine is not None else None

    def current_player(self):
        if self._engine is None:
            return pyspiel.PlayerId.CHANCE
        if self._stopped or self._engine.state.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self._engine.state.current_player

    def is_terminal(self):
        return self._engine is not None and (
            self._stopped or self._engine.state.is_terminal()
        )

    def chance_outcomes(self):
        """One outcome: the deal, its seed drawn when it is applied."""
        return [(0, 1.0)]

    def _legal_actions(self, player):
        if self._engine is None:
            return [0] if player == pyspiel.PlayerId.CHANCE else []
        if self.is_terminal() or player != self._engine.state.current_player:
            return []
        return self._engine.state.legal_actions()

    def _apply_action(self, action):
        if self._engine is None:
            seed = self._deal if self._deal is not None else self.get_game()._rng.getrandbits(63)
            self._engine = _Engine(self._shared, self._shared.rules.new_state(seed), seed)
            return
        engine = self._engine
        engine.actions.append((engine.state.current_player, int(action)))
        engine.state.apply_action(int(action))
        if engine.state.decision >= self._shared.max_decisions and not engine.state.is_terminal():
            self._stopped = True

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return "deal"
        return self._shared.rules.action_name(action)

    def returns(self):
        if self._engine is None:
            return [0.0] * self._shared.num_players
        if self._stopped:
            return [1.0 / self._shared.num_players] * self._shared.num_players
        return list(self._engine.state.returns())

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one
        (``cardboard.State.resample``), its seed drawn from
        ``probability_sampler`` (a callable giving floats in [0, 1))."""
        if self._engine is None:
            return self.clone()
        seed = int(probability_sampler() * (1 << 53))
        seen = self._engine.seen_by(player_id)
        resampled = self._engine.state.resample(player_id, seed)
        new = self.clone()
        prefix = []
        for seat in range(self._shared.num_players):
            if seat == player_id:
                prefix.append(tuple(seen[:-1]))
            else:
                prefix.append(("resampled for seat %d" % player_id,) + tuple(seen[:-1]))
        new._engine = _Engine(self._shared, resampled, None, resampled.clone(), prefix)
        return new

    def information_state_lines(self, player):
        """The information state of ``player`` as a list of lines."""
        if self._engine is None:
            return ["before the deal"]
        return self._engine.seen_by(player)

    def __str__(self):
        if self._engine is None:
            return "before the deal"
        return str(self._engine.state)

    def __reduce__(self):
        # pyspiel pickles a state through SerializeGameAndState, which a
        # sampled-stochastic Python game cannot pass (it asks the game for
        # its generator's state in C++): a state is its game, its seed and
        # its actions instead.
        if self._engine is None:
            return (_state_of, (self.get_game(), None, []))
        if self._engine.seed is None:
            raise TypeError(
                "a state resampled from an information state cannot be "
                "pickled (it has no seed to replay)"
            )
        return (_state_of, (self.get_game(), self._engine.seed, self.history()[1:]))


def _state_of(game, seed, actions):
    state = CardboardState(game)
    if seed is not None:
        state._deal = seed
        state.apply_action(0)
    for action in actions:
        state.apply_action(action)
    return state


class _Observer:
    """OpenSpiel's observer for a cardboard game (see observation.py in
    OpenSpiel): with perfect recall, the information state; else the
    seat's observation and its tensor."""

    def __init__(self, shared, iig_obs_type, params):
        if params:
            raise ValueError("a cardboard observer takes no parameters, not %r" % (params,))
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if (
            shared.hidden
            and iig_obs_type is not None
            and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "cardboard observes a game for one seat (its own cards and "
                "what all may see): private_info must be SINGLE_PLAYER"
            )
        self.shared = shared
        if self.perfect_recall:
            self.tensor = None
            self.dict = {}
        else:
            self.tensor = np.zeros(int(np.prod(shared.shape)), np.float32)
            self.dict = {"observation": self.tensor.reshape(shared.shape)}

    def set_from(self, state, player):
        if self.tensor is None:
            return
        engine = state._engine
        if engine is None:
            self.tensor.fill(0.0)
        else:
            self.dict["observation"][...] = engine.state.observation_tensor(player)

    def string_from(self, state, player):
        if self.perfect_recall:
            return "\n".join(state.information_state_lines(player))
        if state._engine is None:
            return "before the deal"
        return _observation_text(state._engine.state, player)


def load_game(path, rng_seed=0, max_decisions=10000, **settings):
    """The rules file at ``path`` (with ``settings`` as ``--set``s) as an
    OpenSpiel game. ``rng_seed`` seeds the game's generator, which draws
    each game's seed at its chance node; a game longer than
    ``max_decisions`` decisions is stopped (each seat then gets
    1/seats, as the engine gives a stopped game). Raises
    ``cardboard.NoActionSpace`` when the game has no fixed action space."""
    return pyspiel.load_game(
        SHORT_NAME,
        {
            "path": str(path),
            "settings": _settings_text(settings),
            "rng_seed": int(rng_seed),
            "max_decisions": int(max_decisions),
        },
    )


pyspiel.register_game(_registered_type(), CardboardGame)
