"""Running arenas: each running arena is a task of the process that holds its lease (the
store's; renewed at every step, so that should the process die another takes the arena
over once the lease lapses). A step reads the arena, plans the next Swiss round when one
is due, creates the round's games (each stored in the arena at once), reads the results
of the round's games that ended and were rated, and moves on to the next round when every
table of this one is done; every change is one conditional write of the arena's state.
So an arena survives a restart: the new process resumes it where its state stands (the
games themselves go on by the server's timer: bots, clocks, forfeits).

Wake-ups: a change of one of the round's games (the games' ChangeBroker), and every
`arena_poll_seconds` otherwise (another process's game).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import structlog
from google.protobuf import json_format

from .. import hosted
from ..errors import ServiceError
from ..gen import game_service_pb2 as pb
from ..model import LiveGame
from ..observability import RequestRecord
from ..ratings.ratings import ranks_of
from ..store import GameRow, Store, StoreUnavailable
from ..store.accounts import AccountRow
from ..store.arenas import FINISHED, RUNNING, ArenaRow
from .arenas import Arenas
from .schedule import new_round, swiss_round

log = structlog.get_logger("brass_service.arena")

# (request, record, seats' accounts) -> the new game, created as the server's own
CreateGame = Callable[[pb.CreateGameRequest, RequestRecord, tuple[tuple[int, AccountRow], ...]],
                      Awaitable[pb.CreateGameResponse]]


# The seat-0 account's latest games a table's game is looked for in before it is made.
_RECENT_GAMES = 20


class RunnerSettings(Protocol):
    max_running_arenas: int
    arena_poll_seconds: float
    arena_lease_seconds: float


class Broker(Protocol):
    def attach(self, game_id: str, event: asyncio.Event) -> None: ...

    def detach(self, game_id: str, event: asyncio.Event) -> None: ...


class _Moved(Exception):
    """The arena changed under the step (another process): read it again."""


class ArenaRunner:
    """The running arenas of this process, and the look-out for arenas nobody runs."""

    def __init__(self, store: Store, settings: RunnerSettings, arenas: Arenas,
                 create_game: CreateGame,
                 game_of: Callable[[str], Awaitable[tuple[GameRow, LiveGame]]],
                 settle: Callable[[str], None], broker: Broker,
                 account_row: Callable[[str], Awaitable[AccountRow]]) -> None:
        self.store = store
        self.rows = store.arenas
        self.settings = settings
        self.arenas = arenas
        self.create_game = create_game
        self.game_of = game_of
        self.settle = settle  # Ratings.game_over: a game over not rated yet is settled
        self.broker = broker
        self.account_row = account_row
        self.owner = secrets.token_hex(8)
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._lookout: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._lookout = asyncio.create_task(self._look_out())

    def run_soon(self, arena_id: str) -> None:
        if arena_id not in self._tasks:
            self._tasks[arena_id] = asyncio.create_task(self._run_logged(arena_id))

    async def _look_out(self) -> None:
        """Runs every running arena whose lease is free or lapsed: at start-up (a restart
        resumes its arenas) and then now and again (a process that died)."""
        while True:
            try:
                for arena_id in await self.rows.running_ids(2 * self.settings.max_running_arenas):
                    self.run_soon(arena_id)
            except StoreUnavailable as exc:
                log.warning("arena_lookout_failed", error=str(exc))
            await asyncio.sleep(self.settings.arena_lease_seconds / 3)

    async def stop(self) -> None:
        tasks = [task for task in (self._lookout, *self._tasks.values()) if task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def close(self) -> None:
        for task in (self._lookout, *self._tasks.values()):
            if task is not None:
                task.cancel()

    async def _run_logged(self, arena_id: str) -> None:
        try:
            await self._run(arena_id)
        except asyncio.CancelledError:
            raise
        except Exception:  # (the look-out starts it again)
            log.exception("arena_failed", arena_id=arena_id)
        finally:
            self._tasks.pop(arena_id, None)

    async def _run(self, arena_id: str) -> None:
        wake = asyncio.Event()
        followed: set[str] = set()
        try:
            while True:
                now = time.time()
                if not await self.rows.claim(arena_id, self.owner, now,
                                             now + self.settings.arena_lease_seconds):
                    return  # another process runs it
                row = await self.rows.by_id(arena_id)
                if row is None or row.status != RUNNING:
                    return
                wake.clear()
                try:
                    games = await self._step(row)
                except _Moved:
                    continue
                if row.status == FINISHED:
                    log.info("arena_finished", arena_id=arena_id)
                    return
                for game_id in games - followed:
                    self.broker.attach(game_id, wake)
                for game_id in followed - games:
                    self.broker.detach(game_id, wake)
                followed = games
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), self.settings.arena_poll_seconds)
        finally:
            for game_id in followed:
                self.broker.detach(game_id, wake)
            with contextlib.suppress(Exception):
                await self.rows.release(arena_id, self.owner)

    async def _step(self, row: ArenaRow) -> set[str]:
        """One look at the arena (see the module's text); the games of its round."""
        state = copy.deepcopy(row.state)
        config = row.config
        index = state["round"]
        if index >= len(state["rounds"]):  # a Swiss round to plan from the standings
            tables, byes = swiss_round(len(config["entrants"]), config["players"],
                                                state)
            state["rounds"].append(new_round(tables, byes, config["seed"], index))
            await self._save(row, state)
        tables = state["rounds"][index]["tables"]
        for number, table in enumerate(tables):
            if table["game_id"] is None:
                table["game_id"] = await self._new_game(row, index, number, table["seats"],
                                                        table["seed"])
                if table["game_id"] is not None:
                    await self._save(row, state)  # at once: one game per table
            elif not table["done"]:
                await self._result(table)
        if all(table["done"] for table in tables):
            state["round"] = index + 1
            if state["round"] >= config["rounds"]:
                state["finished_at"] = time.time()
        if state != row.state:
            await self._save(row, state, FINISHED if state["finished_at"] else RUNNING)
        return {table["game_id"] for table in tables if table["game_id"]}

    async def _save(self, row: ArenaRow, state: dict[str, Any], status: int = RUNNING) -> None:
        if not await self.rows.save(row, copy.deepcopy(state), status, time.time()):
            raise _Moved
        self.arenas.notify(row.arena_id)

    async def _new_game(self, row: ArenaRow, index: int, number: int, seats: list[int],
                        seed: int) -> str | None:
        """The table's game: rated, each seat bound to its entrant's account, server bots
        in their seats; None when it cannot be made now (tried again at the next step)."""
        entrants = row.config["entrants"]
        options = json_format.ParseDict(row.config["options"], pb.GameOptions())
        if not options.on_resign:  # a forfeit at two ends the game; at more, it plays on
            options.on_resign = (pb.RESIGN_POLICY_GAME_ENDS if len(seats) == 2
                                 else pb.RESIGN_POLICY_BOT_TAKES_OVER)
        request = pb.CreateGameRequest(
            ruleset=row.config["ruleset"], players=len(seats), options=options, rated=True,
            seed=seed, bot_seats=[pb.BotSeat(seat=seat, bot=entrants[i]["server_bot"])
                                  for seat, i in enumerate(seats) if entrants[i]["server_bot"]])
        record = RequestRecord(transport="internal", method="ArenaGame",
                               request_id=f"{row.arena_id}:{index + 1}:{number + 1}")
        ids = [entrants[i]["account_id"] for i in seats]
        try:
            made = await self._made_before(ids, seed)
            if made is not None:
                return made
            accounts = tuple([(seat, await self.account_row(account_id))
                              for seat, account_id in enumerate(ids)])
            created = await self.create_game(request, record, accounts)
        except (ServiceError, StoreUnavailable) as error:
            log.warning("arena_game_not_created", arena_id=row.arena_id, round=index + 1,
                        table=number + 1, error=str(error))
            return None
        log.info("arena_game_created", arena_id=row.arena_id, round=index + 1,
                 table=number + 1, game_id=created.game_id)
        return created.game_id

    async def _made_before(self, ids: list[str], seed: int) -> str | None:
        """The table's game should it exist already: made, but the process died before the
        arena's state named it (the same seed, the same accounts in the same seats)."""
        for game in await self.store.accounts.recent_games(ids[0], _RECENT_GAMES):
            accounts = hosted.accounts_of(game)
            if game.seed == seed and [accounts.get(seat) for seat in range(len(ids))] == ids:
                log.info("arena_game_adopted", game_id=game.game_id)
                return game.game_id
        return None

    async def _result(self, table: dict[str, Any]) -> None:
        """The table's result once its game is over and rated: each seat's place, rating
        change and rating after, and its forfeited seats."""
        game = await self.store.get_game(table["game_id"])
        if game is None or not (game.status == pb.GAME_STATUS_FINISHED
                                or hosted.is_ended(game)):
            return
        hosting = hosted.hosting_of(game)
        changes = hosting.get("ratings")
        if changes is None:
            self.settle(game.game_id)  # (at once when it ended here; else after a restart)
            return
        players = len(table["seats"])
        if changes:
            by_seat = {change["seat"]: change for change in changes}
            ranks = [by_seat[seat]["rank"] for seat in range(players)]
            deltas = [round(by_seat[seat]["rating_after"] - by_seat[seat]["rating_before"], 3)
                      for seat in range(players)]
            after = [by_seat[seat]["rating_after"] for seat in range(players)]
        else:  # not rated after all (a seat's binding was broken): places only
            row, live = await self.game_of(game.game_id)
            ranks, deltas, after = ranks_of(row, live.game), [0.0] * players, [0.0] * players
        table.update(done=True, ranks=ranks, changes=deltas, ratings=after,
                     forfeited=sorted(hosting.get("forfeited", ())))
