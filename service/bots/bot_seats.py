"""Server bots' decisions, computed in worker processes (never on the event loop).

A pool of its own (BotPool, a process per CPU and one for stand-ins, at batch workers' nice)
so that a long RunBatch never delays the next move of a game someone is playing. A decision
is computed from the game's snapshot on a copy re-dealt for the bot's seat
(`Game.determinize`): a server bot sees only what its seat may see. Its random stream is
seeded from the game id and version keyed with the server's secret (BRASS_BOT_SECRET, or one
drawn at start-up and handed to every worker): every process of the server computes the same
decision, and nobody outside it can compute the seed and replay the bot's search.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import multiprocessing
import os
import random
import secrets
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import structlog

from ..errors import ServiceError
from ..procs import init_worker, terminate
from .batches import BatchLimits, check_bot_spec

log = structlog.get_logger("brass_service.bot_seats")


# What a rollout played to the end of the game (mcts rollout_depth=0) is costed as: random
# 4-player games end in about 390 (Birmingham) and 530 (Pittsburgh) decisions.
FULL_GAME_DECISIONS = 600


def search_cost(bot: Any) -> int:
    """Decisions one decision's search plays out: iterations x rollout length, a rollout to
    the end of the game counting FULL_GAME_DECISIONS (0 for bots that do not search); a
    bot that costs its search itself (`expert`: replies and network evaluations) says so
    through its `search_cost()`."""
    own = getattr(bot, "search_cost", None)
    if callable(own):
        return int(own())
    iterations, depth = getattr(bot, "iterations", None), getattr(bot, "rollout_depth", None)
    if iterations is None or depth is None:
        return 0
    return int(iterations) * (int(depth) if 0 < depth < FULL_GAME_DECISIONS
                              else FULL_GAME_DECISIONS)


def check_seat_bot(spec: str, max_mcts_iterations: int, field: str,
                   max_search_cost: int | None = None) -> str:
    """The spec if a server bot seat may run it (known bot, valid options, the budget and
    the whole search's cost within the server's caps, no time budget); INVALID_ARGUMENT
    naming `field` otherwise."""
    from brass_clients.bots import make_bot

    try:
        checked = check_bot_spec(spec, BatchLimits(max_mcts_iterations=max_mcts_iterations))
    except ServiceError as error:
        raise ServiceError("INVALID_ARGUMENT", error.message, field=field) from None
    if max_search_cost is not None:
        cost = search_cost(make_bot(checked))
        if cost > max_search_cost:
            raise ServiceError(
                "INVALID_ARGUMENT",
                f"bot {checked!r}: its search plays {cost:,} decisions a turn (iterations x "
                f"rollout_depth, a rollout to the end of the game (rollout_depth=0) counting "
                f"{FULL_GAME_DECISIONS}); at most {max_search_cost:,} on this server",
                field=field)
    return checked


def available_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


BOT_SECRET_ENV = "BRASS_BOT_SECRET"


def new_bot_secret() -> str:
    return secrets.token_hex(32)


def decision_seed(secret: str, game_id: str, version: int) -> int:
    """A bot decision's random seed: HMAC-SHA256 of the game id and version under the
    server's secret, so that it is the same in every process of the server and nobody
    without the secret can compute it (from the id and version alone anyone could)."""
    digest = hmac.new(secret.encode(), f"{game_id}:{version}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "little")


def choose_decision(snapshot: bytes, spec: str, seat: int, seed: int) -> int:
    """In a worker: the bot's option id for the decision in front of `seat`."""
    import brass
    from brass_clients.bots import make_bot

    game = brass.Game.restore(snapshot)
    legal = game.legal_ids()
    rng = random.Random(seed)
    bot = make_bot(spec)
    choice = int(bot.choose(game.determinize(seat, rng.getrandbits(64)), rng))
    if choice not in legal:  # (the seat's own options are the same in every re-deal)
        choice = int(legal[rng.randrange(len(legal))])
    return choice


class BotPool:
    def __init__(self, workers: int, nice: int, timeout_seconds: float) -> None:
        self.workers = max(1, workers)
        self.nice = nice
        self.timeout_seconds = timeout_seconds
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=init_worker,
                initargs=(self.nice, None, (), os.getpid()),
            )
        return self._pool

    async def choose(self, game: Any, spec: str, seat: int, seed: int) -> int:
        """The bot's decision; a random legal one when its worker fails or takes longer
        than timeout_seconds (logged: a game must not stall on a bot)."""
        if self._closed:
            raise ServiceError("UNAVAILABLE", "the server is stopping")
        snapshot = game.snapshot()
        pool = self._executor()
        try:
            future = pool.submit(choose_decision, snapshot, spec, seat, seed)
            return await asyncio.wait_for(asyncio.wrap_future(future), self.timeout_seconds)
        except Exception as exc:  # (a bot's own failure too: the game goes on regardless)
            log.error("bot_decision_failed", bot=spec, seat=seat,
                      error=f"{type(exc).__name__}: {exc}")
            if isinstance(exc, BrokenProcessPool | RuntimeError | TimeoutError) and (
                self._pool is pool
            ):
                self._pool = None
                terminate(pool)
            legal = game.legal_ids()
            return int(legal[random.Random(seed).randrange(len(legal))])

    def close(self) -> None:
        self._closed = True
        if self._pool is not None:
            pool, self._pool = self._pool, None
            terminate(pool)
