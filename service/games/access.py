"""Who is calling and what they may do: the caller (token, address, connection), the
identities limits count, the seat a token holds, the host's and the operator's rights,
and the per-client rate quotas.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from .. import auth, hosted
from ..errors import ServiceError
from ..gen import game_service_pb2 as pb
from ..i18n import Text
from ..limits import ClientAddresses, RateQuota, rate_key
from ..model import is_waiting
from ..requests import require
from ..store import GameRow
from ..store.accounts import AccountRow
from .live import LiveGames
from .settings import ServiceSettings


def creator_digest(caller: Caller, operator: bool) -> str:
    """The creator a new game records (hosting's "creator"): "operator", or a digest of
    the client's address (kept out of the store as such)."""
    if operator:
        return "operator"
    return address_digest(caller)


@dataclass
class Caller:
    """Who is calling: the bearer token (if any) and the client's address (the TCP peer, or
    the one a trusted proxy forwarded; see Access.client_address)."""

    token: str | None
    peer: str
    # The gRPC connection (its peer, 'ipv4:203.0.113.9:51234'), which limits per connection
    # count; None for REST and for a trusted proxy's connection (many clients share it).
    connection: str | None = None
    # The account whose key the token is (Accounts.resolve): it acts for the account's
    # seat of a game as that seat's token would.
    account: AccountRow | None = None
    # The server's own calls (an arena's games): they act as the operator would.
    internal: bool = False


def address_identity(caller: Caller) -> str:
    return f"address:{rate_key(caller.peer)}"


def address_digest(caller: Caller) -> str:
    """How a game's hosting remembers an address (who created it, who joined a seat, whom
    the host banned) without storing the address itself."""
    return hashlib.sha256(address_identity(caller).encode()).hexdigest()[:16]


def client_identity(caller: Caller, game_id: str, seat: int | None) -> str:
    """Whom per-client limits count: the seat when its token authenticated the call, else
    the client's address (IPv6 by /64)."""
    if seat is not None:
        return f"seat:{game_id}/{seat}"
    return address_identity(caller)


@dataclass
class Quotas:
    """The rate quotas of one process, each per client (its address)."""

    create_quota: RateQuota
    past_read_quota: RateQuota
    join_quota: RateQuota
    bot_seat_quota: RateQuota
    bot_game_quota: RateQuota
    all_bot_game_quota: RateQuota

    @classmethod
    def from_settings(cls, settings: ServiceSettings) -> Quotas:
        return cls(
            create_quota=RateQuota(settings.create_game_rate, "games created",
                                   "create_game_rate"),
            past_read_quota=RateQuota(settings.past_read_rate,
                                      "reads of past versions and replays", "past_read_rate"),
            join_quota=RateQuota(settings.join_game_rate, "games joined", "join_game_rate"),
            bot_seat_quota=RateQuota(settings.bot_seat_rate, "bot seats", "bot_seat_rate"),
            bot_game_quota=RateQuota(settings.bot_game_rate, "games with bots",
                                     "bot_game_rate"),
            all_bot_game_quota=RateQuota(settings.all_bot_game_rate, "games of bots only",
                                         "all_bot_game_rate"),
        )


class Access:
    """Who may do what: the seat a token holds, the host, the operator; and the client's
    address."""

    def __init__(self, settings: ServiceSettings, addresses: ClientAddresses,
                 live: LiveGames) -> None:
        self.settings = settings
        self.addresses = addresses
        self.live = live
        self._operator_digest = (
            auth.hash_token(settings.operator_token) if settings.operator_token else None
        )

    def client_address(self, peer: str, headers: Callable[[str], str | None]) -> str:
        """The client's address: `peer` (the TCP peer's host) unless it is a trusted proxy
        naming the client in its forwarding header; `headers(lower name)` reads a header
        (repeated ones joined with commas)."""
        if not self.addresses.trusted:
            return peer
        return self.addresses.resolve(peer, headers(self.addresses.header))

    @staticmethod
    def seat_of(row: GameRow, caller: Caller) -> int | None:
        """The caller's seat, None for a spectator; a token that fits no seat is refused."""
        if caller.token is None:
            return None
        if caller.account is not None:
            for seat, account_id in hosted.accounts_of(row).items():
                if account_id == caller.account.account_id:
                    return seat
            raise ServiceError("UNAUTHENTICATED", f"the account holds no seat of game "
                               f"{row.game_id}")
        seat = auth.seat_of_token(caller.token, row.token_hashes)
        if seat is None and auth.token_matches(caller.token, row.host_token_hash):
            return None  # the host sees what a spectator sees
        if seat is None:
            raise ServiceError(
                "UNAUTHENTICATED", Text("not_a_seat_token", game_id=row.game_id)
            )
        return seat

    async def authenticate(self, game_id: str, caller: Caller) -> None:
        """Refuses (UNAUTHENTICATED) a token that is neither a seat token nor the host token
        of the game, read from the store; an unknown game, or no token, passes."""
        try:
            row = await self.live.row(game_id)
        except ServiceError:
            return
        self.seat_of(row, caller)

    def is_operator(self, caller: Caller) -> bool:
        return caller.internal or auth.is_operator(caller.token, self._operator_digest)

    def require_operator(self, caller: Caller, what: str) -> None:
        """Refuses a caller without the operator token, before anything else of the request
        is looked at: UNAUTHENTICATED without a token (the server has one), OPERATOR_ONLY
        with another token or when the server has none."""
        if caller.token is None and self._operator_digest is not None:
            raise ServiceError(
                "UNAUTHENTICATED", f"{what} needs the server's operator token "
                "(Authorization: Bearer …)",
            )
        if not self.is_operator(caller):
            raise ServiceError(
                "OPERATOR_ONLY",
                f"{what} needs the server's operator token (Authorization: Bearer …)"
                if self._operator_digest is not None
                else f"{what} is disabled on this server (it has no operator token)",
            )

    def require_seat(self, row: GameRow, caller: Caller, what: str) -> int:
        if is_waiting(row):
            raise ServiceError(
                "GAME_NOT_STARTED",
                Text("game_not_started", game_id=row.game_id, what=what),
                game_id=row.game_id,
            )
        return self.seat_with_token(row, caller, what)

    def seat_with_token(self, row: GameRow, caller: Caller, what: str) -> int:
        seat = self.seat_of(row, caller)
        if seat is None:
            raise ServiceError(
                "UNAUTHENTICATED", Text("needs_seat_token", what=what)
            )
        return seat

    @staticmethod
    def admit(client: str, counts: list[tuple[RateQuota, int]]) -> None:
        """Counts against each quota, or against none when one of them refuses."""
        wanted = [(quota, count) for quota, count in counts if count]
        for quota, count in wanted:
            quota.admit(client, count=count, record=False)
        for quota, count in wanted:
            quota.admit(client, count=count)

    @staticmethod
    def require_waiting(row: GameRow, what: str) -> None:
        if not is_waiting(row):
            raise ServiceError(
                "GAME_STARTED", Text("game_started", game_id=row.game_id, what=what),
                game_id=row.game_id,
            )

    @staticmethod
    def require_host(row: GameRow, caller: Caller, what: str) -> None:
        if caller.token is None:
            raise ServiceError(
                "UNAUTHENTICATED", Text("needs_host_token", what=what)
            )
        if not auth.token_matches(caller.token, row.host_token_hash):
            raise ServiceError(
                "NOT_HOST", Text("not_host", what=what, game_id=row.game_id),
                game_id=row.game_id,
            )

    @staticmethod
    def require_no_bot(row: GameRow, seat: int) -> None:
        if seat in hosted.bots_of(hosted.hosting_of(row)) and not is_waiting(row):
            raise ServiceError("BOT_SEAT",
                               Text("bot_plays_game_seat", seat=seat, game_id=row.game_id),
                               game_id=row.game_id, seat=seat)

    @staticmethod
    def require_in_progress(row: GameRow, what: str) -> None:
        if is_waiting(row):
            raise ServiceError(
                "GAME_NOT_STARTED", Text("game_not_started", game_id=row.game_id, what=what),
                game_id=row.game_id)
        if row.status == pb.GAME_STATUS_FINISHED or hosted.is_ended(row):
            raise ServiceError("GAME_OVER", Text("game_over", game_id=row.game_id),
                               game_id=row.game_id)

    def host_seat(self, row: GameRow, caller: Caller, what: str, seat: int) -> int:
        """The seat a host's call names, once the caller is the host and the game not over."""
        self.require_host(row, caller, what)
        if row.status == pb.GAME_STATUS_FINISHED or hosted.is_ended(row):
            raise ServiceError("GAME_OVER", Text("game_over", game_id=row.game_id),
                               game_id=row.game_id)
        require(0 <= seat < row.players, f"seat must be from 0 to {row.players - 1}", "seat")
        return seat
