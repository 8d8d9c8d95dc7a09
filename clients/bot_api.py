"""The bot API of the SDK (issue 24): an account's key, its challenges and its one
long-lived stream of events, in the manner of lichess's bot API.

    from brass_clients.bot_api import BotClient

    with BotClient("127.0.0.1:50051", key) as bot:
        for event in bot.events():          # starts with what is pending
            if event.HasField("challenge") and event.challenge.challenged_id == bot.account_id:
                bot.accept_challenge(event.challenge.challenge_id)
            elif event.HasField("your_turn"):
                bot.play_first_option(event.your_turn)

`run_bot` is a complete bot: it accepts every challenge to it and plays each of its turns
with a choice function (the first legal option, unless told otherwise), until a number of
its games are over. A turn is played at the version the stream named; a stale one (the
stream is behind) is simply skipped: the stream names the next.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import grpc

from .sdk import BrassError, GameClient, _auth, pb

# options of ListLegalActions -> the option id to play
Choose = Callable[[Sequence[pb.LegalOption]], int]


def first_option(options: Sequence[pb.LegalOption]) -> int:
    return options[0].id


def random_option(options: Sequence[pb.LegalOption]) -> int:
    return random.choice(options).id


class BotClient:
    """An account's client: a GameClient whose calls carry the account's key."""

    def __init__(self, target: str, key: str, *, timeout: float = 30.0) -> None:
        self.key = key
        self.client = GameClient(target, timeout=timeout)
        self._streams: list[Any] = []
        self.account_id = ""

    def __enter__(self) -> BotClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for call in self._streams:
            call.cancel()
        self.client.close()

    def create_challenge(self, account_id: str, *more_account_ids: str, rated: bool = False,
                         ruleset: int = 0, options: pb.GameOptions | None = None
                         ) -> pb.Challenge:
        """Challenges `account_id` (and `more_account_ids`, for 3 or 4 players)."""
        request = pb.CreateChallengeRequest(account_id=account_id, rated=rated,
                                            ruleset=ruleset,  # type: ignore[arg-type]
                                            options=options,
                                            more_account_ids=more_account_ids)
        return self.client._call("CreateChallenge", request, self.key,  # type: ignore[no-any-return]
                                 retry=False).challenge

    def accept_challenge(self, challenge_id: str) -> pb.Challenge:
        return self.client._call(  # type: ignore[no-any-return]
            "AcceptChallenge", pb.AcceptChallengeRequest(challenge_id=challenge_id), self.key,
            retry=False).challenge

    def decline_challenge(self, challenge_id: str) -> pb.Challenge:
        return self.client._call(  # type: ignore[no-any-return]
            "DeclineChallenge", pb.DeclineChallengeRequest(challenge_id=challenge_id),
            self.key, retry=False).challenge

    def events(self) -> Iterator[pb.StreamAccountEventsResponse]:
        """The account's stream; it starts with what is pending. Ends (BrassError) when
        the server ends it; close() cancels it."""
        call = self.client._stub.StreamAccountEvents(
            pb.StreamAccountEventsRequest(), metadata=_auth(self.key))
        self._streams.append(call)
        try:
            yield from call
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.CANCELLED:
                raise BrassError.from_rpc_error(error) from None
        finally:
            call.cancel()
            self._streams.remove(call)

    def play_turn(self, turn: pb.YourTurn, choose: Choose = first_option) -> bool:
        """Plays one decision of the turn at its version; False when the game moved on
        meanwhile (the stream names the next turn)."""
        try:
            options = self.client.list_legal_actions(turn.game_id, self.key).options
            self.client.submit_action(turn.game_id, self.key, option_id=choose(options),
                                      expected_version=turn.version)
        except BrassError as error:
            if error.reason in ("STALE_VERSION", "NOT_YOUR_TURN", "GAME_OVER"):
                return False
            raise
        return True


def run_bot(target: str, key: str, account_id: str, *, games: int,
            choose: Choose = first_option,
            on_event: Callable[[pb.StreamAccountEventsResponse], None] | None = None,
            ) -> list[pb.GameSummary]:
    """A complete bot: accepts every challenge to the account and plays its turns until
    `games` of its games are over; returns their summaries."""
    finished: list[pb.GameSummary] = []
    with BotClient(target, key) as bot:
        for event in bot.events():
            if on_event is not None:
                on_event(event)
            kind = event.WhichOneof("event")
            if kind == "challenge":
                challenge = event.challenge
                if (challenge.challenged_id == account_id
                        and challenge.status == pb.CHALLENGE_STATUS_OPEN):
                    try:
                        bot.accept_challenge(challenge.challenge_id)
                    except BrassError as error:
                        if error.reason != "CHALLENGE_CLOSED":
                            raise
            elif kind == "your_turn":
                bot.play_turn(event.your_turn, choose)
            elif kind == "game_over":
                finished.append(event.game_over.summary)
                if len(finished) >= games:
                    break
    return finished
