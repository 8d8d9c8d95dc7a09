"""The lobby under hostile clients (issue 20, items 6 and 9): display names that show
nothing, reorder text or copy another seat's name are refused by CreateGame and JoinGame
alike; one client (address) cannot take every open seat of the lobby (a join rate, a cap on
the seats it holds in waiting games, one seat of a game it did not create); a host bans a
joiner for good (RevokeSeatToken ban). Over gRPC and REST, on real server processes."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

from brass_clients.sdk import GameClient, pb
from brass_service.gen import game_service_pb2_grpc as pb_grpc
from brass_service.names import display_name, name_key

from .helpers import LOOPBACK, ServerProcess, expect_error, expect_rest_error

# Each refused, with the reason the message gives (a word of it).
HOSTILE_NAMES = {
    "zero-width space": ("\u200b", "U+200B"),
    "word joiner": ("\u2060", "U+2060"),
    "byte order mark": ("\ufeff", "U+FEFF"),
    "hidden in a name": ("Ann\u200b", "U+200B"),
    "right-to-left override": ("\u202eevil", "U+202E"),
    "left-to-right embedding": ("a\u202ab", "U+202A"),
    "isolate": ("\u2066Ann\u2069", "U+2066"),
    "NUL": ("A\x00B", "U+0000"),
    "bell": ("\x07Ann", "U+0007"),
    "tab": ("A\tB", "U+0009"),
    "newline": ("Ann\nBob", "U+000A"),
    "DEL": ("Ann\x7f", "U+007F"),
    "next line": ("Ann\x85", "U+0085"),
    "line separator": ("A\u2028B", "U+2028"),
    "soft hyphen only": ("\u00ad", "U+00AD"),
    "combining marks": ("Z" + "\u0301\u0302\u0303" * 10, "combining marks"),
    "a lone mark": ("\u0301", "combining mark"),
    "empty": ("", "required"),
    "blank": ("   ", "required"),
    "ideographic space": ("\u3000", "required"),
    "hangul filler": ("\u3164", "U+3164"),
    "blank braille": ("\u2800", "U+2800"),
    "a lone joiner": ("\u200d", "U+200D"),
    "private use": ("\ue000", "U+E000"),
    "too long": ("x" * 65, "64"),
}


def _status_of(error: grpc.RpcError) -> tuple[str, dict[str, str], float | None]:
    """The ErrorInfo reason and metadata of a gRPC error, and its RetryInfo delay."""
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            info, delay = error_details_pb2.ErrorInfo(), None
            for detail in status.details:
                if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    detail.Unpack(info)
                elif detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
                    retry = error_details_pb2.RetryInfo()
                    detail.Unpack(retry)
                    delay = retry.retry_delay.ToNanoseconds() / 1e9
            return info.reason, dict(info.metadata), delay
    raise AssertionError(f"no error details: {error}")


def _rest(port: int, method: str, path: str, body: Any = None, *, address: str | None = None,
          token: str | None = None) -> tuple[int, dict[str, str], dict[str, Any]]:
    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if address:
        headers["X-Forwarded-For"] = address
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        connection.request(method, path, None if body is None else json.dumps(body), headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), json.loads(response.read() or b"{}")
    finally:
        connection.close()


class Joiner:
    """A client at one address (named by the trusted proxy, loopback), over gRPC or REST."""

    def __init__(self, server: ServerProcess, address: str, stub: Any) -> None:
        self.server, self.address, self.stub = server, address, stub

    def join(self, game_id: str, name: str, transport: str,
             seat: int | None = None) -> tuple[str, dict[str, Any]]:
        """("OK", the JoinGameResponse as JSON) or (the reason, the error's metadata, with
        the HTTP status and Retry-After, or the gRPC code and retry delay)."""
        if transport == "grpc":
            try:
                answer = self.stub.JoinGame(
                    pb.JoinGameRequest(game_id=game_id, name=name, seat=seat), timeout=30,
                    metadata=[("x-forwarded-for", self.address)])
            except grpc.RpcError as error:
                reason, metadata, delay = _status_of(error)
                return reason, {**metadata, "code": error.code(), "retry": delay}
            return "OK", {"seat": answer.seat.seat, "token": answer.seat.token,
                          "name": answer.seat.name}
        body: dict[str, Any] = {"name": name}
        if seat is not None:
            body["seat"] = seat
        status, headers, document = _rest(self.server.http_port, "POST",
                                          f"/v1/games/{game_id}:join", body,
                                          address=self.address)
        if status != 200:
            error = document["error"]
            return error["reason"], {**error["details"][0]["metadata"], "status": status,
                                     "retry": headers.get("Retry-After")}
        return "OK", {"seat": document["seat"]["seat"], "token": document["seat"]["token"],
                      "name": document["seat"]["name"]}


@pytest.fixture()
def guarded(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server behind a trusted proxy (loopback), with the default lobby limits unless a
    test's marker says otherwise."""
    server = ServerProcess(tmp_path, env={"BRASS_TRUSTED_PROXIES": "127.0.0.1",
                                          "BRASS_JOIN_GAME_RATE": "",
                                          "BRASS_MAX_WAITING_SEATS_PER_ADDRESS": "0"})
    yield server
    server.stop()


def _start(server: ServerProcess, **env: str) -> tuple[ServerProcess, grpc.Channel]:
    server.env.update(env)
    server.start()
    return server, grpc.insecure_channel(server.grpc_target)


def _open_game(client: GameClient, players: int = 2, host: str = "Host") -> pb.CreateGameResponse:
    return client.create_game(players=players, seat_names=[host] + ["x"] * (players - 1),
                              open_seats=list(range(1, players)))


# ----------------------------------------------------------------------- display names


def test_the_name_rule() -> None:
    """The one rule's edges (names.py): what is kept, how it is stored, what is one name."""
    for name in ("Ann", "Zoë", "日本語", "مرحبا", "👨\u200d👩\u200d👧", "❤\ufe0f",
                 "x" + "\u0301" * 4, "می\u200cخواهم", "a" * 64):
        assert display_name(name, "name") == name
    assert display_name("  e\u0301 ", "name") == "\u00e9"  # NFC, trimmed
    for hostile, reason in HOSTILE_NAMES.values():
        with pytest.raises(Exception, match=reason.replace("+", r"\+")) as raised:
            display_name(hostile, "seat_names[2]")
        assert raised.value.reason == "INVALID_ARGUMENT"  # type: ignore[attr-defined]
        assert raised.value.metadata["field"] == "seat_names[2]"  # type: ignore[attr-defined]
    assert name_key("ANN") == name_key("ann") == name_key("\uff21nn") == name_key("Ann")
    assert name_key("Ann  Lee") == name_key("ann lee") != name_key("AnnLee")


@pytest.mark.parametrize("transport", ["grpc", "rest"])
def test_hostile_names_are_refused_by_join_and_create(server: ServerProcess,
                                                      transport: str) -> None:
    """Every hostile name is INVALID_ARGUMENT naming the field, for JoinGame (`name`) and
    CreateGame (`seat_names[i]`), and the seat stays open; a name is stored NFC and
    trimmed. (Before: U+200B, U+202E, NUL, 30 combining marks, "" and "   " were seated.)"""
    with server.client() as client, closing(server.rest()) as rest:
        game = _open_game(client, players=2)
        for label, (hostile, _) in HOSTILE_NAMES.items():
            if transport == "grpc":
                error = expect_error("INVALID_ARGUMENT", client.join_game, game.game_id, hostile)
                assert error.metadata["field"] == "name", label
                error = expect_error("INVALID_ARGUMENT", client.create_game, players=2,
                                     seat_names=["Ann", hostile])
                assert error.metadata["field"] == "seat_names[1]", label
            else:
                rest_error = expect_rest_error("INVALID_ARGUMENT", 400, rest.post,
                                               f"/v1/games/{game.game_id}:join",
                                               {"name": hostile})
                assert rest_error.body["error"]["details"][0]["metadata"]["field"] == "name"
                rest_error = expect_rest_error("INVALID_ARGUMENT", 400, rest.post, "/v1/games",
                                               {"players": 2, "seatNames": [hostile, "Bo"]})
                field = rest_error.body["error"]["details"][0]["metadata"]["field"]
                # the document's maxLength is checked first, and names the JSON path
                assert field in ("seatNames[0]", "seatNames.0"), label  # REST names
        summary = client.get_game(game.game_id).summary
        assert summary.open_seats == 1 and summary.seats[1].name == ""
        joined = client.join_game(game.game_id, "  Zoe\u0308 ")
        assert joined.seat.name == "Zo\u00eb"
        assert client.get_game(game.game_id).summary.seats[1].name == "Zo\u00eb"


@pytest.mark.parametrize("transport", ["grpc", "rest"])
def test_a_name_already_seated_is_refused(server: ServerProcess, transport: str) -> None:
    """Names are compared case-folded, width-folded (NFKC) and with runs of spaces as one:
    JoinGame of "ANN" or "Ａnn" into Ann's game, and CreateGame naming two seats "Bo"
    and "bo", are INVALID_ARGUMENT naming the field and the seat that has the name."""
    with server.client() as client, closing(server.rest()) as rest:
        game = _open_game(client, players=3, host="Ann  Lee")
        for copy in ("ann lee", "ANN LEE", "\uff21nn Lee", " Ann   Lee "):
            if transport == "grpc":
                error = expect_error("INVALID_ARGUMENT", client.join_game, game.game_id, copy)
                metadata = error.metadata
            else:
                metadata = expect_rest_error(
                    "INVALID_ARGUMENT", 400, rest.post, f"/v1/games/{game.game_id}:join",
                    {"name": copy}).body["error"]["details"][0]["metadata"]
            assert (metadata["field"], metadata["seat"]) == ("name", "0")
        client.join_game(game.game_id, "Bea")
        if transport == "grpc":
            error = expect_error("INVALID_ARGUMENT", client.join_game, game.game_id, "BEA")
            assert error.metadata["seat"] == "1" and "'Bea'" in error.message
            error = expect_error("INVALID_ARGUMENT", client.create_game, players=3,
                                 seat_names=["Bo", "Cy", "bo"])
            assert error.metadata["field"] == "seat_names[2]"
        else:
            error_body = expect_rest_error("INVALID_ARGUMENT", 400, rest.post, "/v1/games",
                                           {"players": 2, "seatNames": ["Bo", "BO"]}).body
            assert error_body["error"]["details"][0]["metadata"]["field"] == "seatNames[1]"
        # open seats' names are not used, so not compared
        client.create_game(players=3, seat_names=["Bo", "Bo", ""], open_seats=[1, 2])
        assert client.get_game(game.game_id).summary.open_seats == 1


# ------------------------------------------------------------------------ join quotas


@pytest.mark.parametrize("transport", ["grpc", "rest"])
def test_joins_per_address_are_rate_limited(guarded: ServerProcess, transport: str) -> None:
    """JOIN_GAME_RATE 3/minute: an address's 4th join is RATE_LIMITED (429 with Retry-After;
    RESOURCE_EXHAUSTED with RetryInfo), limit join_game_rate, and takes no seat; another
    address and the operator token are not held to it. (Before: no limit at all.)"""
    server, channel = _start(guarded, BRASS_JOIN_GAME_RATE="3/minute")
    stub = pb_grpc.GameServiceStub(channel)
    squatter, other = Joiner(server, "198.51.100.1", stub), Joiner(server, "198.51.100.2", stub)
    with server.client() as host:
        games = [_open_game(host).game_id for _ in range(5)]
        for index in range(3):
            assert squatter.join(games[index], f"S{index}", transport)[0] == "OK"
        reason, refusal = squatter.join(games[3], "S3", transport)
        assert reason == "RATE_LIMITED" and refusal["limit"] == "join_game_rate"
        if transport == "grpc":
            assert refusal["code"] == grpc.StatusCode.RESOURCE_EXHAUSTED and refusal["retry"] > 0
        else:
            assert refusal["status"] == 429 and int(refusal["retry"]) >= 1
        assert host.get_game(games[3]).summary.open_seats == 1
        assert other.join(games[3], "Other", transport)[0] == "OK"
        operator = [("authorization", f"Bearer {server.operator_token}"),
                    ("x-forwarded-for", squatter.address)]
        for game_id in (host.create_game(players=2, open_seats=[1]).game_id for _ in range(4)):
            stub.JoinGame(pb.JoinGameRequest(game_id=game_id, name="Op"), timeout=30,
                          metadata=operator)
    channel.close()


@pytest.mark.parametrize("transport", ["grpc", "rest"])
def test_one_address_cannot_hold_every_open_seat(guarded: ServerProcess, transport: str) -> None:
    """The squatter's loop (ListGames has_open_seats, then JoinGame each) holds at most
    MAX_WAITING_SEATS_PER_ADDRESS (2 here) seats; the rest stay open for others, each refusal
    RATE_LIMITED (limit max_waiting_seats_per_address, a retry delay). A seat it leaves, or
    whose game starts, no longer counts. One address takes one seat of a game it did not
    create (ALREADY_SEATED, 409); the game's creator may seat several. (Before: one client
    held every open seat of every public game.)"""
    server, channel = _start(guarded, BRASS_MAX_WAITING_SEATS_PER_ADDRESS="2")
    squatter = Joiner(server, "198.51.100.7", pb_grpc.GameServiceStub(channel))
    with server.client() as host, GameClient(server.grpc_target, timeout=30) as anonymous:
        games = [_open_game(host, players=3) for _ in range(4)]
        outcomes: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        for summary in reversed(host.list_games(has_open_seats=True, page_size=100).games):
            outcomes[summary.game_id] = [squatter.join(summary.game_id, f"Sq{i}", transport)
                                         for i in range(2)]
        first, second, third, fourth = (outcomes[g.game_id] for g in games)
        assert [r for r, _ in first] == ["OK", "ALREADY_SEATED"]
        assert first[1][1].get("status", first[1][1].get("code")) in (
            409, grpc.StatusCode.FAILED_PRECONDITION)
        assert [r for r, _ in second] == ["OK", "RATE_LIMITED"]
        limited = [second[1], *third, *fourth]
        assert all(r == "RATE_LIMITED" for r, _ in limited)
        assert all(a["limit"] == "max_waiting_seats_per_address" and a["retry"]
                   for _, a in limited)
        assert sum(host.get_game(g.game_id).summary.open_seats for g in games) == 8 - 2

        # leaving a seat frees a place (the count is checked against the store)
        anonymous.leave_game(games[0].game_id, first[0][1]["token"])
        assert squatter.join(games[2].game_id, "Back", transport)[0] == "OK"
        assert squatter.join(games[3].game_id, "More", transport)[0] == "RATE_LIMITED"
        # so does the start of a game it sits in
        host.join_game(games[1].game_id, "Friend")
        host.start_game(games[1].game_id, games[1].host_token)
        assert squatter.join(games[3].game_id, "Later", transport)[0] == "OK"

        # a game's creator (loopback, no forwarding header) seats two people in it
        own = _open_game(host, players=3)
        statuses = [_rest(server.http_port, "POST", f"/v1/games/{own.game_id}:join",
                          {"name": name})[0] for name in ("Kid", "Parent")]
        assert statuses == [200, 200]
    channel.close()


@pytest.mark.parametrize("transport", ["grpc", "rest"])
def test_a_banned_joiner_stays_out(guarded: ServerProcess, transport: str) -> None:
    """RevokeSeatToken with ban: the seat is open again and its joiner cannot retake it,
    neither under another name from its address (BANNED, 403 / PERMISSION_DENIED) nor under
    its name from another address; others join. Without ban the joiner retakes the seat at
    once: the loop the issue saw (retaken 0.2 s after each revocation)."""
    server, channel = _start(guarded)
    stub = pb_grpc.GameServiceStub(channel)
    squatter, newcomer = Joiner(server, "203.0.113.5", stub), Joiner(server, "203.0.113.6", stub)
    with server.client() as host:
        game = _open_game(host, players=3)
        reason, seat = squatter.join(game.game_id, "Squat", transport)
        assert reason == "OK"
        host.revoke_seat_token(game.game_id, seat["seat"], game.host_token)  # no ban
        assert squatter.join(game.game_id, "Squat", transport)[0] == "OK"
        if transport == "grpc":
            host.revoke_seat_token(game.game_id, 1, game.host_token, ban=True)
        else:
            status, _, _ = _rest(server.http_port, "POST",
                                 f"/v1/games/{game.game_id}:revokeSeatToken",
                                 {"seat": 1, "ban": True},
                                 token=game.host_token)
            assert status == 200
        for _ in range(5):  # the retake loop
            reason, refusal = squatter.join(game.game_id, "Other name", transport)
            assert reason == "BANNED"
            assert refusal.get("status", refusal.get("code")) in (
                403, grpc.StatusCode.PERMISSION_DENIED)
        assert newcomer.join(game.game_id, "SQUAT", transport)[0] == "BANNED"
        assert host.get_game(game.game_id).summary.open_seats == 2
        assert newcomer.join(game.game_id, "Bea", transport)[0] == "OK"
        # a ban on a seat the host named bars the name only
        host.revoke_seat_token(game.game_id, 0, game.host_token, ban=True)
        assert newcomer.join(game.game_id, "host", transport)[0] == "BANNED"
    channel.close()
