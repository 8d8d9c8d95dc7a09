"""The arena RPCs (issue 24, item 4): CreateArena (the operator's, or the server's own
for the arenas of its configuration file), GetArena and WatchArena; the arena as a
brass.v1 Arena message. Running one is runner.py's; pairings and the table of results
are schedule.py's.

An arena's entrants are accounts: a registered bot account plays through the bot API
with its key; a server bot plays under a server-owned bot account of its spec (made once,
with no key: nobody can act for it), so every seat of every arena game is an account's
and every game is rated.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

import structlog
from google.protobuf import json_format

from .. import hosted
from ..bots.bot_seats import check_seat_bot
from ..errors import ServiceError
from ..gen import game_service_pb2 as pb
from ..names import display_name, name_key
from ..observability import RequestRecord
from ..requests import decode_cursor, encode_cursor, request_options, require, ruleset_name
from ..store import Store, StoreUnavailable
from ..store.accounts import AccountRow
from ..store.arenas import FINISHED, RUNNING, ArenaRow
from ..views.summary import timestamp_message
from .schedule import new_round, round_robin, round_robin_games, standings

log = structlog.get_logger("brass_service.arena")

MAX_ARENA_ID_CHARS = 64
DEFAULT_SWISS_ROUNDS = 3


class ArenaSettings(Protocol):
    max_arena_entrants: int
    max_arena_rounds: int
    max_arena_games: int
    max_running_arenas: int
    max_arena_watchers: int
    default_page_size: int
    max_page_size: int
    arena_turn_ms: int
    watch_poll_seconds: float
    bot_max_mcts_iterations: int
    bot_max_search_cost: int


class ArenaCaller(Protocol):
    token: str | None
    peer: str


def _unavailable(exc: StoreUnavailable) -> ServiceError:
    return ServiceError("UNAVAILABLE", "the arena store is unavailable; retry")


def server_bot_account_id(spec: str) -> str:
    """The server-owned account of a server bot spec: the same spec, the same account."""
    return "s" + hashlib.sha256(spec.encode()).hexdigest()[:16]


def configured_arena_id(name: str) -> str:
    """The id of the configuration file's arena of this name (the same at every start)."""
    return "c" + hashlib.sha256(name.encode()).hexdigest()[:16]


def arena_message(row: ArenaRow) -> pb.Arena:
    config, state = row.config, row.state
    entrants = config["entrants"]
    players = config["players"]
    arena = pb.Arena(
        arena_id=row.arena_id, name=row.name, format=config["format"], status=row.status,
        ruleset=config["ruleset"], players=players, rounds=config["rounds"],
        round=min(state["round"] + 1, config["rounds"]), revision=row.revision,
        create_time=timestamp_message(row.created_at))
    if state.get("finished_at"):
        arena.finish_time.CopyFrom(timestamp_message(state["finished_at"]))
    for place, entrant, line in standings(len(entrants), players, state):
        arena.standings.append(pb.ArenaStanding(
            place=place, account_id=entrants[entrant]["account_id"],
            name=entrants[entrant]["name"], server_bot=entrants[entrant]["server_bot"],
            **line))
    for number, round_ in enumerate(state["rounds"], start=1):
        for table_number, table in enumerate(round_["tables"], start=1):
            arena.tables.append(pb.ArenaTable(
                round=number, table=table_number, game_id=table.get("game_id") or "",
                account_ids=[entrants[i]["account_id"] for i in table["seats"]],
                finished=bool(table.get("done")), ranks=table.get("ranks") or [],
                rating_changes=table.get("changes") or []))
    return arena


class Arenas:
    """CreateArena, GetArena, WatchArena; `notify` wakes an arena's watchers."""

    def __init__(self, store: Store, settings: ArenaSettings,
                 require_operator: Callable[[Any, str], None],
                 account_row: Callable[[str], Awaitable[AccountRow]]) -> None:
        self.store = store
        self.rows = store.arenas
        self.settings = settings
        self.require_operator = require_operator
        self.account_row = account_row  # Accounts.row: the account of an id, or UNKNOWN_ACCOUNT
        self.on_created: Callable[[str], None] | None = None  # the runner starts it
        self._wakes: dict[str, set[asyncio.Event]] = {}
        self._watchers = 0

    def notify(self, arena_id: str) -> None:
        for event in self._wakes.get(arena_id, ()):
            event.set()

    async def create(self, request: pb.CreateArenaRequest, caller: ArenaCaller,
                     record: RequestRecord) -> pb.CreateArenaResponse:
        self.require_operator(caller, "CreateArena")
        row = await self.create_arena(request, "r" + secrets.token_hex(8))
        record.extra["arena_id"] = row.arena_id
        return pb.CreateArenaResponse(arena=arena_message(row))

    async def create_arena(self, request: pb.CreateArenaRequest, arena_id: str) -> ArenaRow:
        """Checks the request, stores the arena with its first round planned, and has it
        started; an arena of this id stored already is returned as it is."""
        config = await self._config(request)
        try:
            existing = await self.rows.by_id(arena_id)
            if existing is not None:
                return existing
            if await self.rows.count_running() >= self.settings.max_running_arenas:
                raise ServiceError(
                    "RATE_LIMITED", f"{self.settings.max_running_arenas} arenas are running, "
                    "the most this server runs at once", limit="max_running_arenas",
                    retry_after_seconds=60.0)
            now = time.time()
            row = ArenaRow(arena_id, config.pop("name"), RUNNING, config,
                           _first_state(config), 0, now, now)
            if not await self.rows.create(row):  # made meanwhile by another process
                existing = await self.rows.by_id(arena_id)
                assert existing is not None
                return existing
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        log.info("arena_created", arena_id=arena_id, entrants=len(config["entrants"]),
                 rounds=config["rounds"])
        if self.on_created is not None:
            self.on_created(arena_id)
        return row

    async def _config(self, request: pb.CreateArenaRequest) -> dict[str, Any]:
        """The arena's settings as stored, checked (every bound a field of its own)."""
        name = display_name(request.name, "name")
        require(request.format in pb.ArenaFormat.values(), "format is not an ArenaFormat",
                "format")
        arena_format = request.format or pb.ARENA_FORMAT_ROUND_ROBIN
        players = request.players or 2
        cap = self.settings.max_arena_entrants
        require(2 <= len(request.entrants) <= cap,
                f"an arena has 2 to {cap} entrants", "entrants")
        require(2 <= players <= min(4, len(request.entrants)),
                "players (per table) must be 2 to 4, and at most the number of entrants",
                "players")
        require(0 <= request.rounds <= self.settings.max_arena_rounds,
                f"rounds must be 0 (the default) to {self.settings.max_arena_rounds}",
                "rounds")
        ruleset_name(request.ruleset)
        request_options(request.options)
        # the games' hosted options (clock, policies, stand-in) are refused now, not at
        # each game's creation
        stand_in = check_seat_bot(request.options.stand_in_bot or hosted.DEFAULT_STAND_IN,
                                  self.settings.bot_max_mcts_iterations,
                                  "options.stand_in_bot", self.settings.bot_max_search_cost)
        hosted.new_hosting(request.options, {}, stand_in,
                           hosted.clock_settings(request.options.clock))
        entrants = [await self._entrant(entrant, f"entrants[{index}]")
                    for index, entrant in enumerate(request.entrants)]
        ids = [entrant["account_id"] for entrant in entrants]
        require(len(set(ids)) == len(ids), "every entrant enters once", "entrants")
        if arena_format == pb.ARENA_FORMAT_ROUND_ROBIN:
            cycles = request.rounds or 1
            games = round_robin_games(len(entrants), players, cycles)
        else:
            cycles, rounds = 0, request.rounds or DEFAULT_SWISS_ROUNDS
            games = rounds * (len(entrants) // players)
        require(games <= self.settings.max_arena_games,
                f"the arena would play {games} games; at most "
                f"{self.settings.max_arena_games}", "rounds")
        if arena_format == pb.ARENA_FORMAT_ROUND_ROBIN:  # (planned once the games are few)
            rounds = len(round_robin(len(entrants), players, cycles))
        options = self._game_options(request.options)
        return {"name": name, "format": arena_format, "players": players, "rounds": rounds,
                "cycles": cycles, "ruleset": request.ruleset or pb.RULESET_BIRMINGHAM,
                "options": json_format.MessageToDict(options),
                "seed": request.seed if request.HasField("seed") else secrets.randbits(63),
                "entrants": entrants}

    def _game_options(self, options: pb.GameOptions) -> pb.GameOptions:
        """The arena games' options: a bot that does not answer in time forfeits (as a
        person would); no undo; the server's turn clock unless the arena has its own."""
        game = pb.GameOptions()
        game.CopyFrom(options)
        game.on_timeout = pb.TIMEOUT_POLICY_FORFEIT
        game.undo = False
        if not game.HasField("clock"):
            game.clock.turn_ms = self.settings.arena_turn_ms
        return game

    async def _entrant(self, entrant: pb.ArenaEntrant, field: str) -> dict[str, str]:
        require(bool(entrant.account_id) != bool(entrant.server_bot),
                "an entrant is an account_id or a server_bot (one of them)", field)
        if entrant.account_id:
            require(len(entrant.account_id) <= MAX_ARENA_ID_CHARS, "account_id is too long",
                    f"{field}.account_id")
            account = await self.account_row(entrant.account_id)
            require(account.bot, f"account {account.account_id} is not a bot's account",
                    f"{field}.account_id")
            return {"account_id": account.account_id, "name": account.name, "server_bot": ""}
        spec = check_seat_bot(entrant.server_bot, self.settings.bot_max_mcts_iterations,
                              f"{field}.server_bot", self.settings.bot_max_search_cost)
        account = await self._server_bot_account(spec)
        return {"account_id": account.account_id, "name": account.name, "server_bot": spec}

    async def _server_bot_account(self, spec: str) -> AccountRow:
        """The server-owned bot account of `spec`, made the first time (named after the
        spec, or after its id should another account have that name)."""
        account_id = server_bot_account_id(spec)
        rows = self.store.accounts
        try:
            found = await rows.by_id(account_id)
            if found is not None:
                return found
            for name in (f"{spec} (server)"[:64], f"Server bot {account_id}"):
                row = AccountRow(account_id, name, True, None, time.time())
                if await rows.create(row, name_key(name)):
                    return row
                found = await rows.by_id(account_id)  # made meanwhile by another process
                if found is not None:
                    return found
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        raise ServiceError("NAME_TAKEN", f"no name is left for the server bot {spec!r}")

    async def row(self, arena_id: str) -> ArenaRow:
        require(0 < len(arena_id) <= MAX_ARENA_ID_CHARS,
                f"arena_id is required (at most {MAX_ARENA_ID_CHARS} characters)", "arena_id")
        try:
            row = await self.rows.by_id(arena_id)
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        if row is None:
            raise ServiceError("UNKNOWN_ARENA", f"no arena has id {arena_id!r}",
                               arena_id=arena_id)
        return row

    async def get(self, request: pb.GetArenaRequest, caller: ArenaCaller,
                  record: RequestRecord) -> pb.GetArenaResponse:
        return pb.GetArenaResponse(arena=arena_message(await self.row(request.arena_id)))

    async def list(self, request: pb.ListArenasRequest, caller: ArenaCaller,
                   record: RequestRecord) -> pb.ListArenasResponse:
        require(request.status in pb.ArenaStatus.values(), "status is not an ArenaStatus",
                "status")
        size = request.page_size or self.settings.default_page_size
        require(1 <= size <= self.settings.max_page_size,
                f"page_size must be between 1 and {self.settings.max_page_size}", "page_size")
        cursor = decode_cursor(request.page_token) if request.page_token else None
        try:
            rows = await self.rows.page(request.status, size + 1, cursor)
        except StoreUnavailable as exc:
            raise _unavailable(exc) from exc
        response = pb.ListArenasResponse()
        for row in rows[:size]:
            arena = arena_message(row)
            del arena.tables[:]
            response.arenas.append(arena)
        if len(rows) > size:
            response.next_page_token = encode_cursor((rows[size - 1].created_at,
                                                      rows[size - 1].arena_id))
        return response

    async def watch(self, request: pb.WatchArenaRequest, caller: ArenaCaller
                    ) -> AsyncIterator[pb.WatchArenaResponse]:
        """Admits the stream (refusals before its first message) and returns it."""
        row = await self.row(request.arena_id)
        if self._watchers >= self.settings.max_arena_watchers:
            raise ServiceError("RATE_LIMITED", "the server holds as many arena streams as it "
                               "may", limit="max_arena_watchers")
        return self._stream(row)

    async def _stream(self, row: ArenaRow) -> AsyncIterator[pb.WatchArenaResponse]:
        wake = asyncio.Event()
        self._wakes.setdefault(row.arena_id, set()).add(wake)
        self._watchers += 1
        try:
            yield pb.WatchArenaResponse(arena=arena_message(row))
            while row.status == RUNNING:
                wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), self.settings.watch_poll_seconds)
                if await self.rows.revision(row.arena_id) != row.revision:
                    row = await self.row(row.arena_id)
                    yield pb.WatchArenaResponse(arena=arena_message(row))
        finally:
            self._watchers -= 1
            held = self._wakes.get(row.arena_id, set())
            held.discard(wake)
            if not held:
                self._wakes.pop(row.arena_id, None)

    async def create_configured(self, path: str) -> None:
        """The arenas of the server's configuration file (BRASS_ARENA_CONFIG; its form:
        load_arena_config). Each is made once, under an id drawn from its name: at a restart
        an arena of the file is resumed, or left finished, never started again. One that
        cannot be made (an unknown account, a bound) is logged and left out."""
        for request in load_arena_config(path):
            try:
                await self.create_arena(request, configured_arena_id(request.name))
            except ServiceError as error:
                log.error("arena_config_refused", arena=request.name, reason=error.reason,
                          error=error.message)


def load_arena_config(path: str) -> list[pb.CreateArenaRequest]:
    """The arenas of a configuration file: a JSON object {"arenas": [CreateArenaRequest
    as proto3 JSON, …]}; ArenaConfigError when it cannot be read (checked at start-up,
    before the server serves)."""
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
        return [json_format.ParseDict(entry, pb.CreateArenaRequest())
                for entry in document["arenas"]]
    except (OSError, ValueError, KeyError, TypeError, json_format.ParseError) as exc:
        raise ArenaConfigError(f"arena configuration {path}: {exc}") from exc


class ArenaConfigError(ValueError):
    """The arena configuration file cannot be used."""


def _first_state(config: dict[str, Any]) -> dict[str, Any]:
    """The state of a new arena: round-robin rounds all planned, Swiss rounds one by one
    (the runner plans each from the standings)."""
    state: dict[str, Any] = {"round": 0, "rounds": [], "finished_at": None}
    if config["format"] == pb.ARENA_FORMAT_ROUND_ROBIN:
        rounds = round_robin(len(config["entrants"]), config["players"],
                                      config["cycles"])
        state["rounds"] = [new_round(tables, [], config["seed"], index)
                           for index, tables in enumerate(rounds)]
    return state


__all__ = ["FINISHED", "ArenaConfigError", "Arenas", "arena_message"]
