"""PettingZoo AEC environment over the engine (needs the `rl` extra).

Observations are dicts: ``"observation"`` (float32, the ruleset's observation size, from
`game.observation(seat)`) and ``"action_mask"`` (int8, `self.ruleset.num_actions`, the
engine's legal ids). Rewards come only at the end: place p of n is worth 1 - 2p/(n-1), seats
sharing first place share the mean of the places they cover.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import brass
from brass_clients.vector import outcome_rewards

OBSERVATION_LOW, OBSERVATION_HIGH = -1.0, 1.0  # the core's range for every feature


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual safety wrappers."""
    environment: AECEnv = raw_env(**kwargs)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


class raw_env(AECEnv):  # noqa: N801  (PettingZoo's naming convention)
    metadata = {"name": "brass_birmingham_v0", "render_modes": ["ansi", "human"],
                "is_parallelizable": False}

    def __init__(self, players: int = 2, render_mode: str | None = None,
                 ruleset: str = brass.DEFAULT_RULESET) -> None:
        super().__init__()
        self.ruleset = brass.get_ruleset(ruleset)
        if not self.ruleset.min_players <= players <= self.ruleset.max_players:
            raise ValueError(f"players must be {self.ruleset.min_players}.."
                             f"{self.ruleset.max_players}")
        self.players = players
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation_space = spaces.Dict({
            "observation": spaces.Box(OBSERVATION_LOW, OBSERVATION_HIGH,
                                      (self.ruleset.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.ruleset.num_actions,), np.int8),
        })
        self.observation_spaces = {a: observation_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.ruleset.num_actions)
                              for a in self.possible_agents}
        self.game: brass.Game | None = None
        self._seed_rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.game is not None, "call reset() first"
        seat = self._seat[agent]
        mask = np.zeros(self.ruleset.num_actions, dtype=np.int8)
        if not self.game.is_over and self.game.current_seat == seat:
            mask[self.game.legal_ids()] = 1
        # the core keeps every feature in [-1, 1] (docs/ENGINE_API.md): nothing to clip
        return {"observation": self.game.observation(seat), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        game_seed = int(self._seed_rng.integers(0, 2**63 - 1))
        self.game = brass.Game.new(self.players, seed=game_seed, ruleset=self.ruleset.name)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_act()

    def _agent_to_act(self) -> str:
        assert self.game is not None
        seat = self.game.current_seat
        return self.possible_agents[seat if seat is not None else 0]

    def step(self, action: int | None) -> None:
        assert self.game is not None, "call reset() first"
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(int(action), self._seat[agent])
        if self.game.is_over:
            final = outcome_rewards(self.game)
            for a in self.agents:
                self.rewards[a] = float(final[self._seat[a]])
                self.terminations[a] = True
                self.infos[a] = {"vp": self.game.scores()[self._seat[a]]}
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = self._agent_to_act()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.game is None:
            return None
        text = repr(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game = None
