"""The lean front's reading and writing of HTTP/1.1 (api/fast_http.py says which requests it
answers and why): request heads parsed by llhttp (httptools) and the test of whether a head
is one the front reads with certainty, the limits of a head, the match of a plain
operation's route, and the bytes of a whole JSON answer.
"""

from __future__ import annotations

import email.utils
import http
import re
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import httptools

from .rest_routes import GAME_ID_CHARS

if TYPE_CHECKING:
    from .openapi import Route

# aiohttp's own limit on a request line or header field; a longer head goes to aiohttp,
# which refuses it with its usual error.
MAX_HEAD_BYTES = 8190
MAX_HEADERS = 128  # aiohttp's limit too

# Characters a target may hold to be read here: no '%' (encoded characters), no '+' (a
# space in a query to aiohttp), no ';' (a query separator to some readers), no '#', no
# spaces or controls.
_PLAIN_TARGET = re.compile(rb"/[!$&'()*,\-./0-9:=?@A-Z_a-z~]*")
# Headers whose requests go to aiohttp: framing and protocol changes it handles.
_HEADERS_WE_LEAVE = frozenset({"transfer-encoding", "expect", "upgrade"})
_REASONS = {status.value: status.phrase for status in http.HTTPStatus}
PARSER_REFUSALS = (httptools.HttpParserError, httptools.HttpParserUpgrade)


def _route_pattern(path: str) -> re.Pattern[str]:
    """A route path with `{name}` parameters as a regex matching what aiohttp would match
    (a parameter holds no '/' and, as the game id's route says, no ':')."""
    parts = re.split(r"\{(\w+)\}", path)
    regex = "".join(
        re.escape(part) if index % 2 == 0 else f"(?P<{part}>{GAME_ID_CHARS})"
        for index, part in enumerate(parts)
    )
    return re.compile(regex)


class FastRoutes:
    """The plain operations' routes, matched in the order aiohttp matches them."""

    def __init__(self, routes: Sequence[Route], operations: Sequence[str]) -> None:
        self._routes = [
            (route.method, _route_pattern(route.path), route.operation_id)
            for route in routes
            if route.operation_id in operations
        ]

    def match(self, method: str, path: str) -> tuple[str, dict[str, str]] | None:
        """The operation and path parameters, or None (an unknown route, or a method the
        path does not take: aiohttp's 404 or 405 to give)."""
        for route_method, pattern, operation_id in self._routes:
            if route_method == method:
                found = pattern.fullmatch(path)
                if found is not None:
                    return operation_id, found.groupdict()
        return None


class FastRequest:
    """A request read by this front, seen as a rest_parse.RestRequest."""

    __slots__ = ("_body", "_headers", "_params", "_query", "_query_text", "remote")

    def __init__(
        self,
        params: dict[str, str],
        query_text: str,
        headers: dict[str, str],
        body: bytes,
        remote: str,
    ) -> None:
        self._params = params
        self._query_text = query_text
        self._query: dict[str, str] | None = None
        self._headers = headers
        self._body = body
        self.remote = remote

    def path_param(self, name: str) -> str:
        return self._params[name]

    def query_param(self, name: str) -> str | None:
        if self._query is None:
            query: dict[str, str] = {}
            for part in self._query_text.split("&"):
                if part:
                    key, _, value = part.partition("=")
                    query.setdefault(key, value)  # the first of repeated keys, as aiohttp
            self._query = query
        return self._query.get(name)

    def header(self, lower_name: str) -> str | None:
        return self._headers.get(lower_name)

    async def body(self) -> bytes:
        return self._body


class RequestHead:
    __slots__ = ("close", "headers", "length", "method", "path", "query_text")

    def __init__(
        self, method: str, path: str, query_text: str, headers: dict[str, str], length: int,
        close: bool,
    ) -> None:
        self.method = method
        self.path = path
        self.query_text = query_text
        self.headers = headers
        self.length = length
        self.close = close


class RequestReader:
    """One connection's httptools parser and what its callbacks gathered of the request
    being read."""

    __slots__ = ("body", "complete", "count", "head_done", "headers", "odd", "parser", "url")

    def __init__(self) -> None:
        self.parser = httptools.HttpRequestParser(self)
        self.next_request()

    def next_request(self) -> None:
        self.url = b""
        self.headers: dict[str, str] = {}
        self.count = 0
        # A header named twice or one of _HEADERS_WE_LEAVE, or a value not in ASCII.
        self.odd = False
        self.head_done = False
        self.body: list[bytes] = []
        self.complete = False

    # httptools' callbacks
    def on_url(self, url: bytes) -> None:
        self.url += url

    def on_header(self, name: bytes, value: bytes) -> None:
        self.count += 1
        key = name.decode("ascii").lower()  # llhttp lets only token characters through
        if key in self.headers or key in _HEADERS_WE_LEAVE or not value.isascii():
            self.odd = True
        self.headers[key] = value.decode("latin-1").rstrip(" \t")

    def on_headers_complete(self) -> None:
        self.head_done = True

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        self.complete = True

    def head(self) -> RequestHead | None:
        """The head just parsed if it is one this front reads with certainty, else None
        (the request is then aiohttp's)."""
        parser = self.parser
        if self.odd or self.count > MAX_HEADERS or parser.get_http_version() != "1.1":
            return None
        method = parser.get_method()
        if (method != b"GET" and method != b"POST") or not _PLAIN_TARGET.fullmatch(self.url):
            return None
        headers = self.headers
        if "host" not in headers:
            return None  # aiohttp's 400, as HTTP/1.1 wants
        close = False
        connection = headers.get("connection")
        if connection is not None:
            connection = connection.lower()
            if connection == "close":
                close = True
            elif connection != "keep-alive":
                return None
        length_text = headers.get("content-length")
        length = int(length_text) if length_text is not None else 0  # digits: llhttp checks
        path, _, query_text = self.url.decode("ascii").partition("?")
        return RequestHead(method.decode("ascii"), path, query_text, headers, length, close)


def parse_head(head: bytes) -> RequestHead | None:
    """A request head (without its closing blank line) as this front reads it: None when
    llhttp refuses it or the front leaves it to aiohttp."""
    reader = RequestReader()
    try:
        reader.parser.feed_data(head + b"\r\n\r\n")
    except PARSER_REFUSALS:
        return None
    return reader.head() if reader.head_done else None


def response_bytes(
    status: int, text: str, date: bytes, close: bool, headers: Mapping[str, str] | None = None,
    vary_origin: bool = False,
) -> bytes:
    """A whole JSON answer; `headers` adds lines (Retry-After on a 429). `vary_origin`: the
    server answers CORS requests, so this answer (made for a request without Origin, or it
    would have gone to aiohttp) is not the one a request with an Origin gets, and a cache
    must not serve it for one."""
    body = text.encode()
    extra = (
        "".join(f"{k}: {v}\r\n" for k, v in headers.items()).encode("latin-1")
        if headers else b""
    ) + (b"Vary: Origin\r\n" if vary_origin else b"")
    return (
        b"HTTP/1.1 %d %s\r\nContent-Type: application/json; charset=utf-8\r\n"
        b"Content-Length: %d\r\nDate: %s\r\n%s%s\r\n%s"
        % (
            status, _REASONS.get(status, "Unknown").encode("ascii"), len(body), date, extra,
            b"Connection: close\r\n" if close else b"", body,
        )
    )


class DateHeader:
    """The Date header's value, formatted once a second."""

    def __init__(self) -> None:
        self._second = -1
        self._value = b""

    def value(self) -> bytes:
        second = int(time.time())
        if second != self._second:
            self._second = second
            self._value = email.utils.formatdate(second, usegmt=True).encode("ascii")
        return self._value
