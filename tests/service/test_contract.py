"""The contract itself: generated code is current, OpenAPI is complete and valid."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from openapi_spec_validator import validate

from brass_service.api.openapi import build_openapi
from brass_service.api.rest_routes import ROUTES
from brass_service.gen import game_service_pb2 as pb
from brass_service.tools import gen_proto

from .helpers import ServerProcess

# Lines that only name the generator's version: another grpcio-tools release may write
# other numbers there without the contract having changed.
_VERSION_LINE = re.compile(
    rb"^(# Protobuf Python Version:.*|GRPC_GENERATED_VERSION = .*|    \d+,)$", re.MULTILINE
)


def test_generated_code_is_current(tmp_path: Path) -> None:
    written = gen_proto.generate(tmp_path)
    for path in written:
        committed = gen_proto.GEN_DIR / path.name
        assert committed.exists(), (
            f"{path.name} is missing; run python -m brass_service.tools.gen_proto"
        )
        fresh, kept = path.read_bytes(), committed.read_bytes()
        if path.suffix == ".py":
            fresh, kept = _VERSION_LINE.sub(b"", fresh), _VERSION_LINE.sub(b"", kept)
        assert fresh == kept, (
            f"service/gen/{path.name} is stale; run python -m brass_service.tools.gen_proto"
        )


def test_every_enum_starts_with_unspecified() -> None:
    for enum in pb.DESCRIPTOR.enum_types_by_name.values():
        assert enum.values[0].number == 0
        assert enum.values[0].name.endswith("_UNSPECIFIED"), enum.name


def test_every_rpc_has_its_own_request_and_response() -> None:
    service = pb.DESCRIPTOR.services_by_name["GameService"]
    for method in service.methods:
        assert method.input_type.name == f"{method.name}Request", method.name
        if method.name != "CreateGameFromPosition":  # shares CreateGame's response
            assert method.output_type.name == f"{method.name}Response", method.name


def test_openapi_document_validates_and_covers_every_route() -> None:
    document = build_openapi(ROUTES)
    validate(document)
    for route in ROUTES:
        assert route.method.lower() in document["paths"][route.path], route
    schemas = document["components"]["schemas"]
    for message in pb.DESCRIPTOR.message_types_by_name:
        assert message in schemas
    # Comments from the .proto travel into the document.
    assert "seat to act" in schemas["GameSummary"]["properties"]["currentSeat"]["description"]


def test_served_openapi_document_validates(server: ServerProcess) -> None:
    document = server.rest().get("/openapi.json")
    validate(document)
    assert document["servers"] == [{"url": "/"}]  # whatever Host the client sent


def test_gen_proto_says_which_dev_tools_it_needs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without the dev extra, one sentence naming what is missing and how to install it
    (issue 23, item 8), not an ImportError's traceback; nothing is written."""
    import importlib.util

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "grpc_tools" else real_find_spec(name, *a))
    monkeypatch.setattr(sys, "executable", str(tmp_path / "bin" / "python"))
    assert gen_proto.main() == 2
    err = capsys.readouterr().err
    assert "grpcio-tools" in err and "pip install -e '.[dev]'" in err
