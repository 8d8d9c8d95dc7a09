"""Replays a viewer can use (issue 12, item 5): GetReplay's typed decisions, and GetGame at
a past version, over gRPC and REST, revealing nothing the caller could not see then."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format

import brass
from brass_clients.sdk import pb, view_dict
from brass_service import games
from brass_service.convert import message_to_json_dict
from brass_service.games import Caller, GameService
from brass_service.observability import RequestRecord
from brass_service.store import open_store

from .helpers import (
    ServerProcess,
    engine_view,
    expect_error,
    expect_rest_error,
    without_defaults,
)


def _replay(stub_client: object, game_id: str, token: str | None = None
            ) -> pb.GetReplayResponse:
    return stub_client._call("GetReplay", pb.GetReplayRequest(game_id=game_id), token)  # type: ignore[attr-defined]


def _state_at(client: object, game_id: str, version: int, token: str | None) -> pb.GameState:
    request = pb.GetGameRequest(game_id=game_id, at_version=version)
    return client._call("GetGame", request, token).state  # type: ignore[attr-defined]


def test_typed_replay_and_past_views_match_the_engine(server: ServerProcess) -> None:
    rng = random.Random(8)
    rest = server.rest()
    with server.client() as client:
        created = client.create_game(players=3, seed=81)
        game_id, tokens = created.game_id, [s.token for s in created.seats]
        submitted = 0
        while submitted < 12:  # whole actions (compound) and single decisions, mixed
            state = client.get_game(game_id)
            seat = state.summary.current_seat
            legal = client.list_legal_actions(game_id, tokens[seat],
                                              include_compound_actions=True)
            if submitted % 3 == 0:
                client.submit_action(game_id, tokens[seat], rng.choice(legal.options).id,
                                     expected_version=legal.version)
            else:
                client.submit_action(game_id, tokens[seat],
                                     compound=list(rng.choice(legal.compound_actions).ids),
                                     expected_version=legal.version)
            submitted += 1
        replay = _replay(client, game_id)
        head = replay.version
        assert not replay.complete and len(replay.decisions) == head > submitted
        # the engine, fed the typed decisions one by one from the same seed, is the game
        mirror = brass.Game.new(3, seed=81)
        for version in range(head + 1):
            for seat in (None, 0, 1, 2):
                token = None if seat is None else tokens[seat]
                past = _state_at(client, game_id, version, token)
                assert past.summary.version == version
                assert view_dict(past) == engine_view(mirror.view(seat)), (version, seat)
            if version == head:
                break
            decision = replay.decisions[version]
            assert decision.version == version + 1
            assert (decision.seat, decision.decision) == (mirror.current_seat, mirror.decision)
            assert decision.name == brass.action_name(decision.option_id)
            mirror.apply(decision.option_id, seat=decision.seat)
        assert mirror.state_hash() == brass.Game.replay(
            {**json.loads(replay.record_json), "seed": 81}).state_hash()
        # REST: the same, as JSON
        document = rest.get(f"/v1/games/{game_id}/replay")
        assert json_format.ParseDict(document, pb.GetReplayResponse()) == replay
        middle = head // 2
        seen = rest.get(f"/v1/games/{game_id}?atVersion={middle}", token=tokens[1])
        assert without_defaults(seen) == without_defaults(message_to_json_dict(
            pb.GetGameResponse(state=_state_at(client, game_id, middle, tokens[1]))))
        # out of range, or not a number
        for bad in (head + 1, -1):
            error = expect_error("INVALID_ARGUMENT", _state_at, client, game_id, bad, None)
            assert error.metadata["field"] == "at_version"
        for text in ("x", str(2**63)):
            expect_rest_error("INVALID_ARGUMENT", 400, rest.get,
                              f"/v1/games/{game_id}?atVersion={text}")


def test_a_replay_is_made_once_per_version_and_follows_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GetReplay's answers are kept by (game, version): asked again at the same version the
    replay is not made again (the same bytes and JSON), and each new version makes a new
    one that holds it. (A replay reads and replays the whole log; kept, a client asking
    again and again costs nothing more until the game moves.)"""

    async def scenario() -> None:
        store = open_store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
        await store.open()
        service = GameService(store)
        made: list[int] = []
        make = service._replay_response

        async def counted(row: Any, live: Any) -> pb.GetReplayResponse:
            made.append(live.version)
            return await make(row, live)

        monkeypatch.setattr(service, "_replay_response", counted)
        anyone = Caller(None, "127.0.0.1")

        def record() -> RequestRecord:
            return RequestRecord("test", "GetReplay", "r")

        created = await service.create_game(pb.CreateGameRequest(players=2, seed=4),
                                            anyone, record())
        game_id = created.game_id
        ask = pb.GetReplayRequest(game_id=game_id)
        first = await service.get_replay(ask, anyone, record())
        again = await service.get_replay(ask, anyone, record())
        assert made == [0]
        assert again.to_bytes() == first.to_bytes()
        assert again.to_json_text() == first.to_json_text()
        assert json.loads(first.to_json_text())["version"] == "0"
        seat = created.state.summary.current_seat
        player = Caller(created.seats[seat].token, "127.0.0.1")
        legal = (await service.list_legal_actions(
            pb.ListLegalActionsRequest(game_id=game_id), player, record())).message
        await service.submit_action(
            pb.SubmitActionRequest(game_id=game_id, action=pb.Action(option_id=legal.options[0].id),
                                   expected_version=legal.version), player, record())
        after = (await service.get_replay(ask, anyone, record())).message
        assert made == [0, 1]
        assert after.version == 1 and [d.option_id for d in after.decisions] == [
            legal.options[0].id]
        await service.get_replay(ask, anyone, record())
        assert made == [0, 1]
        # past the kept bytes' budget nothing is kept: each answer is made again
        monkeypatch.setattr(games, "_REPLAY_BYTES_KEPT", 0)
        service._replays.clear()
        service._replay_bytes = 0
        await service.get_replay(ask, anyone, record())
        await service.get_replay(ask, anyone, record())
        assert made == [0, 1, 1, 1] and not service._replays
        service.close()
        await store.close()

    asyncio.run(scenario())
