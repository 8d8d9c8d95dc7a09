"""Service errors: one reason code, one gRPC status, one HTTP status, one human message.

Every failure a client can see is a ServiceError. The gRPC layer sends it as a status with a
google.rpc.ErrorInfo detail; the REST layer sends the same reason and message as JSON.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2

from .gen import game_service_pb2 as pb
from .i18n import ENGLISH, error_message

ERROR_DOMAIN = "brass.v1"
# A refusal for too many requests always says when to come back (HTTP Retry-After, gRPC
# google.rpc.RetryInfo); this is the delay when the limit does not know better.
DEFAULT_RETRY_AFTER_SECONDS = 1.0

# reason -> (gRPC status, HTTP status). The HTTP codes follow the usual gRPC/HTTP mapping.
_REASONS: dict[str, tuple[grpc.StatusCode, int]] = {
    "UNKNOWN_GAME": (grpc.StatusCode.NOT_FOUND, 404),
    "UNKNOWN_RULESET": (grpc.StatusCode.NOT_FOUND, 404),
    "UNAUTHENTICATED": (grpc.StatusCode.UNAUTHENTICATED, 401),
    "NOT_YOUR_TURN": (grpc.StatusCode.PERMISSION_DENIED, 403),
    "OPERATOR_ONLY": (grpc.StatusCode.PERMISSION_DENIED, 403),
    "ILLEGAL_ACTION": (grpc.StatusCode.FAILED_PRECONDITION, 400),
    "STALE_VERSION": (grpc.StatusCode.ABORTED, 409),
    "GAME_OVER": (grpc.StatusCode.FAILED_PRECONDITION, 400),
    "INVALID_ARGUMENT": (grpc.StatusCode.INVALID_ARGUMENT, 400),
    "UNKNOWN_ACTION": (grpc.StatusCode.INVALID_ARGUMENT, 400),
    "BAD_POSITION": (grpc.StatusCode.INVALID_ARGUMENT, 400),
    "IDEMPOTENCY_KEY_REUSED": (grpc.StatusCode.ALREADY_EXISTS, 409),
    "RATE_LIMITED": (grpc.StatusCode.RESOURCE_EXHAUSTED, 429),
    "MESSAGE_TOO_LARGE": (grpc.StatusCode.RESOURCE_EXHAUSTED, 413),
    "UNSUPPORTED_ENCODING": (grpc.StatusCode.INVALID_ARGUMENT, 415),
    "REQUEST_TIMEOUT": (grpc.StatusCode.DEADLINE_EXCEEDED, 408),
    "HEADERS_TOO_LARGE": (grpc.StatusCode.INVALID_ARGUMENT, 431),
    "BAD_PAGE_TOKEN": (grpc.StatusCode.INVALID_ARGUMENT, 400),
    "CORRUPT_GAME": (grpc.StatusCode.DATA_LOSS, 500),
    "INTERNAL": (grpc.StatusCode.INTERNAL, 500),
    "UNAVAILABLE": (grpc.StatusCode.UNAVAILABLE, 503),
    "UNKNOWN_ROUTE": (grpc.StatusCode.NOT_FOUND, 404),
    "METHOD_NOT_ALLOWED": (grpc.StatusCode.UNIMPLEMENTED, 405),
    "GAME_NOT_STARTED": (grpc.StatusCode.FAILED_PRECONDITION, 400),
    "SEAT_TAKEN": (grpc.StatusCode.ABORTED, 409),
    "GAME_FULL": (grpc.StatusCode.FAILED_PRECONDITION, 409),
    "SEATS_OPEN": (grpc.StatusCode.FAILED_PRECONDITION, 400),
    "GAME_STARTED": (grpc.StatusCode.FAILED_PRECONDITION, 400),
    "NOT_HOST": (grpc.StatusCode.PERMISSION_DENIED, 403),
    "SEAT_RESIGNED": (grpc.StatusCode.FAILED_PRECONDITION, 400),
    "BOT_SEAT": (grpc.StatusCode.FAILED_PRECONDITION, 400),
    "TURN_TIMED_OUT": (grpc.StatusCode.FAILED_PRECONDITION, 400),
    # UndoAction's refusals (the engine's reasons, docs/UNDO.md)
    "NOTHING_TO_UNDO": (grpc.StatusCode.FAILED_PRECONDITION, 400),
    "UNDO_DISABLED": (grpc.StatusCode.FAILED_PRECONDITION, 400),
    "UNDO_BARRIER": (grpc.StatusCode.FAILED_PRECONDITION, 400),
    # the server's bound on a game's log (ServiceSettings.max_undo_version), not the rules'
    "UNDO_LIMIT": (grpc.StatusCode.FAILED_PRECONDITION, 400),
    # a watch stream's token lost its seat (reissued, revoked, left) while it was open
    "SEAT_TOKEN_REVOKED": (grpc.StatusCode.UNAUTHENTICATED, 401),
    # a watch stream whose game did not change for WATCH_IDLE_SECONDS (clients watch again)
    "WATCH_IDLE": (grpc.StatusCode.DEADLINE_EXCEEDED, 408),
    # JoinGame: the host banned the caller's address or the name (RevokeSeatToken ban)
    "BANNED": (grpc.StatusCode.PERMISSION_DENIED, 403),
    # JoinGame: the caller's address already holds its share of the game's seats
    "ALREADY_SEATED": (grpc.StatusCode.FAILED_PRECONDITION, 409),
    # CreateAccount: another account has the name
    "NAME_TAKEN": (grpc.StatusCode.ALREADY_EXISTS, 409),
    "UNKNOWN_ACCOUNT": (grpc.StatusCode.NOT_FOUND, 404),
    # an account's key acting for another account
    "NOT_YOUR_ACCOUNT": (grpc.StatusCode.PERMISSION_DENIED, 403),
    # a spectator of a delayed game asked for a version newer than it may see
    "SPECTATOR_DELAY": (grpc.StatusCode.FAILED_PRECONDITION, 400),
    # Rematch: before the end; nothing hosted to repeat; already started
    "GAME_NOT_OVER": (grpc.StatusCode.FAILED_PRECONDITION, 400),
    "REMATCH_UNAVAILABLE": (grpc.StatusCode.FAILED_PRECONDITION, 400),
    "REMATCH_STARTED": (grpc.StatusCode.FAILED_PRECONDITION, 409),
    "UNKNOWN_CHALLENGE": (grpc.StatusCode.NOT_FOUND, 404),
    "CHALLENGE_CLOSED": (grpc.StatusCode.FAILED_PRECONDITION, 409),
    # CreateWebhook: a target webhooks may not reach (private, loopback, …: SSRF)
    "WEBHOOK_TARGET_REFUSED": (grpc.StatusCode.INVALID_ARGUMENT, 400),
    "UNKNOWN_WEBHOOK": (grpc.StatusCode.NOT_FOUND, 404),
    "WEBHOOK_LIMIT": (grpc.StatusCode.FAILED_PRECONDITION, 409),
    "UNKNOWN_ARENA": (grpc.StatusCode.NOT_FOUND, 404),
    # REST only: a body that is not sent as application/json
    "UNSUPPORTED_MEDIA_TYPE": (grpc.StatusCode.INVALID_ARGUMENT, 415),
    # REST only: GET /v1/schemas/{schema} of a name that is no schema
    "UNKNOWN_SCHEMA": (grpc.StatusCode.NOT_FOUND, 404),
    # REST only: a CORS preflight to a server started without --cors-origins
    "CORS_DISABLED": (grpc.StatusCode.PERMISSION_DENIED, 403),
}

# Engine error codes (brass.EngineError.code) -> service reasons.
_ENGINE_CODES = {
    "ILLEGAL_ACTION": "ILLEGAL_ACTION",
    "NOT_YOUR_TURN": "NOT_YOUR_TURN",
    "GAME_OVER": "GAME_OVER",
    "UNKNOWN_ACTION": "UNKNOWN_ACTION",
    "BAD_POSITION": "BAD_POSITION",
    "INVALID_ARGUMENT": "INVALID_ARGUMENT",
    "BAD_SNAPSHOT": "CORRUPT_GAME",
}


_UNDO_REASONS = frozenset({"NOTHING_TO_UNDO", "UNDO_DISABLED", "UNDO_BARRIER"})


class ServiceError(Exception):
    """A client-visible failure with a machine-readable reason."""

    def __init__(self, reason: str, message: str, **metadata: Any) -> None:
        """`retry_after_seconds` (a number) in the metadata says when a retry may succeed;
        RATE_LIMITED errors always carry it (DEFAULT_RETRY_AFTER_SECONDS when not given)."""
        if reason not in _REASONS:
            raise ValueError(f"unknown error reason {reason!r}")
        super().__init__(message)
        self.reason = reason
        self.message = message
        retry = metadata.pop("retry_after_seconds", None)
        if retry is None and reason == "RATE_LIMITED":
            retry = DEFAULT_RETRY_AFTER_SECONDS
        self.retry_after_seconds = None if retry is None else max(0.0, float(retry))
        if self.retry_after_seconds is not None:
            metadata["retry_after_seconds"] = f"{self.retry_after_seconds:.3f}"
        self.metadata = {k: str(v) for k, v in metadata.items() if v is not None}
        self.ruleset: str | None = None  # an engine refusal's ruleset: its reason's words

    def message_in(self, language: str) -> str:
        """The human message in `language` (service/i18n); the reason stays the same."""
        return error_message(self.reason, self.message, language,
                             engine_reason=self.metadata.get("engine_reason"),
                             ruleset=self.ruleset)

    def http_headers(self) -> dict[str, str]:
        """Headers of the REST answer: Retry-After (whole seconds, at least 1) when the
        error says when to retry."""
        if self.retry_after_seconds is None:
            return {}
        return {"Retry-After": str(max(1, math.ceil(self.retry_after_seconds)))}

    @property
    def grpc_code(self) -> grpc.StatusCode:
        return _REASONS[self.reason][0]

    @property
    def http_status(self) -> int:
        return _REASONS[self.reason][1]

    def to_status_proto(self, language: str = ENGLISH) -> status_pb2.Status:
        info = error_details_pb2.ErrorInfo(
            reason=self.reason, domain=ERROR_DOMAIN, metadata=self.metadata
        )
        detail = any_pb2.Any()
        detail.Pack(info)
        details = [detail]
        if self.retry_after_seconds is not None:
            delay = duration_pb2.Duration()
            delay.FromNanoseconds(int(self.retry_after_seconds * 1e9))
            retry = any_pb2.Any()
            retry.Pack(error_details_pb2.RetryInfo(retry_delay=delay))
            details.append(retry)
        return status_pb2.Status(
            code=getattr(code_pb2, self.grpc_code.name),
            message=self.message_in(language),
            details=details,
        )

    def to_json(self, language: str = ENGLISH) -> dict[str, Any]:
        """The REST body: Google's JSON error shape, plus the reason at top level. A request
        field is named as REST JSON spells it (`atVersion`, `seatNames[1]`), in `field` and
        in the message; gRPC keeps the proto names (to_status_proto)."""
        message, metadata = self.message_in(language), self.metadata
        field = metadata.get("field")
        if field and "engine_code" not in metadata:  # the engine's fields are its documents'
            rest_field = rest_field_path(field)
            for old, new in ((field, rest_field), (field.split(".")[0], rest_field.split(".")[0])):
                message = re.sub(rf"(?<![\w.]){re.escape(old)}(?![\w\[])", new, message)
            metadata = {**metadata, "field": rest_field}
        document = {
            "error": {
                "code": self.http_status,
                "status": self.grpc_code.name,
                "reason": self.reason,
                "message": message,
                "details": [
                    {
                        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                        "reason": self.reason,
                        "domain": ERROR_DOMAIN,
                        "metadata": metadata,
                    }
                ],
            }
        }
        if self.retry_after_seconds is not None:
            document["error"]["details"].append({
                "@type": "type.googleapis.com/google.rpc.RetryInfo",
                "retryDelay": f"{self.retry_after_seconds:.3f}s",
            })
        return document

    def to_json_text(self, language: str = ENGLISH) -> str:
        """to_json() as compact JSON text: the body of a REST refusal."""
        return json.dumps(self.to_json(language), separators=(",", ":"))


# GameOptions' own fields: any other name after "options." is a ruleset option's key, which
# JSON spells as it is (a map key, not a field).
_GAME_OPTION_FIELDS = frozenset(pb.GameOptions.DESCRIPTOR.fields_by_name)


def _lower_camel(name: str) -> str:
    return re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), name)


def rest_field_path(path: str) -> str:
    """A request field's path in proto names (`seat_names[1]`, `options.clock.initial_ms`)
    as REST JSON names it (`seatNames[1]`, `options.clock.initialMs`)."""
    parts = path.split(".")
    out = [_lower_camel(parts[0])]
    for previous, part in zip(parts, parts[1:], strict=False):
        keep = previous == "ruleset_options" or (
            previous == "options" and part.split("[")[0] not in _GAME_OPTION_FIELDS)
        out.append(part if keep else _lower_camel(part))
    return ".".join(out)


def from_engine_error(exc: Exception, ruleset: str | None = None,
                      **metadata: Any) -> ServiceError:
    """Maps a brass.EngineError (code, reason, message, field) to a ServiceError; the
    game's ruleset, when known, words the engine's reason in other languages."""
    code = getattr(exc, "code", None) or "INTERNAL"
    reason = _ENGINE_CODES.get(code, "INTERNAL")
    if code == "CANNOT_UNDO":  # the engine's reason is the service's
        engine_reason = getattr(exc, "reason", None)
        reason = engine_reason if engine_reason in _UNDO_REASONS else "INTERNAL"
    message = getattr(exc, "message", None) or str(exc) or code
    error = ServiceError(
        reason,
        message,
        engine_code=code,
        engine_reason=getattr(exc, "reason", None),
        field=getattr(exc, "field", None),
        **metadata,
    )
    error.ruleset = ruleset
    return error


def http_status_of_grpc(code: grpc.StatusCode) -> int:
    """HTTP status for a bare gRPC code (used when no reason is known)."""
    for grpc_code, http in _REASONS.values():
        if grpc_code == code:
            return http
    return 500


# The REST-only reasons that ErrorReason (the gRPC catalogue) does not list.
REST_ONLY_REASONS = {
    "UNSUPPORTED_ENCODING": "A Content-Encoding was sent: bodies are read as they are sent "
    "(HTTP 415).",
    "UNSUPPORTED_MEDIA_TYPE": "A request body sent with a Content-Type other than "
    "application/json (HTTP 415): a browser sends text/plain and form bodies from any web "
    "page without asking the server first, so they are refused.",
    "REQUEST_TIMEOUT": "The request did not arrive whole in time (HTTP 408).",
    "HEADERS_TOO_LARGE": "The request line or a header is longer than the server reads "
    "(HTTP 431).",
    "CORS_DISABLED": "A CORS preflight (OPTIONS with Access-Control-Request-Method) to a "
    "server started without --cors-origins (BRASS_CORS_ORIGINS): cross-origin calls are "
    "off (HTTP 403); metadata `setting` names the flag.",
    "UNKNOWN_SCHEMA": "GET /v1/schemas/{schema} of a name that is no schema (HTTP 404); "
    "metadata `schemas` lists the names.",
}


def all_reasons() -> list[str]:
    return list(_REASONS)
