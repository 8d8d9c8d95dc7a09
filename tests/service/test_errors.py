"""Every error reason, provoked through gRPC and REST: the right code, reason and message,
and the game exactly as it was (a rejected request changes nothing)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import grpc
import pytest

import brass
from brass_clients.sdk import BrassError, GameClient, pb

from .conftest import Backend
from .helpers import (
    RestClient,
    ServerProcess,
    expect_error,
    expect_rest_error,
    play_random_grpc,
    sse_events,
)

BIRMINGHAM = brass.get_ruleset("birmingham")


@pytest.fixture(scope="session")
def finished_game(server: ServerProcess) -> tuple[str, list[str]]:
    with server.client() as client:
        created = client.create_game(players=2, seed=2024)
        tokens = [s.token for s in created.seats]
        play_random_grpc(client, created.game_id, tokens, random.Random(0))
        return created.game_id, tokens


class Game:
    """A fresh game with a couple of moves played, and what it looked like before each
    provocation."""

    def __init__(self, client: GameClient) -> None:
        self.client = client
        created = client.create_game(players=3, seed=4321)
        self.id = created.game_id
        self.tokens = [s.token for s in created.seats]
        play_random_grpc(client, self.id, self.tokens, random.Random(1), max_submissions=2)
        self.snapshot()

    def snapshot(self) -> None:
        self.before = self.client.get_game(self.id)
        self.before_seat_views = [self.client.get_game(self.id, t) for t in self.tokens]
        _, self.before_replay = self.client.get_replay(self.id)

    @property
    def version(self) -> int:
        return self.before.summary.version

    @property
    def to_act(self) -> int:
        return self.before.summary.current_seat

    @property
    def waiting(self) -> int:
        return (self.to_act + 1) % len(self.tokens)

    def legal(self) -> pb.ListLegalActionsResponse:
        return self.client.list_legal_actions(self.id, self.tokens[self.to_act])

    def illegal_option(self) -> int:
        legal_ids = {o.id for o in self.legal().options}
        return next(i for i in range(BIRMINGHAM.num_actions) if i not in legal_ids)

    def assert_unchanged(self) -> None:
        assert self.client.get_game(self.id) == self.before
        assert [self.client.get_game(self.id, t) for t in self.tokens] == self.before_seat_views
        assert self.client.get_replay(self.id)[1] == self.before_replay


@pytest.fixture
def game(server: ServerProcess) -> Iterator[Game]:
    with server.client() as client:
        yield Game(client)


def test_unknown_game(server: ServerProcess) -> None:
    with server.client() as client:
        error = expect_error("UNKNOWN_GAME", client.get_game, "no-such-game")
        assert error.code == grpc.StatusCode.NOT_FOUND
        assert "no-such-game" in error.message
        expect_error("UNKNOWN_GAME", client.submit_action, "nope", "token", 1)
        expect_error("UNKNOWN_GAME", client.get_replay, "nope")
        with pytest.raises(BrassError) as caught:
            next(client.watch_game("nope"))
        assert caught.value.reason == "UNKNOWN_GAME"


def test_unauthenticated(game: Game) -> None:
    client = game.client
    legal = game.legal()
    option = legal.options[0].id
    wrong = expect_error(
        "UNAUTHENTICATED", client.submit_action, game.id, "not-a-real-token", option
    )
    assert wrong.code == grpc.StatusCode.UNAUTHENTICATED
    expect_error("UNAUTHENTICATED", client.get_game, game.id, "not-a-real-token")
    expect_error("UNAUTHENTICATED", client.list_legal_actions, game.id, "")
    # A token of another game is not a token of this one.
    other = client.create_game(players=2, seed=1)
    expect_error(
        "UNAUTHENTICATED", client.submit_action, game.id, other.seats[0].token, option
    )
    game.assert_unchanged()


def test_not_your_turn(game: Game) -> None:
    option = game.legal().options[0].id
    error = expect_error(
        "NOT_YOUR_TURN",
        game.client.submit_action,
        game.id,
        game.tokens[game.waiting],
        option,
        expected_version=game.version,
    )
    assert error.code == grpc.StatusCode.PERMISSION_DENIED
    expect_error(
        "NOT_YOUR_TURN", game.client.list_legal_actions, game.id, game.tokens[game.waiting]
    )
    expect_error("NOT_YOUR_TURN", game.client.preview_action, game.id, game.tokens[game.waiting],
                 option)
    game.assert_unchanged()


def test_illegal_action(game: Game) -> None:
    error = expect_error(
        "ILLEGAL_ACTION",
        game.client.submit_action,
        game.id,
        game.tokens[game.to_act],
        game.illegal_option(),
        expected_version=game.version,
    )
    assert error.code == grpc.StatusCode.FAILED_PRECONDITION
    assert error.metadata["version"] == str(game.version)
    expect_error("ILLEGAL_ACTION", game.client.submit_action, game.id, game.tokens[game.to_act],
                 compound_key="no-such-compound-action")
    expect_error("ILLEGAL_ACTION", game.client.preview_action, game.id, game.tokens[game.to_act],
                 game.illegal_option())
    game.assert_unchanged()


def test_illegal_compound_action_applies_nothing(game: Game) -> None:
    legal = game.legal()
    expect_error(
        "ILLEGAL_ACTION",
        game.client.submit_action,
        game.id,
        game.tokens[game.to_act],
        compound=[legal.options[0].id, game.illegal_option(), game.illegal_option()],
    )
    game.assert_unchanged()


def test_unknown_action(game: Game) -> None:
    error = expect_error(
        "UNKNOWN_ACTION",
        game.client.submit_action,
        game.id,
        game.tokens[game.to_act],
        BIRMINGHAM.num_actions + 17,
    )
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    game.assert_unchanged()


def test_stale_version(game: Game) -> None:
    option = game.legal().options[0].id
    for seen in (game.version - 1, game.version + 1):
        error = expect_error(
            "STALE_VERSION",
            game.client.submit_action,
            game.id,
            game.tokens[game.to_act],
            option,
            expected_version=seen,
        )
        assert error.code == grpc.StatusCode.ABORTED
        assert error.metadata["version"] == str(game.version)
    game.assert_unchanged()


def test_game_over(server: ServerProcess, finished_game: tuple[str, list[str]]) -> None:
    game_id, tokens = finished_game
    with server.client() as client:
        before = client.get_game(game_id)
        for token in tokens:
            error = expect_error("GAME_OVER", client.submit_action, game_id, token, 0)
            assert error.code == grpc.StatusCode.FAILED_PRECONDITION
            expect_error("GAME_OVER", client.list_legal_actions, game_id, token)
        assert client.get_game(game_id) == before
        # Watching a finished game gives its final state, then the stream ends.
        updates = list(client.watch_game(game_id, from_version=before.summary.version))
        assert len(updates) == 1 and updates[0].state.summary.status == pb.GAME_STATUS_FINISHED


def test_invalid_arguments(game: Game) -> None:
    client = game.client
    for players in (1, 5, 0):
        error = expect_error("INVALID_ARGUMENT", client.create_game, players=players)
        assert error.metadata["field"] == "players"
    expect_error("INVALID_ARGUMENT", client.create_game, players=2, seat_names=["only one"])
    expect_error("INVALID_ARGUMENT", client.list_games, page_size=1000)
    expect_error("INVALID_ARGUMENT", client.list_games, page_size=-1)
    expect_error("INVALID_ARGUMENT", client.submit_action, game.id, game.tokens[game.to_act],
                 game.legal().options[0].id, idempotency_key="k" * 500)
    # An action with nothing set.
    stub_request = pb.SubmitActionRequest(game_id=game.id)
    expect_error("INVALID_ARGUMENT", client._call, "SubmitAction", stub_request,
                 game.tokens[game.to_act])
    with pytest.raises(BrassError) as caught:
        next(client.watch_game(game.id, from_version=game.version + 100))
    assert caught.value.reason == "INVALID_ARGUMENT"
    game.assert_unchanged()


def test_bad_position_and_page_token(server: ServerProcess) -> None:
    with server.client() as client:
        expect_error("BAD_POSITION", client.create_game_from_position, "this is not json")
        expect_error("BAD_POSITION", client.create_game_from_position, {"players": "many"})
        expect_error("BAD_PAGE_TOKEN", client.list_games, page_token="garbage!!")


def test_idempotency_key_reused_for_another_request(game: Game) -> None:
    legal = game.legal()
    token = game.tokens[game.to_act]
    first = game.client.submit_action(
        game.id, token, legal.options[0].id, expected_version=legal.version, idempotency_key="x"
    )
    game.snapshot()
    other_option = legal.options[-1].id if len(legal.options) > 1 else legal.options[0].id
    error = expect_error(
        "IDEMPOTENCY_KEY_REUSED",
        game.client.submit_action,
        game.id,
        token,
        other_option,
        expected_version=legal.version + 1,
        idempotency_key="x",
    )
    assert error.code == grpc.StatusCode.ALREADY_EXISTS
    assert game.client.get_game(game.id).summary.version == first.state.summary.version
    game.assert_unchanged()


def test_grpc_message_too_large(game: Game) -> None:
    with pytest.raises(BrassError) as caught:
        game.client.create_game_from_position("x" * (2 << 20))
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_watch_streams_are_rate_limited(backend: Backend) -> None:
    limited = backend.start_server(
        "limited", env={"BRASS_WATCH_BURST": "2", "BRASS_WATCH_RATE_PER_SECOND": "0.001"}
    )
    with limited.client() as client:
        game_id = client.create_game(players=2, seed=1).game_id
        open_streams = [client.watch_game(game_id) for _ in range(2)]
        for stream in open_streams:
            assert next(stream).version == 0
        with pytest.raises(BrassError) as caught:
            next(client.watch_game(game_id))
        assert caught.value.reason == "RATE_LIMITED"
        assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        with pytest.raises(Exception) as rest_caught:
            next(sse_events(limited.http_port, f"/v1/games/{game_id}/events"))
        assert getattr(rest_caught.value, "reason", None) == "RATE_LIMITED"
        assert getattr(rest_caught.value, "status", None) == 429
        for stream in open_streams:
            stream.close()
    limited.stop()


# -------------------------------------------------------------------------------- REST


def test_rest_errors_match_grpc_reasons(server: ServerProcess, game: Game,
                                        finished_game: tuple[str, list[str]]) -> None:
    rest: RestClient = server.rest()
    base = f"/v1/games/{game.id}"
    legal = game.legal()
    option = legal.options[0].id
    act = {"action": {"optionId": option}, "expectedVersion": str(game.version)}
    to_act, waiting = game.tokens[game.to_act], game.tokens[game.waiting]

    expect_rest_error("UNKNOWN_GAME", 404, rest.get, "/v1/games/nope")
    expect_rest_error("UNAUTHENTICATED", 401, rest.post, f"{base}/actions", act, "bad-token")
    expect_rest_error("UNAUTHENTICATED", 401, rest.post, f"{base}/actions", act)
    expect_rest_error("NOT_YOUR_TURN", 403, rest.post, f"{base}/actions", act, waiting)
    expect_rest_error("NOT_YOUR_TURN", 403, rest.get, f"{base}/actions", waiting)
    illegal = {"action": {"optionId": game.illegal_option()}}
    expect_rest_error("ILLEGAL_ACTION", 400, rest.post, f"{base}/actions", illegal, to_act)
    expect_rest_error("ILLEGAL_ACTION", 400, rest.post, f"{base}/actions:preview", illegal, to_act)
    unknown = {"action": {"optionId": BIRMINGHAM.num_actions + 3}}
    expect_rest_error("UNKNOWN_ACTION", 400, rest.post, f"{base}/actions", unknown, to_act)
    stale = {**act, "expectedVersion": str(game.version + 5)}
    error = expect_rest_error("STALE_VERSION", 409, rest.post, f"{base}/actions", stale, to_act)
    assert error.body["error"]["details"][0]["metadata"]["version"] == str(game.version)
    assert error.body["error"]["details"][0]["@type"].endswith("google.rpc.ErrorInfo")
    done_id, done_tokens = finished_game
    expect_rest_error("GAME_OVER", 400, rest.post, f"/v1/games/{done_id}/actions",
                      {"action": {"optionId": option}}, done_tokens[0])
    expect_rest_error("INVALID_ARGUMENT", 400, rest.post, "/v1/games", {"players": 7})
    expect_rest_error("INVALID_ARGUMENT", 400, rest.post, "/v1/games", {"playerz": 2})
    expect_rest_error("INVALID_ARGUMENT", 400, rest.request, "POST", "/v1/games",
                      raw_body=b"{not json")
    expect_rest_error("INVALID_ARGUMENT", 400, rest.post, f"{base}/actions", {}, to_act)
    expect_rest_error("INVALID_ARGUMENT", 400, rest.post, f"{base}/actions",
                      {**act, "gameId": "other"}, to_act)
    expect_rest_error("INVALID_ARGUMENT", 400, rest.get, "/v1/games?pageSize=5000")
    expect_rest_error("INVALID_ARGUMENT", 400, rest.get, "/v1/games?pageSize=ten")
    expect_rest_error("INVALID_ARGUMENT", 400, rest.get, f"{base}/events?fromVersion=99999")
    expect_rest_error("BAD_PAGE_TOKEN", 400, rest.get, "/v1/games?pageToken=zzz")
    operator = server.operator_token
    expect_rest_error("BAD_POSITION", 400, rest.post, "/v1/games:fromPosition",
                      {"positionJson": "[1, 2"}, operator)
    expect_rest_error("MESSAGE_TOO_LARGE", 413, rest.request, "POST", "/v1/games:fromPosition",
                      raw_body=b'{"positionJson": "' + b"x" * (2 << 20) + b'"}', token=operator)
    rest = server.rest()  # the server may close a connection after an oversized body
    expect_rest_error("UNKNOWN_ROUTE", 404, rest.get, "/v2/nothing")
    expect_rest_error("METHOD_NOT_ALLOWED", 405, rest.request, "DELETE", base)
    keyed = {**act, "idempotencyKey": "rest-reuse"}
    rest.post(f"{base}/actions", keyed, to_act)
    game.snapshot()
    reused = {**keyed, "action": {"optionId": legal.options[-1].id}, "expectedVersion": "0"}
    expect_rest_error("IDEMPOTENCY_KEY_REUSED", 409, rest.post, f"{base}/actions", reused, to_act)
    game.assert_unchanged()


def test_undecodable_request_bytes_are_invalid_argument(server: ServerProcess) -> None:
    with grpc.insecure_channel(server.grpc_target) as channel:
        call = channel.unary_unary(
            "/brass.v1.GameService/GetGame", request_serializer=None, response_deserializer=None
        )
        with pytest.raises(grpc.RpcError) as caught:
            call(b"\xff" * 16, timeout=30)
    error = BrassError.from_rpc_error(caught.value)
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert error.reason == "INVALID_ARGUMENT" and "GetGameRequest" in error.message


def test_compound_key_follows_the_engine_precedence(
    game: Game, finished_game: tuple[str, list[str]]
) -> None:
    expect_error("NOT_YOUR_TURN", game.client.submit_action, game.id,
                 game.tokens[game.waiting], compound_key="anything")
    done_id, done_tokens = finished_game
    expect_error("GAME_OVER", game.client.submit_action, done_id, done_tokens[0],
                 compound_key="anything")
    game.assert_unchanged()


@pytest.mark.parametrize(("proto", "rest"), [
    ("at_version", "atVersion"), ("seat_names[1]", "seatNames[1]"),
    ("options.clock.initial_ms", "options.clock.initialMs"),
    ("options.manufacturer_iv_cost", "options.manufacturerIvCost"),
    ("options.oil_city_card", "options.oil_city_card"),  # a ruleset option's key
    ("options.ruleset_options.oil_city_card", "options.rulesetOptions.oil_city_card"),
    ("bot_seats[0].bot", "botSeats[0].bot"), ("pageSize", "pageSize"),
])
def test_rest_errors_name_request_fields_as_rest_json_does(proto: str, rest: str) -> None:
    from brass_service.errors import _GAME_OPTION_FIELDS, ServiceError, rest_field_path

    assert rest_field_path(proto) == rest
    assert _GAME_OPTION_FIELDS == set(pb.GameOptions.DESCRIPTOR.fields_by_name)
    error = ServiceError("INVALID_ARGUMENT", f"{proto} is wrong", field=proto)
    body = error.to_json()["error"]
    assert (body["message"], body["details"][0]["metadata"]["field"]) == (f"{rest} is wrong", rest)
    assert error.to_status_proto().message == f"{proto} is wrong"  # gRPC keeps proto names
    engine = ServiceError("BAD_POSITION", "no", field="players[0].income_space",
                          engine_code="BAD_POSITION")  # a field of the engine's document
    assert engine.to_json()["error"]["details"][0]["metadata"]["field"] == (
        "players[0].income_space")
