"""Reading a REST request: what a plain operation reads of it (RestRequest, and aiohttp's
request seen so), its JSON body into a brass.v1 message (the usual SubmitAction straight, the
rest checked against the OpenAPI schema first), its query parameters, and the refusals given
before or while its body is read.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import re
from collections.abc import Mapping
from typing import Any, Protocol

from aiohttp import ClientPayloadError, web
from google.protobuf import json_format
from google.protobuf.message import Message

from ..errors import ServiceError
from ..games.export import DEFAULT_EXPORT_GAMES, ExportFilter
from ..gen import game_service_pb2 as pb
from ..i18n import negotiate
from ..requests import MAX_COMPOUND_IDS, check_compound_length
from ..views.convert import parse_json_into
from .openapi import INT64_PATTERN, BodyValidator


class ClientGone(Exception):
    """The client left mid-request (before its body arrived, or during its stream):
    nobody to answer, and no fault of the server's."""


class RestRequest(Protocol):
    """What a plain operation reads of an HTTP request, whichever front parsed it."""

    remote: str

    def path_param(self, name: str) -> str: ...

    def query_param(self, name: str) -> str | None: ...

    def header(self, lower_name: str) -> str | None: ...

    async def body(self) -> bytes: ...


# Refusals given with the request's body unread: the connection is closed after them.
BODY_UNREAD_STATUSES = frozenset({408, 413, 415})
# How long an aiohttp handler waits for a request's body (the fast front times whole
# requests itself).
BODY_READ_SECONDS = web.AppKey("body_read_seconds", float)


def body_too_large(limit: int) -> ServiceError:
    return ServiceError(
        "MESSAGE_TOO_LARGE", f"the request body is larger than the {limit} bytes accepted",
        limit=str(limit),
    )


def encoding_refused(encoding: str) -> ServiceError:
    return ServiceError(
        "UNSUPPORTED_ENCODING",
        "request bodies are read as they are sent: no Content-Encoding is accepted",
        encoding=encoding[:64],
    )


def _require_json_media_type(content_type: str | None) -> None:
    """A request body is JSON and says so. A browser sends text/plain, form and multipart
    bodies across origins without asking the server first (no preflight): refusing them
    keeps any web page from making its visitors create games or join seats here."""
    media_type = (content_type or "").partition(";")[0].strip().lower()
    if media_type != "application/json":
        sent = f"not {content_type[:100]!r}" if content_type else "and this one has none"
        raise ServiceError(
            "UNSUPPORTED_MEDIA_TYPE",
            f"a request body must be sent with Content-Type: application/json, {sent}",
            content_type=(content_type or "")[:100],
        )


def read_timeout(seconds: float) -> ServiceError:
    return ServiceError(
        "REQUEST_TIMEOUT", f"the request did not arrive whole within {seconds:g} s",
        limit="http_request_read_seconds",
    )


class AiohttpRequest:
    """An aiohttp request seen as a RestRequest."""

    __slots__ = ("_request", "remote")

    def __init__(self, request: web.Request) -> None:
        self._request = request
        self.remote = request.remote or "unknown"

    def path_param(self, name: str) -> str:
        return self._request.match_info[name]

    def query_param(self, name: str) -> str | None:
        return self._request.query.get(name)

    def header(self, lower_name: str) -> str | None:
        """A header's value; a repeated header's values joined with commas (RFC 9110)."""
        values = self._request.headers.getall(lower_name, None)
        if not values:
            return None
        return values[0] if len(values) == 1 else ", ".join(values)

    async def body(self) -> bytes:
        seconds = self._request.app[BODY_READ_SECONDS]
        try:
            async with asyncio.timeout(seconds):
                return await self._request.read()
        except web.HTTPRequestEntityTooLarge as exc:
            raise body_too_large(self._request.client_max_size) from exc
        except TimeoutError as exc:
            raise read_timeout(seconds) from exc
        except (ConnectionError, ClientPayloadError) as exc:
            raise ClientGone from exc


def json_response(
    status: int, text: str, headers: Mapping[str, str] | None = None
) -> web.Response:
    response = web.Response(
        text=text, status=status, content_type="application/json", headers=headers
    )
    if status in BODY_UNREAD_STATUSES:
        response.force_close()
    return response


def error_response(error: ServiceError, request: web.Request | None = None) -> web.Response:
    """A refusal in the language the request's Accept-Language asks for."""
    language = negotiate(None if request is None else request.headers.get("Accept-Language"))
    return json_response(error.http_status, error.to_json_text(language),
                         {"Content-Language": language, **error.http_headers()})


_INTEGER_TEXT = re.compile(r"-?[0-9]{1,19}")
# The texts the document's int64 pattern admits (no leading zeros, in range).
_INT64_TEXT = re.compile(INT64_PATTERN)
_SIMPLE_SUBMIT_KEYS = frozenset(
    {"action", "expectedVersion", "idempotencyKey", "includeLegalActions"}
)


def _int64(value: object) -> int | None:
    """A proto3 JSON int64 (a number or a decimal string), or None to leave it to the
    schema check and ParseDict."""
    if type(value) is str and _INT64_TEXT.fullmatch(value):
        value = int(value)
    if type(value) is int and -(2**63) <= value < 2**63:
        return value
    return None


def _is_utf8_text(text: str) -> bool:
    """False for a str a proto string field refuses (a lone surrogate, from a JSON escape
    like "\\ud800")."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def simple_submit(document: dict[str, Any]) -> pb.SubmitActionRequest | None:
    """The usual SubmitAction body ({"action": {"optionId": n}, "expectedVersion": v,
    "idempotencyKey": k}) straight into the message; anything else (or anything odd) is
    left to json_format, which also words the errors."""
    if not document.keys() <= _SIMPLE_SUBMIT_KEYS:
        return None
    action = document.get("action")
    if type(action) is not dict or action.keys() != {"optionId"}:
        return None
    option = action["optionId"]
    if type(option) is not int or not -(2**31) <= option < 2**31:
        return None
    message = pb.SubmitActionRequest(action=pb.Action(option_id=option))
    if "expectedVersion" in document:
        version = _int64(document["expectedVersion"])
        if version is None:
            return None
        message.expected_version = version
    if "idempotencyKey" in document:
        key = document["idempotencyKey"]
        if type(key) is not str or not _is_utf8_text(key):
            return None
        message.idempotency_key = key
    if "includeLegalActions" in document:
        if type(document["includeLegalActions"]) is not bool:
            return None
        message.include_legal_actions = document["includeLegalActions"]
    return message


# An action's body is a few hundred bytes (at most MAX_COMPOUND_IDS ids, two short keys):
# a longer one is refused before it is decoded (200,000 ids took 14-37 ms to decode).
MAX_ACTION_BODY_BYTES = 16 * 1024


def _check_action_body_size(raw: bytes) -> None:
    if len(raw) > MAX_ACTION_BODY_BYTES:
        raise ServiceError(
            "INVALID_ARGUMENT",
            f"an action's body is at most {MAX_ACTION_BODY_BYTES} bytes (a compound action "
            f"has at most {MAX_COMPOUND_IDS} ids)",
            field="action.compound.ids",
        )


def _check_compound_before_parsing(document: dict[str, Any]) -> None:
    """A compound action's length is checked on the decoded JSON, before json_format turns
    the list into a message (its costliest step for long lists)."""
    action = document.get("action")
    compound = action.get("compound") if type(action) is dict else None
    ids = compound.get("ids") if type(compound) is dict else None
    if type(ids) is list:
        check_compound_length(len(ids))


def bool_param(value: str | None, name: str) -> bool:
    """A boolean query parameter: `true` or `false` (absent: false), as the document says."""
    if value is None or value == "false":
        return False
    if value == "true":
        return True
    raise ServiceError("INVALID_ARGUMENT", f"{name} must be true or false", field=name)


def int_param(value: str | None, name: str, bits: int, low: int | None = None) -> int:
    """A query parameter or header holding a signed integer of the message field's width
    (0 when absent), in ASCII digits, at least `low` when given: anything else (an empty
    value too) is INVALID_ARGUMENT, not a fault when the field is set."""
    if value is None:
        return 0
    high = 2 ** (bits - 1) - 1
    low = -(2 ** (bits - 1)) if low is None else low
    number = int(value) if _INTEGER_TEXT.fullmatch(value) else None
    if number is None or not low <= number <= high:
        raise ServiceError(
            "INVALID_ARGUMENT", f"{name} must be an integer from {low} to {high}", field=name
        )
    return number


def int_list_param(value: str | None, name: str) -> list[int]:
    """A query parameter holding a list of non-negative 32-bit integers (option ids) joined
    by commas (`12,40`; a comma percent-encoded too); absent: none."""
    if value is None:
        return []
    parts = value.replace("%2C", ",").replace("%2c", ",").split(",")
    return [int_param(part, name, 32, low=0) for part in parts]


def query_either(request: RestRequest, camel: str, snake: str) -> str | None:
    """A query parameter by its JSON name, else by its proto field name."""
    value = request.query_param(camel)
    return request.query_param(snake) if value is None else value


async def read_body(request: RestRequest, message: Message, bodies: BodyValidator) -> Message:
    """The request's JSON body as `message` (its fields set), checked against the schema of
    the message's body (`bodies`) unless it is the usual SubmitAction."""
    raw = await request.body()
    if raw:
        _require_json_media_type(request.header("content-type"))
    if isinstance(message, (pb.SubmitActionRequest, pb.PreviewActionRequest)):
        _check_action_body_size(raw)
    document = _json_document(raw)
    if document is not None and isinstance(
            message, (pb.SubmitActionRequest, pb.PreviewActionRequest)):
        _check_compound_before_parsing(document)
    if isinstance(message, pb.SubmitActionRequest) and document is not None:
        simple = simple_submit(document)
        if simple is not None:  # already as strict as the schema
            return simple
    bodies.check(message.DESCRIPTOR.name, {} if document is None else document)
    return _parse_body(document, message)


def _json_document(raw: bytes) -> dict[str, Any] | None:
    if not raw:
        return None
    try:
        document = json.loads(raw)
    except ValueError as exc:
        raise ServiceError("INVALID_ARGUMENT", f"the body is not JSON: {exc}") from exc
    except RecursionError as exc:
        raise ServiceError("INVALID_ARGUMENT", "the body is nested too deeply") from exc
    if not isinstance(document, dict):
        raise ServiceError("INVALID_ARGUMENT", "the body must be a JSON object")
    return document


def _parse_body(document: dict[str, Any] | None, message: Message) -> Message:
    if document is None:
        return message
    try:
        return parse_json_into(document, message)
    except json_format.ParseError as exc:
        raise ServiceError("INVALID_ARGUMENT", f"the body does not fit: {exc}") from exc
    except RecursionError as exc:
        raise ServiceError("INVALID_ARGUMENT", "the body is nested too deeply") from exc


def path_game_id(request: RestRequest, message: Message) -> None:
    """The path names the game (the body schema has no gameId)."""
    message.game_id = request.path_param("gameId")  # type: ignore[attr-defined]


def _time_param(request: RestRequest, name: str) -> float | None:
    """An RFC 3339 time query parameter (2026-12-03T18:00:00Z) as Unix seconds."""
    value = request.query_param(name)
    if value is None:
        return None
    try:
        if len(value) > 64:
            raise ValueError("too long")
        moment = datetime.datetime.fromisoformat(value)
    except ValueError as exc:
        raise ServiceError("INVALID_ARGUMENT", f"{name} must be an RFC 3339 time with its "
                           "offset, such as 2026-12-03T18:00:00Z", field=name) from exc
    if moment.tzinfo is None:
        raise ServiceError("INVALID_ARGUMENT", f"{name} needs its offset (Z for UTC)",
                           field=name)
    return moment.timestamp()


def export_filter(request: RestRequest) -> ExportFilter:
    """GET /v1/games:export's query parameters."""
    ruleset = request.query_param("ruleset")
    if ruleset is not None and ruleset not in pb.Ruleset.keys():
        raise ServiceError("INVALID_ARGUMENT", f"ruleset {ruleset[:64]!r} is not a Ruleset "
                           "name", field="ruleset")
    players, rated = request.query_param("players"), request.query_param("rated")
    limit = request.query_param("limit")
    return ExportFilter(
        ruleset=None if ruleset is None else pb.Ruleset.Value(ruleset),
        players=None if players is None else int_param(players, "players", 32),
        rated=None if rated is None else bool_param(rated, "rated"),
        created_after=_time_param(request, "createdAfter"),
        created_before=_time_param(request, "createdBefore"),
        limit=DEFAULT_EXPORT_GAMES if limit is None else int_param(limit, "limit", 32, low=1),
    )
