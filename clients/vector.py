"""Vectorised stepping: N games advanced one decision each per `step`, as NumPy arrays.

    env = VectorEnv(n=64, players=2, seed=1)
    obs, masks = env.reset()
    actions = pick(obs, masks)            # one legal id per game
    obs, masks, rewards, dones = env.step(actions)

`obs[i]` is `game.observation(seat)` for the seat to act next in game `i`, `masks[i]` its
legal ids. `rewards[i, seat]` is the final reward of every seat (+1 sole winner, shared
winners share, others by place down to -1) on the step that ended game `i`, else 0; a finished
game is replaced by a fresh deal at once (auto-reset), so `obs`/`masks` then describe the
new game. `env.acting_seats` holds the seat each row's observation belongs to, and
`env.finished` what each game that ended on the last step left (its mover's final
observation, the scores and rewards). `brass_clients.rl.gym_vector` puts gymnasium's
vector-env interface on top.
"""

from __future__ import annotations

import random
import time
from typing import Any, NamedTuple

import numpy as np

import brass


def outcome_rewards(game: brass.Game) -> np.ndarray:
    """Per-seat final reward in [-1, 1]: place p of n is worth 1 - 2p/(n-1); seats sharing
    first place share the mean of the places they cover (a 2-player tie gives 0 each)."""
    n = game.num_players
    rewards = np.zeros(n, dtype=np.float64)
    winners = game.winners()
    shared = float(np.mean([1.0 - 2.0 * p / (n - 1) for p in range(len(winners))]))
    for place, seat in enumerate(game.ranking()):
        rewards[seat] = shared if seat in winners else 1.0 - 2.0 * place / (n - 1)
    return rewards


class Finished(NamedTuple):
    """A game that ended on the last step, as it was before its slot was dealt again."""

    observation: np.ndarray  # the final observation of the seat that made the last move
    seat: int                # that seat
    scores: list[int]        # final VP by seat
    rewards: np.ndarray      # outcome_rewards by seat


class VectorEnv:
    """`n` independent games stepped together by one engine call per `step`
    (`brass.GameBatch`); finished games restart with the next seed."""

    def __init__(self, n: int, players: int = 2, seed: int = 0,
                 ruleset: str = brass.DEFAULT_RULESET) -> None:
        if n < 1:
            raise ValueError("n must be at least 1")
        self.n = n
        self.players = players
        self.ruleset = brass.get_ruleset(ruleset)
        self._next_seed = seed
        self.observations = np.zeros((n, self.ruleset.observation_size), dtype=np.float32)
        self.masks = np.zeros((n, self.ruleset.num_actions), dtype=bool)
        self.acting_seats = np.zeros(n, dtype=np.int64)
        self.finished: dict[int, Finished] = {}
        self.episodes_done = 0
        self.reset()

    @property
    def games(self) -> list[brass.Game]:
        return self._batch.games

    def _seeds(self, k: int) -> list[int]:
        seeds = list(range(self._next_seed, self._next_seed + k))
        self._next_seed += k
        return seeds

    def _refresh_seats(self) -> None:
        for i, game in enumerate(self._batch.games):
            self.acting_seats[i] = game.current_seat or 0

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """New deals in every slot (seeds from `seed` on, or from where the last left off)."""
        if seed is not None:
            self._next_seed = seed
        self.finished = {}
        self._batch = brass.GameBatch(self.n, self.players, self._seeds(self.n),
                                      ruleset=self.ruleset.name)
        self._batch.step(np.full(self.n, -1), self.observations, self.masks)
        self._refresh_seats()
        return self.observations.copy(), self.masks.copy()

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Apply `actions[i]` in game `i`; returns (observations, masks, rewards, dones)."""
        actions = np.asarray(actions)
        if actions.shape != (self.n,):
            raise ValueError(f"actions must have shape ({self.n},), not {actions.shape}")
        movers = self.acting_seats.copy()
        errors, dones = self._batch.step(actions, self.observations, self.masks)
        refused = np.flatnonzero(errors)
        if refused.size:
            i = int(refused[0])
            raise brass.EngineError("ILLEGAL_ACTION", f"game {i}: action {int(actions[i])} "
                                    f"refused (engine error {int(errors[i])})")
        rewards = np.zeros((self.n, self.players), dtype=np.float32)
        finished = np.flatnonzero(dones)
        self.finished = {}
        for i in finished:
            game = self._batch.games[i]
            rewards[i] = outcome_rewards(game)
            seat = int(movers[i])
            self.finished[int(i)] = Finished(game.observation(seat), seat, game.scores(),
                                             rewards[i].copy())
            self.episodes_done += 1
            self._batch.reset_game(int(i), self._seeds(1)[0])
        if finished.size:  # observations and masks of the new deals
            noop = np.full(self.n, -1)
            self._batch.step(noop, self.observations, self.masks)
        self._refresh_seats()
        return self.observations.copy(), self.masks.copy(), rewards, dones.copy()

    def sample_actions(self, rng: np.random.Generator) -> np.ndarray:
        """One uniformly random legal id per game (from the current masks)."""
        noise = rng.random(self.masks.shape)
        return np.argmax(np.where(self.masks, noise, -1.0), axis=1)


def benchmark(envs: int = 64, players: int = 2, steps: int = 20000, seed: int = 1
              ) -> dict[str, Any]:
    """Steps/s of VectorEnv (observation + mask for every step) against a plain loop over one
    game doing the same work, and against a bare loop (legal ids + apply only)."""
    rng = np.random.default_rng(seed)
    env = VectorEnv(envs, players, seed)
    rounds = max(1, steps // envs)
    started = time.perf_counter()
    for _ in range(rounds):
        env.step(env.sample_actions(rng))
    vector_seconds = time.perf_counter() - started
    vector_steps = rounds * envs

    py_rng = random.Random(seed)
    game = brass.Game.new(players, seed=seed)
    started = time.perf_counter()
    for _ in range(vector_steps):
        seat = game.current_seat
        assert seat is not None
        game.observation(seat)
        mask = game.legal_mask()
        game.apply(py_rng.choice(np.flatnonzero(mask).tolist()))
        if game.is_over:
            game = brass.Game.new(players, seed=py_rng.getrandbits(32))
    loop_seconds = time.perf_counter() - started

    game = brass.Game.new(players, seed=seed)
    started = time.perf_counter()
    for _ in range(vector_steps):
        game.apply(py_rng.choice(game.legal_ids()))
        if game.is_over:
            game = brass.Game.new(players, seed=py_rng.getrandbits(32))
    bare_seconds = time.perf_counter() - started
    return {
        "envs": envs,
        "players": players,
        "steps": vector_steps,
        "vector_steps_per_second": round(vector_steps / vector_seconds, 1),
        "single_loop_steps_per_second": round(vector_steps / loop_seconds, 1),
        "bare_loop_steps_per_second": round(vector_steps / bare_seconds, 1),
        "episodes_finished": env.episodes_done,
    }
