"""Games played to the end inside C by a playout policy: benchmarks (random_playouts), many
copies of one game (batch_playouts, behind Game.batch_playouts) and games of the bots'
greedy policy with their decisions (greedy_playouts: training data at C speed)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from brass._core import ffi, lib
from brass.args import _INT32_MAX, MAX_BATCH, _c_options, _integer, _seed
from brass.errors import EngineError
from brass.rulesets import DEFAULT_RULESET, Ruleset, _raise, get_ruleset
from brass.states import StateArray
from brass.worths import WorthParams

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


# Decisions a greedy playout records a game at most (a Pittsburgh game takes under 1,000),
# and games a call plays: its record is at most 128 MiB.
MAX_GREEDY_DECISIONS = 1 << 14
MAX_GREEDY_BATCH = 1 << 12


def greedy_playouts(games: Sequence[Any], params: WorthParams, *, drop: bytes | None = None,
                    max_actions: int = 20000, staged_evaluations: int = 0,
                    epsilon: float = 0.0, seed: int = 1,
                    max_decisions: int = MAX_GREEDY_DECISIONS) -> list[list[int]]:
    """Copies of `games` (Game objects of one ruleset, unchanged) played on inside C by the
    greedy policy (brass_greedy_playout_batch: each whole action the best by the evaluator of
    `params` for the seat to act, groups by `drop` as `brass.grouping`'s, a listing past
    `max_actions` decided id by id with `staged_evaluations` evaluations, a random listed
    action with probability `epsilon`), until over or `max_decisions` decisions; each copy's
    ids in order, to replay with `Game.apply`."""
    n = _integer(len(games), "games", 0, MAX_GREEDY_BATCH)
    if not n:
        return []
    rs = games[0]._rs
    if any(game._rs is not rs for game in games):
        raise EngineError("INVALID_ARGUMENT", "the games are of several rulesets", None,
                          "games")
    if params.ruleset != rs.name:
        raise ValueError(f"the evaluator's facts are {params.ruleset}'s, the games are "
                         f"{rs.name}'s")
    max_actions = _integer(max_actions, "max_actions", 1, lib.BRASS_GREEDY_MAX_ACTIONS)
    max_decisions = _integer(max_decisions, "max_decisions", 0, MAX_GREEDY_DECISIONS)
    if not 0.0 <= epsilon <= 1.0:
        raise EngineError("INVALID_ARGUMENT", "epsilon must be in [0, 1]", None, "epsilon")
    if drop is not None and len(drop) != rs.num_actions:
        raise ValueError(f"drop has {len(drop)} entries, the ruleset {rs.num_actions} ids")
    policy = ffi.new("BrassGreedyPolicy *")
    policy.params = params._params
    drop_buffer = ffi.new("uint8_t[]", drop) if drop is not None else ffi.NULL
    policy.drop, policy.num_ids = drop_buffer, rs.num_actions
    policy.max_actions = max_actions
    policy.staged_evaluations = _integer(staged_evaluations, "staged_evaluations", 0,
                                         lib.BRASS_GREEDY_MAX_STAGED)
    policy.epsilon = float(epsilon)
    size = lib.brass_greedy_scratch_size(max_actions)
    scratch = ffi.new("uint64_t[]", (size + 7) // 8)  # 8-byte aligned
    policy.scratch, policy.scratch_size = scratch, size
    states = StateArray(n, rs.state_size)
    for i, game in enumerate(games):
        lib.brass_clone(states.slot(i), game._g)
    stride = max(max_decisions, 1)
    record = ffi.new("uint16_t[]", n * stride)
    lengths = ffi.new("int32_t[]", n)
    err = lib.brass_greedy_playout_batch(states.games, states.stride, n, policy, _seed(seed),
                                         max_decisions, record, stride, lengths)
    if err == lib.BRASS_E_UNSUPPORTED:
        raise ValueError("the evaluator's facts do not value these games (another table set)")
    if err:
        _raise(err, rs=rs)
    return [ffi.unpack(record + i * stride, lengths[i]) for i in range(n)]
