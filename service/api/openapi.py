"""The OpenAPI 3 document of the REST gateway, built from the proto descriptors.

Schemas follow the canonical proto3 JSON mapping of the brass.v1 messages and take their
descriptions from the .proto comments (kept in the generated descriptor set), so the
document cannot drift from the contract.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import jsonschema
from google.api import field_behavior_pb2
from google.protobuf import descriptor_pb2

from brass.records import SCHEMA_NAMES

from .. import names, requests
from ..bots import batches
from ..errors import REST_ONLY_REASONS, ServiceError, all_reasons
from ..games.settings import ServiceSettings

_FD = descriptor_pb2.FieldDescriptorProto
_INT32 = {"type": "integer", "format": "int32", "minimum": -(2**31), "maximum": 2**31 - 1}
_UINT32 = {"type": "integer", "format": "int32", "minimum": 0, "maximum": 2**32 - 1}
_SCALARS: dict[int, dict[str, Any]] = {
    _FD.TYPE_STRING: {"type": "string"},
    _FD.TYPE_BOOL: {"type": "boolean"},
    _FD.TYPE_INT32: _INT32,
    _FD.TYPE_SINT32: _INT32,
    _FD.TYPE_SFIXED32: _INT32,
    _FD.TYPE_UINT32: _UINT32,
    _FD.TYPE_FIXED32: _UINT32,
    _FD.TYPE_DOUBLE: {"type": "number", "format": "double"},
    _FD.TYPE_FLOAT: {"type": "number", "format": "float"},
    _FD.TYPE_BYTES: {"type": "string", "format": "byte"},
}
_SIGNED_64 = frozenset({_FD.TYPE_INT64, _FD.TYPE_SINT64, _FD.TYPE_SFIXED64})
_UNSIGNED_64 = frozenset({_FD.TYPE_UINT64, _FD.TYPE_FIXED64})


def _decimal_up_to(limit: str) -> str:
    """A regex alternation matching the decimal numbers 0..limit without leading zeros."""
    options = ["0"]
    if len(limit) > 1:
        options.append(f"[1-9][0-9]{{0,{len(limit) - 2}}}")
    for index, digit in enumerate(limit):
        low = "1" if index == 0 else "0"
        if digit > low:
            top = str(int(digit) - 1)
            rest = len(limit) - index - 1
            tail = f"[0-9]{{{rest}}}" if rest else ""
            options.append(f"{limit[:index]}[{low}-{top}]{tail}")
        elif digit < low:
            break
    options.append(limit)
    return "|".join(dict.fromkeys(options))


# 64-bit integers are JSON strings in canonical proto3 JSON: exactly the decimal texts in
# range (no sign on zero, no leading zeros), so that a client generator and a validator
# agree with the server on every value.
INT64_PATTERN = f"^(-?(?:{_decimal_up_to(str(2**63 - 1))})|-{2**63})$"
UINT64_PATTERN = f"^({_decimal_up_to(str(2**64 - 1))})$"


def _int64_schema(signed: bool, accepts_numbers: bool) -> dict[str, Any]:
    text = {"type": "string", "format": "int64" if signed else "uint64",
            "pattern": INT64_PATTERN if signed else UINT64_PATTERN}
    if not accepts_numbers:
        return text
    # Requests may also carry a JSON number (proto3 JSON parsers accept both).
    number = {"type": "integer", "format": "int64",
              "minimum": -(2**63) if signed else 0,
              "maximum": 2**63 - 1 if signed else 2**64 - 1}
    return {"oneOf": [text, number]}


_WELL_KNOWN: dict[str, dict[str, Any]] = {
    ".google.protobuf.Struct": {
        "type": "object",
        "additionalProperties": True,
        "description": "A free-form JSON object (google.protobuf.Struct).",
    },
    ".google.protobuf.Timestamp": {"type": "string", "format": "date-time"},
    ".google.protobuf.Duration": {"type": "string", "pattern": r"^-?[0-9]+(\.[0-9]{1,9})?s$"},
    ".google.protobuf.Value": {"description": "Any JSON value (google.protobuf.Value)."},
    ".google.protobuf.ListValue": {"type": "array", "items": {}},
    ".google.protobuf.Empty": {"type": "object", "additionalProperties": False},
}

PACKAGE = "brass.v1"
SCHEMA_REF = "#/components/schemas/"


# Bounds the server enforces beyond a field's type, by message and field (JSON name): the
# numbers are the server's own constants, so the document states what is refused.
def _field_bounds(settings: ServiceSettings) -> dict[tuple[str, str], dict[str, Any]]:
    seat = {"minimum": 0, "maximum": 3}
    players = {"minimum": 2, "maximum": 4}
    name = {"maxLength": requests.MAX_SEAT_NAME_CHARS}
    return {
        ("CreateGameRequest", "players"): players,
        ("CreateGameRequest", "seatNames"): {"maxItems": 4, "items": name},
        ("CreateGameRequest", "openSeats"): {"maxItems": 4, "uniqueItems": True,
                                             "items": seat},
        # its length is the engine's to refuse (BAD_POSITION), with the position's faults
        ("CreateGameFromPositionRequest", "positionJson"): {"minLength": 1},
        ("CreateGameFromPositionRequest", "seatNames"): {"maxItems": 4, "items": name},
        ("GameOptions", "rulesetOptions"): {"maxProperties": requests.MAX_RULESET_OPTIONS},
        ("SubmitActionRequest", "idempotencyKey"): {
            "maxLength": requests.MAX_IDEMPOTENCY_KEY_CHARS},
        ("ActionIds", "ids"): {"minItems": 1, "maxItems": requests.MAX_COMPOUND_IDS},
        ("Action", "compoundKey"): {"maxLength": requests.MAX_COMPOUND_KEY_CHARS},
        ("JoinGameRequest", "name"): {"minLength": 1, "pattern": names.NAME_PATTERN, **name},
        ("CreateAccountRequest", "name"): {"minLength": 1, "pattern": names.NAME_PATTERN,
                                           **name},
        ("CreateGameRequest", "accountSeat"): seat,
        ("JoinGameRequest", "seat"): seat,
        ("ReissueSeatTokenRequest", "seat"): seat,
        ("RevokeSeatTokenRequest", "seat"): seat,
        ("SetSeatBotRequest", "seat"): seat,
        ("SetSeatBotRequest", "bot"): {"minLength": 1, "maxLength": batches.MAX_SPEC_CHARS},
        ("RunBatchRequest", "players"): players,
        ("RunBatchRequest", "games"): {"minimum": 1, "maximum": settings.batch_max_games},
        ("RunBatchRequest", "bots"): {"minItems": 1, "maxItems": 4, "items": {
            "minLength": 1, "maxLength": batches.MAX_SPEC_CHARS}},
    }


def _merge(schema: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    merged = dict(schema)
    for key, value in extra.items():
        merged[key] = _merge(merged.get(key, {}), value) if isinstance(value, dict) else value
    return merged


@dataclass(frozen=True)
class Route:
    """One REST operation, mapped 1:1 to an RPC (or a REST-only utility)."""

    method: str
    path: str
    operation_id: str
    summary: str
    request: str | None = None  # message name of the JSON body
    response: str | None = None  # message name of the 200 body
    query: tuple[tuple[str, dict[str, Any], str], ...] = ()
    # "none" | "optional" | "required" | "operator" | "account" (an account's key)
    authorization: str = "optional"
    content_type: str = "application/json"
    stream_item: str | None = None  # message name of each line of a streamed response
    extra_responses: dict[str, str] = field(default_factory=dict)


@cache
def _file_set() -> descriptor_pb2.FileDescriptorSet:
    data = resources.files("brass_service.gen").joinpath("brass_v1_descriptor_set.binpb")
    # Reading the descriptor set with field_behavior_pb2 imported makes its option readable.
    assert field_behavior_pb2.field_behavior is not None
    return descriptor_pb2.FileDescriptorSet.FromString(data.read_bytes())


def _comments(proto_file: descriptor_pb2.FileDescriptorProto) -> dict[tuple[int, ...], str]:
    return {
        tuple(location.path): " ".join(location.leading_comments.split())
        for location in proto_file.source_code_info.location
        if location.leading_comments
    }


def is_required(message_field: descriptor_pb2.FieldDescriptorProto) -> bool:
    """A request field the server refuses the request without: marked in the .proto with
    `[(google.api.field_behavior) = REQUIRED]` (AIP-203)."""
    behaviors = message_field.options.Extensions[field_behavior_pb2.field_behavior]
    return field_behavior_pb2.REQUIRED in behaviors


@dataclass
class _Message:
    name: str  # component name: the full name without the package ("Outer.Inner")
    proto: descriptor_pb2.DescriptorProto
    comments: dict[tuple[int, ...], str]
    path: tuple[int, ...]  # source-info path of the message


def _component_name(type_name: str) -> str:
    return type_name.lstrip(".").removeprefix(PACKAGE + ".")


def _walk(proto_file: descriptor_pb2.FileDescriptorProto
          ) -> tuple[list[_Message], list[tuple[str, descriptor_pb2.EnumDescriptorProto,
                                                  dict[tuple[int, ...], str], tuple[int, ...]]]]:
    comments = _comments(proto_file)
    messages: list[_Message] = []
    enums = [(enum.name, enum, comments, (5, index))
             for index, enum in enumerate(proto_file.enum_type)]

    def visit(message: descriptor_pb2.DescriptorProto, prefix: str, path: tuple[int, ...]) -> None:
        if message.options.map_entry:
            return
        name = prefix + message.name
        messages.append(_Message(name, message, comments, path))
        for index, enum in enumerate(message.enum_type):
            enums.append((f"{name}.{enum.name}", enum, comments, (*path, 4, index)))
        for index, nested in enumerate(message.nested_type):
            visit(nested, name + ".", (*path, 3, index))

    for index, message in enumerate(proto_file.message_type):
        visit(message, "", (4, index))
    return messages, enums


def _reachable(roots: set[str], messages: dict[str, _Message]) -> set[str]:
    """The messages reachable from `roots` through message fields (map values included)."""
    seen: set[str] = set()
    stack = [root for root in roots if root in messages]
    while stack:
        name = stack.pop()
        if name in seen or name not in messages:
            continue
        seen.add(name)
        message = messages[name].proto
        for nested in message.nested_type:
            if nested.options.map_entry:
                stack.extend(_component_name(f.type_name) for f in nested.field
                             if f.type == _FD.TYPE_MESSAGE)
        stack.extend(_component_name(f.type_name) for f in message.field
                     if f.type == _FD.TYPE_MESSAGE and _component_name(f.type_name) in messages)
    return seen


def _value_schema(message_field: descriptor_pb2.FieldDescriptorProto,
                  accepts_numbers: bool) -> dict[str, Any]:
    if message_field.type == _FD.TYPE_MESSAGE:
        known = _WELL_KNOWN.get(message_field.type_name)
        if known is not None:
            return dict(known)
        return {"$ref": SCHEMA_REF + _component_name(message_field.type_name)}
    if message_field.type == _FD.TYPE_ENUM:
        return {"$ref": SCHEMA_REF + _component_name(message_field.type_name)}
    if message_field.type in _SIGNED_64 or message_field.type in _UNSIGNED_64:
        return _int64_schema(message_field.type in _SIGNED_64, accepts_numbers)
    return dict(_SCALARS[message_field.type])


def _with_description(schema: dict[str, Any], description: str | None) -> dict[str, Any]:
    if not description:
        return schema
    if "$ref" in schema:  # keeps the reference plain for generators that drop siblings
        return {"allOf": [schema], "description": description}
    return {**schema, "description": description}


def _message_schema(message: _Message, is_input: bool,
                    bounds: dict[tuple[str, str], dict[str, Any]]) -> dict[str, Any]:
    """A message's canonical proto3 JSON as a schema. In requests (`is_input`) the fields
    marked REQUIRED are required and 64-bit integers may also be numbers; in responses
    every field without presence is required (the server writes them all, defaults too)."""
    proto, comments = message.proto, message.comments
    maps = {f".{PACKAGE}.{message.name}.{nested.name}": nested
            for nested in proto.nested_type if nested.options.map_entry}
    properties: dict[str, Any] = {}
    required: list[str] = []
    oneofs: dict[int, list[str]] = {}
    for field_index, message_field in enumerate(proto.field):
        json_name = message_field.json_name
        if message_field.type_name in maps:
            value_field = maps[message_field.type_name].field[1]
            schema: dict[str, Any] = {
                "type": "object", "additionalProperties": _value_schema(value_field, is_input)}
        else:
            schema = _value_schema(message_field, is_input)
            if message_field.label == _FD.LABEL_REPEATED:
                schema = {"type": "array", "items": schema}
        extra = bounds.get((message.name, json_name))
        if extra:
            schema = _merge(schema, extra)
        properties[json_name] = _with_description(
            schema, comments.get((*message.path, 2, field_index)))
        has_presence = (message_field.proto3_optional or message_field.HasField("oneof_index")
                        or (message_field.type == _FD.TYPE_MESSAGE
                            and message_field.label != _FD.LABEL_REPEATED
                            and message_field.type_name not in maps))
        if message_field.HasField("oneof_index") and not message_field.proto3_optional:
            oneofs.setdefault(message_field.oneof_index, []).append(json_name)
        if is_input and is_required(message_field):
            required.append(json_name)
        elif not is_input and not has_presence:
            required.append(json_name)
    schema = {
        "type": "object",
        "description": comments.get(message.path, ""),
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        schema["required"] = required
    # A oneof holds exactly one of its fields (requests must set one; responses always do).
    choices = [
        {"oneOf": [{"required": [member]} for member in members]}
        for members in oneofs.values()
    ]
    if len(choices) == 1:
        schema.update(choices[0])
    elif choices:
        schema["allOf"] = choices
    return schema


def _enum_schema(enum: descriptor_pb2.EnumDescriptorProto,
                 comments: dict[tuple[int, ...], str], path: tuple[int, ...]) -> dict[str, Any]:
    values_doc = "; ".join(
        f"{value.name}: {comments.get((*path, 2, index), '')}".rstrip(": ")
        for index, value in enumerate(enum.value)
    )
    return {
        "type": "string",
        "enum": [value.name for value in enum.value],
        "description": f"{comments.get(path, '')} Values — {values_doc}".strip(),
    }


def _schemas(routes: list[Route], settings: ServiceSettings) -> dict[str, Any]:
    messages: dict[str, _Message] = {}
    schemas: dict[str, Any] = {}
    for proto_file in _file_set().file:
        if proto_file.package != PACKAGE:
            continue
        found, enums = _walk(proto_file)
        messages.update((message.name, message) for message in found)
        for name, enum, comments, path in enums:
            schemas[name] = _enum_schema(enum, comments, path)
    inputs = _reachable({route.request for route in routes if route.request}, messages)
    bounds = _field_bounds(settings)
    for name, message in messages.items():
        schemas[name] = _message_schema(message, name in inputs, bounds)
    schemas.update(_stream_schemas())
    schemas["Error"] = _error_schema()
    return schemas


def _error_schema() -> dict[str, Any]:
    """Every error body; its reason is one of the catalogue (ErrorReason's names)."""
    catalogue = _schemas_error_reasons()
    return {
        "type": "object",
        "description": "Every error response: the google.rpc.Status JSON shape plus the reason.",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "status", "reason", "message", "details"],
                "properties": {
                    "code": {"type": "integer", "description": "The HTTP status."},
                    "status": {"type": "string", "description": "The gRPC status code name."},
                    "reason": {
                        "type": "string",
                        "enum": all_reasons(),
                        "description": "Machine-readable reason (as in google.rpc.ErrorInfo): "
                        + "; ".join(f"{name}: {text}" for name, text in catalogue.items()),
                    },
                    "message": {"type": "string", "description": "A human sentence."},
                    "details": {
                        "type": "array",
                        "items": {"type": "object", "additionalProperties": True},
                        "description": "A google.rpc.ErrorInfo with reason, domain and "
                        "metadata (\"field\" names a refused request field), and a "
                        "google.rpc.RetryInfo when a retry may succeed later.",
                    },
                },
            }
        },
    }


def _schemas_error_reasons() -> dict[str, str]:
    """ErrorReason's values by their REST name (without the prefix), with their comments."""
    for proto_file in _file_set().file:
        if proto_file.package != PACKAGE:
            continue
        comments = _comments(proto_file)
        for enum_index, enum in enumerate(proto_file.enum_type):
            if enum.name == "ErrorReason":
                return {
                    value.name.removeprefix("ERROR_REASON_"):
                        comments.get((5, enum_index, 2, index), "")
                    for index, value in enumerate(enum.value) if value.number != 0
                } | REST_ONLY_REASONS
    return dict(REST_ONLY_REASONS)


# The watch stream's events (SSE `event:` names) and the schema of each one's `data`.
SSE_EVENTS = {
    "update": ("WatchGameResponse", "The game moved: `id` is the version (send it back as "
               "Last-Event-ID to resume)."),
    "end": ("WatchStreamEnd", "The game is over: stop watching (reason GAME_OVER)."),
    "shutdown": ("WatchStreamEnd", "This server is stopping (reason SERVER_SHUTTING_DOWN): "
                 "reconnect after `retry` ms with Last-Event-ID, the game goes on."),
    "error": ("Error", "The stream failed; the data is an error body."),
}


def _sse_event_schema() -> dict[str, Any]:
    return {"oneOf": [
        {
            "type": "object",
            "description": text,
            "required": ["event", "data"],
            "properties": {
                "event": {"type": "string", "enum": [event]},
                "id": {"type": "string", "pattern": INT64_PATTERN},
                "retry": {},
                "data": {"type": "string", "contentMediaType": "application/json",
                         "contentSchema": {"$ref": SCHEMA_REF + schema}},
            },
        }
        for event, (schema, text) in SSE_EVENTS.items()
    ]}


def _stream_schemas() -> dict[str, Any]:
    return {
        "WatchStreamEnd": {
            "type": "object",
            "description": "The data of a watch stream's last event, `end` or `shutdown`.",
            "required": ["reason", "version"],
            "properties": {
                "reason": {"type": "string", "enum": ["GAME_OVER", "SERVER_SHUTTING_DOWN"],
                           "description": "Why the stream ends."},
                "version": _with_description(
                    _int64_schema(True, False), "The last version the stream sent."),
            },
            "additionalProperties": False,
        },
        "WatchEvent": {
            "description": "One Server-Sent Event of the watch stream, parsed: its `event` "
            "name and its `data` as JSON.",
            "oneOf": [
                {"type": "object", "required": ["event", "data"], "additionalProperties": False,
                 "description": text,
                 "properties": {"event": {"type": "string", "enum": [event]},
                                "data": {"$ref": SCHEMA_REF + schema}}}
                for event, (schema, text) in SSE_EVENTS.items()
            ],
        },
    }


def _json_body(schema_name: str) -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": SCHEMA_REF + schema_name}}}


_ERROR_RESPONSES = {
    "400": "Invalid argument, illegal action or game over.",
    "401": "Missing or wrong seat token.",
    "403": "Not this seat's turn, the operator token is needed, or the host banned the "
           "caller from the game.",
    "404": "Unknown game or ruleset.",
    "405": "The path does not take this method (the Allow header lists those it takes).",
    "408": "The request did not arrive whole in time.",
    "409": "Stale version, idempotency key reused, a seat taken, or the caller already "
           "seated in the game.",
    "413": "Request body too large.",
    "415": "A Content-Encoding was sent (bodies are read as sent), or a body whose "
           "Content-Type is not application/json.",
    "429": "Rate limited (Retry-After says when to retry).",
    "431": "A header or the request line is too long.",
    "500": "Server fault.",
    "503": "Store unavailable.",
}


PATH_PARAMETERS: dict[str, tuple[dict[str, Any], str]] = {
    "gameId": ({"type": "string", "minLength": 1, "maxLength": requests.MAX_GAME_ID_CHARS,
                "pattern": "^[^/:]+$"}, "The game id."),
    "ruleset": ({"type": "string", "minLength": 1},
                "A ruleset's name (birmingham) or Ruleset enum name (RULESET_BIRMINGHAM)."),
    "accountId": ({"type": "string", "minLength": 1, "maxLength": 64,
                   "pattern": "^[^/:]+$"}, "The account id."),
    "schema": ({"enum": list(SCHEMA_NAMES)}, "A game record schema's name and version."),
    "challengeId": ({"type": "string", "minLength": 1, "maxLength": 64,
                     "pattern": "^[^/:]+$"}, "The challenge id."),
    "webhookId": ({"type": "string", "minLength": 1, "maxLength": 64,
                   "pattern": "^[^/:]+$"}, "The webhook id."),
    "arenaId": ({"type": "string", "minLength": 1, "maxLength": 64,
                 "pattern": "^[^/:]+$"}, "The arena id."),
    "name": ({"type": "string", "minLength": 1, "pattern": "^[^/]+$"},
             "A file name of the web frontend (e.g. app.js)."),
}


def build_openapi(routes: list[Route], server_url: str | None = None,
                  settings: ServiceSettings | None = None) -> dict[str, Any]:
    settings = settings or ServiceSettings()
    schemas = _schemas(routes, settings)
    paths: dict[str, Any] = {}
    for route in routes:
        operation: dict[str, Any] = {
            "operationId": route.operation_id,
            "summary": route.summary,
            "responses": {},
        }
        parameters: list[dict[str, Any]] = []
        for name, (schema, description) in PATH_PARAMETERS.items():
            if "{" + name + "}" in route.path:
                parameters.append({"name": name, "in": "path", "required": True,
                                   "schema": schema, "description": description})
        for name, schema, description in route.query:
            location = "header" if name == "Last-Event-ID" else "query"
            if name == "pageSize":  # the server's setting, not the default
                schema = {**schema, "maximum": settings.max_page_size}
            parameters.append({"name": name, "in": location, "required": False,
                               "schema": schema, "description": description})
        if parameters:
            operation["parameters"] = parameters
        if route.request:
            body = schemas[route.request]
            for named in ("gameId", "accountId", "challengeId", "arenaId"):
                if "{" + named + "}" in route.path and named in body["properties"]:
                    # the path names the game (the account): the body does not repeat it
                    body["properties"].pop(named)
                    if named in body.get("required", ()):
                        body["required"].remove(named)
                        if not body["required"]:
                            del body["required"]
            # a body without required fields may be left out (it reads as {})
            operation["requestBody"] = {"required": bool(body.get("required")),
                                        "content": _json_body(route.request)}
        if route.authorization == "required":
            operation["security"] = [{"seatToken": []}]
        elif route.authorization == "operator":
            operation["security"] = [{"operatorToken": []}]
        elif route.authorization == "account":
            operation["security"] = [{"accountKey": []}, {"operatorToken": []}]
        elif route.authorization == "optional":
            operation["security"] = [{}, {"seatToken": []}]
        else:
            operation["security"] = []
        if route.response:
            ok: dict[str, Any] = {"description": "OK", "content": _json_body(route.response)}
        elif route.content_type == "text/event-stream" and route.stream_item:
            ok = {
                "description": (
                    f"Server-Sent Events: each event's `data` is one {route.stream_item} "
                    "(JSON), its `event` the name of the field it sets. Comment lines keep "
                    "the stream alive."),
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
            }
        elif route.content_type == "text/event-stream":
            events = "; ".join(f"`{event}`: a {schema} ({text})"
                               for event, (schema, text) in SSE_EVENTS.items())
            ok = {
                "description": (
                    "Server-Sent Events, each with an `event` name and JSON `data` (WatchEvent "
                    f"is one event, parsed): {events} Comment lines keep the stream alive."
                ),
                # the schema of one event (OpenAPI 3.1 reads a stream's schema so), its
                # data a JSON text of the event's schema
                "content": {"text/event-stream": {"schema": _sse_event_schema()}},
            }
        elif route.stream_item:
            ok = {
                "description": (
                    f"A stream of newline-delimited JSON (NDJSON): one {route.stream_item} "
                    "per line, sent as each is ready. A failure after the first line is a "
                    "last line holding an Error object instead."
                ),
                "content": {
                    route.content_type: {"schema": {"$ref": SCHEMA_REF + route.stream_item}}
                },
            }
        elif route.content_type == "application/json":
            ok = {
                "description": "OK",
                "content": {
                    "application/json": {
                        "schema": {"type": "object", "additionalProperties": True}
                    }
                },
            }
        else:  # one or more media types, comma separated (a file server's)
            ok = {
                "description": "OK",
                "content": {media.strip(): {"schema": {"type": "string"}}
                            for media in route.content_type.split(",")},
            }
        operation["responses"]["200"] = ok
        for status, description in _ERROR_RESPONSES.items():
            if route.operation_id == "Health" and status == "503":
                operation["responses"]["503"] = {
                    "description": "The store cannot be read.",
                    "content": {"application/json": {"schema": {
                        "type": "object", "additionalProperties": True}}},
                }
                continue
            operation["responses"][status] = {
                "description": description,
                "content": _json_body("Error"),
                **({"headers": {"Allow": {"schema": {"type": "string"}, "description":
                                          "The methods the path takes."}}}
                   if status == "405" else {}),
            }
        paths.setdefault(route.path, {})[route.method.lower()] = operation
    document: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {
            "title": "Brass game service",
            "version": "1.0.0",
            "description": (
                "REST/JSON gateway of brass.v1.GameService. Bodies are the canonical proto3 "
                "JSON of the same messages as the gRPC API (lowerCamelCase names, enums by "
                "name, 64-bit integers as decimal strings; every field of a response is "
                "written, defaults included, except unset optional and message fields). "
                "Request fields marked `(google.api.field_behavior) = REQUIRED` in the "
                ".proto are required here; a body is checked against its schema before "
                "anything else is done with it, and every refusal is an Error body. Seat "
                "tokens travel as `Authorization: Bearer <token>`; authentication is "
                "checked before the body is read."
            ),
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "seatToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A seat token returned by CreateGame or JoinGame, or "
                    "the host token of CreateGame (StartGame, ReissueSeatToken).",
                },
                "accountKey": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "An account's API key (CreateAccount, RotateAccountKey); "
                    "as the bearer token of CreateGame or JoinGame it binds the seat to the "
                    "account.",
                },
                "operatorToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The server's operator token (--operator-token, env "
                    "BRASS_OPERATOR_TOKEN), for RunBatch and CreateGameFromPosition.",
                },
            },
        },
    }
    if server_url:
        document["servers"] = [{"url": server_url}]
    return document


class BodyValidator:
    """Checks request bodies against the document's schemas (JSON Schema 2020-12, the
    dialect of OpenAPI 3.1), so the server refuses exactly what the document does."""

    def __init__(self, document: dict[str, Any]) -> None:
        self._components = document["components"]
        self._validators: dict[str, Any] = {}

    def check(self, schema_name: str, body: Any) -> None:
        validator = self._validators.get(schema_name)
        if validator is None:
            root = {"$ref": SCHEMA_REF + schema_name, "components": self._components}
            validator = self._validators[schema_name] = jsonschema.Draft202012Validator(root)
        error = jsonschema.exceptions.best_match(validator.iter_errors(body))
        if error is None:
            return
        path = [str(part) for part in error.absolute_path]
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            # name the first unknown field, as protobuf's JSON parser does
            known = error.schema.get("properties", {})
            unknown = next(key for key in error.instance if key not in known)
            path.append(unknown)
            text = f"there is no field {unknown[:64]!r} here"
        else:
            text = _short(error.message)
        where = ".".join(path) or "body"
        raise ServiceError(
            "INVALID_ARGUMENT", f"the body does not fit {schema_name} at {where}: {text}",
            field=where,
        )


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
