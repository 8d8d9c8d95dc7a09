"""The lean HTTP/1.1 front (fast_http) over raw sockets: keep-alive, pipelining, requests
in pieces, the hand-off of a connection to aiohttp mid-way, the same answers from both
fronts, the corners of HTTP it leaves to aiohttp, closing and idle connections; and its
head parser and route matcher as pure functions.

A response without a Server header was made by the fast front; aiohttp adds
`Server: Python/... aiohttp/...` to its own, which tells the two apart."""

from __future__ import annotations

import contextlib
import email.utils
import json
import re
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from brass_service.api.fast_http_parse import MAX_HEAD_BYTES, FastRoutes, parse_head
from brass_service.api.rest_routes import PLAIN_OPERATIONS, ROUTES

from .conftest import GENEROUS_LIMITS, TEST_OPERATOR_TOKEN
from .helpers import LOOPBACK, ServerProcess

SOCKET_TIMEOUT = 10.0
BODY_LIMIT = 1 << 20  # Limits.max_message_bytes


# ------------------------------------------------------------------------ a raw client


class Closed(Exception):
    """The server closed the connection before a whole response arrived."""


@dataclass
class Response:
    version: str
    status: int
    headers: dict[str, str]  # lower-cased names
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def from_aiohttp(self) -> bool:
        return "aiohttp" in self.headers.get("server", "")

    @property
    def reason(self) -> str:
        return str(self.json()["error"]["reason"])


def build(
    method: str,
    target: str,
    body: Any = None,
    *,
    token: str | None = None,
    headers: list[tuple[str, str]] | None = None,
    raw_body: bytes | None = None,
    chunked: bool = False,
    version: str = "HTTP/1.1",
) -> bytes:
    """One request's bytes; a JSON body by Content-Length (or chunked)."""
    data = raw_body if raw_body is not None else (
        json.dumps(body).encode() if body is not None else None
    )
    lines = [f"{method} {target} {version}", "Host: 127.0.0.1"]
    if token is not None:
        lines.append(f"Authorization: Bearer {token}")
    if data is not None:
        lines.append("Content-Type: application/json")
        lines.append("Transfer-Encoding: chunked" if chunked else f"Content-Length: {len(data)}")
    lines += [f"{name}: {value}" for name, value in headers or ()]
    head = ("\r\n".join(lines) + "\r\n\r\n").encode()
    if data is None:
        return head
    if chunked:
        middle = len(data) // 2
        pieces = [data[:middle], data[middle:]]
        return head + b"".join(
            b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces if piece
        ) + b"0\r\n\r\n"
    return head + data


class Connection:
    """A plain socket to the REST port, reading whole responses from a buffer (so that
    pipelined answers are read one by one)."""

    def __init__(self, port: int, timeout: float = SOCKET_TIMEOUT) -> None:
        self.sock = socket.create_connection((LOOPBACK, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = bytearray()

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.sock.close()

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def _fill(self) -> None:
        data = self.sock.recv(65536)
        if not data:
            raise Closed(bytes(self.buffer))
        self.buffer += data

    def _take_until(self, marker: bytes) -> bytes:
        while (end := self.buffer.find(marker)) < 0:
            self._fill()
        taken = bytes(self.buffer[:end])
        del self.buffer[:end + len(marker)]
        return taken

    def _take(self, size: int) -> bytes:
        while len(self.buffer) < size:
            self._fill()
        taken = bytes(self.buffer[:size])
        del self.buffer[:size]
        return taken

    def read_head(self) -> Response:
        head = self._take_until(b"\r\n\r\n").decode("latin-1")
        status_line, *header_lines = head.split("\r\n")
        version, status, *_ = status_line.split(" ", 2)
        headers: dict[str, str] = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            assert name.lower() not in headers, f"header {name} sent twice"
            headers[name.lower()] = value.strip()
        return Response(version, int(status), headers, b"")

    def read_chunk(self) -> bytes:
        """The next chunk of a chunked body (b"" for the last one)."""
        size = int(self._take_until(b"\r\n").split(b";")[0], 16)
        data = self._take(size)
        assert self._take(2) == b"\r\n"
        return data

    def read_response(self) -> Response:
        """Exactly one response (a 1xx one is returned as it is, without a body)."""
        response = self.read_head()
        if 100 <= response.status < 200:
            return response
        if response.headers.get("transfer-encoding", "").lower() == "chunked":
            body = bytearray()
            while chunk := self.read_chunk():
                body += chunk
            self._take_until(b"\r\n")  # no trailers are sent
            response.body = bytes(body)
        elif "content-length" in response.headers:
            response.body = self._take(int(response.headers["content-length"]))
        else:  # framed by the end of the connection
            while True:
                try:
                    self._fill()
                except Closed:
                    break
            response.body = bytes(self.buffer)
            self.buffer.clear()
        return response

    def request(self, method: str, target: str, body: Any = None, **kwargs: Any) -> Response:
        self.send(build(method, target, body, **kwargs))
        return self.read_response()

    def closed_by_server(self) -> bool:
        """True when the server closes the connection (with nothing more sent) within the
        socket's timeout; False when it is still open then."""
        assert not self.buffer, f"unread bytes: {bytes(self.buffer)!r}"
        try:
            data = self.sock.recv(65536)
        except TimeoutError:
            return False
        except ConnectionResetError:
            return True
        assert data == b"", f"unexpected bytes: {data!r}"
        return True


# ------------------------------------------------------------------------ fixtures


def _start(workdir: Path, name: str, env: dict[str, str] | None = None) -> ServerProcess:
    return ServerProcess(
        workdir,
        database_url=f"sqlite:///{workdir / (name + '.sqlite3')}",
        env={**GENEROUS_LIMITS, **(env or {})},
        name=name,
    ).start()


@pytest.fixture(scope="module")
def fast_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = _start(tmp_path_factory.mktemp("fast-http"), "fast")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def port(fast_server: ServerProcess) -> int:
    return fast_server.http_port


@dataclass
class Game:
    id: str
    tokens: list[str]

    def path(self, suffix: str = "") -> str:
        return f"/v1/games/{self.id}{suffix}"


def create_game(conn: Connection, seed: int = 7, players: int = 2) -> Game:
    response = conn.request("POST", "/v1/games", {"players": players, "seed": str(seed)})
    assert response.status == 200, response.body
    created = response.json()
    return Game(created["gameId"], [seat["token"] for seat in created["seats"]])


def summary(conn: Connection, game: Game) -> dict[str, Any]:
    response = conn.request("GET", game.path())
    assert response.status == 200, response.body
    return dict(response.json()["state"]["summary"])


def play_one(conn: Connection, game: Game) -> int:
    """Submits the first legal option of the seat to act; returns the new version."""
    seat = summary(conn, game)["currentSeat"]
    legal = conn.request("GET", game.path("/actions"), token=game.tokens[seat])
    assert legal.status == 200, legal.body
    document = legal.json()
    submitted = conn.request(
        "POST", game.path("/actions"),
        {"action": {"optionId": document["options"][0]["id"]},
         "expectedVersion": document["version"]},
        token=game.tokens[seat],
    )
    assert submitted.status == 200, submitted.body
    return int(submitted.json()["state"]["summary"]["version"])


def assert_fast_json(response: Response, status: int = 200) -> None:
    """A JSON answer made by the fast front, framed and dated as HTTP/1.1 wants."""
    assert response.version == "HTTP/1.1"
    assert response.status == status, response.body
    assert not response.from_aiohttp, response.headers
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    assert int(response.headers["content-length"]) == len(response.body)
    assert email.utils.parsedate_to_datetime(response.headers["date"]).tzinfo is not None
    assert "connection" not in response.headers  # kept alive
    response.json()


# ------------------------------------------------------------------------ keep-alive


def test_one_connection_serves_a_game(port: int) -> None:
    with Connection(port) as conn:
        created = conn.request("POST", "/v1/games", {"players": 2, "seed": "11"})
        assert_fast_json(created)
        game = Game(created.json()["gameId"],
                    [seat["token"] for seat in created.json()["seats"]])
        first = created.json()["state"]["summary"]
        assert first["version"] == "0" and first["status"] == "GAME_STATUS_IN_PROGRESS"
        seat = first["currentSeat"]

        seat_view = conn.request("GET", game.path(), token=game.tokens[seat])
        assert_fast_json(seat_view)
        assert seat_view.json()["state"]["viewerSeat"] == seat

        legal = conn.request("GET", game.path("/actions"), token=game.tokens[seat])
        assert_fast_json(legal)
        options = legal.json()["options"]
        assert options and legal.json()["version"] == "0"

        preview = conn.request(
            "POST", game.path("/actions:preview"), {"action": {"optionId": options[0]["id"]}},
            token=game.tokens[seat],
        )
        assert_fast_json(preview)

        submitted = conn.request(
            "POST", game.path("/actions"),
            {"action": {"optionId": options[0]["id"]}, "expectedVersion": "0"},
            token=game.tokens[seat],
        )
        assert_fast_json(submitted)
        assert int(submitted.json()["state"]["summary"]["version"]) > 0

        after = conn.request("GET", game.path())
        assert_fast_json(after)
        assert after.json()["state"]["summary"] == submitted.json()["state"]["summary"]

        replay = conn.request("GET", game.path("/replay"))
        assert_fast_json(replay)
        assert replay.json()["complete"] is False

        listed = conn.request("GET", "/v1/games?pageSize=100")
        assert_fast_json(listed)
        assert game.id in [g["gameId"] for g in listed.json()["games"]]


def test_pipelined_requests_are_answered_in_order(port: int) -> None:
    with Connection(port) as conn:
        known = create_game(conn, seed=21)
        seat = summary(conn, known)["currentSeat"]
        conn.send(
            build("POST", "/v1/games", {"players": 3, "seed": "22"})
            + build("GET", known.path(), token=known.tokens[seat])
            + build("GET", known.path("/actions"), token=known.tokens[seat])
            + b"".join(build("GET", known.path()) for _ in range(5))
            + build("GET", "/v1/games/no-such-game")
        )
        created = conn.read_response()
        assert_fast_json(created)
        assert len(created.json()["seats"]) == 3 and created.json()["gameId"] != known.id
        seat_view = conn.read_response()
        assert_fast_json(seat_view)
        assert seat_view.json()["state"]["viewerSeat"] == seat
        assert seat_view.json()["state"]["summary"]["gameId"] == known.id
        legal = conn.read_response()
        assert_fast_json(legal)
        assert legal.json()["gameId"] == known.id and legal.json()["options"]
        for _ in range(5):
            spectator = conn.read_response()
            assert_fast_json(spectator)
            assert "viewerSeat" not in spectator.json()["state"]
        missing = conn.read_response()
        assert_fast_json(missing, 404)
        assert missing.reason == "UNKNOWN_GAME"


def test_a_request_one_byte_at_a_time(port: int) -> None:
    with Connection(port) as conn:
        for byte in build("POST", "/v1/games", {"players": 4, "seed": "31"}):
            conn.send(bytes([byte]))
            time.sleep(0.0005)
        created = conn.read_response()
        assert_fast_json(created)
        game = Game(created.json()["gameId"], [s["token"] for s in created.json()["seats"]])
        assert len(game.tokens) == 4
        seat = created.json()["state"]["summary"]["currentSeat"]
        legal = conn.request("GET", game.path("/actions"), token=game.tokens[seat]).json()
        for byte in build(
            "POST", game.path("/actions"),
            {"action": {"optionId": legal["options"][0]["id"]}, "expectedVersion": "0"},
            token=game.tokens[seat],
        ):
            conn.send(bytes([byte]))
            time.sleep(0.0005)
        submitted = conn.read_response()
        assert_fast_json(submitted)
        assert int(submitted.json()["state"]["summary"]["version"]) > 0


# ------------------------------------------------------------------------ hand-off


def test_hand_off_to_aiohttp_mid_connection(port: int) -> None:
    with Connection(port) as conn:
        game = create_game(conn, seed=41)
        fast = conn.request("GET", game.path(), token=game.tokens[0])
        assert_fast_json(fast)
        health = conn.request("GET", "/healthz")
        assert health.status == 200 and health.from_aiohttp
        assert health.json() == {"status": "SERVING"}
        # The connection is aiohttp's now: it answers the plain operations too.
        later = conn.request("GET", game.path(), token=game.tokens[0])
        assert later.status == 200 and later.from_aiohttp
        assert later.headers["content-type"] == "application/json; charset=utf-8"
        assert later.json() == fast.json()
        version = play_one(conn, game)
        assert version > 0 and summary(conn, game)["version"] == str(version)


def test_hand_off_inside_a_pipeline(port: int) -> None:
    with Connection(port) as conn:
        game = create_game(conn, seed=42)
        seat = summary(conn, game)["currentSeat"]
        conn.send(
            build("GET", game.path(), token=game.tokens[seat])
            + build("GET", "/healthz")
            + build("GET", game.path("/actions"), token=game.tokens[seat])
            + build("GET", "/v1/nowhere")
            + build("POST", "/v1/games", {"players": 2, "seed": "43"})
        )
        first = conn.read_response()
        assert_fast_json(first)
        assert first.json()["state"]["viewerSeat"] == seat
        health = conn.read_response()
        assert health.status == 200 and health.from_aiohttp
        assert health.json() == {"status": "SERVING"}
        legal = conn.read_response()
        assert legal.status == 200 and legal.from_aiohttp
        assert legal.json()["gameId"] == game.id and legal.json()["options"]
        nowhere = conn.read_response()
        assert nowhere.status == 404 and nowhere.reason == "UNKNOWN_ROUTE"
        created = conn.read_response()
        assert created.status == 200 and created.from_aiohttp
        assert created.json()["gameId"] != game.id


def test_events_after_fast_requests(port: int) -> None:
    with Connection(port) as conn, Connection(port) as mover:
        game = create_game(conn, seed=51)
        first = play_one(conn, game)
        assert summary(conn, game)["version"] == str(first)
        conn.send(build("GET", game.path("/events?fromVersion=0"),
                        headers=[("Accept", "text/event-stream")]))
        head = conn.read_head()
        assert head.status == 200 and head.from_aiohttp
        assert head.headers["content-type"].startswith("text/event-stream")
        assert head.headers.get("transfer-encoding", "").lower() == "chunked"
        stream = _SseReader(conn)
        event = stream.next_update()
        assert event["id"] == str(first)
        assert event["data"]["version"] == str(first)
        second = play_one(mover, game)
        assert second > first
        event = stream.next_update()
        assert event["id"] == str(second)


class _SseReader:
    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.text = ""

    def next_update(self) -> dict[str, Any]:
        """The next `update` event (comments and other events skipped)."""
        while True:
            while "\n\n" not in self.text:
                chunk = self.conn.read_chunk()
                assert chunk, "the event stream ended"
                self.text += chunk.decode()
            block, self.text = self.text.split("\n\n", 1)
            fields: dict[str, Any] = {}
            for line in block.split("\n"):
                if line.startswith(":"):
                    continue
                key, _, value = line.partition(":")
                fields[key] = value.removeprefix(" ")
            if fields.get("event") == "update":
                assert "id" in fields, block
                fields["data"] = json.loads(fields["data"])
                return fields


# ------------------------------------------------------------------------ same answers


DUPLICATE = [("X-Through", "aiohttp"), ("X-Through", "aiohttp")]  # no fast front reads it


def _same(fast: Response, slow: Response) -> None:
    assert not fast.from_aiohttp and slow.from_aiohttp, (fast.headers, slow.headers)
    assert fast.status == slow.status
    assert fast.json() == slow.json()
    assert fast.headers["content-type"] == slow.headers["content-type"]


def _encode_first(game_id: str) -> str:
    return f"%{ord(game_id[0]):02X}{game_id[1:]}"


def test_both_fronts_answer_reads_alike(port: int) -> None:
    with Connection(port) as fast, Connection(port) as setup:
        game = create_game(setup, seed=61, players=3)
        play_one(setup, game)
        seat = summary(setup, game)["currentSeat"]
        token = game.tokens[seat]
        asks = [
            ("GET", game.path(), {"token": token}),
            ("GET", game.path(), {"token": game.tokens[(seat + 1) % 3]}),
            ("GET", game.path(), {}),
            ("GET", game.path("/actions?includeUnavailable=true"), {"token": token}),
            ("GET", game.path("/actions?includeUnavailable=true&includeCompoundActions=1"),
             {"token": token}),
            ("GET", game.path("/replay"), {}),
            # errors
            ("GET", "/v1/games/no-such-game", {}),
            ("GET", game.path(), {"token": "not-a-token"}),
            ("GET", game.path("/actions"), {"token": "not-a-token"}),
            ("GET", game.path("/actions"), {}),
            ("GET", game.path("/actions"), {"token": game.tokens[(seat + 1) % 3]}),
            ("GET", game.path("/actions?includeUnavailable=maybe"), {"token": token}),
            ("GET", "/v1/games?pageSize=abc", {}),
        ]
        for method, target, kwargs in asks:
            answer = fast.request(method, target, **kwargs)
            with Connection(port) as slow:  # a fresh one each: aiohttp keeps it
                _same(answer, slow.request(method, target, headers=DUPLICATE, **kwargs))
        # The same through a percent-encoded target.
        encoded = [
            (game.path("/actions?includeUnavailable=true"),
             game.path("/actions?includeUnavailable=tru%65")),
            (game.path(), "/v1/games/" + _encode_first(game.id)),
            ("/v1/games/no-such-game", "/v1/games/no-such-gam%65"),
        ]
        for plain, percent in encoded:
            answer = fast.request("GET", plain, token=token)
            with Connection(port) as slow:
                _same(answer, slow.request("GET", percent, token=token))


def test_both_fronts_refuse_submissions_alike(port: int) -> None:
    with Connection(port) as fast, Connection(port) as setup:
        game = create_game(setup, seed=62)
        version = play_one(setup, game)
        seat = summary(setup, game)["currentSeat"]
        legal = setup.request("GET", game.path("/actions"), token=game.tokens[seat]).json()
        option = legal["options"][0]["id"]
        submissions: list[tuple[dict[str, Any], bytes | None, str | None]] = [
            ({"token": game.tokens[seat]}, b'{"action": {"optionId": ', "INVALID_ARGUMENT"),
            ({"token": game.tokens[seat]}, b"[1, 2]", "INVALID_ARGUMENT"),
            ({"token": game.tokens[seat]},
             json.dumps({"action": {"optionId": option},
                         "expectedVersion": str(version - 1)}).encode(), None),
            ({"token": "not-a-token"},
             json.dumps({"action": {"optionId": option}}).encode(), None),
            ({"token": game.tokens[1 - seat]},
             json.dumps({"action": {"optionId": option}}).encode(), None),
            ({}, json.dumps({"action": {"optionId": option}}).encode(), None),
            ({"token": game.tokens[seat]},
             json.dumps({"action": {"optionId": option}, "gameId": "other"}).encode(),
             "INVALID_ARGUMENT"),
        ]
        for kwargs, raw, reason in submissions:
            answer = fast.request("POST", game.path("/actions"), raw_body=raw, **kwargs)
            assert answer.status >= 400, answer.body
            if reason is not None:
                assert answer.reason == reason
            with Connection(port) as slow:
                _same(answer, slow.request(
                    "POST", game.path("/actions"), raw_body=raw, chunked=True, **kwargs))
            with Connection(port) as slow:
                _same(answer, slow.request(
                    "POST", game.path("/actions"), raw_body=raw, headers=DUPLICATE, **kwargs))
        assert fast.request("POST", game.path("/actions"), {
            "action": {"optionId": option}, "expectedVersion": str(version - 1)},
            token=game.tokens[seat]).reason == setup.request(
            "POST", game.path("/actions"), {
                "action": {"optionId": option}, "expectedVersion": str(version - 1)},
            token=game.tokens[seat], headers=DUPLICATE).reason
        # Nothing was applied; then one real move, and both fronts see the same game.
        assert summary(fast, game)["version"] == str(version)
        submitted = fast.request(
            "POST", game.path("/actions"),
            {"action": {"optionId": option}, "expectedVersion": str(version)},
            token=game.tokens[seat],
        )
        assert_fast_json(submitted)
        for token in [None, *game.tokens]:
            answer = fast.request("GET", game.path(), token=token)
            with Connection(port) as slow:
                _same(answer, slow.request("GET", game.path(), token=token, headers=DUPLICATE))
            assert answer.json()["state"]["summary"] == submitted.json()["state"]["summary"]


# ------------------------------------------------------------------------ HTTP corners


def test_expect_100_continue(port: int) -> None:
    body = json.dumps({"players": 2, "seed": "71"}).encode()
    with Connection(port) as conn:
        conn.send(
            b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\nExpect: 100-continue\r\n\r\n" % len(body)
        )
        interim = conn.read_response()
        assert (interim.version, interim.status) == ("HTTP/1.1", 100)
        conn.send(body)
        created = conn.read_response()
        assert created.status == 200 and created.from_aiohttp
        assert created.json()["state"]["summary"]["status"] == "GAME_STATUS_IN_PROGRESS"


def test_chunked_body(port: int) -> None:
    with Connection(port) as conn:
        created = conn.request("POST", "/v1/games", {"players": 3, "seed": "72"}, chunked=True)
        assert created.status == 200 and created.from_aiohttp
        assert len(created.json()["seats"]) == 3
        game = Game(created.json()["gameId"], [])
        assert summary(conn, game)["gameId"] == game.id


def test_body_over_the_limit_is_refused(port: int) -> None:
    with Connection(port) as conn:
        padding = b" " * (BODY_LIMIT + 1024)
        too_large = conn.request("POST", "/v1/games", raw_body=b'{"players": 2}' + padding)
        assert too_large.status == 413, too_large.body
        assert too_large.reason == "MESSAGE_TOO_LARGE"
    with Connection(port) as conn:  # the head alone announces too much
        conn.send(b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n{"
                  % (BODY_LIMIT * 4))
        conn.send(b" " * (BODY_LIMIT + 1024))
        too_large = conn.read_response()
        assert too_large.status == 413 and too_large.reason == "MESSAGE_TOO_LARGE"
    with Connection(port) as conn:  # a body just within the limit is read here
        body = b'{"players": 2, "seed": "73"}'
        created = conn.request("POST", "/v1/games",
                               raw_body=body + b" " * (BODY_LIMIT - len(body)))
        assert_fast_json(created)


def test_http_1_0(port: int) -> None:
    with Connection(port) as conn:
        game = create_game(conn, seed=74)
    with Connection(port) as conn:
        conn.send(f"GET {game.path()} HTTP/1.0\r\n\r\n".encode())
        answer = conn.read_response()
        assert answer.status == 200 and answer.from_aiohttp
        assert answer.json()["state"]["summary"]["gameId"] == game.id
        assert conn.closed_by_server()


@pytest.mark.parametrize(
    "request_bytes",
    [b"GARBAGE\r\n\r\n", b"GET /v1/games HTTP/9.9\r\n\r\n", b"GET /v1/games HTTP/1.1 x\r\n\r\n",
     b"GET /v1/games HTTP/1.1\r\nBad Header\r\n\r\n"],
    ids=["no-target", "bad-version", "extra-word", "no-colon"],
)
def test_malformed_request_gets_400(port: int, request_bytes: bytes) -> None:
    with Connection(port) as conn:
        conn.send(request_bytes)
        answer = conn.read_response()
        assert answer.status == 400 and answer.from_aiohttp
        assert conn.closed_by_server()
    with Connection(port) as conn:
        assert conn.request("GET", "/v1/games?pageSize=1").status == 200


def test_routing_errors(port: int) -> None:
    with Connection(port) as conn:
        game = create_game(conn, seed=75)
        put = conn.request("PUT", game.path("/actions"), {"action": {"optionId": 0}})
        assert put.status == 405 and put.reason == "METHOD_NOT_ALLOWED"
        assert put.json()["error"]["code"] == 405
    with Connection(port) as conn:
        unknown = conn.request("GET", "/v1/unknown/route")
        assert unknown.status == 404 and unknown.reason == "UNKNOWN_ROUTE"
        nested = conn.request("GET", "/v1/games/a/b/actions")
        assert nested.status == 404 and nested.reason == "UNKNOWN_ROUTE"
        wrong_method = conn.request("GET", "/v1/games:fromPosition")
        assert wrong_method.status == 405 and wrong_method.reason == "METHOD_NOT_ALLOWED"
        for answer in (put, unknown, nested, wrong_method):
            assert answer.from_aiohttp
            assert answer.json()["error"]["message"]


def test_header_count_limit_is_aiohttps(port: int) -> None:
    """128 header lines (Host and 127 more) are read here; one more is aiohttp's, which
    refuses it: the fast front does not take what aiohttp would not."""
    with Connection(port) as conn:
        game = create_game(conn, seed=76)
        most = [(f"X-H{i}", str(i)) for i in range(127)]
        answer = conn.request("GET", game.path(), headers=most)
        assert_fast_json(answer)
        answer = conn.request("GET", game.path(), headers=[*most, ("X-H127", "127")])
        assert answer.status == 400 and answer.from_aiohttp
        assert conn.closed_by_server()
    with Connection(port) as conn:
        answer = conn.request("GET", game.path(), headers=[("Connection", "keep-alive, foo")])
        assert answer.status == 200 and answer.from_aiohttp
        assert answer.json()["state"]["summary"]["gameId"] == game.id


@pytest.mark.parametrize(
    "head",
    [b"GET /v1/games HTTP/1.1\r\nX-Long: " + b"a" * (MAX_HEAD_BYTES + 100),
     b"GET /v1/games/" + b"a" * (MAX_HEAD_BYTES + 100),
     b"GET /v1/games HTTP/1.1\r\n" + b"X-Many: 1\r\n" * 1000],
    ids=["long-header", "long-line", "many-headers"],
)
def test_oversized_head_does_not_hang(port: int, head: bytes) -> None:
    with Connection(port) as conn:
        try:
            conn.send(head)
            answer = conn.read_response()
        except (Closed, ConnectionResetError, BrokenPipeError):
            pass  # closed: as good as an answer
        else:
            assert 400 <= answer.status < 500
    with Connection(port) as conn:
        assert conn.request("GET", "/v1/games?pageSize=1").status == 200


def test_pipelining_client_that_does_not_read_is_held_back(port: int) -> None:
    """A client pipelining requests without reading the answers: once the answers back up,
    the server stops reading (fast_http pauses at MAX_BUFFERED_BYTES; aiohttp holds such a
    client to a few MiB), so the client's sending blocks instead of the server buffering
    whatever it is sent."""
    one = build("GET", "/v1/games?pageSize=abc")  # a quick INVALID_ARGUMENT
    data = memoryview(one * ((96 << 20) // len(one)))
    sent = 0
    with Connection(port, timeout=2.0) as conn:
        with contextlib.suppress(TimeoutError):
            while sent < len(data):
                sent += conn.sock.send(data[sent:sent + 65536])
    assert sent < 24 << 20, f"the server read {sent >> 20} MiB that it could not answer"
    with Connection(port) as conn:
        assert conn.request("GET", "/v1/games?pageSize=1").status == 200


# ------------------------------------------------------------------------ closing


def test_connection_close(port: int) -> None:
    with Connection(port) as conn:
        game = create_game(conn, seed=81)
        answer = conn.request("GET", game.path(), headers=[("Connection", "close")])
        assert answer.status == 200 and not answer.from_aiohttp
        assert answer.headers["connection"].lower() == "close"
        assert int(answer.headers["content-length"]) == len(answer.body)
        assert conn.closed_by_server()


def test_pipelined_after_connection_close_is_not_answered(port: int) -> None:
    with Connection(port) as conn:
        game = create_game(conn, seed=82)
        conn.send(build("GET", game.path(), headers=[("Connection", "close")])
                  + build("GET", game.path()))
        answer = conn.read_response()
        assert answer.status == 200 and answer.headers["connection"].lower() == "close"
        assert conn.closed_by_server()


def test_half_closed_client_still_gets_its_answers(port: int) -> None:
    with Connection(port) as conn:
        game = create_game(conn, seed=83)
    with Connection(port) as conn:
        conn.send(build("GET", game.path()) + build("GET", game.path("/replay")))
        conn.sock.shutdown(socket.SHUT_WR)
        first = conn.read_response()
        assert first.status == 200 and first.json()["state"]["summary"]["gameId"] == game.id
        replay = conn.read_response()
        assert replay.status == 200 and "recordJson" in replay.json()
        assert conn.closed_by_server()
    # A request for aiohttp: aiohttp closes a half-closed connection, answered or not (it
    # does so on its own port too); what matters is that it is not left hanging.
    handed = build("GET", "/healthz")
    for pipeline in (handed, build("GET", game.path()) + handed):
        with Connection(port) as conn:
            conn.send(pipeline)
            conn.sock.shutdown(socket.SHUT_WR)
            with contextlib.suppress(Closed):
                while True:
                    answer = conn.read_response()
                    assert answer.status == 200, answer.body
            assert not conn.buffer


def test_submission_from_a_client_that_left_is_applied(port: int) -> None:
    with Connection(port) as conn:
        game = create_game(conn, seed=84)
        seat = summary(conn, game)["currentSeat"]
        legal = conn.request("GET", game.path("/actions"), token=game.tokens[seat]).json()
    with Connection(port) as gone:
        gone.send(build(
            "POST", game.path("/actions"),
            {"action": {"optionId": legal["options"][0]["id"]}, "expectedVersion": "0"},
            token=game.tokens[seat],
        ))
    deadline = time.monotonic() + 10
    with Connection(port) as conn:
        while summary(conn, game)["version"] == "0":
            assert time.monotonic() < deadline, "the submission was never applied"
            time.sleep(0.05)
        assert int(summary(conn, game)["version"]) > 0
        assert conn.request("GET", "/v1/games?pageSize=1").status == 200


# ------------------------------------------------------------------------ idle connections


@pytest.fixture(scope="module")
def short_keepalive_port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    server = _start(tmp_path_factory.mktemp("fast-http-keepalive"), "keepalive",
                    {"BRASS_HTTP_KEEPALIVE_SECONDS": "1"})
    yield server.http_port
    server.stop()


def test_idle_connections_are_closed(short_keepalive_port: int) -> None:
    port = short_keepalive_port
    with (Connection(port) as silent, Connection(port) as used, Connection(port) as handed,
          Connection(port) as partial):
        assert used.request("GET", "/v1/games?pageSize=1").status == 200
        health = handed.request("GET", "/healthz")
        assert health.status == 200 and health.from_aiohttp
        partial.send(b"GET /v1/games HTTP/1.1\r\nHost: x\r\n")
        for conn in (silent, used, handed, partial):
            assert conn.closed_by_server(), "an idle connection was kept past its keep-alive"


def test_busy_connection_is_kept(short_keepalive_port: int) -> None:
    with Connection(short_keepalive_port) as conn:
        game = create_game(conn, seed=91)
        deadline = time.monotonic() + 3
        count = 0
        while time.monotonic() < deadline:
            assert summary(conn, game)["gameId"] == game.id
            count += 1
            time.sleep(0.3)
        assert count >= 5


def test_fast_front_switched_off(tmp_path_factory: pytest.TempPathFactory) -> None:
    """BRASS_HTTP_FAST_FRONT=false: aiohttp answers everything, the same way."""
    server = _start(tmp_path_factory.mktemp("fast-http-off"), "off",
                    {"BRASS_HTTP_FAST_FRONT": "false"})
    try:
        with Connection(server.http_port) as conn:
            created = conn.request("POST", "/v1/games", {"players": 2, "seed": "95"})
            assert created.status == 200 and created.from_aiohttp
            game = Game(created.json()["gameId"], [s["token"] for s in created.json()["seats"]])
            assert int(play_one(conn, game)) > 0
            conn.send(build("GET", game.path()) + build("GET", "/v1/games/no-such-game"))
            for status in (200, 404):
                answer = conn.read_response()
                assert answer.status == status and answer.from_aiohttp
    finally:
        server.stop()


# ------------------------------------------------------------------------ hostile clients
# (issue 10, item D). Each compares the fast front with aiohttp where both can be reached:
# a server with the fast front switched off, or a request the fast front hands over.


@pytest.fixture(scope="module")
def aiohttp_port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    # 3 s for a request to arrive: aiohttp drops what a client still sends after a refusal
    # for that long (at most 10 s) before it closes.
    server = _start(tmp_path_factory.mktemp("fast-http-aiohttp"), "aiohttp",
                    {"BRASS_HTTP_FAST_FRONT": "false", "BRASS_HTTP_REQUEST_READ_SECONDS": "3"})
    yield server.http_port
    server.stop()


def _answer(port: int, data: bytes) -> tuple[Response, bool]:
    """The answer to `data` on a fresh connection, and whether the server then closed."""
    with Connection(port) as conn:
        conn.send(data)
        answer = conn.read_response()
        return answer, conn.closed_by_server()


def _reply(port: int, data: bytes) -> Response:
    """The answer to `data` on a fresh connection, not waiting to see whether the server
    closes it (_answer waits the socket's timeout for a connection kept open)."""
    with Connection(port) as conn:
        conn.send(data)
        return conn.read_response()


CREATE = json.dumps({"players": 2, "seed": "101"}).encode()
HTTP_CORNERS = {
    "bare-lf": b"GET /v1/games HTTP/1.1\nHost: x\n\n",
    "bare-lf-in-headers": b"GET /v1/games HTTP/1.1\r\nHost: x\nX-A: 1\r\n\r\n",
    "no-host": b"GET /v1/games HTTP/1.1\r\n\r\n",
    "no-host-post": b"POST /v1/games HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s"
                    % (len(CREATE), CREATE),
    "two-content-lengths": b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n"
                           b"Content-Length: %d\r\n\r\n%s" % (len(CREATE), len(CREATE), CREATE),
    "length-and-chunked": b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                          b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
}


@pytest.mark.parametrize("data", HTTP_CORNERS.values(), ids=HTTP_CORNERS.keys())
def test_both_fronts_refuse_malformed_http_alike(
    port: int, aiohttp_port: int, data: bytes
) -> None:
    """The fast front leaves what llhttp refuses (and a missing Host, which HTTP/1.1
    requires) to aiohttp, so the answer is aiohttp's on both: 400, then closed."""
    fast, fast_closed = _answer(port, data)
    slow, slow_closed = _answer(aiohttp_port, data)
    assert (fast.status, fast.body, fast_closed) == (slow.status, slow.body, slow_closed)
    assert fast.status == 400 and fast_closed and fast.from_aiohttp


def _gzip_request(target: str, document: dict[str, Any], chunked: bool = False) -> bytes:
    import gzip

    return build("POST", target, raw_body=gzip.compress(json.dumps(document).encode()),
                 headers=[("Content-Encoding", "gzip")], chunked=chunked)


def _assert_same_refusal(fast: Response, slow: Response, status: int, reason: str) -> None:
    assert not fast.from_aiohttp and slow.from_aiohttp
    assert (fast.status, fast.reason) == (slow.status, slow.reason) == (status, reason)
    assert fast.json() == slow.json()
    assert fast.headers["connection"].lower() == slow.headers["connection"].lower() == "close"


def _count_games(port: int) -> int:
    count, token = 0, ""
    with Connection(port) as conn:
        while True:
            page = conn.request("GET", f"/v1/games?pageSize=100&pageToken={token}").json()
            count += len(page["games"])
            token = page["nextPageToken"]
            if not token:
                return count


def test_compressed_bodies_are_refused_alike(port: int, aiohttp_port: int) -> None:
    """Bodies are never decompressed (a 1 MB gzip bomb is a gigabyte of zeros): any
    Content-Encoding but identity gets 415 UNSUPPORTED_ENCODING, on every route and both
    fronts, and nothing is created."""
    games_before = _count_games(port)
    created = _gzip_request("/v1/games", {"players": 2, "seed": "102"})
    fast, fast_closed = _answer(port, created)
    slow, slow_closed = _answer(aiohttp_port, created)
    _assert_same_refusal(fast, slow, 415, "UNSUPPORTED_ENCODING")
    assert fast_closed and slow_closed
    assert fast.json()["error"]["details"][0]["metadata"] == {"encoding": "gzip"}
    for data in (_gzip_request("/v1/games", {"players": 2}, chunked=True),
                 _gzip_request("/v1/batches", {"players": 2, "games": 1, "bots": ["random"]}),
                 build("GET", "/v1/games", headers=[("Content-Encoding", "br")])):
        answer, closed = _answer(port, data)
        assert (answer.status, answer.reason, closed) == (415, "UNSUPPORTED_ENCODING", True)
    assert _count_games(port) == games_before
    identity = build("POST", "/v1/games", {"players": 2, "seed": "103"},
                     headers=[("Content-Encoding", "identity")])
    assert _reply(port, identity).status == _reply(aiohttp_port, identity).status == 200
    assert _count_games(port) == games_before + 1


def test_oversized_length_is_refused_before_the_body(port: int, aiohttp_port: int) -> None:
    """A Content-Length over the limit gets its 413 at once, with no body sent (the client
    may then stop sending): both fronts, the same answer."""
    head = (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % (BODY_LIMIT * 4))
    fast, fast_closed = _answer(port, head)
    slow, slow_closed = _answer(aiohttp_port, head)
    _assert_same_refusal(fast, slow, 413, "MESSAGE_TOO_LARGE")
    assert fast_closed and slow_closed
    # On a route the fast front hands over, it is the guard's answer (aiohttp closes
    # after dropping what the client still sends, up to 10 s).
    with Connection(port) as conn:
        conn.send(b"POST /v1/batches HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n"
                  % (BODY_LIMIT + 1))
        answer = conn.read_response()
        assert (answer.status, answer.reason) == (413, "MESSAGE_TOO_LARGE")
        assert answer.from_aiohttp and answer.headers["connection"] == "close"


def _typed_body(target: str, body: bytes, content_type: str | None) -> bytes:
    """A POST whose body is sent with `content_type` (None: no Content-Type)."""
    typed = b"" if content_type is None else b"Content-Type: %s\r\n" % content_type.encode()
    return (b"POST %s HTTP/1.1\r\nHost: x\r\n%sContent-Length: %d\r\n\r\n%s"
            % (target.encode(), typed, len(body), body))


def test_bodies_not_sent_as_json_are_refused_alike(port: int, aiohttp_port: int) -> None:
    """A browser sends text/plain, form and multipart bodies to any origin without a
    preflight: a body without Content-Type application/json is refused with 415
    UNSUPPORTED_MEDIA_TYPE on both fronts, before anything is done (no game created, no
    seat taken); application/json with parameters, in any case, is read. (Before: a
    text/plain body created a game.)"""
    with Connection(port) as conn:
        waiting = conn.request("POST", "/v1/games", {"players": 2, "openSeats": [1]}).json()
    join = json.dumps({"name": "Mallory"}).encode()
    before = _count_games(port), _count_games(aiohttp_port)
    for content_type in ("text/plain", "text/plain;charset=UTF-8",
                         "application/x-www-form-urlencoded", "multipart/form-data; boundary=b",
                         None, "", "application/jsonp", "text/json"):
        fast = _reply(port, _typed_body("/v1/games", CREATE, content_type))
        slow = _reply(aiohttp_port, _typed_body("/v1/games", CREATE, content_type))
        assert not fast.from_aiohttp and slow.from_aiohttp
        assert (fast.status, fast.reason) == (slow.status, slow.reason) == (
            415, "UNSUPPORTED_MEDIA_TYPE"), content_type
        assert fast.json() == slow.json()
        assert "application/json" in fast.json()["error"]["message"]
        joined = _reply(port, _typed_body(f"/v1/games/{waiting['gameId']}:join", join,
                                              content_type))
        assert (joined.status, joined.reason) == (415, "UNSUPPORTED_MEDIA_TYPE")
    assert (_count_games(port), _count_games(aiohttp_port)) == before
    with Connection(port) as conn:
        summary = conn.request("GET", f"/v1/games/{waiting['gameId']}").json()["state"]["summary"]
        assert summary["openSeats"] == 1
    for content_type in ("application/json; charset=utf-8", "Application/JSON"):
        for front in (port, aiohttp_port):
            assert _reply(front, _typed_body("/v1/games", CREATE, content_type)).status == 200
    # a request without a body needs no Content-Type
    assert _reply(port, build("GET", "/v1/games?pageSize=1")).status == 200


@pytest.fixture(scope="module")
def strict_port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """A second a request may take to arrive; 2 s of keep-alive."""
    server = _start(tmp_path_factory.mktemp("fast-http-strict"), "strict",
                    {"BRASS_HTTP_REQUEST_READ_SECONDS": "1",
                     "BRASS_HTTP_KEEPALIVE_SECONDS": "2"})
    yield server.http_port
    server.stop()


def test_slow_requests_are_timed_out(strict_port: int) -> None:
    """A head or body trickling in gets 408 REQUEST_TIMEOUT and the connection ends, on
    the fast front and on a connection handed to aiohttp (a chunked body)."""
    body = json.dumps({"players": 2, "seed": "104"}).encode()
    fast_body = (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s"
                 % (len(body), body[:5]))
    slow_body = (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                 b"5\r\n{\"pla")
    slow_batch = (b"POST /v1/batches HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n"
                  b"Authorization: Bearer %s\r\n\r\n{" % TEST_OPERATOR_TOKEN.encode())
    answers = {}
    for name, data in (("fast", fast_body), ("aiohttp", slow_body), ("batch", slow_batch)):
        with Connection(strict_port) as conn:
            conn.send(data)
            answer = conn.read_response()
            answers[name] = answer
            assert (answer.status, answer.reason) == (408, "REQUEST_TIMEOUT"), name
            assert conn.closed_by_server(), name
    assert not answers["fast"].from_aiohttp and answers["aiohttp"].from_aiohttp
    assert answers["fast"].json() == answers["aiohttp"].json()
    with Connection(strict_port) as conn:  # a trickling head: the fast front's alone
        conn.send(b"GET /v1/games HTTP/1.1\r\nHost: x\r\n")
        assert (conn.read_response().status, conn.closed_by_server()) == (408, True)


def _aborted_when_it_never_reads(port: int, one: bytes) -> bool:
    """Pipelines `one` without reading the answers until the server stops reading, then
    waits (up to a minute) for the server to end the connection."""
    data = memoryview(one * ((32 << 20) // len(one)))
    sent = 0
    with Connection(port, timeout=2.0) as conn:
        try:
            with contextlib.suppress(TimeoutError):
                while sent < len(data):
                    sent += conn.sock.send(data[sent:sent + 65536])
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                with contextlib.suppress(TimeoutError):
                    conn.sock.send(one)
        except (ConnectionResetError, BrokenPipeError):
            return True
    return False


def test_pipelining_client_that_never_reads_is_aborted(strict_port: int) -> None:
    """Held back (the test above), such a client would still pin its buffers and its
    socket: past the keep-alive with its answers unread, the connection is aborted, on the
    fast front and on aiohttp's."""
    assert _aborted_when_it_never_reads(strict_port, build("GET", "/v1/games?pageSize=abc"))
    assert _aborted_when_it_never_reads(
        strict_port, build("GET", "/v1/games?pageSize=abc", headers=DUPLICATE))
    with Connection(strict_port) as conn:
        assert conn.request("GET", "/v1/games?pageSize=1").status == 200


def test_connections_per_address_are_capped(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Beyond BRASS_HTTP_MAX_CONNECTIONS_PER_ADDRESS connections from one address, a new
    one gets 429 RATE_LIMITED and is closed; the count follows connections handed to
    aiohttp too, and frees a place when one closes."""
    server = _start(tmp_path_factory.mktemp("fast-http-capped"), "capped",
                    {"BRASS_HTTP_MAX_CONNECTIONS_PER_ADDRESS": "3"})
    port = server.http_port
    try:
        with Connection(port) as fast, Connection(port) as handed, Connection(port) as idle:
            assert fast.request("GET", "/v1/games?pageSize=1").status == 200
            assert handed.request("GET", "/healthz").from_aiohttp
            with Connection(port) as extra:
                refused = extra.read_response()
                assert (refused.status, refused.reason) == (429, "RATE_LIMITED")
                assert refused.json()["error"]["details"][0]["metadata"] == {
                    "limit": "max_connections_per_address", "retry_after_seconds": "1.000"}
                assert refused.headers["retry-after"] == "1"
                assert extra.closed_by_server()
            for conn in (fast, handed, idle):
                assert conn.request("GET", "/v1/games?pageSize=1").status == 200
            handed.close()
            deadline = time.monotonic() + 30
            while True:  # the server sees the close a moment later
                with Connection(port) as again:
                    again.send(build("GET", "/v1/games?pageSize=1"))
                    if again.read_response().status == 200:
                        break
                assert time.monotonic() < deadline, "a closed connection kept its place"
                time.sleep(0.1)
    finally:
        server.stop()


def test_open_file_limit_is_raised(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Started under the common soft limit of 1,024 descriptors (a few hundred slow clients
    would lock new ones out), the server raises it to the hard limit."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 1024:
        pytest.skip(f"the hard limit ({hard}) leaves nothing to raise")
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))
    try:
        server = _start(tmp_path_factory.mktemp("fast-http-files"), "files")
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        assert server.process is not None
        limits = Path(f"/proc/{server.process.pid}/limits").read_text()
        line = next(line for line in limits.splitlines() if line.startswith("Max open files"))
        expected = "unlimited" if hard == resource.RLIM_INFINITY else str(hard)
        assert line.split()[3] in (expected, str(1 << 16)), line
    finally:
        server.stop()


def test_client_leaving_mid_body_is_not_an_internal_error(strict_port: int) -> None:
    """aiohttp's reading of a body whose client left ends the request as CLIENT_GONE (it
    was logged and counted as INTERNAL)."""
    def outcomes() -> set[str]:
        with Connection(strict_port) as conn:
            text = conn.request("GET", "/metrics").body.decode()
        return {line.split('outcome="')[1].split('"')[0] for line in text.splitlines()
                if line.startswith("brass_requests_total{") and 'method="CreateGame"' in line}

    for data in (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                 b"5\r\n{\"pla",
                 b"POST /v1/games HTTP/1.1\r\nHost: x\r\nX-A: 1\r\nX-A: 1\r\n"
                 b"Content-Length: 100\r\n\r\n{\"pla"):
        with Connection(strict_port) as conn:
            conn.send(data)
            time.sleep(0.2)  # aiohttp's handler is reading the body
    deadline = time.monotonic() + 30
    while "CLIENT_GONE" not in outcomes():
        assert time.monotonic() < deadline, outcomes()
        time.sleep(0.1)
    assert "INTERNAL" not in outcomes()


def test_openapi_servers_do_not_reflect_the_host(port: int) -> None:
    with Connection(port) as conn:
        conn.send(b"GET /openapi.json HTTP/1.1\r\nHost: evil.example\r\n\r\n")
        document = conn.read_response().json()
        assert document["servers"] == [{"url": "/"}]


# ------------------------------------------------------------------------ pure functions


def _head(*lines: str) -> bytes:
    return "\r\n".join(lines).encode()


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (_head("GET /v1/games HTTP/1.1", "Host: x"),
         ("GET", "/v1/games", "", {"host": "x"}, 0, False)),
        (_head("GET /v1/games/abc/actions?includeUnavailable=true&x=1 HTTP/1.1",
               "Host: x", "AUTHORIZATION:   Bearer t0k \t"),
         ("GET", "/v1/games/abc/actions", "includeUnavailable=true&x=1",
          {"host": "x", "authorization": "Bearer t0k"}, 0, False)),
        (_head("POST /v1/games HTTP/1.1", "Host: x", "Content-Length: 12",
               "Content-Type: application/json", "Connection: Keep-Alive"),
         ("POST", "/v1/games", "", {"host": "x", "content-length": "12",
                                    "content-type": "application/json",
                                    "connection": "Keep-Alive"}, 12, False)),
        # Over the body limit: read here, and refused (413) before its body is read.
        (_head("POST /v1/games:fromPosition HTTP/1.1", "host: x", "content-length: 1048577",
               "Connection: CLOSE"),
         ("POST", "/v1/games:fromPosition", "",
          {"host": "x", "content-length": "1048577", "connection": "CLOSE"}, (1 << 20) + 1,
          True)),
        (_head("GET /v1/games HTTP/1.1", "Host:"), ("GET", "/v1/games", "", {"host": ""}, 0,
                                                     False)),
        (_head("GET /v1/games?a=1?b=2 HTTP/1.1", "Host: x", "X-Empty:", "X-Tab: a\tb"),
         ("GET", "/v1/games", "a=1?b=2", {"host": "x", "x-empty": "", "x-tab": "a\tb"}, 0,
          False)),
        (_head("GET / HTTP/1.1", "Host: x", *(f"X-H{i}: {i}" for i in range(127))),
         ("GET", "/", "", {"host": "x", **{f"x-h{i}": str(i) for i in range(127)}}, 0, False)),
        # llhttp reads it (both fronts' parser): the same request to aiohttp.
        (_head("GET  /v1/games HTTP/1.1", "Host: x"),
         ("GET", "/v1/games", "", {"host": "x"}, 0, False)),
    ],
    ids=["plain", "query-and-case", "post-keep-alive", "over-the-body-limit", "empty-host",
         "odd-but-fine", "128-headers", "double-space"],
)
def test_parse_head_accepts(head: bytes, expected: tuple[Any, ...]) -> None:
    parsed = parse_head(head)
    assert parsed is not None
    assert (parsed.method, parsed.path, parsed.query_text, parsed.headers, parsed.length,
            parsed.close) == expected


REFUSED_HEADS = {
    "http-1.0": _head("GET /v1/games HTTP/1.0", "Host: x"),
    "http-2": _head("GET /v1/games HTTP/2", "Host: x"),
    "no-version": _head("GET /v1/games"),
    "lower-case-method": _head("get /v1/games HTTP/1.1"),
    "put": _head("PUT /v1/games/x/actions HTTP/1.1"),
    "delete": _head("DELETE /v1/games/x HTTP/1.1"),
    "percent": _head("GET /v1/games/%61bc HTTP/1.1"),
    "percent-in-query": _head("GET /v1/games/x/actions?includeUnavailable=tru%65 HTTP/1.1"),
    "plus": _head("GET /v1/games?status=a+b HTTP/1.1"),
    "hash": _head("GET /v1/games#frag HTTP/1.1"),
    "semicolon": _head("GET /v1/games/x/actions?includeUnavailable=true;a=1 HTTP/1.1"),
    "absolute-target": _head("GET http://x/v1/games HTTP/1.1"),
    "asterisk": _head("GET * HTTP/1.1"),
    "no-colon": _head("GET /v1/games HTTP/1.1", "Host x"),
    "folded": _head("GET /v1/games HTTP/1.1", "X-A: one", " two"),
    "folded-with-colon": _head("GET /v1/games HTTP/1.1", "X-A: one", " X-B: two"),
    "space-in-name": _head("GET /v1/games HTTP/1.1", "X A: one"),
    "space-before-colon": _head("GET /v1/games HTTP/1.1", "Host : x"),
    "empty-name": _head("GET /v1/games HTTP/1.1", ": x"),
    "duplicate": _head("GET /v1/games HTTP/1.1", "Host: x", "HOST: y"),
    "transfer-encoding": _head("POST /v1/games HTTP/1.1", "Transfer-Encoding: chunked"),
    "expect": _head("POST /v1/games HTTP/1.1", "Content-Length: 2", "Expect: 100-continue"),
    "upgrade": _head("GET /v1/games HTTP/1.1", "Upgrade: websocket"),
    "connection-upgrade": _head("GET /v1/games HTTP/1.1", "Connection: upgrade"),
    "connection-list": _head("GET /v1/games HTTP/1.1", "Connection: keep-alive, close"),
    "length-not-digits": _head("POST /v1/games HTTP/1.1", "Content-Length: 1a"),
    "length-negative": _head("POST /v1/games HTTP/1.1", "Content-Length: -1"),
    "length-plus": _head("POST /v1/games HTTP/1.1", "Content-Length: +1"),
    "length-empty": _head("POST /v1/games HTTP/1.1", "Content-Length:"),
    "length-huge": _head("POST /v1/games HTTP/1.1", "Content-Length: " + "9" * 20),
    "length-unicode-digits": "POST /v1/games HTTP/1.1\r\nContent-Length: \u0661".encode(),
    "control-character": _head("GET /v1/games HTTP/1.1", "X-A: a\x01b"),
    "nul": _head("GET /v1/games HTTP/1.1", "X-A: a\x00b"),
    "del": _head("GET /v1/games HTTP/1.1", "X-A: a\x7fb"),
    "bare-lf": b"GET /v1/games HTTP/1.1\nHost: x",
    "bare-cr": b"GET /v1/games HTTP/1.1\r\nHost: x\ry",
    "non-ascii": "GET /v1/games HTTP/1.1\r\nX-Name: caf\u00e9".encode(),
    "non-ascii-target": "GET /v1/games/\u00e9 HTTP/1.1".encode(),
    "128-headers-and-host": _head("GET / HTTP/1.1", *(f"X-H{i}: {i}" for i in range(128))),
    "no-host": _head("GET /v1/games HTTP/1.1", "Content-Length: 0"),
}
# Every other refused head gets a Host line after its request line, so that it is refused
# for what the case names, not for the missing Host.
_KEPT_AS_THEY_ARE = ("no-host", "duplicate", "space-before-colon")


@pytest.mark.parametrize("head", REFUSED_HEADS.values(), ids=REFUSED_HEADS.keys())
def test_parse_head_refuses(head: bytes) -> None:
    name = next(key for key, value in REFUSED_HEADS.items() if value is head)
    if name not in _KEPT_AS_THEY_ARE:
        line, crlf, rest = head.partition(b"\r\n")
        head = line + b"\r\nHost: x" + crlf + rest
    assert parse_head(head) is None


@pytest.mark.parametrize(
    ("method", "path", "expected"),
    [
        ("POST", "/v1/games", ("CreateGame", {})),
        ("POST", "/v1/games:fromPosition", ("CreateGameFromPosition", {})),
        ("GET", "/v1/games", ("ListGames", {})),
        ("GET", "/v1/games/g-1", ("GetGame", {"gameId": "g-1"})),
        ("GET", "/v1/games/g-1/actions", ("ListLegalActions", {"gameId": "g-1"})),
        ("POST", "/v1/games/x/actions", ("SubmitAction", {"gameId": "x"})),
        ("POST", "/v1/games/g-1/actions:preview", ("PreviewAction", {"gameId": "g-1"})),
        ("GET", "/v1/games/g-1/replay", ("GetReplay", {"gameId": "g-1"})),
        # a game id holds no ':' (the path would be a custom method's): no route
        ("GET", "/v1/games/a:b", None),
        # Not plain operations, unknown routes, methods a path does not take.
        ("GET", "/v1/games/g-1/events", None),
        ("POST", "/v1/batches", None),
        ("GET", "/healthz", None),
        ("GET", "/metrics", None),
        ("GET", "/openapi.json", None),
        ("GET", "/v1/games/", None),
        ("GET", "/v1/games/a/b/actions", None),
        ("POST", "/v1/games/a/b/actions", None),
        ("GET", "/v1/games:fromPosition", None),
        ("GET", "/v1/games/g-1/actions:preview", None),
        ("POST", "/v1/games/g-1", None),
        ("POST", "/v1/games/g-1/replay", None),
        ("GET", "/v1/games/g-1/actions/", None),
        ("GET", "/v1/gamesx", None),
        ("GET", "/v2/games", None),
        ("PUT", "/v1/games/g-1/actions", None),
        ("HEAD", "/v1/games", None),
    ],
)
def test_fast_routes(method: str, path: str, expected: tuple[str, dict[str, str]] | None) -> None:
    routes = FastRoutes(ROUTES, PLAIN_OPERATIONS)
    assert routes.match(method, path) == expected


def test_fast_routes_cover_every_plain_operation() -> None:
    routes = FastRoutes(ROUTES, PLAIN_OPERATIONS)
    seen = set()
    for route in ROUTES:
        params = {name: f"some-{name}" for name in re.findall(r"\{(\w+)\}", route.path)}
        path = route.path.format(**params)
        found = routes.match(route.method, path)
        if route.operation_id in PLAIN_OPERATIONS:
            assert found is not None
            assert found[0] == route.operation_id
            assert found[1] == params
            seen.add(found[0])
        else:
            assert found is None, route
    assert seen == set(PLAIN_OPERATIONS)
