"""GetGame, ListLegalActions and ListGames: the reads of a game's present (its past is
replay.py's).
"""

from __future__ import annotations

import brass

from .. import hosted
from ..accounts import Accounts
from ..errors import ServiceError, from_engine_error
from ..gen import game_service_pb2 as pb
from ..i18n import LANGUAGE, Text, reason_text
from ..observability import RequestRecord
from ..requests import check_compound_length, decode_cursor, encode_cursor, require
from ..store import ListFilter, Store, StoreUnavailable
from ..views import typed
from ..views.answers import LegalOptions, StateParts, add_compound_actions, length_delimited
from ..views.reply import Reply
from ..views.summary import game_summary
from ..views.view_cache import ViewCache
from .access import Access, Caller
from .delay import SpectatorDelay
from .live import LiveGames
from .replay import Replays
from .settings import ServiceSettings

# GetGameResponse's state field.
_STATE_FIELD = pb.GetGameResponse.DESCRIPTOR.fields_by_name["state"].number


class Reads:
    """GetGame, ListLegalActions, ListGames."""

    def __init__(self, store: Store, settings: ServiceSettings, live: LiveGames,
                 access: Access, legal: LegalOptions, replays: Replays,
                 accounts: Accounts, delay: SpectatorDelay, views: ViewCache) -> None:
        self.accounts = accounts
        self.delay = delay
        self.store = store
        self.settings = settings
        self.live = live
        self.access = access
        self.legal = legal
        self.views = views
        self.replays = replays

    async def get_game(
        self, request: pb.GetGameRequest, caller: Caller, record: RequestRecord
    ) -> Reply:
        record.game_id = request.game_id
        if request.HasField("at_version"):
            self.replays.admit_past_read(caller)
        row, live = await self.live.get(request.game_id)
        seat = self.access.seat_of(row, caller)
        if request.HasField("at_version"):
            target = request.at_version
            require(0 <= target <= live.version,
                     f"at_version must be from 0 to {live.version}", "at_version")
            await self.delay.require_visible(row, live, seat, target, "at_version")
        elif self.delay.applies(row, live, seat):  # the game some turns back
            target = await self.delay.visible_version(row, live, seat)
        else:
            target = live.version
        if target != live.version:
            live = await self.replays.game_at_version(row, target)
        record.seat, record.version = seat, live.version
        parts = StateParts(row, live, seat, self.views)
        return Reply(
            pb.GetGameResponse,
            make_data=lambda: length_delimited(_STATE_FIELD, parts.to_bytes()),
            json_text=lambda: '{"state":' + parts.to_json_text() + "}",
        )

    async def list_legal_actions(
        self, request: pb.ListLegalActionsRequest, caller: Caller, record: RequestRecord
    ) -> Reply:
        record.game_id = request.game_id
        row, live = await self.live.get(request.game_id)
        seat = self.access.require_seat(row, caller, "ListLegalActions")
        game = live.game
        record.seat, record.version = seat, live.version
        if game.is_over or hosted.is_ended(row):
            raise ServiceError("GAME_OVER", Text("game_over", game_id=row.game_id),
                               version=live.version)
        if game.current_seat != seat:
            raise ServiceError(
                "NOT_YOUR_TURN",
                Text("not_your_turn", current_seat=game.current_seat, seat=seat),
                version=live.version,
                current_seat=game.current_seat,
            )
        if request.after_ids:
            game = self._after_steps(game, list(request.after_ids), seat, live.version)
            head = pb.ListLegalActionsResponse(game_id=row.game_id, version=live.version,
                                               seat=seat, decision=game.decision)
            options_bytes, options_json = self.legal.options(game.decision, game)
        else:
            head, options_bytes, options_json = self.legal.parts(row, live, seat)
        if request.include_unavailable:
            language = LANGUAGE.get()
            for option_id, reason, message in game.unavailable():
                head.unavailable.add(id=option_id, reason=reason,
                                     message=reason_text(game.ruleset, reason, message, language),
                                     **{typed.reason_code_field(game.ruleset): reason})
        if request.include_compound_actions:
            add_compound_actions(head, game)
        plain = not (request.include_unavailable or request.include_compound_actions)
        return Reply(
            pb.ListLegalActionsResponse,
            data=head.SerializeToString() + options_bytes,
            json_text=lambda: self.legal.json_text(head, options_json, plain),
        )

    @staticmethod
    def _after_steps(game: brass.Game, ids: list[int], seat: int, version: int) -> brass.Game:
        """A copy of `game` after the first steps `ids` of the seat's action in progress (the
        core refuses ids that are not such steps)."""
        check_compound_length(len(ids), "after_ids")
        work = game.clone()
        try:
            work.apply_partial(ids, seat=seat)
        except brass.EngineError as exc:
            raise from_engine_error(exc, game.ruleset, version=version) from exc
        return work

    async def list_games(
        self, request: pb.ListGamesRequest, record: RequestRecord, caller: Caller | None = None
    ) -> pb.ListGamesResponse:
        page_size = request.page_size or self.settings.default_page_size
        require(
            1 <= page_size <= self.settings.max_page_size,
            f"page_size must be between 1 and {self.settings.max_page_size}",
            "page_size",
        )
        cursor = decode_cursor(request.page_token) if request.page_token else None
        status = request.status if request.status != pb.GAME_STATUS_UNSPECIFIED else None
        account_id = request.account_id or None
        require(len(request.account_id) <= 64, "account_id is too long", "account_id")
        # an account's own key lists its unlisted games too
        own = (account_id is not None and caller is not None
               and await self.accounts.is_own(caller, account_id))
        try:
            page = await self.store.list_games(page_size, cursor, status, ListFilter(
                ruleset=request.ruleset or None,
                has_open_seats=(request.has_open_seats if request.HasField("has_open_seats")
                                else None),
                public_only=not own,
                account_id=account_id,
            ))
        except StoreUnavailable as exc:
            raise ServiceError("UNAVAILABLE", Text("store_unavailable")) from exc
        record.extra["returned"] = len(page.games)
        return pb.ListGamesResponse(
            games=[game_summary(row) for row in page.games
                   # (a seat the account left, or whose token was reissued, lists no more)
                   if account_id is None or account_id in hosted.accounts_of(row).values()],
            next_page_token=encode_cursor(page.next_cursor) if page.next_cursor else "",
        )
