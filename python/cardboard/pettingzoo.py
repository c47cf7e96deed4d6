"""PettingZoo adapter: any rules file with a fixed action space as an AEC
environment (``pettingzoo.AECEnv``).

``cardboard.pettingzoo.env(path, **settings)`` makes one. Agents are
``player_0``, ``player_1``, ... (the seats); each observes a dict
``{"observation": ..., "action_mask": ...}`` as PettingZoo's classic games
do: the seat's observation tensor (``cardboard.State.observation_tensor``,
which never holds a card hidden from it) and, for the agent to move, its
legal actions as an ``int8`` mask over the fixed action space (all zeros for
the others). Rewards come once, when the game ends: each seat's
``cardboard.State.returns()`` (a win alone 1, a first place shared by k
seats 1/k, else 0). A game longer than ``max_decisions`` is truncated.

Needs the ``pettingzoo`` extra (``pip install './python[pettingzoo]'``).
"""

import random

import numpy as np

from gymnasium import spaces
from pettingzoo import AECEnv

import cardboard

__all__ = ["env", "CardboardEnv"]


class CardboardEnv(AECEnv):
    """A rules file as a PettingZoo AEC environment (see the module doc).

    ``reset(seed=S)`` starts a game whose chance is seeded from ``S`` (the
    same ``S`` and the same actions give the same game); ``reset()`` with
    no seed draws the next game's seed from the environment's stream.
    ``render()`` returns (mode ``"ansi"``) or prints (mode ``"human"``) the
    whole table as ``cardboard run`` shows it, hidden cards included: it is
    for people watching, not for agents."""

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "cardboard_v0",
        "is_parallelizable": False,
    }

    def __init__(self, path, render_mode=None, max_decisions=10000, **settings):
        super().__init__()
        modes = self.metadata["render_modes"]
        if render_mode is not None and render_mode not in modes:
            raise ValueError("render_mode is one of %r, not %r" % (modes, render_mode))
        self.game = cardboard.load(path, **settings)
        self.num_actions = self.game.num_actions  # raises NoActionSpace
        self.render_mode = render_mode
        self.max_decisions = int(max_decisions)
        shape = tuple(self.game.observation_shape)
        self.possible_agents = ["player_%d" % i for i in range(self.game.num_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(self.num_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._seeds = random.Random()
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seeds = random.Random(seed)
        self.state = self.game.new_state(self._seeds.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._select()

    def _select(self):
        seat = self.state.current_player
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent):
        seat = self._seat[agent]
        mask = np.zeros(self.num_actions, np.int8)
        to_move = self.state.current_player == seat and agent in self.agents
        if to_move and not self.truncations[agent]:
            mask[self.state.legal_mask()] = 1
        return {
            "observation": np.asarray(self.state.observation_tensor(seat), np.float32),
            "action_mask": mask,
        }

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._clear_rewards()
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))
        if self.state.is_terminal():
            for a, r in zip(self.possible_agents, self.state.returns()):
                self.rewards[a] = float(r)
                self.terminations[a] = True
        elif self.state.decision >= self.max_decisions:
            self.truncations = {a: True for a in self.agents}
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = str(self.state) if self.state is not None else ""
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        self.state = None


def env(path, render_mode=None, max_decisions=10000, **settings):
    """The rules file at ``path`` (``settings`` as ``--set``s) as a
    PettingZoo AEC environment. Raises ``cardboard.NoActionSpace`` when the
    game has no fixed action space."""
    return CardboardEnv(path, render_mode=render_mode, max_decisions=max_decisions, **settings)
