"""CORS: a web app on another origin can call the REST API and its event stream when the
operator allows that origin (`--cors-origins`), and no CORS header is sent otherwise."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from .helpers import LOOPBACK, ServerProcess

APP = "https://play.example.org"


@pytest.fixture(scope="module")
def cors_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path_factory.mktemp("cors"),
                           env={"BRASS_CORS_ORIGINS": f"{APP},http://localhost:5173"})
    server.start()
    yield server
    server.stop()


def _request(port: int, method: str, path: str, headers: dict[str, str],
             body: bytes | None = None, stream: bool = False
             ) -> tuple[int, http.client.HTTPMessage, bytes]:
    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read(1) if stream else response.read()
        return response.status, response.headers, data
    finally:
        connection.close()


def _preflight(port: int, path: str, method: str, origin: str = APP,
               headers: str = "authorization, content-type"
               ) -> tuple[int, http.client.HTTPMessage, bytes]:
    return _request(port, "OPTIONS", path, {
        "Origin": origin, "Access-Control-Request-Method": method,
        "Access-Control-Request-Headers": headers})


def test_preflight_allows_the_configured_origin(cors_server: ServerProcess) -> None:
    for path, method in (("/v1/games", "POST"), ("/v1/games/g1/actions", "POST"),
                         ("/v1/games/g1", "GET"), ("/v1/games/g1/events", "GET")):
        status, headers, _ = _preflight(cors_server.http_port, path, method)
        assert status == 204, (path, status)
        assert headers["Access-Control-Allow-Origin"] == APP
        assert method in headers["Access-Control-Allow-Methods"]
        allowed = {h.strip().lower() for h in headers["Access-Control-Allow-Headers"].split(",")}
        assert {"authorization", "content-type"} <= allowed
        assert int(headers["Access-Control-Max-Age"]) > 0


def test_preflight_refuses_other_origins_and_methods(cors_server: ServerProcess) -> None:
    status, headers, _ = _preflight(cors_server.http_port, "/v1/games", "POST",
                                    origin="https://evil.example")
    assert status == 403 and "Access-Control-Allow-Origin" not in headers
    status, headers, _ = _preflight(cors_server.http_port, "/v1/games", "DELETE")
    assert status == 403 and "Access-Control-Allow-Origin" not in headers


def test_cross_origin_requests_get_cors_headers(cors_server: ServerProcess) -> None:
    port = cors_server.http_port
    body = json.dumps({"players": 2, "seed": "3"}).encode()
    status, headers, data = _request(port, "POST", "/v1/games", {
        "Origin": APP, "Content-Type": "application/json"}, body)
    assert status == 200 and headers["Access-Control-Allow-Origin"] == APP
    created = json.loads(data)
    game_id, token = created["gameId"], created["seats"][0]["token"]
    # an authenticated GET and an error answer carry the header too
    status, headers, _ = _request(port, "GET", f"/v1/games/{game_id}", {
        "Origin": APP, "Authorization": f"Bearer {token}"})
    assert status == 200 and headers["Access-Control-Allow-Origin"] == APP
    assert "Retry-After" in headers["Access-Control-Expose-Headers"]
    status, headers, data = _request(port, "GET", "/v1/games/no-such-game", {"Origin": APP})
    assert status == 404 and headers["Access-Control-Allow-Origin"] == APP
    assert json.loads(data)["error"]["reason"] == "UNKNOWN_GAME"
    # the event stream (SSE)
    status, headers, _ = _request(port, "GET", f"/v1/games/{game_id}/events", {
        "Origin": APP, "Accept": "text/event-stream"}, stream=True)
    assert status == 200 and headers["Access-Control-Allow-Origin"] == APP
    # a request from an origin not allowed gets no CORS header (the browser blocks it)
    status, headers, _ = _request(port, "GET", f"/v1/games/{game_id}", {
        "Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in headers
    # without Origin (not a browser) nothing changes
    status, headers, _ = _request(port, "GET", f"/v1/games/{game_id}", {})
    assert status == 200 and "Access-Control-Allow-Origin" not in headers


def _varies_by_origin(headers: http.client.HTTPMessage) -> bool:
    return "origin" in {name.strip().lower() for line in headers.get_all("Vary") or ()
                        for name in line.split(",")}


def test_every_answer_varies_by_origin(cors_server: ServerProcess) -> None:
    """With CORS on, an answer's CORS headers depend on the request's Origin, so every
    answer says `Vary: Origin` (a shared cache must not give one origin's answer, or a
    non-browser's, to another): preflights, answers to allowed and other origins, errors,
    the event stream (aiohttp), and answers to requests without Origin (the lean front).
    (Before: none did.)"""
    port = cors_server.http_port
    status, headers, data = _request(port, "POST", "/v1/games", {
        "Origin": APP, "Content-Type": "application/json"},
        json.dumps({"players": 2, "seed": "4"}).encode())
    assert status == 200 and _varies_by_origin(headers)
    game_id = json.loads(data)["gameId"]
    answers = [
        _preflight(port, "/v1/games", "POST"),
        _preflight(port, "/v1/games", "POST", origin="https://evil.example"),
        _request(port, "GET", f"/v1/games/{game_id}", {"Origin": "https://evil.example"}),
        _request(port, "GET", "/v1/games/no-such-game", {"Origin": APP}),
        _request(port, "GET", f"/v1/games/{game_id}/events",
                 {"Origin": APP, "Accept": "text/event-stream"}, stream=True),
        _request(port, "GET", f"/v1/games/{game_id}", {}),
        _request(port, "GET", "/v1/games/no-such-game", {}),
        _request(port, "POST", "/v1/games", {"Content-Type": "application/json"},
                 json.dumps({"players": 2, "seed": "5"}).encode()),
    ]
    for index, (_, headers, _) in enumerate(answers):
        assert _varies_by_origin(headers), (index, dict(headers))
    assert [status for status, _, _ in answers] == [204, 403, 200, 404, 200, 200, 404, 200]


def test_a_web_page_cannot_post_a_simple_request(cors_server: ServerProcess) -> None:
    """A form or text/plain POST from any page needs no preflight; the server refuses it
    (415 UNSUPPORTED_MEDIA_TYPE, with the CORS headers of its origin) and creates nothing,
    on the request with an Origin (aiohttp) and without one (the lean front)."""
    port = cors_server.http_port
    body = json.dumps({"players": 2, "seed": "6"}).encode()
    for origin in ("https://evil.example", APP, None):
        for content_type in ("text/plain", "application/x-www-form-urlencoded"):
            headers = {"Content-Type": content_type}
            if origin:
                headers["Origin"] = origin
            status, answer_headers, data = _request(port, "POST", "/v1/games", headers, body)
            assert status == 415, (origin, content_type, data)
            assert json.loads(data)["error"]["reason"] == "UNSUPPORTED_MEDIA_TYPE"
            assert _varies_by_origin(answer_headers)


def test_cors_is_off_by_default(server: ServerProcess) -> None:
    """A preflight is refused saying that CORS is off and how to turn it on (issue 23)."""
    for path, method in (("/v1/games", "POST"), ("/v1/games/g1/events", "GET")):
        status, headers, data = _preflight(server.http_port, path, method)
        assert status == 403 and "Access-Control-Allow-Origin" not in headers
        error = json.loads(data)["error"]
        assert error["reason"] == "CORS_DISABLED" and "--cors-origins" in error["message"]
        assert APP in error["message"]
        assert error["details"][0]["metadata"] == {"setting": "--cors-origins", "origin": APP}
    # an OPTIONS that is no preflight is still no method of the route
    status, _, data = _request(server.http_port, "OPTIONS", "/v1/games", {})
    assert status == 405 and json.loads(data)["error"]["reason"] == "METHOD_NOT_ALLOWED"
    status, headers, _ = _request(server.http_port, "GET", "/v1/games/x", {"Origin": APP})
    assert "Access-Control-Allow-Origin" not in headers


def test_a_bad_origin_setting_is_refused_at_start(tmp_path: Path) -> None:
    bad = ServerProcess(tmp_path, env={"BRASS_CORS_ORIGINS": "play.example.org/path"})
    with pytest.raises(RuntimeError, match="exited early"):
        bad.start()
    line = next(json.loads(x) for x in bad.log_text().splitlines()
                if '"bad_setting"' in x)
    assert "play.example.org/path" in line["error"]
