"""The server's own moves: bots' decisions, a stand-in's for a turn past its deadline, and
forfeits. Every process runs a timer; the store's claim on a due game lets one process at
a time act on it, and bot work takes turns between creators (bots/fair_slots.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

import structlog

from .. import hosted
from ..bots.bot_seats import BotPool, decision_seed, new_bot_secret
from ..bots.fair_slots import FairSlots
from ..errors import ServiceError
from ..gen import game_service_pb2 as pb
from ..model import LiveGame, clock_of, is_playing
from ..observability import RequestRecord, new_request_id
from ..store import GameRow, SeatsUpdate, Store
from .act import Play
from .live import LiveGames
from .lobby import Lobby
from .settings import ServiceSettings
from .signals import Signals

log = structlog.get_logger("brass_service.games.timer")


@dataclass
class _Claim:
    """A due game this process claimed (store.claim_due) until `lease`."""

    version: int
    seats_revision: int
    lease: float


# _owed's answer for a turn past its deadline under TIMEOUT_POLICY_FORFEIT.
_FORFEIT = "forfeit"


def _attended(row: GameRow) -> bool:
    """Whether a person plays in the game (a seat held by a token that has not resigned):
    someone is waiting for its bots' replies."""
    resigned = set(hosted.hosting_of(row).get("resigned", ()))
    return any(digest and digest != hosted.BOT_DIGEST and seat not in resigned
               for seat, digest in enumerate(row.token_hashes))


def _creator_of(row: GameRow) -> str:
    """Whom a game's bot work counts against in the round-robin: its creator (a digest of
    the creating client's address, or the operator); each game by itself for games made
    before creators were recorded."""
    return str(hosted.hosting_of(row).get("creator") or f"game:{row.game_id}")


async def _to_its_end(write: Awaitable[bool], outcome: Callable[[bool], None]) -> bool:
    """Awaits a claim's write to the store, telling `outcome` whether it took; if the caller
    is cancelled meanwhile (a stop), the write still runs to its end and `outcome` hears of
    it before the cancellation goes on: a claim the store holds is then always one this
    process knows of and gives back (a write cut off unheard would keep the game for a whole
    lease)."""
    attempt = asyncio.ensure_future(write)
    try:
        took = await asyncio.shield(attempt)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            outcome(await attempt)
        raise
    outcome(took)
    return took


class ServerMoves:
    """The server's own moves: bots' decisions, stand-ins for turns past their deadline,
    forfeits; one process acts on a due game at a time (the store's claim)."""

    def __init__(self, store: Store, settings: ServiceSettings, live: LiveGames,
                 signals: Signals, lobby: Lobby, play: Play, bots: BotPool,
                 bot_workers: int) -> None:
        self.store = store
        self.settings = settings
        self.live = live
        self.signals = signals
        self.lobby = lobby
        self.play = play
        self.bots = bots
        self._bot_secret = settings.bot_secret or new_bot_secret()
        # Bot work waits for a turn in a lane (FairSlots: round-robin between creators) with
        # a worker for each of its turns: the seats' bots in one, the clock's stand-ins in
        # their own, so a turn past its deadline never waits behind bot searches.
        self._bot_lane = FairSlots(bot_workers)
        self._clock_lane = FairSlots(1)
        # Games this process is making the server's move in (a bot's, a timeout's), and the
        # claims it holds on them (given back by stop()).
        self._moving: dict[str, asyncio.Task[None]] = {}
        self._claims: dict[str, _Claim] = {}
        self._stopping = False
        self._timer: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.signals.timer_wake = asyncio.Event()
        self._timer = asyncio.create_task(self.run())

    async def stop(self) -> None:
        """The server's moves in progress are abandoned and their games' claims given back,
        so that they are due at once for another process or a restart (rather than after
        the lease)."""
        self._stopping = True  # the cancelled moves keep their claims for the give-back
        moving = [task for task in (self._timer, *self._moving.values()) if task is not None]
        for task in moving:
            task.cancel()
        await asyncio.gather(*moving, return_exceptions=True)
        # Read after the moves ended: a claim whose write was in flight at the cancel is
        # known by now (_to_its_end).
        claims = dict(self._claims)
        if claims:
            log.info("server_moves_given_back", games=await self.give_back_claims(claims))

    def close(self) -> None:
        for task in (self._timer, *self._moving.values()):
            if task is not None:
                task.cancel()

    async def run(self) -> None:
        """The server-side timer of every process: finds the games due (a bot's turn, a
        turn past its deadline) and makes their move. Every process runs one; the store's
        claim (claim_due: conditional on the version, the seats and the due time) lets only
        one of them act on a game."""
        assert self.signals.timer_wake is not None
        while True:
            try:
                room = self.settings.max_server_moves - len(self._moving)
                if room > 0:
                    due = await self.store.due_games(time.time(), room + len(self._moving))
                    for game_id in due:
                        if game_id not in self._moving and len(self._moving) < (
                            self.settings.max_server_moves
                        ):
                            task = asyncio.create_task(self._server_move(game_id))
                            self._moving[game_id] = task
                            task.add_done_callback(
                                lambda _t, g=game_id: self._moved(g))
            except ServiceError as error:  # the store is down: try again next time
                log.warning("timer_failed", error=error.message)
            except Exception:  # never let the timer die quietly
                log.exception("timer_failed")
            self.signals.timer_wake.clear()
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a
            # cancellation that arrives as the wake-up does, and the timer would outlive stop()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.settings.timer_poll_seconds):
                    await self.signals.timer_wake.wait()

    def _moved(self, game_id: str) -> None:
        self._moving.pop(game_id, None)
        if self.signals.timer_wake is not None:
            self.signals.timer_wake.set()  # the game may be due again (the next bot's turn)

    async def _server_move(self, game_id: str) -> None:
        try:
            await self._make_server_move(game_id)
        except asyncio.CancelledError:
            raise
        except ServiceError as error:
            log.warning("server_move_failed", game_id=game_id, reason=error.reason,
                        error=error.message)
        except Exception:
            log.exception("server_move_failed", game_id=game_id)

    @staticmethod
    def _owed(row: GameRow, live: LiveGame, now: float) -> str | None:
        """The move the server owes the game now: its bot's decision (BY_BOT), a stand-in's
        for a turn past its deadline (BY_TIMEOUT), a forfeit (_FORFEIT), or none."""
        hosting, game = hosted.hosting_of(row), live.game
        seat = game.current_seat
        if seat is None or not is_playing(row, game):
            return None
        if hosted.is_bot_seat(hosting, seat):
            return hosted.BY_BOT
        deadline = hosted.deadline(hosting, clock_of(row, live))
        if deadline is None or deadline > now:
            return None
        if hosting.get("on_timeout") == pb.TIMEOUT_POLICY_FORFEIT:
            return _FORFEIT
        return hosted.BY_TIMEOUT

    async def _make_server_move(self, game_id: str) -> None:
        """One move the server owes a due game: its bot's decision, a stand-in's decision for
        a turn past its deadline, or a forfeit (TIMEOUT_POLICY_FORFEIT). A bot's work waits
        for its creator's turn in a lane (round-robin between creators); a forfeit waits for
        nothing."""
        row, live = await self.live.get(game_id)
        owed = self._owed(row, live, time.time())
        if owed in (hosted.BY_BOT, hosted.BY_TIMEOUT):
            lane = self._bot_lane if owed == hosted.BY_BOT else self._clock_lane
            attended = _attended(row)
            async with lane.turn(_creator_of(row), urgent=attended):
                # The wait may have been long: the game may have moved meanwhile (here, or
                # in another process that took it). With a person waiting for it, the seat's
                # whole turn (one or more decisions) is played in this lane turn.
                mover = None
                while True:
                    row, live = await self.live.get(game_id)
                    owed = self._owed(row, live, time.time())
                    if owed not in (hosted.BY_BOT, hosted.BY_TIMEOUT):
                        break
                    seat = live.game.current_seat
                    if mover is not None and (not attended or seat != mover or (
                            row.next_due is not None and row.next_due > time.time())):
                        return  # back in line for the next decision
                    if not await self._bot_move(game_id, row, live, owed):
                        return
                    mover = seat
        if owed == _FORFEIT:
            seat = live.game.current_seat
            async with self._claimed(game_id, live.version, row.seats_revision) as claimed:
                if claimed:
                    await self.lobby.change_seats(
                        game_id, RequestRecord("timer", "Forfeit", new_request_id()),
                        lambda fresh: self._forfeit(fresh, live.version, seat))
                    log.info("seat_forfeited", game_id=game_id, seat=seat)
            return
        if owed is None:
            # The stored due time is a lapsed claim or out of date: put the right one.
            now = time.time()
            due = hosted.next_due(hosted.hosting_of(row), clock_of(row, live),
                                  live.game.current_seat, is_playing(row, live.game), now,
                                  self.settings.bot_move_delay_seconds)
            await self.store.claim_due(game_id, live.version, row.seats_revision, now, due)

    async def _bot_move(self, game_id: str, row: GameRow, live: LiveGame, by: str) -> bool:
        """The decision of the seat's bot (BY_BOT) or of the stand-in (BY_TIMEOUT), made
        under this process's claim and stored on the version it was made for; whether it
        was stored."""
        hosting, game = hosted.hosting_of(row), live.game
        seat = game.current_seat
        assert seat is not None
        spec = (hosted.bots_of(hosting)[seat] if by == hosted.BY_BOT
                else str(hosting.get("stand_in") or hosted.DEFAULT_STAND_IN))
        async with self._claimed(game_id, live.version, row.seats_revision) as claimed:
            if not claimed:
                return False  # another process took it, or the game moved meanwhile
            option = await self.bots.choose(game, spec, seat,
                                            decision_seed(self._bot_secret, game_id,
                                                          live.version))
            record = RequestRecord("timer", "ServerMove", new_request_id(), game_id=game_id)
            async with self.live.lock_for(game_id):
                row, current = await self.live.get(game_id)
                if current.version != live.version:
                    return False  # moved meanwhile: the new head says what is due
                request = pb.SubmitActionRequest(
                    game_id=game_id, action=pb.Action(option_id=option),
                    expected_version=live.version)
                try:
                    stored = await self.play.apply_and_store(
                        request, record, None, row, current, seat, f"{by}:{seat}:{option}",
                        by=by)
                except ServiceError as error:
                    log.warning("server_move_refused", game_id=game_id, reason=error.reason)
                    return False
        if stored is not None:
            log.info("server_move", game_id=game_id, seat=seat, by=by, bot=spec,
                     version=record.version)
        return stored is not None

    @contextlib.asynccontextmanager
    async def _claimed(self, game_id: str, version: int,
                       seats_revision: int) -> AsyncIterator[bool]:
        """Claims the due game (claim_due: only if still at `version` and `seats_revision`
        and due) for server_move_lease_seconds, renewed every third of that while the body
        runs (a bot's search may take longer than a lease), so that a process that dies
        holds a game only briefly; the body is told whether the claim was won."""
        lease_seconds = self.settings.server_move_lease_seconds
        now = time.time()
        claim = _Claim(version, seats_revision, now + lease_seconds)

        def won(claimed: bool) -> None:
            if claimed:
                self._claims[game_id] = claim

        if not await _to_its_end(
                self.store.claim_due(game_id, version, seats_revision, now, claim.lease), won):
            yield False
            return
        renewal = asyncio.create_task(self._renew_claim(game_id, claim, lease_seconds))
        try:
            yield True
        finally:
            renewal.cancel()
            await asyncio.gather(renewal, return_exceptions=True)
            if not self._stopping and self._claims.get(game_id) is claim:
                del self._claims[game_id]

    async def _renew_claim(self, game_id: str, claim: _Claim, lease_seconds: float) -> None:
        while True:
            await asyncio.sleep(lease_seconds / 3)
            lease = time.time() + lease_seconds

            def renewed(done: bool, lease: float = lease) -> None:
                if done:
                    claim.lease = lease

            try:
                # Conditional on the lease it holds: a process that took the game after a
                # lapse moved next_due past it, and then this one stops renewing (its
                # decision is refused anyway, being made for an older version or claim).
                if not await _to_its_end(self.store.claim_due(
                        game_id, claim.version, claim.seats_revision, claim.lease, lease),
                        renewed):
                    return
            except Exception as exc:  # the store is down: try again at the next renewal
                log.warning("claim_renewal_failed", game_id=game_id, error=str(exc))

    async def give_back_claims(self, claims: dict[str, _Claim]) -> int:
        """Makes the claimed games due now again (for another process, or this server when
        it is back), each only if this process's claim still holds it; how many."""
        given = 0
        for game_id, claim in claims.items():
            with contextlib.suppress(Exception):  # a stop must not fail on the store
                given += await self.store.claim_due(
                    game_id, claim.version, claim.seats_revision, claim.lease, time.time())
        return given

    def _forfeit(self, row: GameRow, version: int, seat: int) -> tuple[SeatsUpdate, None]:
        if row.version != version or hosted.is_ended(row):
            raise ServiceError("STALE_VERSION", "the game moved before the forfeit")
        return self.lobby.resignation(row, seat, forfeit=True), None
