"""CreateGame and CreateGameFromPosition: checks and quotas, the hosting state, the first
row with its seats' token digests, and the tokens returned once.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

import brass
from brass.position import MAX_POSITION_CHARS

from .. import auth, hosted
from ..accounts import Accounts
from ..bots.bot_seats import check_seat_bot
from ..errors import ServiceError, from_engine_error
from ..gen import game_service_pb2 as pb
from ..i18n import Text
from ..model import LiveGame, status_of
from ..names import name_key
from ..observability import RequestRecord
from ..requests import (
    ENGINE_RULESETS,
    RULESET_IDS,
    check_open_seats,
    check_seat_names,
    new_game_id,
    request_options,
    require,
    ruleset_name,
    same_name_refusal,
)
from ..store import GameRow, Snapshot, Store, StoreUnavailable
from ..store.accounts import AccountRow
from ..views.answers import game_state
from ..views.summary import _VISIBILITY_NAMES
from ..webhooks.events import created_events
from .access import Access, Caller, Quotas, address_digest, address_identity, creator_digest
from .live import LiveGames
from .settings import ServiceSettings
from .signals import Signals


@dataclass(frozen=True)
class Issued:
    """A game whose id and tokens were given out before it was stored (a rematch)."""

    game_id: str
    seat_digests: list[str]
    host_digest: str


class Creation:
    """CreateGame and CreateGameFromPosition: the first row, the seats' tokens."""

    def __init__(self, store: Store, settings: ServiceSettings, live: LiveGames,
                 access: Access, signals: Signals, quotas: Quotas,
                 accounts: Accounts) -> None:
        self.accounts = accounts
        self.store = store
        self.settings = settings
        self.live = live
        self.access = access
        self.signals = signals
        self.quotas = quotas

    async def create_game(
        self, request: pb.CreateGameRequest, caller: Caller, record: RequestRecord,
        other_accounts: tuple[tuple[int, AccountRow], ...] = (),
    ) -> pb.CreateGameResponse:
        """CreateGame; `other_accounts`: seats bound to other accounts besides the
        caller's (an accepted challenge's challenger)."""
        ruleset = ruleset_name(request.ruleset)
        require(2 <= request.players <= 4, "players must be 2, 3 or 4", "players")
        check_open_seats(list(request.open_seats), request.players)
        seat_names = check_seat_names(list(request.seat_names), request.players,
                                       set(request.open_seats))
        require(
            request.visibility in _VISIBILITY_NAMES, "visibility is not a Visibility",
            "visibility",
        )
        hosting = self._new_hosting(request)
        account = await self.accounts.account_of(caller)
        bound = [*other_accounts] if account is None else [
            (_account_seat(request, set(hosted.bots_of(hosting))), account), *other_accounts]
        require(account is not None or not request.HasField("account_seat"),
                "account_seat needs an account key as the bearer token", "account_seat")
        for _, owner in bound:
            await self.accounts.check_games_at_once(owner)
        operator = self.access.is_operator(caller)
        hosting["creator"] = creator_digest(caller, operator)
        hosting["host_address"] = address_digest(caller)  # not limited per game in joins
        if request.rated:
            hosting["rated"] = True
        if not operator:
            bots = len(hosting["bots"])
            self.access.admit(address_identity(caller), [
                (self.quotas.create_quota, 1),
                (self.quotas.bot_seat_quota, bots),
                (self.quotas.bot_game_quota, 1 if bots else 0),
                (self.quotas.all_bot_game_quota, 1 if bots == request.players else 0),
            ])
        seed = request.seed if request.HasField("seed") else secrets.randbits(63)
        options = request_options(request.options)
        try:
            game = brass.Game.new(players=request.players, seed=seed, ruleset=ruleset,
                                  options=options)
        except brass.EngineError as exc:
            raise from_engine_error(exc) from exc
        # Store the options the engine actually used, so the replay record is complete.
        used_options = game.replay_record().get("options", options)
        return await self.store_new_game(
            game, seat_names, seed=seed, options=used_options,
            position_json=None, record=record, open_seats=set(request.open_seats),
            visibility=request.visibility or pb.VISIBILITY_PUBLIC, hosting=hosting,
            accounts=bound,
        )

    def _new_hosting(self, request: pb.CreateGameRequest) -> dict[str, Any]:
        """The hosting settings of CreateGame (bot seats, clock, policies), checked."""
        bots: dict[int, str] = {}
        cap, cost = self.settings.bot_max_mcts_iterations, self.settings.bot_max_search_cost
        for index, bot_seat in enumerate(request.bot_seats):
            field_name = f"bot_seats[{index}]"
            require(0 <= bot_seat.seat < request.players,
                     f"a bot seat is a seat index from 0 to {request.players - 1}",
                     f"{field_name}.seat")
            require(bot_seat.seat not in bots, f"seat {bot_seat.seat} has two bots",
                     f"{field_name}.seat")
            require(bot_seat.seat not in request.open_seats,
                     f"seat {bot_seat.seat} is open and a bot seat", f"{field_name}.seat")
            bots[bot_seat.seat] = check_seat_bot(bot_seat.bot, cap, f"{field_name}.bot",
                                                 cost)
        stand_in = check_seat_bot(request.options.stand_in_bot or hosted.DEFAULT_STAND_IN,
                                  cap, "options.stand_in_bot", cost)
        clock = hosted.clock_settings(request.options.clock)
        return hosted.new_hosting(request.options, bots, stand_in, clock)

    async def create_game_from_position(
        self, request: pb.CreateGameFromPositionRequest, caller: Caller, record: RequestRecord
    ) -> pb.CreateGameResponse:
        self.access.require_operator(caller, "CreateGameFromPosition")
        require(
            request.ruleset == pb.RULESET_UNSPECIFIED or request.ruleset in ENGINE_RULESETS,
            f"ruleset {request.ruleset} is not supported",
            "ruleset",
        )
        require(request.position_json != "", "position_json is required", "position_json")
        if len(request.position_json) > MAX_POSITION_CHARS:
            raise ServiceError(
                "BAD_POSITION", f"position_json is over {MAX_POSITION_CHARS} characters",
                field="position_json",
            )
        try:
            json.loads(request.position_json)
        except ValueError as exc:
            raise ServiceError(
                "BAD_POSITION", f"position_json is not valid JSON: {exc}", field="position_json"
            ) from exc
        except RecursionError as exc:
            raise ServiceError(
                "BAD_POSITION", "position_json is nested too deeply", field="position_json"
            ) from exc
        try:
            game = brass.Game.from_position(request.position_json)
        except brass.EngineError as exc:
            raise from_engine_error(exc) from exc
        except RecursionError as exc:
            raise ServiceError(
                "BAD_POSITION", "position_json is nested too deeply", field="position_json"
            ) from exc
        # unspecified: the position's own ruleset; else the two must agree
        if request.ruleset != pb.RULESET_UNSPECIFIED and game.ruleset != ENGINE_RULESETS[
            request.ruleset
        ]:
            raise ServiceError(
                "BAD_POSITION",
                f"the position is a {game.ruleset} position, not "
                f"{ENGINE_RULESETS[request.ruleset]}",
                field="ruleset",
            )
        # the engine's own rewrite is stored, never the client's text
        canonical = json.dumps(game.replay_record()["position"], separators=(",", ":"))
        return await self.store_new_game(
            game, list(request.seat_names), seed=None, options={},
            position_json=canonical, record=record,
        )

    async def store_new_game(
        self,
        game: Any,
        seat_names: list[str],
        *,
        seed: int | None,
        options: dict[str, Any],
        position_json: str | None,
        record: RequestRecord,
        open_seats: set[int] = frozenset(),  # type: ignore[assignment]
        visibility: int = pb.VISIBILITY_PUBLIC,
        hosting: dict[str, Any] | None = None,
        accounts: list[tuple[int, AccountRow]] | None = None,
        issued: Issued | None = None,
    ) -> pb.CreateGameResponse:
        """Stores a new game. `issued`: a rematch's id and the digests of the tokens its
        seats and host were already given (none is made here)."""
        players = game.num_players
        seat_names = check_seat_names(seat_names, players, open_seats)
        bots = hosted.bots_of(hosting or {})
        names = seat_names or [
            f"Bot ({bots[i]})" if i in bots else f"Player {i + 1}" for i in range(players)
        ]
        names = ["" if i in open_seats else name for i, name in enumerate(names)]
        for seat, owner in accounts or ():
            _name_for_account(names, seat, owner)
        tokens = ["" if i in open_seats or i in bots or issued else auth.new_token()
                  for i in range(players)]
        digests = [hosted.BOT_DIGEST if i in bots else auth.hash_token(t) if t else ""
                   for i, t in enumerate(tokens)]
        host_token = "" if issued else auth.new_token()
        now = time.time()
        game_id = new_game_id()
        if issued is not None:
            game_id, digests = issued.game_id, list(issued.seat_digests)
        for seat, owner in accounts or ():
            assert hosting is not None
            hosted.bind_account(hosting, seat, owner.account_id, digests[seat])
            # listed first: should the game's write fail, the listing names no game
            await self.accounts.list_seat(game_id, seat, owner.account_id)
        started = not open_seats
        clock = (hosted.clock_start(hosting, players, game.current_seat, now)
                 if hosting is not None and started else None)
        if hosting is not None and started:
            hosting["started_at"] = now
        row = GameRow(
            game_id=game_id,
            ruleset=RULESET_IDS[game.ruleset],
            rules_edition=int(game.rules_edition),
            players=players,
            seed=seed,
            options=options,
            position_json=position_json,
            seat_names=names,
            token_hashes=digests,
            created_at=now,
            updated_at=now,
            version=0,
            status=pb.GAME_STATUS_WAITING if open_seats else status_of(game),
            current_seat=game.current_seat,
            decision=game.decision,
            visibility=visibility,
            host_token_hash=issued.host_digest if issued else auth.hash_token(host_token),
            open_seats=len(open_seats),
            hosting=hosting,
            clock=clock,
            next_due=hosted.next_due(hosting or {}, clock, game.current_seat,
                                     started and not game.is_over, now,
                                     self.settings.bot_move_delay_seconds),
        )
        live = LiveGame(game, 0, now, clock)
        hooks = created_events(row)
        try:
            mark = await self.store.create_game(row, Snapshot(0, game.snapshot()), hooks)
        except StoreUnavailable as exc:
            raise ServiceError("UNAVAILABLE", Text("store_unavailable")) from exc
        self.live.remember(row, live, mark, checked=True)
        record.game_id, record.version = row.game_id, 0
        self.signals.wake_timer(row.next_due)
        self.signals.wake_webhooks(hooks)
        return pb.CreateGameResponse(
            game_id=row.game_id,
            seats=[
                pb.SeatToken(seat=i, name=names[i], token=tokens[i])
                for i in range(players) if tokens[i]
            ],
            state=game_state(row, live, None),
            host_token=host_token,
        )


def _account_seat(request: pb.CreateGameRequest, bots: set[int]) -> int:
    """CreateGame with an account key: the seat bound to the account."""
    taken = set(request.open_seats) | bots
    if request.HasField("account_seat"):
        seat = request.account_seat
        require(0 <= seat < request.players and seat not in taken,
                 f"account_seat must be a seat from 0 to {request.players - 1} that is "
                 "neither open nor a bot's", "account_seat")
        return seat
    free = [seat for seat in range(request.players) if seat not in taken]
    require(bool(free), "every seat is open or a bot's: none is left for the account",
             "account_seat")
    return free[0]


def _name_for_account(names: list[str], seat: int, account: AccountRow) -> None:
    """The account's seat takes the account's name, which no other seat may have."""
    names[seat] = account.name
    for other, name in enumerate(names):
        if other != seat and name and name_key(name) == name_key(account.name):
            raise same_name_refusal(f"seat_names[{other}]", seat, account.name)
