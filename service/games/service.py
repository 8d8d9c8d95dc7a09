"""GameService: builds its parts (one concern each, in this package) and answers every
RPC with one line that hands it to its part. Both transports call this class only.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

from ..accounts import Accounts
from ..accounts.challenges import Challenges
from ..accounts.stream import AccountStreams
from ..accounts.webhooks import Webhooks
from ..arena import ArenaRunner, Arenas
from ..bots.batches import BatchRunner, BatchStream
from ..bots.bot_seats import BotPool, available_cpus
from ..gen import game_service_pb2 as pb
from ..limits import ClientAddresses, SeatHoldings, WatchLimiter, parse_networks
from ..observability import RequestRecord
from ..ratings import Ratings
from ..store import Store
from ..views.answers import LegalOptions
from ..views.reply import Reply
from ..views.view_cache import ViewCache
from ..webhooks.sender import WebhookSender
from ..webhooks.targets import TargetPolicy
from .access import Access, Caller, Quotas
from .act import Play
from .create import Creation
from .delay import SpectatorDelay
from .export import Export, ExportFilter
from .live import LiveGames
from .lobby import Lobby
from .reads import Reads
from .rematch import Rematches
from .replay import Replays
from .settings import ServiceSettings
from .signals import ChangeBroker, Signals
from .timer import ServerMoves
from .upkeep import Upkeep
from .watch import Watching, WatchStream


class GameService:
    """The service both transports call: it builds its parts and hands each RPC to its
    part (one line each); nothing here decides anything."""

    def __init__(self, store: Store, settings: ServiceSettings | None = None) -> None:
        self.store = store
        self.settings = settings = settings or ServiceSettings()
        self.broker = ChangeBroker()
        self.watch_limiter = WatchLimiter(
            rate_per_second=settings.watch_rate_per_second,
            burst=settings.watch_burst,
            max_total=settings.max_watchers,
            max_per_game=settings.max_watchers_per_game,
            max_per_client=settings.max_watchers_per_client,
            max_per_address=settings.max_watchers_per_address,
            max_per_connection=settings.max_watchers_per_connection,
        )
        self.addresses = ClientAddresses(
            parse_networks(settings.trusted_proxies), settings.forwarded_header
        )
        self.quotas = Quotas.from_settings(settings)
        self.waiting_seats = SeatHoldings()
        self.batches = BatchRunner(settings.batch_limits())
        bot_workers = settings.bot_workers or available_cpus()
        # One worker more than the bots' lane has turns: the clock's stand-ins
        self.bots = BotPool(bot_workers + 1, settings.batch_worker_nice,
                            settings.bot_move_timeout_seconds)

        self.signals = Signals(self.broker, settings)
        self.live = LiveGames(store, settings)
        self.access = Access(settings, self.addresses, self.live)
        self.legal = LegalOptions()
        self.views = ViewCache()
        self.accounts = Accounts(store, settings)
        self.delay = SpectatorDelay(store)
        self.replays = Replays(store, self.live, self.access, self.quotas, self.delay)
        self.reads = Reads(store, settings, self.live, self.access, self.legal, self.replays,
                           self.accounts, self.delay, self.views)
        self.play = Play(store, settings, self.broker, self.live, self.access, self.signals,
                         self.legal, self.views)
        self.creation = Creation(store, settings, self.live, self.access, self.signals,
                                 self.quotas, self.accounts)
        self.lobby = Lobby(store, settings, self.broker, self.live, self.access, self.signals,
                           self.quotas, self.waiting_seats, self.accounts)
        self.rematches = Rematches(self.lobby, self.creation, self.access, self.accounts)
        self.watching = Watching(store, settings, self.broker, self.live, self.access,
                                 self.watch_limiter, self.delay, self.replays.game_at_version,
                                 self.views)
        self.server_moves = ServerMoves(store, settings, self.live, self.signals, self.lobby,
                                        self.play, self.bots, bot_workers)
        self.account_streams = AccountStreams(store, settings, self.accounts, self.broker)
        self.challenges = Challenges(store, settings, self.accounts, self.creation.create_game,
                                     self.account_streams.notify)
        self.account_streams.challenges = self.challenges
        self.ratings = Ratings(store, settings, self.live.get, self.lobby.record_ratings)
        self.signals.on_game_over = self.ratings.game_over
        self.arenas = Arenas(store, settings, self.access.require_operator, self.accounts.row)
        self.arena_runner = ArenaRunner(
            store, settings, self.arenas,
            lambda request, record, accounts: self.creation.create_game(
                request, Caller(token=None, peer="arena", internal=True), record, accounts),
            self.live.get, self.ratings.game_over, self.broker, self.accounts.row)
        self.arenas.on_created = self.arena_runner.run_soon
        self.upkeep = Upkeep(store, settings, self.broker, self.live)
        self.export = Export(store)
        policy = TargetPolicy.parse(settings.webhook_allow_private,
                                    settings.webhook_allowed_networks)
        self.webhooks = Webhooks(store, settings, self.accounts, policy)
        self.webhook_sender = WebhookSender(store, settings, policy)
        store.add_listener(self.signals.on_store_change)

    async def create_game(
        self, request: pb.CreateGameRequest, caller: Caller, record: RequestRecord
    ) -> pb.CreateGameResponse:
        return await self.creation.create_game(request, caller, record)

    async def create_game_from_position(
        self, request: pb.CreateGameFromPositionRequest, caller: Caller, record: RequestRecord
    ) -> pb.CreateGameResponse:
        return await self.creation.create_game_from_position(request, caller, record)

    async def reissue_seat_token(
        self, request: pb.ReissueSeatTokenRequest, caller: Caller, record: RequestRecord
    ) -> pb.ReissueSeatTokenResponse:
        return await self.lobby.reissue_seat_token(request, caller, record)

    async def join_game(
        self, request: pb.JoinGameRequest, caller: Caller, record: RequestRecord
    ) -> pb.JoinGameResponse:
        return await self.lobby.join_game(request, caller, record)

    async def leave_game(
        self, request: pb.LeaveGameRequest, caller: Caller, record: RequestRecord
    ) -> pb.LeaveGameResponse:
        return await self.lobby.leave_game(request, caller, record)

    async def start_game(
        self, request: pb.StartGameRequest, caller: Caller, record: RequestRecord
    ) -> pb.StartGameResponse:
        return await self.lobby.start_game(request, caller, record)

    async def resign_game(
        self, request: pb.ResignGameRequest, caller: Caller, record: RequestRecord
    ) -> pb.ResignGameResponse:
        return await self.lobby.resign_game(request, caller, record)

    async def rematch(
        self, request: pb.RematchRequest, caller: Caller, record: RequestRecord
    ) -> pb.RematchResponse:
        return await self.rematches.rematch(request, caller, record)

    async def revoke_seat_token(
        self, request: pb.RevokeSeatTokenRequest, caller: Caller, record: RequestRecord
    ) -> pb.RevokeSeatTokenResponse:
        return await self.lobby.revoke_seat_token(request, caller, record)

    async def set_seat_bot(
        self, request: pb.SetSeatBotRequest, caller: Caller, record: RequestRecord
    ) -> pb.SetSeatBotResponse:
        return await self.lobby.set_seat_bot(request, caller, record)

    async def get_game(
        self, request: pb.GetGameRequest, caller: Caller, record: RequestRecord
    ) -> Reply:
        return await self.reads.get_game(request, caller, record)

    async def list_legal_actions(
        self, request: pb.ListLegalActionsRequest, caller: Caller, record: RequestRecord
    ) -> Reply:
        return await self.reads.list_legal_actions(request, caller, record)

    async def list_games(
        self, request: pb.ListGamesRequest, record: RequestRecord, caller: Caller | None = None
    ) -> pb.ListGamesResponse:
        return await self.reads.list_games(request, record, caller)

    async def get_replay(
        self, request: pb.GetReplayRequest, caller: Caller, record: RequestRecord
    ) -> Reply:
        return await self.replays.get_replay(request, caller, record)

    async def submit_action(
        self, request: pb.SubmitActionRequest, caller: Caller, record: RequestRecord
    ) -> Reply:
        return await self.play.submit_action(request, caller, record)

    async def undo_action(
        self, request: pb.UndoActionRequest, caller: Caller, record: RequestRecord
    ) -> Reply:
        return await self.play.undo_action(request, caller, record)

    async def preview_action(
        self, request: pb.PreviewActionRequest, caller: Caller, record: RequestRecord
    ) -> pb.PreviewActionResponse:
        return await self.play.preview_action(request, caller, record)

    async def watch_game(
        self, request: pb.WatchGameRequest, caller: Caller, record: RequestRecord
    ) -> WatchStream:
        return await self.watching.watch_game(request, caller, record)

    def client_address(self, peer: str, headers: Callable[[str], str | None]) -> str:
        return self.access.client_address(peer, headers)

    async def authenticate(self, game_id: str, caller: Caller) -> None:
        return await self.access.authenticate(game_id, caller)

    def is_operator(self, caller: Caller) -> bool:
        return self.access.is_operator(caller)

    def require_operator(self, caller: Caller, what: str) -> None:
        return self.access.require_operator(caller, what)

    async def delete_abandoned_games(self, now: float | None = None) -> int:
        return await self.upkeep.delete_abandoned_games(now)

    async def refresh_gauges(self, ) -> None:
        return await self.upkeep.refresh_gauges()

    async def start(self) -> None:
        await self.upkeep.start()
        self.server_moves.start()
        self.webhook_sender.start()
        self.signals.webhooks_wake = self.webhook_sender.wake
        if self.settings.arena_config:
            await self.arenas.create_configured(self.settings.arena_config)
        self.arena_runner.start()

    async def stop(self) -> None:
        """A graceful stop: the server's moves in progress are abandoned and their claims
        given back (ServerMoves.stop), then everything close() closes is closed."""
        await self.arena_runner.stop()
        await self.server_moves.stop()
        await self.webhook_sender.stop()
        self.close()

    def close(self) -> None:
        self.upkeep.close()
        self.arena_runner.close()
        self.server_moves.close()
        self.batches.close()
        self.bots.close()

    def export_games(self, where: ExportFilter, caller: Caller) -> AsyncIterator[bytes]:
        """The lines of a bulk export of finished games (the operator's only); checked at
        once, before the first line is asked for."""
        self.access.require_operator(caller, "ExportGames")
        where.check()
        return self.export.lines(where)

    async def run_batch(
        self, request: pb.RunBatchRequest, caller: Caller, record: RequestRecord
    ) -> BatchStream:
        """Validates and admits a batch of bot games (the operator's only); returns the
        stream of its results."""
        self.access.require_operator(caller, "RunBatch")
        return self.batches.start(request, record)
