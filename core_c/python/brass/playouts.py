"""Games played to the end inside C by a playout policy: benchmarks (random_playouts) and
many copies of one game (batch_playouts, behind Game.batch_playouts)."""

from __future__ import annotations

from typing import Any

import numpy as np

from brass._core import ffi, lib
from brass.args import _INT32_MAX, MAX_BATCH, _c_options, _integer, _seed
from brass.errors import EngineError
from brass.rulesets import DEFAULT_RULESET, Ruleset, _raise, get_ruleset
from brass.states import StateArray

# The playout policies of the core, by name (Game.playout, batch_playouts, random_playouts).
PLAYOUT_POLICIES = ("random", "sane")


def _policy(policy: str) -> int:
    if policy == "random":
        return lib.POLICY_RANDOM
    if policy == "sane":
        return lib.POLICY_SANE
    raise EngineError("INVALID_ARGUMENT", "policy must be 'random' or 'sane'", None, "policy")


def random_playouts(players: int, games: int, seed: int = 1, policy: str = "random", *,
                    ruleset: str = DEFAULT_RULESET,
                    options: dict[str, Any] | None = None) -> dict:
    """Run random full games in C; returns the benchmark figures."""
    rs = get_ruleset(ruleset)
    players = _integer(players, "players", rs.min_players, rs.max_players)
    games = _integer(games, "games", 0, _INT32_MAX)
    opt, _ = _c_options(rs, players, dict(options or {}))
    res = ffi.new("BrassBenchResult *")
    err = lib.brass_bench(opt, games, _seed(seed), _policy(policy), res)
    if err:
        _raise(err, what="benchmark arguments", rs=rs)
    return {
        "ruleset": rs.name,
        "players": players,
        "games": res.games,
        "policy": policy,
        "seconds": res.seconds,
        "games_per_second": res.games / res.seconds if res.seconds else 0.0,
        # CPU time of the thread that played them: on a shared machine wall time also
        # counts the waits for a core
        "cpu_seconds": res.cpu_seconds,
        "games_per_cpu_second": res.games / res.cpu_seconds if res.cpu_seconds else 0.0,
        "cpu_us_per_game": 1e6 * res.cpu_seconds / res.games if res.games else 0.0,
        "decisions_per_second": res.decisions / res.seconds if res.seconds else 0.0,
        "mean_decisions_per_game": res.decisions / res.games if res.games else 0.0,
        "legal_generation_us": 1e6 * res.legal_seconds / res.legal_calls if res.legal_calls else 0,
        "clone_us": 1e6 * res.clone_seconds / res.clones if res.clones else 0.0,
        "state_bytes": int(lib.brass_state_size(rs.id)),
    }


def batch_playouts(state: Any, rs: Ruleset, players: int, n: int, seed: int,
                   policy: str = "random") -> np.ndarray:
    """Play n copies of `state` to the end inside C (one call); their final VP as an
    n x players int array. `state` is not changed."""
    n = _integer(n, "n", 1, MAX_BATCH)
    seed = _seed(seed)
    games = StateArray(n, rs.state_size)
    for i in range(n):
        lib.brass_clone(games.slot(i), state)
    err = lib.brass_playout_batch(games.games, games.stride, n, _policy(policy), seed, 1 << 20)
    if err < 0:
        _raise(-err, rs=rs)
    out = np.zeros((n, players), dtype=np.int32)
    res = ffi.new("BrassResult *")
    for i in range(n):
        lib.brass_result(games.slot(i), res)
        out[i] = ffi.unpack(res.vp, players)  # int16_t[]: numpy takes no cdata slice
    return out
