"""Rematch: after a game ends, its seats agree to play again (bots agree by themselves);
the new game has the same seats, accounts, names, bots, options, clock and host policies,
a new deal, and the seat order rotated by one.

The agreement is kept in the finished game's hosting ("rematch", hosted.rematch_state),
changed like any seats change (a conditional write on the seats revision, retried), so of
seats agreeing at once on any replicas exactly one completes it. Each seat is given its
token of the new game when it agrees, and only the digest is kept; the completing write
also fixes the new game's id, and the new game is then stored with those digests.
"""

from __future__ import annotations

import secrets
from typing import Any

import brass

from .. import auth, hosted
from ..accounts import Accounts
from ..errors import ServiceError, from_engine_error
from ..gen import game_service_pb2 as pb
from ..i18n import Text
from ..observability import RequestRecord
from ..requests import ENGINE_RULESETS, new_game_id
from ..store import GameRow, SeatsUpdate, StoreUnavailable
from .access import Access, Caller
from .create import Creation, Issued
from .lobby import Lobby, seats_update

# The hosting settings a rematch keeps (hosted/seats.py names them all).
_KEPT = ("on_resign", "on_timeout", "stand_in", "clock", "spectator_delay", "rated",
         "creator", "host_address")


def rotated(seat: int, players: int) -> int:
    """A seat's place in the rematch: one further round the table."""
    return (seat + 1) % players


def _refuse_unless_rematchable(row: GameRow, hosting: dict[str, Any]) -> None:
    if row.status != pb.GAME_STATUS_FINISHED and not hosted.is_ended(row):
        raise ServiceError("GAME_NOT_OVER", Text("game_not_over", game_id=row.game_id),
                           game_id=row.game_id)
    if "on_resign" not in hosting or row.position_json is not None:
        raise ServiceError("REMATCH_UNAVAILABLE", f"game {row.game_id} was created from a "
                           "position: it has no hosted seats to play again",
                           game_id=row.game_id)
    if hosting.get("vacant"):
        raise ServiceError("REMATCH_UNAVAILABLE", f"game {row.game_id} has a vacant seat "
                           f"({hosting['vacant'][0]}): nobody can agree for it",
                           game_id=row.game_id, seat=hosting["vacant"][0])
    started = (hosting.get("rematch") or {}).get("game_id")
    if started:
        raise ServiceError("REMATCH_STARTED",
                           Text("rematch_started", game_id=row.game_id, started=started),
                           game_id=row.game_id, rematch_game_id=started)


class Rematches:
    """Rematch: agreeing, and the new game once every seat agreed."""

    def __init__(self, lobby: Lobby, creation: Creation, access: Access,
                 accounts: Accounts) -> None:
        self.lobby = lobby
        self.creation = creation
        self.access = access
        self.accounts = accounts

    async def rematch(self, request: pb.RematchRequest, caller: Caller,
                      record: RequestRecord) -> pb.RematchResponse:
        await self._finish_started(request.game_id, caller, record)
        token, host_token = auth.new_token(), auth.new_token()

        def agree(row: GameRow) -> tuple[SeatsUpdate, tuple[int, bool]]:
            seat = self.access.seat_with_token(row, caller, "Rematch")
            hosting = hosted.changed(row)
            _refuse_unless_rematchable(row, hosting)
            rematch = hosting.setdefault("rematch", {"proposed_by": seat, "seats": {}})
            rematch["seats"][str(seat)] = auth.hash_token(token)
            proposer = rematch["proposed_by"] == seat
            if proposer:
                rematch["host"] = auth.hash_token(host_token)
            people = [i for i, digest in enumerate(row.token_hashes)
                      if digest != hosted.BOT_DIGEST]
            if all(str(i) in rematch["seats"] for i in people):
                rematch["game_id"] = new_game_id()
            kind = "rematch_proposed" if len(rematch["seats"]) == 1 else "rematch_accepted"
            hosted.add_event(hosting, row, kind, seat=seat)
            return seats_update(row, list(row.seat_names), list(row.token_hashes), hosting,
                                self.lobby.settings.bot_move_delay_seconds), (seat, proposer)

        row, (seat, proposer) = await self.lobby.change_seats(request.game_id, record, agree)
        record.seat = seat
        state = hosted.rematch_state(row)
        assert state is not None
        if state.game_id:
            await self._start(row, record)
            record.game_id = row.game_id
        return pb.RematchResponse(rematch=state, seat=rotated(seat, row.players), token=token,
                                  host_token=host_token if proposer else "")

    async def _finish_started(self, game_id: str, caller: Caller,
                              record: RequestRecord) -> None:
        """A rematch agreed on whose new game is not stored (the store failed between the
        agreement's write and the game's) is stored now, by the next call of any of its
        seats; REMATCH_STARTED follows as for any started rematch."""
        row = await self.lobby.live.row(game_id)
        started = (hosted.hosting_of(row).get("rematch") or {}).get("game_id")
        if not started or self.access.seat_of(row, caller) is None:
            return
        try:
            missing = await self.lobby.store.get_game(started) is None
        except StoreUnavailable as exc:
            raise ServiceError("UNAVAILABLE", Text("store_unavailable")) from exc
        if missing:
            await self._start(row, record)
            record.game_id = game_id

    async def _start(self, row: GameRow, record: RequestRecord) -> None:
        """Stores the rematch of `row`, whose every seat agreed."""
        old = hosted.hosting_of(row)
        agreed, players = old["rematch"], row.players
        bots = hosted.bots_of(old)
        names, digests = [""] * players, [""] * players
        hosting: dict[str, Any] = {k: old[k] for k in _KEPT if k in old}
        hosting.update(bots={}, events=[], rematch_of=row.game_id)
        for seat, digest in enumerate(row.token_hashes):
            place = rotated(seat, players)
            names[place] = row.seat_names[seat]
            if digest == hosted.BOT_DIGEST:
                hosting["bots"][str(place)] = bots[seat]
                digests[place] = hosted.BOT_DIGEST
            else:
                digests[place] = agreed["seats"][str(seat)]
        hosting["bots"] = dict(sorted(hosting["bots"].items()))
        game_id = agreed["game_id"]
        for seat, account_id in hosted.accounts_of(row).items():
            place = rotated(seat, players)
            hosted.bind_account(hosting, place, account_id, digests[place])
            await self.accounts.list_seat(game_id, place, account_id)
        seed = secrets.randbits(63)
        try:
            game = brass.Game.new(players=players, seed=seed, options=row.options,
                                  ruleset=ENGINE_RULESETS[row.ruleset])
        except brass.EngineError as exc:
            raise from_engine_error(exc) from exc
        await self.creation.store_new_game(
            game, names, seed=seed, options=row.options, position_json=None, record=record,
            visibility=row.visibility, hosting=hosting,
            issued=Issued(game_id, digests, agreed["host"]))
