"""Bad input against a running server, over gRPC and REST: each request gets the documented
status and reason (docs/SERVICE.md "Errors", service/errors.py) and leaves the game exactly
as it was (same version, same views, same decision log).

tests/service/test_errors.py provokes every reason once; this suite covers what it does not:
raw bytes that are not a protobuf message, JSON of the wrong shape or type, oversized
fields and bodies, odd game ids on every route, malformed and misplaced tokens, idempotency
keys reused with subtly different bodies (and across transports), stale versions on
previews and watches, many submissions racing on one game, and every kind of action after
the end of a game.
"""

from __future__ import annotations

import base64
import http.client
import json
import random
import threading
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest

import brass
from brass_clients.sdk import BrassError, GameClient, pb

from .conftest import ServerProcess

BIRMINGHAM = brass.get_ruleset("birmingham")

SERVICE = "/brass.v1.GameService"
UNARY_METHODS = ("CreateGame", "CreateGameFromPosition", "GetGame", "ListLegalActions",
                 "SubmitAction", "PreviewAction", "GetReplay", "ListGames")
_HTTP_STATUS = {
    "UNKNOWN_GAME": 404, "UNAUTHENTICATED": 401, "NOT_YOUR_TURN": 403, "ILLEGAL_ACTION": 400,
    "STALE_VERSION": 409, "GAME_OVER": 400, "INVALID_ARGUMENT": 400, "UNKNOWN_ACTION": 400,
    "BAD_POSITION": 400, "IDEMPOTENCY_KEY_REUSED": 409, "MESSAGE_TOO_LARGE": 413,
    "BAD_PAGE_TOKEN": 400,
}
_GRPC_STATUS = {
    "UNKNOWN_GAME": grpc.StatusCode.NOT_FOUND,
    "UNAUTHENTICATED": grpc.StatusCode.UNAUTHENTICATED,
    "NOT_YOUR_TURN": grpc.StatusCode.PERMISSION_DENIED,
    "ILLEGAL_ACTION": grpc.StatusCode.FAILED_PRECONDITION,
    "STALE_VERSION": grpc.StatusCode.ABORTED,
    "GAME_OVER": grpc.StatusCode.FAILED_PRECONDITION,
    "INVALID_ARGUMENT": grpc.StatusCode.INVALID_ARGUMENT,
    "UNKNOWN_ACTION": grpc.StatusCode.INVALID_ARGUMENT,
    "BAD_POSITION": grpc.StatusCode.INVALID_ARGUMENT,
    "BAD_PAGE_TOKEN": grpc.StatusCode.INVALID_ARGUMENT,
    "IDEMPOTENCY_KEY_REUSED": grpc.StatusCode.ALREADY_EXISTS,
}


# ------------------------------------------------------------------------------ helpers


class Rest:
    """Raw HTTP on loopback: a fresh connection per request (the server may close one after
    a rejected body)."""

    def __init__(self, port: int) -> None:
        self.port = port

    def call(self, method: str, path: str, body: bytes | dict[str, Any] | None = None,
             token: str | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
        sent = {"Content-Type": "application/json", **(headers or {})}
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if isinstance(body, dict) else body
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            payload = response.read()
        finally:
            connection.close()
        return response.status, (json.loads(payload) if payload else {})

    def expect(self, reason: str, method: str, path: str,
               body: bytes | dict[str, Any] | None = None, token: str | None = None,
               headers: dict[str, str] | None = None) -> dict[str, Any]:
        status, document = self.call(method, path, body, token, headers)
        error = document.get("error", {})
        assert error.get("reason") == reason, f"{method} {path}: {status} {document}"
        assert status == _HTTP_STATUS[reason] == error["code"], (status, document)
        assert error["message"] and error["status"]
        info = error["details"][0]
        assert info["@type"] == "type.googleapis.com/google.rpc.ErrorInfo"
        assert info["reason"] == reason and info["domain"] == "brass.v1"
        return error


def expect_grpc(reason: str, call: Callable[..., Any], *args: Any, **kwargs: Any) -> BrassError:
    try:
        call(*args, **kwargs)
    except BrassError as error:
        assert error.reason == reason, f"expected {reason}, got {error.reason}: {error.message}"
        assert error.code == _GRPC_STATUS.get(reason, error.code)
        assert error.message
        return error
    raise AssertionError(f"expected {reason}, but the call succeeded")


def raw_metadata_call(server: ServerProcess, method: str, request: Any,
                      metadata: tuple[tuple[str, str], ...]) -> Any:
    """A call through the generated stub with metadata exactly as given."""
    from brass_service.gen import game_service_pb2_grpc as pb_grpc

    with grpc.insecure_channel(server.grpc_target) as channel:
        stub = pb_grpc.GameServiceStub(channel)
        try:
            return getattr(stub, method)(request, metadata=metadata, timeout=30)
        except grpc.RpcError as error:
            raise BrassError.from_rpc_error(error) from None


class Game:
    """A game a few moves in, and what every viewer saw of it before a provocation."""

    def __init__(self, client: GameClient, players: int = 3, seed: int = 9090,
                 moves: int = 3) -> None:
        self.client = client
        created = client.create_game(players=players, seed=seed)
        self.id = created.game_id
        self.tokens = [s.token for s in created.seats]
        rng = random.Random(seed)
        for _ in range(moves):
            self.play(rng)
        self.remember()

    def play(self, rng: random.Random) -> pb.SubmitActionResponse:
        state = self.client.get_game(self.id)
        token = self.tokens[state.summary.current_seat]
        legal = self.client.list_legal_actions(self.id, token)
        return self.client.submit_action(self.id, token, rng.choice(legal.options).id,
                                         expected_version=legal.version)

    def remember(self) -> None:
        self.before = self.client.get_game(self.id)
        self.before_views = [self.client.get_game(self.id, t) for t in self.tokens]
        self.before_replay = self.client.get_replay(self.id)

    @property
    def version(self) -> int:
        return self.before.summary.version

    @property
    def to_act(self) -> int:
        return self.before.summary.current_seat

    @property
    def actor_token(self) -> str:
        return self.tokens[self.to_act]

    @property
    def waiting_token(self) -> str:
        return self.tokens[(self.to_act + 1) % len(self.tokens)]

    def legal_ids(self) -> list[int]:
        return [o.id for o in self.client.list_legal_actions(self.id, self.actor_token).options]

    def assert_unchanged(self) -> None:
        assert self.client.get_game(self.id) == self.before
        assert [self.client.get_game(self.id, t) for t in self.tokens] == self.before_views
        assert self.client.get_replay(self.id) == self.before_replay


@pytest.fixture
def client(server: ServerProcess) -> Iterator[GameClient]:
    with server.client() as sdk:
        yield sdk


@pytest.fixture
def game(client: GameClient) -> Game:
    return Game(client)


@pytest.fixture
def rest(server: ServerProcess) -> Rest:
    return Rest(server.http_port)


@pytest.fixture
def no_server_faults(server: ServerProcess) -> Iterator[None]:
    """The server logs no unexpected error while the test runs."""
    start = len(server.log_text())
    yield
    assert '"unexpected_error"' not in server.log_text()[start:], server.log_text()[start:]


def newest_game_id(client: GameClient) -> str:
    page = client.list_games(page_size=1)
    return page.games[0].game_id if page.games else ""


def finished_game(client: GameClient, seed: int) -> tuple[str, list[str], list[tuple[Any, ...]]]:
    """A game played to its end quickly: created a few decisions before the end of a random
    game, then finished through the service. Returns id, tokens and the submissions made
    (seat, option, version, key)."""
    rng = random.Random(seed)
    full, decisions = brass.Game.new(players=2, seed=seed), []
    while not full.is_over:
        decisions.append(rng.choice(full.legal_ids()))
        full.apply(decisions[-1])
    near = brass.Game.new(players=2, seed=seed)
    for decision in decisions[:-8]:
        near.apply(decision)
    created = client.create_game_from_position(near.position())
    tokens = [s.token for s in created.seats]
    state, submitted = created.state, []
    while state.summary.status == pb.GAME_STATUS_IN_PROGRESS:
        seat = state.summary.current_seat
        legal = client.list_legal_actions(created.game_id, tokens[seat])
        option, key = rng.choice(legal.options).id, f"end-{legal.version}"
        state = client.submit_action(created.game_id, tokens[seat], option,
                                     expected_version=legal.version, idempotency_key=key).state
        submitted.append((seat, option, legal.version, key))
    return created.game_id, tokens, submitted


# -------------------------------------------------------------------- gRPC: raw bytes

# Bytes that are not a valid encoding of any of the service's request messages.
GARBAGE = {
    "all-ones": b"\xff\xff\xff\xff",
    "truncated-length": b"\x0a\x05ab",
    "bad-utf8-string": b"\x0a\x02\xff\xfe",
    "overlong-varint": b"\x10" + b"\xff" * 11,
    "end-group-tag": b"\x0c",
}


def _submit_bytes(game: Game) -> bytes:
    legal = game.legal_ids()
    return pb.SubmitActionRequest(
        game_id=game.id, action=pb.Action(option_id=legal[0]),
        expected_version=game.version, idempotency_key="raw-bytes",
    ).SerializeToString()


def test_grpc_malformed_protobuf_is_refused_and_changes_nothing(
    server: ServerProcess, game: Game
) -> None:
    newest = newest_game_id(game.client)
    valid = _submit_bytes(game)
    payloads = dict(GARBAGE)
    # A real submission for this game, cut short or with a corrupt tail: nothing of it may
    # be applied.
    payloads["cut-submission"] = valid[: len(valid) // 2]
    payloads["corrupt-tail"] = valid + b"\xff\xff"
    with grpc.insecure_channel(server.grpc_target) as channel:
        metadata = (("authorization", f"Bearer {game.actor_token}"),)
        for method in UNARY_METHODS:
            call = channel.unary_unary(f"{SERVICE}/{method}", request_serializer=None,
                                       response_deserializer=None)
            for name, payload in payloads.items():
                if method == "ListGames" and name in ("bad-utf8-string", "truncated-length"):
                    continue  # field 1 of ListGamesRequest is an int: these parse as unknown
                with pytest.raises(grpc.RpcError) as caught:
                    call(payload, metadata=metadata, timeout=30)
                assert caught.value.code() != grpc.StatusCode.OK, (method, name)
        watch = channel.unary_stream(f"{SERVICE}/WatchGame", request_serializer=None,
                                     response_deserializer=None)
        with pytest.raises(grpc.RpcError):
            list(watch(GARBAGE["all-ones"], timeout=30))
    game.assert_unchanged()
    assert newest_game_id(game.client) == newest, "a garbage CreateGame created a game"
    # The server is fine: the very submission, sent whole, is applied.
    with grpc.insecure_channel(server.grpc_target) as channel:
        call = channel.unary_unary(f"{SERVICE}/SubmitAction", request_serializer=None,
                                   response_deserializer=None)
        answer = pb.SubmitActionResponse.FromString(call(valid, metadata=metadata, timeout=30))
    assert answer.state.summary.version == game.version + 1


def test_grpc_malformed_protobuf_gets_invalid_argument_with_error_info(
    server: ServerProcess, game: Game
) -> None:
    with grpc.insecure_channel(server.grpc_target) as channel:
        call = channel.unary_unary(f"{SERVICE}/GetGame", request_serializer=None,
                                   response_deserializer=None)
        try:
            call(GARBAGE["all-ones"], timeout=30)
        except grpc.RpcError as error:
            assert BrassError.from_rpc_error(error).reason == "INVALID_ARGUMENT"
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        else:
            raise AssertionError("garbage bytes were accepted")


def test_grpc_unknown_fields_are_ignored(server: ServerProcess, game: Game) -> None:
    """Forward compatibility: a field this server does not know is skipped, not an error."""
    request = pb.GetGameRequest(game_id=game.id).SerializeToString() + b"\xf8\x06\x01"
    with grpc.insecure_channel(server.grpc_target) as channel:
        call = channel.unary_unary(f"{SERVICE}/GetGame", request_serializer=None,
                                   response_deserializer=None)
        answer = pb.GetGameResponse.FromString(call(request, timeout=30))
    assert answer.state == game.before
    game.assert_unchanged()


# ------------------------------------------------------------------- oversized input


def test_oversized_fields_and_bodies(server: ServerProcess, game: Game, rest: Rest,
                                     no_server_faults: None) -> None:
    client, token, legal = game.client, game.actor_token, game.legal_ids()
    # gRPC: over the 1 MiB request limit the transport itself refuses (no ErrorInfo).
    with pytest.raises(BrassError) as caught:
        client.submit_action(game.id, token, legal[0], idempotency_key="k" * (2 << 20))
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    with pytest.raises(BrassError) as caught:
        client.get_game("g" * (2 << 20))
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    # Under the transport limit, but absurd: a 300,000-id compound action is refused whole,
    # by its length before its ids are looked at.
    for ids in ([legal[0]] * 300_000, [BIRMINGHAM.num_actions] * 300_000):
        error = expect_grpc("INVALID_ARGUMENT", client.submit_action, game.id, token,
                            compound=ids, expected_version=game.version)
        assert "at most 64 ids" in error.message
    # Fields over their own limits.
    error = expect_grpc("INVALID_ARGUMENT", client.get_game, "g" * 65)
    assert error.metadata["field"] == "game_id"
    error = expect_grpc("INVALID_ARGUMENT", client.create_game, players=2,
                        seat_names=["n" * 65, "ok"])
    assert error.metadata["field"] == "seat_names[0]"  # names the seat (service/names.py)
    expect_grpc("UNAUTHENTICATED", client.get_game, game.id, "t" * 600)
    # REST: a body over the limit on the action route; an over-long key under it.
    base = f"/v1/games/{game.id}/actions"
    body = {"action": {"optionId": legal[0]}, "idempotencyKey": "k" * (2 << 20)}
    rest.expect("MESSAGE_TOO_LARGE", "POST", base, body, token)
    rest.expect("MESSAGE_TOO_LARGE", "POST", f"{base}:preview", body, token)
    error = rest.expect("INVALID_ARGUMENT", "POST", base,
                        {"action": {"optionId": legal[0]}, "idempotencyKey": "k" * 129}, token)
    assert error["details"][0]["metadata"]["field"] == "idempotencyKey"  # as REST spells it
    rest.expect("INVALID_ARGUMENT", "GET", f"/v1/games/{'g' * 65}")
    rest.expect("UNAUTHENTICATED", "GET", f"/v1/games/{game.id}", token="t" * 600)
    game.assert_unchanged()


# ------------------------------------------------------------------ malformed JSON (REST)

CREATE_BODIES: dict[str, bytes] = {
    "array": b"[1]",
    "null": b"null",
    "string": b'"players"',
    "number": b"42",
    "trailing garbage": b'{"players": 2} x',
    "not utf-8": b"\xff\xfe\x00",
    "players as text": b'{"players": "two"}',
    "players fractional": b'{"players": 2.5}',
    "players boolean": b'{"players": true}',
    "players overflow": b'{"players": 1e400}',
    "seed negative": b'{"players": 2, "seed": "-1"}',
    "seed over 64 bits": b'{"players": 2, "seed": "18446744073709551616"}',
    "seat names not a list": b'{"players": 2, "seatNames": "ab"}',
    "options not an object": b'{"players": 2, "options": 7}',
    "unknown enum name": b'{"players": 2, "ruleset": "RULESET_CATAN"}',
    "unknown enum number": b'{"players": 2, "ruleset": 99}',
    "option out of range": b'{"players": 2, "options": {"manufacturerIvCost": 9}}',
    "nothing set": b"{}",
}


def test_rest_malformed_and_mistyped_json(server: ServerProcess, game: Game, rest: Rest,
                                          no_server_faults: None) -> None:
    newest = newest_game_id(game.client)
    for name, body in CREATE_BODIES.items():
        error = rest.expect("INVALID_ARGUMENT", "POST", "/v1/games", body)
        assert error["message"], name
    assert newest_game_id(game.client) == newest, "a refused CreateGame created a game"

    base, token = f"/v1/games/{game.id}/actions", game.actor_token
    legal = game.legal_ids()
    action_bodies = {
        "option id as text": {"action": {"optionId": "one"}},
        "option id over int32": {"action": {"optionId": 2**31}},
        "two kinds at once": {"action": {"optionId": legal[0], "compoundKey": "x"}},
        "compound ids as text": {"action": {"compound": {"ids": "1,2"}}},
        "empty compound": {"action": {"compound": {"ids": []}}},
        "action as a list": {"action": []},
        "action missing": {"expectedVersion": str(game.version)},
        "version as words": {"action": {"optionId": legal[0]}, "expectedVersion": "ten"},
        "version fractional": {"action": {"optionId": legal[0]}, "expectedVersion": 1.5},
        "key as a number": {"action": {"optionId": legal[0]}, "idempotencyKey": 5},
        "unknown field": {"action": {"optionId": legal[0]}, "force": True},
    }
    for name, body in action_bodies.items():
        for path in (base, f"{base}:preview"):
            if path.endswith("preview") and name == "key as a number":
                continue  # PreviewActionRequest has no key: that is the unknown-field case
            error = rest.expect("INVALID_ARGUMENT", "POST", path, body, token)
            assert error["message"], name
    rest.expect("UNKNOWN_ACTION", "POST", base, {"action": {"optionId": -1}}, token)
    rest.expect("INVALID_ARGUMENT", "POST", base, b"[]", token)
    rest.expect("INVALID_ARGUMENT", "POST", base, b'{"action": {"optionId": 1}', token)
    # Query parameters of the wrong type.
    rest.expect("INVALID_ARGUMENT", "GET", f"{base}?includeCompoundActions=maybe", token=token)
    rest.expect("INVALID_ARGUMENT", "GET", f"{base}?includeUnavailable=2", token=token)
    rest.expect("INVALID_ARGUMENT", "GET", f"/v1/games/{game.id}/events?fromVersion=abc")
    rest.expect("INVALID_ARGUMENT", "GET", f"/v1/games/{game.id}/events?fromVersion=-1")
    rest.expect("INVALID_ARGUMENT", "GET", "/v1/games?status=FOO")
    rest.expect("INVALID_ARGUMENT", "GET", "/v1/games?pageSize=0x10")
    game.assert_unchanged()


def test_deeply_nested_json_is_a_client_error(server: ServerProcess, rest: Rest,
                                              client: GameClient) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    rest.expect("INVALID_ARGUMENT", "POST", "/v1/games", deep.encode())
    rest.expect("BAD_POSITION", "POST", "/v1/games:fromPosition", {"positionJson": deep},
                server.operator_token)
    expect_grpc("BAD_POSITION", client.create_game_from_position, deep)


# --------------------------------------------- values past a field's range or encoding


def _page_token(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


# Page tokens shaped like ours (base64 of JSON) whose content is not a cursor.
ODD_PAGE_TOKENS = {
    "deeply nested": _page_token(b"[" * 2_900 + b"]" * 2_900),
    "time overflowing a float": _page_token(b"[1" + b"0" * 400 + b', "a"]'),
    "time not a number": _page_token(b'[NaN, "a"]'),
    "lone surrogate in the id": _page_token(b'[1.5, "\\ud800"]'),
    "id not a string": _page_token(b"[1.5, 7]"),
}


def test_values_past_a_field_range_or_encoding_are_client_errors(
    server: ServerProcess, game: Game, rest: Rest, client: GameClient, no_server_faults: None
) -> None:
    """Each of these reached protobuf or the store and came back as a 500 (issue 10, E)."""
    for page_size in (2**31, -(2**31) - 1, 10**30):
        error = rest.expect("INVALID_ARGUMENT", "GET", f"/v1/games?pageSize={page_size}")
        assert error["details"][0]["metadata"]["field"] == "pageSize"
    for name, token in ODD_PAGE_TOKENS.items():
        rest.expect("BAD_PAGE_TOKEN", "GET", f"/v1/games?pageToken={token}")
        error = expect_grpc("BAD_PAGE_TOKEN", client.list_games, page_token=token)
        assert error.metadata["field"] == "page_token", name
    deep = _page_token(b"[" * 300_000 + b"]" * 300_000)  # fits the gRPC limit, not a URL
    expect_grpc("BAD_PAGE_TOKEN", client.list_games, page_token=deep)
    # A lone surrogate (legal JSON, not UTF-8) in the strings of the usual SubmitAction body.
    base, token = f"/v1/games/{game.id}/actions", game.actor_token
    option = game.legal_ids()[0]
    for key in ("idempotencyKey", "gameId"):
        body = (f'{{"action": {{"optionId": {option}}}, '
                f'"expectedVersion": "{game.version}", "{key}": "\\ud800"}}').encode()
        for path in (base, f"{base}:preview"):
            error = rest.expect("INVALID_ARGUMENT", "POST", path, body, token)
            assert "surrogate" in error["message"] or "no field" in error["message"]
    # Watch positions past int64, as a query parameter and as EventSource's header.
    events = f"/v1/games/{game.id}/events"
    for version in (2**63, -(2**63) - 1, 10**40):
        error = rest.expect("INVALID_ARGUMENT", "GET", f"{events}?fromVersion={version}")
        assert error["details"][0]["metadata"]["field"] == "fromVersion"
        error = rest.expect("INVALID_ARGUMENT", "GET", events,
                            headers={"Last-Event-ID": str(version)})
        assert error["details"][0]["metadata"]["field"] == "Last-Event-ID"
    game.assert_unchanged()


# ------------------------------------------------------------------------ game ids

ODD_IDS = ["0" * 20, "x' OR '1'='1", "%25", "ゲーム", "a\tb", "..", "-1"]


def test_unknown_game_ids_on_every_route(server: ServerProcess, game: Game, rest: Rest,
                                         no_server_faults: None) -> None:
    client, token = game.client, game.actor_token
    for game_id in ODD_IDS:
        expect_grpc("UNKNOWN_GAME", client.get_game, game_id)
        expect_grpc("UNKNOWN_GAME", client.get_game, game_id, token)
        expect_grpc("UNKNOWN_GAME", client.list_legal_actions, game_id, token)
        expect_grpc("UNKNOWN_GAME", client.preview_action, game_id, token, 1)
        expect_grpc("UNKNOWN_GAME", client.submit_action, game_id, token, 1,
                    expected_version=0)
        expect_grpc("UNKNOWN_GAME", client.get_replay, game_id)
        with pytest.raises(BrassError) as caught:
            next(client.watch_game(game_id))
        assert caught.value.reason == "UNKNOWN_GAME"
    for method in ("GetGame", "ListLegalActions", "PreviewAction", "GetReplay"):
        error = expect_grpc("INVALID_ARGUMENT", raw_metadata_call, server, method,
                            getattr(pb, f"{method}Request")(game_id=""), ())
        assert error.metadata["field"] == "game_id"
    from urllib.parse import quote

    for game_id in ODD_IDS:
        path = f"/v1/games/{quote(game_id, safe='')}"
        if game_id == "..":
            continue  # path normalisation makes this another route
        rest.expect("UNKNOWN_GAME", "GET", path)
        rest.expect("UNKNOWN_GAME", "GET", f"{path}/actions", token=token)
        rest.expect("UNKNOWN_GAME", "POST", f"{path}/actions",
                    {"action": {"optionId": 1}}, token)
        rest.expect("UNKNOWN_GAME", "POST", f"{path}/actions:preview",
                    {"action": {"optionId": 1}}, token)
        rest.expect("UNKNOWN_GAME", "GET", f"{path}/events")
        rest.expect("UNKNOWN_GAME", "GET", f"{path}/replay")
    # The store is intact: listing still works and finds the real game.
    ids = {g.game_id for g in client.iter_games(page_size=100)}
    assert game.id in ids and not ids & set(ODD_IDS)
    game.assert_unchanged()


# -------------------------------------------------------------------------- tokens


def test_malformed_and_misplaced_tokens(server: ServerProcess, game: Game, rest: Rest,
                                        no_server_faults: None) -> None:
    client = game.client
    other = client.create_game(players=2, seed=77)
    foreign = other.seats[0].token
    mutated = game.actor_token[:-1] + ("A" if game.actor_token[-1] != "A" else "B")
    # Malformed authorization values are refused, even where a spectator may read.
    for value in ("Basic " + game.actor_token, "Bearer", "Bearer    ", game.actor_token,
                  "Bearer a b", "Token " + game.actor_token):
        expect_grpc("UNAUTHENTICATED", raw_metadata_call, server, "GetGame",
                    pb.GetGameRequest(game_id=game.id), (("authorization", value),))
        rest.expect("UNAUTHENTICATED", "GET", f"/v1/games/{game.id}",
                    headers={"Authorization": value})
    # A token that fits no seat of this game (mutated, or another game's), on every route:
    # refused, never downgraded to a spectator.
    for token in (mutated, foreign):
        expect_grpc("UNAUTHENTICATED", client.get_game, game.id, token)
        expect_grpc("UNAUTHENTICATED", client.list_legal_actions, game.id, token)
        expect_grpc("UNAUTHENTICATED", client.preview_action, game.id, token, 1)
        expect_grpc("UNAUTHENTICATED", client.submit_action, game.id, token, 1,
                    expected_version=game.version)
        expect_grpc("UNAUTHENTICATED", client.get_replay, game.id, token)
        with pytest.raises(BrassError) as caught:
            next(client.watch_game(game.id, token))
        assert caught.value.reason == "UNAUTHENTICATED"
        base = f"/v1/games/{game.id}"
        rest.expect("UNAUTHENTICATED", "GET", base, token=token)
        rest.expect("UNAUTHENTICATED", "GET", f"{base}/actions", token=token)
        rest.expect("UNAUTHENTICATED", "POST", f"{base}/actions:preview",
                    {"action": {"optionId": 1}}, token)
        rest.expect("UNAUTHENTICATED", "GET", f"{base}/events", token=token)
        rest.expect("UNAUTHENTICATED", "GET", f"{base}/replay", token=token)
    # Missing where a seat is required.
    expect_grpc("UNAUTHENTICATED", client.preview_action, game.id, "", 1)
    expect_grpc("UNAUTHENTICATED", client.submit_action, game.id, "", 1)
    rest.expect("UNAUTHENTICATED", "GET", f"/v1/games/{game.id}/actions")
    rest.expect("UNAUTHENTICATED", "POST", f"/v1/games/{game.id}/actions:preview",
                {"action": {"optionId": 1}})
    # Another seat's token: its own view, but no acting out of turn, by any action kind.
    legal = game.legal_ids()
    waiting = game.waiting_token
    expect_grpc("NOT_YOUR_TURN", client.submit_action, game.id, waiting,
                compound=[legal[0]], expected_version=game.version)
    expect_grpc("NOT_YOUR_TURN", client.preview_action, game.id, waiting, legal[0])
    rest.expect("NOT_YOUR_TURN", "POST", f"/v1/games/{game.id}/actions:preview",
                {"action": {"optionId": legal[0]}}, waiting)
    # The other game's seat cannot act here, and this game's seat cannot act there.
    expect_grpc("UNAUTHENTICATED", client.submit_action, other.game_id, game.actor_token, 1)
    game.assert_unchanged()


# -------------------------------------------------------------- idempotency and versions


def test_idempotency_keys_reused_with_different_bodies(server: ServerProcess, game: Game,
                                                       rest: Rest,
                                                       no_server_faults: None) -> None:
    client, token = game.client, game.actor_token
    option = game.legal_ids()[0]
    first = client.submit_action(game.id, token, option, expected_version=game.version,
                                 idempotency_key="same-key")
    game.remember()
    # The same key with a request that differs in one detail only.
    variants: list[dict[str, Any]] = [
        {"option_id": option},  # no expected version
        {"compound": [option], "expected_version": game.version - 1},  # another kind
    ]
    for variant in variants:
        expect_grpc("IDEMPOTENCY_KEY_REUSED", client.submit_action, game.id, token,
                    idempotency_key="same-key", **variant)
    for seat_token in game.tokens:
        if seat_token != token:  # the same body from another seat is another request
            expect_grpc("IDEMPOTENCY_KEY_REUSED", client.submit_action, game.id, seat_token,
                        option, expected_version=game.version - 1,
                        idempotency_key="same-key")
    base = f"/v1/games/{game.id}/actions"
    rest.expect("IDEMPOTENCY_KEY_REUSED", "POST", base,
                {"action": {"optionId": option}, "idempotencyKey": "same-key"}, token)
    rest.expect("IDEMPOTENCY_KEY_REUSED", "POST", base,
                {"action": {"compound": {"ids": [option]}},
                 "expectedVersion": str(game.version - 1), "idempotencyKey": "same-key"}, token)
    # The identical request, over either transport, is the stored answer and applies nothing.
    again = client.submit_action(game.id, token, option, expected_version=game.version - 1,
                                 idempotency_key="same-key")
    assert again.replayed and again.state == first.state
    status, document = rest.call("POST", base, {"action": {"optionId": option},
                                                "expectedVersion": str(game.version - 1),
                                                "idempotencyKey": "same-key"}, token)
    assert status == 200 and document["replayed"] is True
    assert int(document["state"]["summary"]["version"]) == game.version
    game.assert_unchanged()
    # Keys belong to one game: the same key in another game is a new request there.
    other = Game(client, players=2, seed=31, moves=0)
    other_legal = other.legal_ids()
    fresh = client.submit_action(other.id, other.actor_token, other_legal[0],
                                 expected_version=0, idempotency_key="same-key")
    assert not fresh.replayed and fresh.state.summary.version == 1
    game.assert_unchanged()


def test_stale_versions_on_every_versioned_call(server: ServerProcess, game: Game, rest: Rest,
                                                no_server_faults: None) -> None:
    client, token = game.client, game.actor_token
    option = game.legal_ids()[0]
    for seen in (-1, game.version - 2, game.version + 1, 2**63 - 1):
        error = expect_grpc("STALE_VERSION", client.submit_action, game.id, token, option,
                            expected_version=seen)
        assert error.metadata["version"] == str(game.version)
        error = expect_grpc("STALE_VERSION", client.preview_action, game.id, token, option,
                            expected_version=seen)
        assert error.metadata["version"] == str(game.version)
        body = {"action": {"optionId": option}, "expectedVersion": str(seen)}
        error = rest.expect("STALE_VERSION", "POST", f"/v1/games/{game.id}/actions:preview",
                            body, token)
        assert error["details"][0]["metadata"]["version"] == str(game.version)
    with pytest.raises(BrassError) as caught:
        next(client.watch_game(game.id, from_version=-5))
    assert caught.value.reason == "INVALID_ARGUMENT"
    rest.expect("INVALID_ARGUMENT", "GET", f"/v1/games/{game.id}/events?fromVersion=99")
    game.assert_unchanged()


# ------------------------------------------------------------------------ concurrency


def test_concurrent_submits_to_one_game(server: ServerProcess, client: GameClient,
                                        rest: Rest, no_server_faults: None) -> None:
    """Many submissions at one version, over both transports: exactly one is applied."""
    game = Game(client, players=4, seed=555, moves=2)
    rng = random.Random(5)
    for _round in range(4):
        game.remember()
        legal = game.legal_ids()
        racers = 12
        barrier = threading.Barrier(racers)
        outcomes: list[Any] = [None] * racers

        def race(index: int, option: int, legal: list[int] = legal,
                 barrier: threading.Barrier = barrier, outcomes: list[Any] = outcomes) -> None:
            key = f"race-{game.version}-{index}"
            barrier.wait()
            if index % 2:
                status, document = rest.call(
                    "POST", f"/v1/games/{game.id}/actions",
                    {"action": {"optionId": option}, "expectedVersion": str(game.version),
                     "idempotencyKey": key}, game.actor_token)
                outcomes[index] = (status, document.get("error", {}).get("reason"), option)
            else:
                try:
                    client.submit_action(game.id, game.actor_token, option,
                                         expected_version=game.version, idempotency_key=key)
                    outcomes[index] = (200, None, option)
                except BrassError as error:
                    outcomes[index] = (_HTTP_STATUS.get(error.reason), error.reason, option)

        threads = [threading.Thread(target=race, args=(i, rng.choice(legal)))
                   for i in range(racers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        wins = [o for o in outcomes if o and o[0] == 200]
        losses = [o for o in outcomes if o and o[0] != 200]
        assert len(wins) == 1, outcomes
        assert len(losses) == racers - 1
        assert all(o[:2] == (409, "STALE_VERSION") for o in losses), outcomes
        after = client.get_game(game.id)
        assert after.summary.version == game.version + 1
        _, record = client.get_replay(game.id)
        assert record["decisions"][:-1] == game.before_replay[1]["decisions"]
        assert record["decisions"][-1] == wins[0][2]

    # The same key and body from many callers at once: applied once, the rest replayed.
    game.remember()
    option = game.legal_ids()[0]
    answers: list[Any] = [None] * 8
    barrier = threading.Barrier(8)

    def same(index: int) -> None:
        barrier.wait()
        answers[index] = client.submit_action(game.id, game.actor_token, option,
                                              expected_version=game.version,
                                              idempotency_key="one-key")

    threads = [threading.Thread(target=same, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert sum(not a.replayed for a in answers) == 1
    assert all(a.state == answers[0].state for a in answers)
    assert client.get_game(game.id).summary.version == game.version + 1


# ---------------------------------------------------------------- after the game ended


def test_actions_after_the_game_ended(server: ServerProcess, client: GameClient, rest: Rest,
                                      no_server_faults: None) -> None:
    game_id, tokens, submitted = finished_game(client, seed=4040)
    before = client.get_game(game_id)
    assert before.summary.status == pb.GAME_STATUS_FINISHED
    views = [client.get_game(game_id, t) for t in tokens]
    replay = client.get_replay(game_id)
    assert replay[0], "the replay of a finished game is complete"
    version = before.summary.version
    for token in tokens:
        expect_grpc("GAME_OVER", client.submit_action, game_id, token, 0,
                    expected_version=version)
        expect_grpc("GAME_OVER", client.submit_action, game_id, token, compound=[0, 1])
        expect_grpc("GAME_OVER", client.preview_action, game_id, token, 0)
        expect_grpc("GAME_OVER", client.preview_action, game_id, token, compound=[0])
        # A stale version is refused too; either reason is a documented answer to it.
        with pytest.raises(BrassError) as refused:
            client.submit_action(game_id, token, 0, expected_version=version - 1)
        assert refused.value.reason in ("STALE_VERSION", "GAME_OVER")
        assert refused.value.code == _GRPC_STATUS[refused.value.reason]
        base = f"/v1/games/{game_id}/actions"
        rest.expect("GAME_OVER", "GET", base, token=token)
        rest.expect("GAME_OVER", "POST", f"{base}:preview", {"action": {"optionId": 0}}, token)
        rest.expect("GAME_OVER", "POST", base,
                    {"action": {"compound": {"ids": [0]}}, "idempotencyKey": "late"}, token)
    # Nobody without a seat acts, finished or not.
    expect_grpc("UNAUTHENTICATED", client.submit_action, game_id, "", 0)
    # The last accepted submission, resent with its key, is still its stored answer.
    seat, option, at, key = submitted[-1]
    again = client.submit_action(game_id, tokens[seat], option, expected_version=at,
                                 idempotency_key=key)
    assert again.replayed and again.state.summary.status == pb.GAME_STATUS_FINISHED
    assert client.get_game(game_id) == before
    assert [client.get_game(game_id, t) for t in tokens] == views
    assert client.get_replay(game_id) == replay


def test_compound_key_after_the_game_ended_is_game_over(client: GameClient) -> None:
    game_id, tokens, _ = finished_game(client, seed=4041)
    expect_grpc("GAME_OVER", client.submit_action, game_id, tokens[0], compound_key="x")
