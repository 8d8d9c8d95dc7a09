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


def test_cors_is_off_by_default(server: ServerProcess) -> None:
    status, headers, _ = _preflight(server.http_port, "/v1/games", "POST")
    assert status == 405 and "Access-Control-Allow-Origin" not in headers
    status, headers, _ = _request(server.http_port, "GET", "/v1/games/x", {"Origin": APP})
    assert "Access-Control-Allow-Origin" not in headers


def test_a_bad_origin_setting_is_refused_at_start(tmp_path: Path) -> None:
    bad = ServerProcess(tmp_path, env={"BRASS_CORS_ORIGINS": "play.example.org/path"})
    with pytest.raises(RuntimeError, match="exited early"):
        bad.start()
    line = next(json.loads(x) for x in bad.log_text().splitlines()
                if '"bad_setting"' in x)
    assert "play.example.org/path" in line["error"]
