"""GameBatch: n games of one ruleset in one C array, stepped together by one call."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from brass._core import ffi, lib
from brass.args import _INT32_MAX, MAX_BATCH, _integer
from brass.errors import EngineError
from brass.game import Game, _note_applied
from brass.rulesets import DEFAULT_RULESET, _raise, get_ruleset
from brass.states import StateArray


class GameBatch:
    """n games of one ruleset in one C array, stepped together by one call (`step`) so that
    Python overhead is paid once per batch. `games[i]` is a `Game` viewing slot i."""

    def __init__(self, n: int, players: int, seeds: Sequence[int], *,
                 ruleset: str = DEFAULT_RULESET, **options: Any) -> None:
        n = _integer(n, "n", 1, MAX_BATCH)
        if len(seeds) != n:
            raise EngineError("INVALID_ARGUMENT", "need one seed per game", None, "seeds")
        self.n = n
        self.players = players
        self.ruleset = get_ruleset(ruleset)
        self._options = options
        self._states = StateArray(n, self.ruleset.state_size)
        self.games: list[Game] = [None] * n  # type: ignore[list-item]
        for i, seed in enumerate(seeds):
            self.reset_game(i, seed)

    @property
    def observation_size(self) -> int:
        return self.ruleset.observation_size

    @property
    def num_actions(self) -> int:
        return self.ruleset.num_actions

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (and copied) as its games' snapshots and records: a copy has its own array.
        return _unpickle_batch, (self.players, self.ruleset.name, dict(self._options),
                                 [g.snapshot() for g in self.games],
                                 [g.replay_record() for g in self.games])

    def reset_game(self, i: int, seed: int) -> Game:
        """Deal a new game into slot i (0 <= i < n; checked before anything is written)."""
        i = _integer(i, "i", 0, self.n - 1)
        fresh = Game.new(self.players, seed, ruleset=self.ruleset.name, **self._options)
        slot = self._states.slot(i)
        lib.brass_clone(slot, fresh._g)
        self.games[i] = Game(self._states.slot_bytes(i, self.ruleset.state_size),
                             fresh.replay_record(), slot)
        return self.games[i]

    def step(self, actions: np.ndarray, observations: np.ndarray, masks: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
        """Apply actions[i] (-1: none) in game i; fill observations (n x observation_size
        float32) and masks (n x num_actions bool) for the seats to act; return the per-game
        error codes (0 = applied) and done flags."""
        given = np.asarray(actions)
        obs_size, num_actions = self.observation_size, self.num_actions
        if given.shape != (self.n,):
            raise EngineError("INVALID_ARGUMENT", f"actions must have shape ({self.n},)", None,
                              "actions")
        # Checked before the cast to int32, which would wrap 2^32 + k to action k.
        if given.dtype.kind not in "iu" or (
                given.size and (given.min() < -1 or given.max() > _INT32_MAX)):
            raise EngineError("INVALID_ARGUMENT", "actions must be integers, -1 for none",
                              None, "actions")
        acts = np.ascontiguousarray(given, dtype=np.int32)
        if (observations.shape != (self.n, obs_size) or observations.dtype != np.float32
                or not observations.flags.c_contiguous):
            raise EngineError("INVALID_ARGUMENT", "observations: C-contiguous float32 (n, obs)")
        if (masks.shape != (self.n, num_actions) or masks.dtype != np.bool_
                or not masks.flags.c_contiguous):
            raise EngineError("INVALID_ARGUMENT", "masks: C-contiguous bool (n, actions)")
        errors = np.zeros(self.n, dtype=np.int32)
        done = np.zeros(self.n, dtype=np.bool_)
        for game in self.games:
            game._hold_barrier()
        states = self._states
        refused = lib.brass_step_batch(states.games, states.stride, self.n,
                                       ffi.from_buffer("int32_t[]", acts),
                                       ffi.from_buffer("int32_t[]", errors),
                                       ffi.from_buffer("float[]", observations), obs_size,
                                       ffi.from_buffer("uint8_t[]", masks), num_actions,
                                       ffi.from_buffer("uint8_t[]", done))
        if refused < 0:
            _raise(-refused, what="batch", rs=self.ruleset)
        for i in np.flatnonzero((errors == 0) & (acts >= 0)):
            game, action = self.games[i], int(acts[i])
            game._decisions.append(action)
            _note_applied(game, [action])
        return errors, done


def _unpickle_batch(players: int, ruleset: str, options: dict[str, Any],
                    snapshots: list[bytes], records: list[dict[str, Any]]) -> GameBatch:
    batch = GameBatch.__new__(GameBatch)
    batch.n, batch.players, batch._options = len(snapshots), players, options
    batch.ruleset = get_ruleset(ruleset)
    batch._states = states = StateArray(batch.n, batch.ruleset.state_size)
    batch.games = []
    for i, (data, record) in enumerate(zip(snapshots, records, strict=True)):
        slot = states.slot(i)
        err = lib.brass_restore(slot, data, len(data), batch.ruleset.id)
        if err:
            _raise(err, rs=batch.ruleset)
        batch.games.append(Game(states.slot_bytes(i, batch.ruleset.state_size),
                                dict(record, decisions=list(record["decisions"])), slot))
    return batch
