"""Rematch (issue 25, item 2): after the end a seat proposes, the others accept (bots by
themselves), and a new game starts with the same seats, accounts, options and clock, seat
order rotated by one; over gRPC and REST, with every refusal machine-readable."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import pytest

from brass_clients.sdk import GameClient, pb
from brass_service import hosted
from brass_service.errors import ServiceError
from brass_service.games import Caller, GameService, ServiceSettings
from brass_service.observability import RequestRecord
from brass_service.store import StoreUnavailable, open_store

from .helpers import ServerProcess, expect_error, expect_rest_error

CLOCK = pb.ClockOptions(initial_ms=600_000, increment_ms=5_000)


def _ended_game(client: GameClient, **options: object) -> tuple[str, list[str]]:
    """A 3-seat game (seat 2 a bot) ended at once by seat 1's resignation."""
    created = client.create_game(
        3, seed=31, seat_names=["Ann", "Bob", "Robo"], bot_seats={2: "greedy"}, clock=CLOCK,
        on_resign=pb.RESIGN_POLICY_GAME_ENDS, spectator_delay_turns=1, **options)
    tokens = [s.token for s in created.seats]
    game_id = created.game_id
    expect_error("GAME_NOT_OVER", client.rematch, game_id, tokens[0])
    client.resign_game(game_id, tokens[1])
    return game_id, tokens


def test_a_rematch_over_grpc_rotates_the_seats_and_keeps_the_settings(
        server: ServerProcess) -> None:
    with server.client() as client:
        ann = client.create_account(f"Ann {uuid.uuid4().hex[:8]}")
        game_id, tokens = _ended_game(client, account_key=ann.key)
        before = client.get_game(game_id).summary
        expect_error("UNAUTHENTICATED", client.rematch, game_id, "")
        proposed = client.rematch(game_id, tokens[0])
        assert proposed.seat == 1 and proposed.token and proposed.host_token
        assert list(proposed.rematch.accepted_seats) == [0, 2]  # the bot agrees by itself
        assert proposed.rematch.proposed_by == 0 and not proposed.rematch.game_id
        assert client.get_game(game_id).summary.rematch == proposed.rematch
        accepted = client.rematch(game_id, tokens[1])
        assert accepted.seat == 2 and accepted.token and not accepted.host_token
        new_id = accepted.rematch.game_id
        assert new_id and list(accepted.rematch.accepted_seats) == [0, 1, 2]
        error = expect_error("REMATCH_STARTED", client.rematch, game_id, tokens[0])
        assert error.metadata["rematch_game_id"] == new_id

        new = client.get_game(new_id, proposed.token)
        summary = new.summary
        assert new.viewer_seat == 1 and client.get_game(new_id, accepted.token).viewer_seat == 2
        assert summary.rematch_of == game_id and summary.status == pb.GAME_STATUS_IN_PROGRESS
        # seat i is seat i + 1 now: names, the bot, the account
        assert [s.name for s in summary.seats] == [before.seats[2].name, ann.account.name,
                                                   "Bob"]
        assert [s.bot for s in summary.seats] == ["greedy", "", ""]
        assert summary.seats[1].account_id == ann.account.account_id
        assert client.get_game(new_id, ann.key).viewer_seat == 1  # the account's key acts
        assert summary.host_policy == before.host_policy  # spectator delay included
        assert summary.clock.options == CLOCK and summary.clock.HasField("turn_seat")
        # the old tokens are not the new game's
        expect_error("UNAUTHENTICATED", client.list_legal_actions, new_id, tokens[0])


def test_a_rematch_over_rest(server: ServerProcess) -> None:
    rest = server.rest()
    with server.client() as client:
        game_id, tokens = _ended_game(client)
    first = rest.post(f"/v1/games/{game_id}:rematch", {}, token=tokens[1])
    assert first["seat"] == 2 and first["token"] and first["hostToken"]
    assert first["rematch"]["acceptedSeats"] == [1, 2] and first["rematch"]["gameId"] == ""
    # asking again before the start: a new token, the earlier one void
    again = rest.post(f"/v1/games/{game_id}:rematch", {}, token=tokens[1])
    assert again["token"] != first["token"]
    done = rest.post(f"/v1/games/{game_id}:rematch", {}, token=tokens[0])
    new_id = done["rematch"]["gameId"]
    assert rest.get(f"/v1/games/{game_id}")["state"]["summary"]["rematch"]["gameId"] == new_id
    state = rest.get(f"/v1/games/{new_id}", token=again["token"])["state"]
    assert state["viewerSeat"] == 2 and state["summary"]["rematchOf"] == game_id
    expect_rest_error("UNAUTHENTICATED", 401, rest.get, f"/v1/games/{new_id}",
                      token=first["token"])
    body = expect_rest_error("REMATCH_STARTED", 409, rest.post,
                             f"/v1/games/{game_id}:rematch", {}, token=tokens[0]).body
    assert body["error"]["details"][0]["metadata"]["rematch_game_id"] == new_id
    # refusals: a game in progress, a game from a position, no token
    with server.client() as client:
        created = client.create_game(2, seed=3)
        expect_rest_error("GAME_NOT_OVER", 400, rest.post,
                          f"/v1/games/{created.game_id}:rematch", {},
                          token=created.seats[0].token)
    expect_rest_error("UNAUTHENTICATED", 401, rest.post, f"/v1/games/{game_id}:rematch", {})


class _FailingCreate:
    """A store whose create_game fails while `failing` (the store unreachable then)."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.failing = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def create_game(self, *args: Any, **kwargs: Any) -> Any:
        if self.failing:
            raise StoreUnavailable("down for the test")
        return await self._store.create_game(*args, **kwargs)


def test_a_rematch_whose_game_was_not_stored_is_stored_by_the_next_call(
        tmp_path: Path) -> None:
    """The agreement is written before the new game: should the store fail in between, the
    finished game names a game that does not exist until any seat's next call stores it."""
    anyone = Caller(None, "127.0.0.1")

    def record() -> RequestRecord:
        return RequestRecord("test", "Test", "r")

    async def body() -> None:
        store = open_store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
        await store.open()
        flaky = _FailingCreate(store)
        service = GameService(flaky, ServiceSettings(create_game_rate=""))  # type: ignore[arg-type]
        try:
            created = await service.create_game(pb.CreateGameRequest(
                players=2, seed=5, options=pb.GameOptions(
                    on_resign=pb.RESIGN_POLICY_GAME_ENDS)), anyone, record())
            game_id = created.game_id
            seats = [Caller(s.token, "127.0.0.1") for s in created.seats]
            await service.resign_game(pb.ResignGameRequest(game_id=game_id), seats[1],
                                      record())
            ask = pb.RematchRequest(game_id=game_id)
            proposed = await service.rematch(ask, seats[0], record())
            flaky.failing = True
            with pytest.raises(ServiceError) as failed:
                await service.rematch(ask, seats[1], record())
            assert failed.value.reason == "UNAVAILABLE"
            flaky.failing = False
            row = await store.get_game(game_id)
            new_id = hosted.rematch_state(row).game_id
            assert new_id and await store.get_game(new_id) is None
            with pytest.raises(ServiceError) as started:
                await service.rematch(ask, seats[0], record())
            assert started.value.reason == "REMATCH_STARTED"
            new = await store.get_game(new_id)
            assert new is not None and new.hosting["rematch_of"] == game_id
            reply = await service.get_game(pb.GetGameRequest(game_id=new_id),
                                           Caller(proposed.token, "127.0.0.1"), record())
            assert reply.message.state.viewer_seat == 1
        finally:
            service.close()
            await store.close()

    asyncio.run(body())
