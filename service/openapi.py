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

from google.protobuf import descriptor_pb2

from .errors import all_reasons

_SCALARS: dict[int, dict[str, Any]] = {
    descriptor_pb2.FieldDescriptorProto.TYPE_STRING: {"type": "string"},
    descriptor_pb2.FieldDescriptorProto.TYPE_BOOL: {"type": "boolean"},
    descriptor_pb2.FieldDescriptorProto.TYPE_INT32: {"type": "integer", "format": "int32"},
    descriptor_pb2.FieldDescriptorProto.TYPE_SINT32: {"type": "integer", "format": "int32"},
    descriptor_pb2.FieldDescriptorProto.TYPE_SFIXED32: {"type": "integer", "format": "int32"},
    descriptor_pb2.FieldDescriptorProto.TYPE_UINT32: {"type": "integer", "minimum": 0},
    descriptor_pb2.FieldDescriptorProto.TYPE_FIXED32: {"type": "integer", "minimum": 0},
    # 64-bit integers are JSON strings in canonical proto3 JSON (numbers are accepted too).
    descriptor_pb2.FieldDescriptorProto.TYPE_INT64: {"type": "string", "format": "int64"},
    descriptor_pb2.FieldDescriptorProto.TYPE_SINT64: {"type": "string", "format": "int64"},
    descriptor_pb2.FieldDescriptorProto.TYPE_SFIXED64: {"type": "string", "format": "int64"},
    descriptor_pb2.FieldDescriptorProto.TYPE_UINT64: {"type": "string", "format": "uint64"},
    descriptor_pb2.FieldDescriptorProto.TYPE_FIXED64: {"type": "string", "format": "uint64"},
    descriptor_pb2.FieldDescriptorProto.TYPE_DOUBLE: {"type": "number", "format": "double"},
    descriptor_pb2.FieldDescriptorProto.TYPE_FLOAT: {"type": "number", "format": "float"},
    descriptor_pb2.FieldDescriptorProto.TYPE_BYTES: {"type": "string", "format": "byte"},
}
_WELL_KNOWN: dict[str, dict[str, Any]] = {
    ".google.protobuf.Struct": {
        "type": "object",
        "additionalProperties": True,
        "description": "A JSON object (google.protobuf.Struct) defined by the engine.",
    },
    ".google.protobuf.Timestamp": {"type": "string", "format": "date-time"},
    ".google.protobuf.Value": {"description": "A JSON value (google.protobuf.Value)."},
}


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
    authorization: str = "optional"  # "none" | "optional" | "required" | "operator"
    content_type: str = "application/json"
    stream_item: str | None = None  # message name of each line of a streamed response
    extra_responses: dict[str, str] = field(default_factory=dict)


@cache
def _file_descriptors() -> tuple[descriptor_pb2.FileDescriptorProto, ...]:
    """brass.v1's files (game_service.proto, pittsburgh.proto, ...)."""
    data = resources.files("brass_service.gen").joinpath("brass_v1_descriptor_set.binpb")
    file_set = descriptor_pb2.FileDescriptorSet.FromString(data.read_bytes())
    return tuple(f for f in file_set.file if f.package == "brass.v1")


def _comments(proto_file: descriptor_pb2.FileDescriptorProto) -> dict[tuple[int, ...], str]:
    return {
        tuple(location.path): " ".join(location.leading_comments.split())
        for location in proto_file.source_code_info.location
        if location.leading_comments
    }


def _file_schemas(proto_file: descriptor_pb2.FileDescriptorProto, schemas: dict[str, Any]
                  ) -> None:
    """Adds the schemas of one file's enums and messages."""
    comments = _comments(proto_file)
    for enum_index, enum in enumerate(proto_file.enum_type):
        names = [value.name for value in enum.value]
        values_doc = "; ".join(
            f"{value.name}: {comments.get((5, enum_index, 2, value_index), '')}".rstrip(": ")
            for value_index, value in enumerate(enum.value)
        )
        schemas[enum.name] = {
            "type": "string",
            "enum": names,
            "description": f"{comments.get((5, enum_index), '')} Values — {values_doc}".strip(),
        }
    for message_index, message in enumerate(proto_file.message_type):
        properties: dict[str, Any] = {}
        # map<string, V> fields are repeated nested *Entry messages: in JSON, an object
        maps = {f".brass.v1.{message.name}.{nested.name}": nested
                for nested in message.nested_type if nested.options.map_entry}
        for field_index, message_field in enumerate(message.field):
            if message_field.type_name in maps:
                value = maps[message_field.type_name].field[1]
                schema = {"type": "object", "additionalProperties": dict(
                    _WELL_KNOWN.get(value.type_name) or _SCALARS.get(value.type, {}))}
                description = comments.get((4, message_index, 2, field_index))
                if description:
                    schema["description"] = description
                properties[message_field.json_name] = schema
                continue
            if message_field.type == message_field.TYPE_MESSAGE:
                schema = dict(
                    _WELL_KNOWN.get(message_field.type_name)
                    or {"$ref": "#/components/schemas/" + message_field.type_name.split(".")[-1]}
                )
            elif message_field.type == message_field.TYPE_ENUM:
                schema = {"$ref": "#/components/schemas/" + message_field.type_name.split(".")[-1]}
            else:
                schema = dict(_SCALARS[message_field.type])
            if message_field.label == message_field.LABEL_REPEATED:
                schema = {"type": "array", "items": schema}
            description = comments.get((4, message_index, 2, field_index))
            if description:
                # $ref siblings are ignored in OpenAPI 3.0, so wrap it to keep the text.
                schema = (
                    {"allOf": [schema], "description": description}
                    if "$ref" in schema
                    else {**schema, "description": description}
                )
            properties[message_field.json_name] = schema
        schemas[message.name] = {
            "type": "object",
            "description": comments.get((4, message_index), ""),
            "properties": properties,
            "additionalProperties": False,
        }


def _schemas() -> dict[str, Any]:
    schemas: dict[str, Any] = {}
    for proto_file in _file_descriptors():
        _file_schemas(proto_file, schemas)
    schemas["Error"] = {
        "type": "object",
        "description": "Every error response: the google.rpc.Status JSON shape plus the reason.",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "status", "reason", "message"],
                "properties": {
                    "code": {"type": "integer", "description": "The HTTP status."},
                    "status": {"type": "string", "description": "The gRPC status code name."},
                    "reason": {
                        "type": "string",
                        "enum": all_reasons(),
                        "description": "Machine-readable reason (as in google.rpc.ErrorInfo).",
                    },
                    "message": {"type": "string", "description": "A human sentence."},
                    "details": {
                        "type": "array",
                        "items": {"type": "object", "additionalProperties": True},
                        "description": "A google.rpc.ErrorInfo with reason, domain, metadata.",
                    },
                },
            }
        },
    }
    return schemas


def _json_body(schema_name: str) -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema_name}"}}}


_ERROR_RESPONSES = {
    "400": "Invalid argument, illegal action or game over.",
    "401": "Missing or wrong seat token.",
    "403": "Not this seat's turn, or the operator token is needed.",
    "404": "Unknown game or ruleset.",
    "409": "Stale version, or idempotency key reused.",
    "413": "Request body too large.",
    "429": "Rate limited.",
    "500": "Server fault.",
    "503": "Store unavailable.",
}


_PATH_PARAMETERS = {
    "gameId": "The game id.",
    "ruleset": "A ruleset's name (birmingham) or Ruleset enum name (RULESET_BIRMINGHAM).",
    "name": "A file name of the web frontend (e.g. app.js).",
}


def build_openapi(routes: list[Route], server_url: str | None = None) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for route in routes:
        operation: dict[str, Any] = {
            "operationId": route.operation_id,
            "summary": route.summary,
            "responses": {},
        }
        parameters: list[dict[str, Any]] = []
        for name, description in _PATH_PARAMETERS.items():
            if "{" + name + "}" in route.path:
                parameters.append(
                    {
                        "name": name,
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                        "description": description,
                    }
                )
        for name, schema, description in route.query:
            location = "header" if name == "Last-Event-ID" else "query"
            parameters.append(
                {"name": name, "in": location, "required": False, "schema": schema,
                 "description": description}
            )
        if parameters:
            operation["parameters"] = parameters
        if route.request:
            operation["requestBody"] = {"required": True, "content": _json_body(route.request)}
        if route.authorization == "required":
            operation["security"] = [{"seatToken": []}]
        elif route.authorization == "operator":
            operation["security"] = [{"operatorToken": []}]
        elif route.authorization == "optional":
            operation["security"] = [{}, {"seatToken": []}]
        else:
            operation["security"] = []
        if route.response:
            ok: dict[str, Any] = {"description": "OK", "content": _json_body(route.response)}
        elif route.content_type == "text/event-stream":
            ok = {
                "description": (
                    "Server-Sent Events: each `update` event's `data` is a WatchGameResponse "
                    "in JSON and its `id` the version (send it back as Last-Event-ID)."
                ),
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
            }
        elif route.stream_item:
            ok = {
                "description": (
                    f"A stream of newline-delimited JSON (NDJSON): one {route.stream_item} "
                    "per line, sent as each is ready. A failure after the first line is a "
                    "last line holding an Error object instead."
                ),
                "content": {
                    route.content_type: {
                        "schema": {"$ref": f"#/components/schemas/{route.stream_item}"}
                    }
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
        else:
            ok = {
                "description": "OK",
                "content": {route.content_type: {"schema": {"type": "string"}}},
            }
        operation["responses"]["200"] = ok
        if route.operation_id not in ("Health", "Metrics", "OpenApi"):
            for status, description in _ERROR_RESPONSES.items():
                operation["responses"][status] = {
                    "description": description,
                    "content": _json_body("Error"),
                }
        paths.setdefault(route.path, {})[route.method.lower()] = operation
    document: dict[str, Any] = {
        "openapi": "3.0.3",
        "info": {
            "title": "Brass game service",
            "version": "1.0.0",
            "description": (
                "REST/JSON gateway of brass.v1.GameService. Bodies are the canonical proto3 "
                "JSON of the same messages as the gRPC API. Seat tokens travel as "
                "`Authorization: Bearer <token>`."
            ),
        },
        "paths": paths,
        "components": {
            "schemas": _schemas(),
            "securitySchemes": {
                "seatToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A seat token returned by CreateGame.",
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
