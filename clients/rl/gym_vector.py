"""Gymnasium's vector-env interface over the engine's batched stepping (needs the `rl` extra).

    from brass_clients.rl.gym_vector import BrassVectorEnv
    envs = BrassVectorEnv(num_envs=8, players=2)
    obs, info = envs.reset(seed=1)                 # obs (8, observation size), float32
    actions = pick(obs, info["action_mask"])       # one legal id per game
    obs, rewards, terminations, truncations, info = envs.step(actions)

A `gymnasium.vector.VectorEnv` (`single_observation_space` Box(-1, 1), `single_action_space`
Discrete(num_actions), both batched as `observation_space` / `action_space`) whose games all
run in one `brass.GameBatch`. Row i is the observation of the seat to act in game i
(`info["acting_seat"]`), `info["action_mask"]` its legal ids. Brass is a game of several
seats taking turns: `rewards[i]` is the outcome reward of the seat that just moved, non-zero
only on the step that ends a game (place p of n is worth 1 - 2p/(n-1), zero-sum), and
`info["final_info"]["rewards"][i]` holds every seat's. Autoreset is gymnasium's SAME_STEP
mode (`metadata["autoreset_mode"]`): a game that ends is dealt again within the same step,
its row shows the new game, and `info["final_obs"][i]` (with `info["_final_obs"][i]` true)
keeps the mover's last observation of the game that ended, `info["final_info"]` its scores
and rewards. Games never truncate.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import brass
from brass_clients.vector import VectorEnv as EngineVectorEnv

ENV_ID = "brass/Brass-v0"  # gymnasium.make_vec(ENV_ID, num_envs=8, players=2)
OBSERVATION_LOW, OBSERVATION_HIGH = -1.0, 1.0  # the core's range (docs/ENGINE_API.md)
SEED_STRIDE = 2**32  # reset(seed=s) deals games s·2^32, s·2^32 + 1, ...: other seeds' never


class BrassVectorEnv(VectorEnv):
    """`num_envs` games of `players` seats, stepped by one engine call per `step`."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int, players: int = 2,
                 ruleset: str = brass.DEFAULT_RULESET) -> None:
        rules = brass.get_ruleset(ruleset)
        if not rules.min_players <= players <= rules.max_players:
            raise ValueError(f"players must be {rules.min_players} to {rules.max_players}")
        self.num_envs = num_envs
        self.players = players
        self.single_observation_space = spaces.Box(
            OBSERVATION_LOW, OBSERVATION_HIGH, (rules.observation_size,), np.float32)
        self.single_action_space = spaces.Discrete(rules.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._engine = EngineVectorEnv(num_envs, players, seed=0, ruleset=rules.name)

    @property
    def games(self) -> list[brass.Game]:
        """The games in play (row i's game), for inspection; do not change them."""
        return self._engine.games

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """New deals everywhere. With `seed` the deals, and so the whole run for the same
        actions, are a function of it; without, they come from the env's random stream."""
        if options:
            raise ValueError(f"unknown reset options {sorted(options)} (none are taken)")
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**31))
        observations, _ = self._engine.reset(seed=seed * SEED_STRIDE)
        return observations, self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        actions = np.asarray(actions, dtype=np.int64)
        movers = self._engine.acting_seats.copy()
        observations, _, seat_rewards, dones = self._engine.step(actions)
        rewards = seat_rewards[np.arange(self.num_envs), movers].astype(np.float64)
        info = self._info()
        if self._engine.finished:
            info.update(self._final_info())
        return (observations, rewards, dones.astype(bool), np.zeros(self.num_envs, bool),
                info)

    def _info(self) -> dict[str, Any]:
        everywhere = np.ones(self.num_envs, dtype=bool)
        return {"action_mask": self._engine.masks.copy(), "_action_mask": everywhere,
                "acting_seat": self._engine.acting_seats.copy(), "_acting_seat": everywhere}

    def _final_info(self) -> dict[str, Any]:
        n = self.num_envs
        final_obs = np.full(n, None, dtype=object)
        ended = np.zeros(n, dtype=bool)
        rewards = np.zeros((n, self.players), dtype=np.float64)
        scores = np.zeros((n, self.players), dtype=np.int64)
        for i, finished in self._engine.finished.items():
            final_obs[i] = finished.observation
            ended[i] = True
            rewards[i] = finished.rewards
            scores[i] = finished.scores
        return {"final_obs": final_obs, "_final_obs": ended,
                "final_info": {"rewards": rewards, "_rewards": ended,
                               "scores": scores, "_scores": ended},
                "_final_info": ended}

    def sample_legal(self, rng: np.random.Generator) -> np.ndarray:
        """One uniformly random legal id per game."""
        return self._engine.sample_actions(rng)


if ENV_ID not in gymnasium.registry:
    # a vector env only: there is no single-agent env of a game of several seats
    gymnasium.register(id=ENV_ID, vector_entry_point=BrassVectorEnv)
