"""The seats of a game: join, leave, start, reissue and revoke tokens (with bans), bot
seats, resignation and forfeit. Every change is a conditional write of the seats, retried
when another process changed them first.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

from .. import auth, hosted
from ..accounts import Accounts
from ..bots.bot_seats import check_seat_bot
from ..errors import ServiceError
from ..gen import game_service_pb2 as pb
from ..i18n import Text
from ..limits import RateQuota, SeatHoldings
from ..model import is_waiting
from ..names import display_name, name_key
from ..observability import RequestRecord
from ..requests import check_game_id, require, same_name_refusal
from ..store import GameRow, SeatsUpdate, Store, StoreUnavailable
from ..views.answers import game_state
from ..views.summary import game_summary
from ..webhooks.events import seats_events
from .access import Access, Caller, Quotas, address_digest, address_identity
from .live import LiveGames
from .settings import ServiceSettings
from .signals import ChangeBroker, Signals

# RevokeSeatToken with ban: the addresses and the names a game keeps barred (each list).
MAX_BANS_PER_GAME = 64


# When a client holding max_waiting_seats_per_address seats is told to try again: its seats
# free up when their games start or it leaves one, not at a known time.
_WAITING_SEATS_RETRY_SECONDS = 30.0


# JoinGame, LeaveGame, StartGame: how often a change of seats is retried when another
# process changed the seats between its read and its write.
_SEATS_ATTEMPTS = 8


_KEEP: Any = object()


def seats_update(
    row: GameRow, names: list[str], digests: list[str], hosting: dict[str, Any],
    bot_delay: float, status: int | None = None, clock: Any = _KEEP,
) -> SeatsUpdate:
    """A change of the seats of `row` (read from the store just before) to these names,
    digests and hosting state, with the clock (kept unless given) and when the server must
    next act, worked out from the row's head."""
    now = time.time()
    clock = row.clock if clock is _KEEP else clock
    playing = (status or row.status) == pb.GAME_STATUS_IN_PROGRESS
    vacant = set(hosting.get("vacant", ()))
    open_count = sum(1 for i, d in enumerate(digests) if not d and i not in vacant)
    return SeatsUpdate(
        row.seats_revision, names, digests, open_count, status, now, hosting=hosting,
        clock=clock,
        next_due=hosted.next_due(hosting, clock, row.current_seat, playing, now, bot_delay),
    )


def _seat_set(row: GameRow, seat: int, name: str, digest: str, event: str,
              bot_delay: float) -> SeatsUpdate:
    """The seats of `row` with `seat` taken (a token's digest) or freed (digest ""), and
    the lobby event saying so."""
    names, digests = list(row.seat_names), list(row.token_hashes)
    names[seat], digests[seat] = name, digest
    hosting = hosted.changed(row)
    hosted.add_event(hosting, row, event, seat=seat, name=name)
    return seats_update(row, names, digests, hosting, bot_delay)


def _check_name_free(row: GameRow, name: str) -> None:
    """JoinGame: no seat of the game has this name already (names.name_key)."""
    key = name_key(name)
    for seat, taken in enumerate(row.seat_names):
        if taken and row.token_hashes[seat] and name_key(taken) == key:
            raise same_name_refusal("name", seat, taken)


def _refuse_account_seated(row: GameRow, account_id: str) -> None:
    """JoinGame with an account key: one seat of a game per account (a rated game is
    between distinct accounts)."""
    for seat, holder in hosted.accounts_of(row).items():
        if holder == account_id:
            raise ServiceError(
                "ALREADY_SEATED", f"this account already holds seat {seat} of game "
                f"{row.game_id}", game_id=row.game_id, seat=seat)


def _refuse_banned(row: GameRow, hosting: dict[str, Any], digest: str, name: str) -> None:
    """JoinGame: the host banned this address, or this name, from the game."""
    banned = hosting.get("banned", {})
    if digest in banned.get("addresses", ()) or name_key(name) in banned.get("names", ()):
        raise ServiceError(
            "BANNED", Text("banned", game_id=row.game_id), game_id=row.game_id,
        )


def _ban(hosting: dict[str, Any], joiner: str | None, name: str) -> None:
    """RevokeSeatToken with ban: bars the seat's joiner (its address) and its name from
    JoinGame; the most recent MAX_BANS_PER_GAME of each are kept."""
    banned = hosting.setdefault("banned", {})
    for kind, value in (("addresses", joiner), ("names", name_key(name) if name else None)):
        if value is None:
            continue
        kept = [item for item in banned.get(kind, ()) if item != value]
        banned[kind] = [*kept, value][-MAX_BANS_PER_GAME:]


class Lobby:
    """The seats of a game: join, leave, start, reissue, revoke, bot seats, resignation."""

    def __init__(self, store: Store, settings: ServiceSettings, broker: ChangeBroker,
                 live: LiveGames, access: Access, signals: Signals, quotas: Quotas,
                 waiting_seats: SeatHoldings, accounts: Accounts) -> None:
        self.accounts = accounts
        self.store = store
        self.settings = settings
        self.broker = broker
        self.live = live
        self.access = access
        self.signals = signals
        self.quotas = quotas
        self.waiting_seats = waiting_seats

    async def change_seats(
        self, game_id: str, record: RequestRecord,
        change: Callable[[GameRow], tuple[SeatsUpdate, Any]],
    ) -> tuple[GameRow, Any]:
        """Reads the game's row, lets `change` check it and say the new seats (it raises
        to refuse), and stores them if nobody changed the seats meanwhile; otherwise reads
        again and retries. Returns the stored row and what `change` returned beside."""
        check_game_id(game_id)
        record.game_id = game_id
        async with self.live.lock_for(game_id):  # this process's changes wait their turn
            for _ in range(_SEATS_ATTEMPTS):
                row = await self.live.row(game_id)
                update, extra = change(row)
                try:
                    hooks = seats_events(row, update)
                    applied = await self.store.update_seats(game_id, update, hooks)
                except StoreUnavailable as exc:
                    raise ServiceError(
                        "UNAVAILABLE", Text("store_unavailable")
                    ) from exc
                if applied:
                    stored = await self.live.row(game_id)
                    entry = self.live.entry(game_id)
                    if entry is not None:
                        entry.row = stored
                    self.broker.publish(game_id, stored.version)
                    self.signals.wake_timer(stored.next_due)
                    self.signals.wake_webhooks(hooks)
                    if stored.status == pb.GAME_STATUS_FINISHED:
                        self.signals.game_over(game_id)
                    return stored, extra
        raise ServiceError("UNAVAILABLE", "the seats keep changing; retry")

    async def reissue_seat_token(
        self, request: pb.ReissueSeatTokenRequest, caller: Caller, record: RequestRecord
    ) -> pb.ReissueSeatTokenResponse:
        token = auth.new_token()

        def reissue(row: GameRow) -> tuple[SeatsUpdate, None]:
            self.access.require_host(row, caller, "ReissueSeatToken")
            if row.status == pb.GAME_STATUS_FINISHED:
                raise ServiceError("GAME_OVER", Text("game_over", game_id=row.game_id),
                                   game_id=row.game_id)
            require(0 <= request.seat < row.players,
                     f"seat must be from 0 to {row.players - 1}", "seat")
            hosting = hosted.hosting_of(row)
            vacant = request.seat in hosting.get("vacant", ())
            require(row.token_hashes[request.seat] != "" or vacant,
                     f"seat {request.seat} is open: JoinGame takes it", "seat")
            self.access.require_no_bot(row, request.seat)
            update = _seat_set(row, request.seat, row.seat_names[request.seat],
                               auth.hash_token(token), "seat_token_reissued", self._bot_delay)
            assert update.hosting is not None
            update.hosting.get("joiners", {}).pop(str(request.seat), None)
            if vacant:
                update.hosting["vacant"] = [
                    s for s in update.hosting.get("vacant", ()) if s != request.seat]
            return update, None

        row, _ = await self.change_seats(request.game_id, record, reissue)
        record.seat = request.seat
        return pb.ReissueSeatTokenResponse(seat=pb.SeatToken(
            seat=request.seat, name=row.seat_names[request.seat], token=token))

    async def join_game(
        self, request: pb.JoinGameRequest, caller: Caller, record: RequestRecord
    ) -> pb.JoinGameResponse:
        account = await self.accounts.account_of(caller)
        name = account.name if account is not None else display_name(request.name, "name")
        if account is not None:
            await self.accounts.check_games_at_once(account)
        if account is not None and request.name:
            require(name_key(display_name(request.name, "name")) == name_key(name),
                    "with an account key the seat takes the account's name", "name")
        limited = not self.access.is_operator(caller)
        address, digest = address_identity(caller), address_digest(caller)
        if limited:
            self.quotas.join_quota.admit(address)
            await self._check_waiting_seats(address, digest)
        token = auth.new_token()

        def take_seat(row: GameRow) -> tuple[SeatsUpdate, int]:
            self.access.require_waiting(row, "JoinGame")
            hosting = hosted.hosting_of(row)
            if account is not None:
                _refuse_account_seated(row, account.account_id)
            _refuse_banned(row, hosting, digest, name)
            if limited:
                self._check_seats_in_game(row, hosting, digest)
            _check_name_free(row, name)
            if request.HasField("seat"):
                seat = request.seat
                require(0 <= seat < row.players,
                         f"seat must be from 0 to {row.players - 1}", "seat")
                if row.token_hashes[seat]:
                    raise ServiceError(
                        "SEAT_TAKEN", Text("seat_taken", seat=seat, game_id=row.game_id),
                        game_id=row.game_id, seat=seat,
                    )
            else:
                free = [i for i, digest in enumerate(row.token_hashes) if not digest]
                if not free:
                    raise ServiceError(
                        "GAME_FULL", Text("game_full", game_id=row.game_id),
                        game_id=row.game_id,
                    )
                seat = free[0]
            update = _seat_set(row, seat, name, auth.hash_token(token), "seat_joined",
                               self._bot_delay)
            assert update.hosting is not None
            update.hosting.setdefault("joiners", {})[str(seat)] = digest
            if account is not None:
                hosted.bind_account(update.hosting, seat, account.account_id,
                                    auth.hash_token(token))
            return update, seat

        row, seat = await self.change_seats(request.game_id, record, take_seat)
        record.seat = seat
        if account is not None:
            await self.accounts.list_seat(row.game_id, seat, account.account_id)
        if limited:
            self.waiting_seats.add(address, row.game_id, seat)
        return pb.JoinGameResponse(
            game_id=row.game_id,
            seat=pb.SeatToken(seat=seat, name=name, token=token),
            summary=game_summary(row),
        )

    async def _check_waiting_seats(self, address: str, digest: str) -> None:
        """Refuses a join from an address that holds max_waiting_seats_per_address seats of
        games waiting for players. The seats it joined through this process are counted;
        each is looked at again in the store only when the count is reached (a seat the
        address left, was revoked from, or whose game started no longer counts)."""
        cap = self.settings.max_waiting_seats_per_address
        if cap <= 0 or len(self.waiting_seats.held(address)) < cap:
            return
        for game_id, seat in self.waiting_seats.held(address):
            try:
                row = await self.live.row(game_id)
            except ServiceError:
                row = None
            if row is None or not is_waiting(row) or hosted.hosting_of(row).get(
                    "joiners", {}).get(str(seat)) != digest:
                self.waiting_seats.drop(address, game_id, seat)
        if len(self.waiting_seats.held(address)) >= cap:
            raise ServiceError(
                "RATE_LIMITED",
                f"this client already holds {cap} seats of games waiting for players, the "
                "most it may hold at once; leave one, or wait for a game to start",
                limit="max_waiting_seats_per_address",
                retry_after_seconds=_WAITING_SEATS_RETRY_SECONDS,
            )

    def _check_seats_in_game(self, row: GameRow, hosting: dict[str, Any], digest: str) -> None:
        """At most max_seats_per_address_per_game seats of a game joined from one address,
        unless that address created the game (a host seating people at the same table)."""
        cap = self.settings.max_seats_per_address_per_game
        if cap <= 0 or hosting.get("host_address") == digest:
            return
        joiners = hosting.get("joiners", {})
        held = [int(seat) for seat, by in joiners.items()
                if by == digest and row.token_hashes[int(seat)]]
        if len(held) >= cap:
            raise ServiceError(
                "ALREADY_SEATED",
                f"this client already holds seat {held[0]} of game {row.game_id}: one client "
                f"may join at most {cap} seat(s) of a game it did not create",
                game_id=row.game_id, seat=held[0], limit="max_seats_per_address_per_game",
            )

    async def leave_game(
        self, request: pb.LeaveGameRequest, caller: Caller, record: RequestRecord
    ) -> pb.LeaveGameResponse:
        def free_seat(row: GameRow) -> tuple[SeatsUpdate, int]:
            seat = self.access.seat_with_token(row, caller, "LeaveGame")
            self.access.require_waiting(row, "LeaveGame")
            update = _seat_set(row, seat, "", "", "seat_left", self._bot_delay)
            assert update.hosting is not None
            update.hosting.get("joiners", {}).pop(str(seat), None)
            return update, seat

        row, record.seat = await self.change_seats(request.game_id, record, free_seat)
        return pb.LeaveGameResponse(summary=game_summary(row))

    async def start_game(
        self, request: pb.StartGameRequest, caller: Caller, record: RequestRecord
    ) -> pb.StartGameResponse:
        def start(row: GameRow) -> tuple[SeatsUpdate, None]:
            self.access.require_host(row, caller, "StartGame")
            self.access.require_waiting(row, "StartGame")
            if row.open_seats:
                raise ServiceError(
                    "SEATS_OPEN", Text("seats_open", game_id=row.game_id,
                                       open_seats=row.open_seats),
                    game_id=row.game_id, open_seats=row.open_seats,
                )
            hosting = hosted.changed(row)
            hosted.add_event(hosting, row, "game_started")
            hosting["started_at"] = now = time.time()
            clock = hosted.clock_start(hosting, row.players, row.current_seat, now)
            return seats_update(
                row, row.seat_names, row.token_hashes, hosting, self._bot_delay,
                status=pb.GAME_STATUS_IN_PROGRESS, clock=clock,
            ), None

        await self.change_seats(request.game_id, record, start)
        row, live = await self.live.get(request.game_id)
        return pb.StartGameResponse(state=game_state(row, live, None))

    async def record_ratings(self, game_id: str, changes: list[dict[str, Any]]) -> None:
        """A rated game's rating changes (service/ratings/), kept in its hosting column:
        GameSummary.rating_changes; watchers hear of them as of a change of seats."""
        def change(row: GameRow) -> tuple[SeatsUpdate, None]:
            hosting = hosted.changed(row)
            hosting["ratings"] = changes
            return seats_update(row, row.seat_names, row.token_hashes, hosting,
                                self._bot_delay), None

        await self.change_seats(game_id, RequestRecord(
            transport="internal", method="RecordRatings", request_id=game_id), change)

    @property
    def _bot_delay(self) -> float:
        return self.settings.bot_move_delay_seconds

    def resignation(self, row: GameRow, seat: int, forfeit: bool) -> SeatsUpdate:
        """The seats after `seat` resigns (forfeit: on time), as the host's on_resign says:
        the stand-in bot plays it on, or the game ends."""
        hosting = hosted.changed(row)
        hosting["resigned"] = sorted({*hosting.get("resigned", ()), seat})
        if forfeit:
            hosting["forfeited"] = sorted({*hosting.get("forfeited", ()), seat})
        kind = "seat_forfeited" if forfeit else "seat_resigned"
        status = None
        if hosting.get("on_resign") == pb.RESIGN_POLICY_GAME_ENDS:
            hosting["ended"] = pb.END_REASON_FORFEITED if forfeit else pb.END_REASON_RESIGNED
            hosted.add_event(hosting, row, kind, seat=seat)
            hosted.add_event(hosting, row, "game_ended")
            status = pb.GAME_STATUS_FINISHED
        else:
            bot = str(hosting.get("stand_in") or hosted.DEFAULT_STAND_IN)
            hosting.setdefault("bots", {})[str(seat)] = bot
            hosted.add_event(hosting, row, kind, seat=seat, bot=bot)
        return seats_update(row, row.seat_names, row.token_hashes, hosting, self._bot_delay,
                             status=status)

    async def resign_game(
        self, request: pb.ResignGameRequest, caller: Caller, record: RequestRecord
    ) -> pb.ResignGameResponse:
        def resign(row: GameRow) -> tuple[SeatsUpdate, int]:
            seat = self.access.seat_with_token(row, caller, "ResignGame")
            self.access.require_in_progress(row, "ResignGame")
            if seat in hosted.hosting_of(row).get("resigned", ()):
                raise ServiceError("SEAT_RESIGNED", Text("seat_resigned_already", seat=seat),
                                   game_id=row.game_id, seat=seat)
            return self.resignation(row, seat, forfeit=False), seat

        _row, seat = await self.change_seats(request.game_id, record, resign)
        record.seat = seat
        row, live = await self.live.get(request.game_id)
        return pb.ResignGameResponse(state=game_state(row, live, seat))

    async def revoke_seat_token(
        self, request: pb.RevokeSeatTokenRequest, caller: Caller, record: RequestRecord
    ) -> pb.RevokeSeatTokenResponse:
        def revoke(row: GameRow) -> tuple[SeatsUpdate, None]:
            seat = self.access.host_seat(row, caller, "RevokeSeatToken", request.seat)
            require(row.token_hashes[seat] != "", f"nobody holds seat {seat}", "seat")
            names, digests = list(row.seat_names), list(row.token_hashes)
            hosting = hosted.changed(row)
            hosting.get("bots", {}).pop(str(seat), None)
            digests[seat] = ""
            joiner = hosting.get("joiners", {}).pop(str(seat), None)
            if request.ban:
                _ban(hosting, joiner, row.seat_names[seat])
            if is_waiting(row):  # open again: JoinGame takes it
                names[seat] = ""
            else:  # held by nobody until ReissueSeatToken or SetSeatBot
                hosting["vacant"] = sorted({*hosting.get("vacant", ()), seat})
            hosted.add_event(hosting, row, "seat_token_revoked", seat=seat)
            return seats_update(row, names, digests, hosting, self._bot_delay), None

        row, _ = await self.change_seats(request.game_id, record, revoke)
        record.seat = request.seat
        return pb.RevokeSeatTokenResponse(summary=game_summary(row))

    async def set_seat_bot(
        self, request: pb.SetSeatBotRequest, caller: Caller, record: RequestRecord
    ) -> pb.SetSeatBotResponse:
        spec = check_seat_bot(request.bot, self.settings.bot_max_mcts_iterations, "bot",
                              self.settings.bot_max_search_cost)
        operator = self.access.is_operator(caller)

        def seat_bot(row: GameRow) -> tuple[SeatsUpdate, list[tuple[RateQuota, int]]]:
            seat = self.access.host_seat(row, caller, "SetSeatBot", request.seat)
            hosting = hosted.changed(row)
            vacant = seat in hosting.get("vacant", ())
            if row.token_hashes[seat] and not (
                is_waiting(row) and row.token_hashes[seat] == hosted.BOT_DIGEST
            ):
                raise ServiceError(
                    "SEAT_TAKEN", f"seat {seat} of game {row.game_id} is held; revoke its "
                    "token first (RevokeSeatToken)", game_id=row.game_id, seat=seat)
            if not (is_waiting(row) or vacant):
                raise ServiceError(
                    "BOT_SEAT", f"seat {seat} of game {row.game_id} is not vacant",
                    game_id=row.game_id, seat=seat)
            names, digests = list(row.seat_names), list(row.token_hashes)
            names[seat], digests[seat] = f"Bot ({spec})", hosted.BOT_DIGEST
            hosting.setdefault("bots", {})[str(seat)] = spec
            hosting["vacant"] = [s for s in hosting.get("vacant", ()) if s != seat]
            hosted.add_event(hosting, row, "bot_seated", seat=seat, name=names[seat],
                             bot=spec)
            bots_before = len(hosted.bots_of(hosted.hosting_of(row)))
            counts = [] if operator else [
                (self.quotas.bot_seat_quota, 1),
                (self.quotas.bot_game_quota, 0 if bots_before else 1),
                (self.quotas.all_bot_game_quota,
                 1 if all(d == hosted.BOT_DIGEST for d in digests) else 0),
            ]
            for quota, count in counts:  # counted once the seat is stored
                if count:
                    quota.admit(address_identity(caller), count=count, record=False)
            return seats_update(row, names, digests, hosting, self._bot_delay), counts

        row, counts = await self.change_seats(request.game_id, record, seat_bot)
        for quota, count in counts:
            if count:  # (a concurrent call may have taken the room: the seat stays)
                with contextlib.suppress(ServiceError):
                    quota.admit(address_identity(caller), count=count)
        record.seat = request.seat
        return pb.SetSeatBotResponse(summary=game_summary(row))
