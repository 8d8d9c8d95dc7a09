"""RunBatch: bot-vs-bot games played on the server, each result streamed as it finishes.

The games run in a pool of worker processes (spawned, at a lower scheduling priority), so
neither the GIL nor the CPU they burn stalls the event loop that serves the players. The
bots are those of `brass_clients.bots`; seating, deal seeds and the bots' random streams
follow `brass eval` (`brass_clients.eval`), so a batch without options gives the same
games as `brass eval --seed` with the same line-up. Nothing is stored.
"""

from __future__ import annotations

import asyncio
import importlib
import multiprocessing
import os
import secrets
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

import structlog

from ..errors import ServiceError
from ..gen import game_service_pb2 as pb
from ..hosted import refuse_hosted_options
from ..observability import ACTIVE_BATCHES, BATCH_GAMES, RequestRecord
from ..procs import CANCEL_SLOTS, cancel_flags, init_worker, terminate

# CreateGame's reading of the ruleset and its options, so a batch refuses what CreateGame
# refuses
from ..requests import request_options, ruleset_name

log = structlog.get_logger("brass_service.batches")

MAX_SPEC_CHARS = 200
# Bot options that budget by time (wall clock or CPU, expert's `max_ms` cap too): refused
# (results would not be reproducible and the cost would not be bounded by the request).
_TIME_BUDGET_OPTIONS = ("seconds", "ms", "max_ms")


@dataclass(frozen=True)
class BatchLimits:
    max_games: int = 1000
    max_batches: int = 4
    workers: int = 0  # 0: one fewer than the CPUs, at least one
    max_mcts_iterations: int = 2000
    max_greedy_candidates: int = 20000
    worker_nice: int = 10

    @property
    def worker_count(self) -> int:
        return self.workers if self.workers > 0 else max(1, (os.cpu_count() or 2) - 1)


def play_batch_game(
    entries: list[str], base_seed: int, index: int, options: dict[str, Any],
    include_decisions: bool, batch_id: int = -1, ruleset: str = "birmingham",
) -> dict[str, Any] | None:
    """Plays game `index` of a batch in this (worker) process; returns a plain dict, or
    None when the batch was cancelled meanwhile.

    A game that fails is answered too, as {"index", "failure": {...}} made of strings: an
    exception sent back as such must be rebuilt by the pool's result thread, and one that
    cannot be (a constructor with other arguments than its message) breaks the whole pool,
    failing every batch that shares it."""
    try:
        return _play_batch_game(
            entries, base_seed, index, options, include_decisions, batch_id, ruleset
        )
    except Exception as exc:
        return {
            "index": index,
            "failure": {
                "type": type(exc).__name__,
                "message": str(exc)[:500],
                "engine_code": str(getattr(exc, "code", "") or ""),
            },
        }


def _play_batch_game(
    entries: list[str], base_seed: int, index: int, options: dict[str, Any],
    include_decisions: bool, batch_id: int, ruleset: str,
) -> dict[str, Any] | None:
    from brass_clients.eval import run_game

    flags, slot = cancel_flags(), batch_id % CANCEL_SLOTS
    started = time.perf_counter()
    played = run_game(
        entries, base_seed, index, options,
        stop=(lambda: bool(flags[slot])) if batch_id >= 0 and flags is not None else None,
        ruleset=ruleset,
    )
    if played is None:
        return None
    game, seating, seed = played
    record = game.replay_record()
    return {
        "index": index,
        "seed": seed,
        "seating": seating,
        "scores": [int(s) for s in game.scores()],
        "winners": [int(w) for w in game.winners()],
        "ranking": [int(r) for r in game.ranking()],
        "decisions": len(record["decisions"]),
        "decision_ids": [int(d) for d in record["decisions"]] if include_decisions else [],
        "seconds": time.perf_counter() - started,
        "ruleset": record["ruleset"],
        "rules_edition": int(record["rules_edition"]),
    }


# ------------------------------------------------------------------------- validation


def _invalid(message: str, field: str) -> ServiceError:
    return ServiceError("INVALID_ARGUMENT", message, field=field)


def check_bot_spec(spec: str, limits: BatchLimits) -> str:
    """The spec if the server will run it (known bot, valid options, bounded budget)."""
    from brass_clients.bots import BOT_FACTORIES, make_bot, parse_bot_spec

    if not spec.strip():
        raise _invalid("a bot spec is empty", "bots")
    if len(spec) > MAX_SPEC_CHARS:
        raise _invalid(f"bot specs are at most {MAX_SPEC_CHARS} characters", "bots")
    try:
        name, params = parse_bot_spec(spec)
    except ValueError as exc:
        raise _invalid(str(exc), "bots") from None
    if name not in BOT_FACTORIES:
        known = ", ".join(sorted(BOT_FACTORIES))
        raise _invalid(f"unknown bot {name!r} (known: {known})", "bots")
    try:
        bot = make_bot(spec)
    except ValueError as exc:
        raise _invalid(str(exc), "bots") from None
    # Budgets are read from the bot itself, so its defaults are checked too.
    for option in _TIME_BUDGET_OPTIONS:
        if float(getattr(bot, option, 0) or 0) > 0:
            raise _invalid(
                f"bot {spec!r}: time budgets ({option}=) are not accepted in batches; "
                "give iterations instead",
                "bots",
            )
    iterations = getattr(bot, "iterations", None)
    if iterations is not None and not 1 <= iterations <= limits.max_mcts_iterations:
        raise _invalid(
            f"bot {spec!r}: search iterations must be 1 to {limits.max_mcts_iterations} "
            "on this server",
            "bots",
        )
    candidates = getattr(bot, "max_candidates", None)
    if candidates is not None and not 1 <= candidates <= limits.max_greedy_candidates:
        raise _invalid(
            f"bot {spec!r}: max_candidates must be 1 to {limits.max_greedy_candidates} "
            "on this server",
            "bots",
        )
    return spec.strip()


def _response(
    result: dict[str, Any], entries: list[str], batch_seed: int, completed: int
) -> pb.RunBatchResponse:
    return pb.RunBatchResponse(
        index=result["index"],
        batch_seed=batch_seed,
        seed=result["seed"],
        seats=[
            pb.BatchSeat(seat=seat, bot=entries[entry], entry=entry, score=result["scores"][seat])
            for seat, entry in enumerate(result["seating"])
        ],
        winners=result["winners"],
        ranking=result["ranking"],
        decisions=result["decisions"],
        decision_ids=result["decision_ids"],
        completed=completed,
        seconds=result["seconds"],
        ruleset=pb.Ruleset.Value("RULESET_" + result["ruleset"].upper()),
        rules_edition=result["rules_edition"],
    )


# ----------------------------------------------------------------------------- runner


class BatchStream:
    """The results of one batch. Always aclose() it: that frees the batch's slot and
    cancels the games not yet started, even when the stream was never iterated."""

    def __init__(
        self, results: AsyncGenerator[pb.RunBatchResponse, None], release: Callable[[], None]
    ) -> None:
        self._results = results
        self._release = release

    def __aiter__(self) -> AsyncIterator[pb.RunBatchResponse]:
        return self._results

    async def aclose(self) -> None:
        try:
            await self._results.aclose()
        finally:
            self._release()


class BatchRunner:
    def __init__(self, limits: BatchLimits, bot_modules: tuple[str, ...] = ()) -> None:
        """`bot_modules`: modules registering more bots (brass_clients.bots.register),
        imported here and in every worker."""
        self.limits = limits
        self._bot_modules = bot_modules
        self._alone: set[ProcessPoolExecutor] = set()  # the pools of _play_alone
        self._closed = False
        for module in bot_modules:
            importlib.import_module(module)
        self.running = 0
        self._pool: ProcessPoolExecutor | None = None
        self._context = multiprocessing.get_context("spawn")
        self._cancelled = self._context.RawArray("b", CANCEL_SLOTS)
        self._next_id = 0

    def _worker_args(self) -> tuple[Any, ...]:
        return self.limits.worker_nice, self._cancelled, self._bot_modules, os.getpid()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.limits.worker_count,
                mp_context=self._context,
                initializer=init_worker,
                initargs=self._worker_args(),
            )
        return self._pool

    def _discard_pool(self, pool: ProcessPoolExecutor) -> None:
        if self._pool is pool:
            self._pool = None
        terminate(pool)

    def close(self) -> None:
        """Stops the workers now (games in progress are abandoned)."""
        self._closed = True
        if self._pool is not None:
            pool, self._pool = self._pool, None
            terminate(pool)
        for alone in list(self._alone):
            terminate(alone)

    def start(self, request: pb.RunBatchRequest, record: RequestRecord) -> BatchStream:
        """Validates and admits the batch, then returns its stream of results.

        Everything that can be refused is refused here, before the first message.
        """
        import brass

        limits = self.limits
        ruleset = ruleset_name(request.ruleset)
        rules = brass.get_ruleset(ruleset)
        if not rules.min_players <= request.players <= rules.max_players:
            raise _invalid(f"players must be {rules.min_players} to {rules.max_players}",
                           "players")
        if not 1 <= request.games <= limits.max_games:
            raise _invalid(f"games must be 1 to {limits.max_games}", "games")
        if not request.bots:
            raise _invalid("give at least one bot", "bots")
        if len(request.bots) > request.players:
            raise _invalid(
                f"{len(request.bots)} bots for {request.players} seats", "bots"
            )
        specs = [check_bot_spec(spec, limits) for spec in request.bots]
        entries = [specs[k % len(specs)] for k in range(request.players)]
        options = request_options(request.options)
        refuse_hosted_options(request.options)  # a batch game has no clock, nobody resigns
        try:
            brass.Game.new(request.players, seed=0, ruleset=ruleset, options=options)
        except brass.EngineError as exc:  # the options themselves are refused
            raise ServiceError("INVALID_ARGUMENT", f"options are not valid: {exc.message}",
                               field=exc.field or "options") from None
        if self.running >= limits.max_batches:
            raise ServiceError(
                "RATE_LIMITED",
                f"this server already runs {limits.max_batches} batches; retry later",
                limit="max_batches",
            )
        batch_seed = request.seed if request.HasField("seed") else secrets.randbits(63)
        record.extra.update(games=request.games, players=request.players, bots=entries,
                            ruleset=ruleset)
        self.running += 1
        ACTIVE_BATCHES.inc()
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                self.running -= 1
                ACTIVE_BATCHES.dec()

        results = self._run(
            entries, batch_seed, request.games, options, request.include_decisions, record,
            ruleset,
        )
        return BatchStream(results, release)

    async def _run(
        self,
        entries: list[str],
        batch_seed: int,
        games: int,
        options: dict[str, Any],
        include_decisions: bool,
        record: RequestRecord,
        ruleset: str = "birmingham",
    ) -> AsyncIterator[pb.RunBatchResponse]:
        loop = asyncio.get_running_loop()
        batch_id, self._next_id = self._next_id, self._next_id + 1
        slot = batch_id % CANCEL_SLOTS
        self._cancelled[slot] = 0

        def game_args(index: int) -> tuple[Any, ...]:
            return entries, batch_seed, index, options, include_decisions, batch_id, ruleset

        # At most one game per worker in flight per batch: concurrent batches share the
        # pool, and a client that leaves wastes at most that many games.
        window = self.limits.worker_count
        pending: dict[asyncio.Future[dict[str, Any] | None], _InFlight] = {}
        next_index = completed = 0
        try:
            while completed < games:
                while next_index < games and len(pending) < window:
                    pool, submitted = self._submit(game_args(next_index))
                    pending[asyncio.wrap_future(submitted, loop=loop)] = _InFlight(
                        submitted, next_index, pool
                    )
                    next_index += 1
                done, _ = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                results: list[dict[str, Any] | None] = []
                lost: list[int] = []
                broken: set[int] = set()
                for finished in done:
                    flight = pending.pop(finished)
                    try:
                        results.append(finished.result())
                    except BrokenProcessPool:
                        lost.append(flight.index)
                        broken.add(id(flight.pool))
                        self._discard_pool(flight.pool)
                if lost:
                    # A worker died (killed, out of memory, a crash in C): every game in
                    # flight on its pool is lost, whichever batch's game killed it. They are
                    # played again one at a time, each in a process of its own; a game that
                    # kills that one too ends its own batch, the others go on.
                    for future, flight in list(pending.items()):
                        if id(flight.pool) in broken:
                            del pending[future]
                            answered = flight.submitted
                            if (answered.done() and not answered.cancelled()
                                    and answered.exception() is None):
                                results.append(answered.result())
                            else:
                                lost.append(flight.index)
                    log.warning("batch_worker_died", request_id=record.request_id,
                                games_played_again=sorted(lost))
                    for index in sorted(lost):
                        results.append(await self._play_alone(game_args(index)))
                for result in results:
                    if result is None:  # cancelled: only after the batch was given up
                        continue
                    if "failure" in result:
                        raise _game_failed(result, record)
                    completed += 1
                    BATCH_GAMES.inc()
                    record.extra["completed"] = completed
                    yield _response(result, entries, batch_seed, completed)
        finally:
            if pending:
                self._cancelled[slot] = 1  # games already running stop at their next decision
            for future, flight in pending.items():
                flight.submitted.cancel()
                future.cancel()

    def _submit(self, args: tuple[Any, ...]) -> tuple[ProcessPoolExecutor, Future[Any]]:
        """Submits a game to the shared pool (a new one if another batch found it broken)."""
        self._refuse_when_closed()
        for attempt in range(2):
            pool = self._executor()
            try:
                return pool, pool.submit(play_batch_game, *args)
            except (BrokenProcessPool, RuntimeError) as exc:
                self._discard_pool(pool)
                if attempt:
                    raise ServiceError("UNAVAILABLE", "the batch workers stopped; retry") from exc
        raise AssertionError("unreachable")

    def _refuse_when_closed(self) -> None:
        if self._closed:  # the server is stopping: no new worker processes
            raise ServiceError("UNAVAILABLE", "the server is stopping; retry the batch")

    async def _play_alone(self, args: tuple[Any, ...]) -> dict[str, Any] | None:
        """Plays one game lost with a dead worker in a worker process of its own."""
        self._refuse_when_closed()
        alone = ProcessPoolExecutor(
            max_workers=1, mp_context=self._context, initializer=init_worker,
            initargs=self._worker_args(),
        )
        self._alone.add(alone)
        try:
            return await asyncio.wrap_future(alone.submit(play_batch_game, *args))
        except BrokenProcessPool:
            index = args[2]
            return {
                "index": index,
                "failure": {
                    "type": "WorkerDied",
                    "message": "the game stopped its worker process (a crash or the memory "
                               "limit); it was played alone after the pool's worker died",
                    "engine_code": "",
                },
            }
        finally:
            self._alone.discard(alone)
            terminate(alone)


@dataclass(frozen=True)
class _InFlight:
    submitted: Future[dict[str, Any] | None]
    index: int
    pool: ProcessPoolExecutor


def _game_failed(result: dict[str, Any], record: RequestRecord) -> ServiceError:
    """The error ending a batch one of whose games failed in its worker (the other batches
    on the pool go on). Admission checks every option, so this is a fault of the server."""
    failure = result["failure"]
    log.error(
        "batch_game_failed", request_id=record.request_id, game_index=result["index"],
        error_type=failure["type"], error=failure["message"], bots=record.extra.get("bots"),
    )
    return ServiceError(
        "INTERNAL",
        f"game {result['index']} of the batch failed: {failure['type']}: {failure['message']}",
        game_index=result["index"],
        engine_code=failure["engine_code"] or None,
    )

