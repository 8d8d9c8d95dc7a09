"""CreateGameFromPosition keeps only the engine's own rewrite of the position (issue 10 C):
unknown keys are refused, the text is capped, and the stored position is the core's text,
never the client's (a 0.9 MB unknown field cost 22 MB per live game)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

import brass
from brass.position import MAX_POSITION_CHARS
from brass_service.errors import ServiceError
from brass_service.games import Caller, GameService, ServiceSettings
from brass_service.gen import game_service_pb2 as pb
from brass_service.observability import RequestRecord


class _CapturingStore:
    """The store's side of creating a game: keeps the rows written."""
    def __getattr__(self, part: str) -> None:
        return None  # the store's other parts (accounts, challenges…) are not used here


    def __init__(self) -> None:
        self.rows: list[Any] = []

    def add_listener(self, listener: object) -> None:
        return None

    async def create_game(self, row: Any, snapshot: Any, hooks: Any = ()) -> int:
        self.rows.append(row)
        return 1


def _create(store: _CapturingStore, position_json: str) -> pb.CreateGameResponse:
    service = GameService(store, ServiceSettings(operator_token="op"))  # type: ignore[arg-type]
    record = RequestRecord("grpc", "CreateGameFromPosition", "r1")
    request = pb.CreateGameFromPositionRequest(position_json=position_json)
    operator = Caller(token="op", peer="127.0.0.1")  # the call is the operator's
    return asyncio.run(service.create_game_from_position(request, operator, record))


def test_the_stored_position_is_the_engines_rewrite() -> None:
    source = brass.Game.new(players=3, seed=99)
    store = _CapturingStore()
    _create(store, json.dumps(source.position(), indent=4))  # the client's own layout
    (row,) = store.rows
    assert json.loads(row.position_json) == source.position()
    assert row.position_json == json.dumps(source.position(), separators=(",", ":"))


@pytest.mark.parametrize("edit, field", [
    (lambda p: p.update(notes="x" * 900_000), "notes"),
    (lambda p: p["player_state"][0].update(monney=5), "player_state[0].monney"),
])
def test_unknown_keys_are_refused(edit: Any, field: str) -> None:
    position = brass.Game.new(players=2, seed=1).position()
    edit(position)
    store = _CapturingStore()
    text = json.dumps(position)
    with pytest.raises(ServiceError) as exc:
        _create(store, text)
    assert exc.value.reason == "BAD_POSITION"
    expected = field if len(text) <= MAX_POSITION_CHARS else "position_json"
    assert exc.value.metadata.get("field") == expected
    assert not store.rows


def test_a_position_over_the_cap_is_refused_before_it_is_parsed() -> None:
    text = json.dumps(brass.Game.new(players=2, seed=1).position())
    text = text[:-1] + " " * (MAX_POSITION_CHARS - len(text) + 1) + "}"
    store = _CapturingStore()
    with pytest.raises(ServiceError) as exc:
        _create(store, text)
    assert (exc.value.reason, exc.value.metadata.get("field")) == ("BAD_POSITION", "position_json")
    assert not store.rows


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_loan_at_the_money_bound_survives_a_restart(backend: Any) -> None:
    """Issue 10 B through the service: a game from a position with £9999 takes a loan
    (ruling 17: +£30). The money went past validation's bound (10029; the issue reports
    CORRUPT_GAME after a restart); now it stops at 9999, and after a restart the game is
    loaded with it and plays on."""
    from brass_clients.sdk import view_dict

    position = brass.Game.new(players=2, seed=21).position()
    seat = position["current"]
    position["player_state"][seat]["money"] = 9999
    server = backend.start_server("loan-bound")
    with server.client() as client:
        created = client.create_game_from_position(position)
        token = created.seats[seat].token
        state = client.get_game(created.game_id)
        client.submit_action(created.game_id, token, 4, expected_version=state.summary.version)
        legal = client.list_legal_actions(created.game_id, token)
        card = legal.options[0].id
        client.submit_action(created.game_id, token, card, expected_version=legal.version)
    server.stop(crash=True)
    server.start()
    with server.client() as client:
        view = view_dict(client.get_game(created.game_id))
        assert view["player_state"][seat]["money"] == 9999
        assert client.list_legal_actions(created.game_id, created.seats[view["current"]].token)
    server.stop()
