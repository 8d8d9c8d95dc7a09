"""Regenerates the Python code of proto/brass/v1 into service/gen.

Run `python -m brass_service.tools.gen_proto` after editing a .proto file; a test checks
that the committed code is current. The generated modules import each other relatively, so they
live inside brass_service and never clash with the engine's `brass` package.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
PROTO_ROOT = REPO_ROOT / "proto"
GEN_DIR = Path(__file__).resolve().parents[1] / "gen"  # service/gen
PROTO_FILES = sorted(
    p.relative_to(PROTO_ROOT).as_posix() for p in PROTO_ROOT.glob("brass/v1/*.proto")
)

DESCRIPTOR_SET_NAME = "brass_v1_descriptor_set.binpb"
# The field numbers and kinds of the view messages the C core writes itself in protobuf
# binary (core_c/src/common/proto_writer.h; core_c/src/birmingham/bham_view_proto.c,
# core_c/src/pittsburgh/pgh_view_proto.c), one header per ruleset: its view message and
# every message it holds.
VIEW_FIELD_HEADERS = {
    "BirminghamView": REPO_ROOT / "core_c" / "src" / "birmingham" / "bham_view_fields.h",
    "PittsburghView": REPO_ROOT / "core_c" / "src" / "pittsburgh" / "pgh_view_fields.h",
}
_ABSOLUTE_IMPORT = re.compile(r"^from brass\.v1 import (\w+)", re.MULTILINE)


def generate(out_dir: Path) -> list[Path]:
    """Runs protoc (from grpcio-tools) and writes flat, relatively-importing modules."""
    import grpc_tools
    from google.api import field_behavior_pb2
    from grpc_tools import protoc

    include = Path(grpc_tools.__file__).parent / "_proto"
    # google/api/field_behavior.proto, shipped with googleapis-common-protos
    googleapis = Path(field_behavior_pb2.__file__).parent.parent.parent
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        args = [
            "protoc",
            f"-I{PROTO_ROOT}",
            f"-I{include}",
            f"-I{googleapis}",
            f"--python_out={tmp}",
            f"--pyi_out={tmp}",
            f"--grpc_python_out={tmp}",
            # Comments travel in the descriptor set; the OpenAPI document is built from it.
            f"--descriptor_set_out={tmp}/{DESCRIPTOR_SET_NAME}",
            "--include_source_info",
            *PROTO_FILES,
        ]
        if protoc.main(args) != 0:
            raise RuntimeError("protoc failed on " + ", ".join(PROTO_FILES))
        written = []
        for produced in sorted((Path(tmp) / "brass" / "v1").iterdir()):
            text = _ABSOLUTE_IMPORT.sub(r"from . import \1", produced.read_text())
            target = out_dir / produced.name
            target.write_text(text)
            written.append(target)
        descriptor_set = out_dir / DESCRIPTOR_SET_NAME
        descriptor_set.write_bytes((Path(tmp) / DESCRIPTOR_SET_NAME).read_bytes())
        written.append(descriptor_set)
    init = out_dir / "__init__.py"
    init.write_text('"""Generated protobuf and gRPC code for brass.v1 (do not edit)."""\n')
    written.append(init)
    return written


# A field's kind as proto_writer.h names it, by (type, label), then for maps and proto3
# `optional` (explicit presence); a kind not here makes the generator fail, not guess.
_SCALAR_KINDS = {"TYPE_INT32": "INT32", "TYPE_BOOL": "BOOL", "TYPE_STRING": "STRING",
                 "TYPE_ENUM": "ENUM", "TYPE_MESSAGE": "MESSAGE"}
_OPTIONAL_KINDS = {"INT32", "STRING", "ENUM"}
_REPEATED_KINDS = {"INT32", "STRING", "MESSAGE"}
_MAP_VALUE_KINDS = {"INT32", "STRING", "MESSAGE"}


def _messages_by_name(descriptor_set: bytes) -> dict[str, Any]:
    """Every message of the set (nested ones too) by its full name, with a leading dot."""
    from google.protobuf import descriptor_pb2

    files = descriptor_pb2.FileDescriptorSet.FromString(descriptor_set).file
    found: dict[str, Any] = {}

    def walk(prefix: str, messages: Any) -> None:
        for message in messages:
            name = f"{prefix}.{message.name}"
            found[name] = message
            walk(name, message.nested_type)

    for file in files:
        walk(f".{file.package}" if file.package else "", file.message_type)
    return found


def _field_kind(field: Any, messages: dict[str, Any]) -> tuple[str, str | None]:
    """A field's proto_writer.h kind, and the message it holds (None for scalars)."""
    from google.protobuf import descriptor_pb2

    fdp = descriptor_pb2.FieldDescriptorProto
    type_name = fdp.Type.Name(field.type)
    if type_name not in _SCALAR_KINDS:
        raise ValueError(f"{field.name}: {type_name} has no writer in proto_writer.h")
    kind = _SCALAR_KINDS[type_name]
    held = field.type_name if field.type == fdp.TYPE_MESSAGE else None
    if held is not None and messages[held].options.map_entry:
        key, value = messages[held].field
        key_kind = _field_kind(key, messages)[0].removeprefix("PROTO_")
        value_kind, value_held = _field_kind(value, messages)
        value_kind = value_kind.removeprefix("PROTO_")
        if key_kind != "STRING" or value_kind not in _MAP_VALUE_KINDS:
            raise ValueError(f"{field.name}: only map<string, int32|string|message>")
        return f"PROTO_MAP_STRING_{value_kind}", value_held
    if field.label == fdp.LABEL_REPEATED:
        if kind not in _REPEATED_KINDS:
            raise ValueError(f"{field.name}: repeated {kind} has no writer")
        return f"PROTO_REPEATED_{kind}", held
    if field.proto3_optional:
        if kind not in _OPTIONAL_KINDS:
            raise ValueError(f"{field.name}: optional {kind} has no writer")
        return f"PROTO_OPTIONAL_{kind}", held
    return f"PROTO_{kind}", held


def view_fields_header(descriptor_set: bytes, view: str) -> str:
    """The C header of `view` (a brass.v1 message) and every message it holds: for each
    field, brass_v1_<Message>_<field>_tag (its number) and _kind (proto_writer.h's PROTO_*),
    messages in the order they are first reached, fields in number order."""
    messages = _messages_by_name(descriptor_set)
    order, pending = [], [f".brass.v1.{view}"]
    while pending:
        name = pending.pop(0)
        if name in order:
            continue
        order.append(name)
        message = messages[name]
        pending += [f"{name}.{nested.name}" for nested in message.nested_type
                    if not nested.options.map_entry]
        pending += [held for field in message.field
                    if (held := _field_kind(field, messages)[1]) is not None]
    guard = f"BRASS_V1_{view.upper()}_FIELDS_H"
    lines = [f"/* brass.v1.{view}'s field numbers and kinds (common/proto_writer.h), from",
             "   proto/brass/v1: generated by `python -m brass_service.tools.gen_proto`, do not",
             "   edit (tests/service/test_view_fields.py checks it is current). */",
             f"#ifndef {guard}", f"#define {guard}", ""]
    for name in order:
        c_name = name.removeprefix(".").replace(".", "_")
        lines.append(f"/* {name.removeprefix('.')} */")
        for field in sorted(messages[name].field, key=lambda f: f.number):
            kind = _field_kind(field, messages)[0]
            lines.append(f"#define {c_name}_{field.name}_tag {field.number}")
            lines.append(f"#define {c_name}_{field.name}_kind {kind}")
        lines.append("")
    lines.append("#endif")
    return "\n".join(lines) + "\n"


def generate_view_fields(descriptor_set: bytes) -> dict[Path, str]:
    """Each ruleset's header of field numbers, by the path it is committed at."""
    return {path: view_fields_header(descriptor_set, view)
            for view, path in VIEW_FIELD_HEADERS.items()}


def missing_tools() -> list[str]:
    """What of the dev extra this needs is not installed (protoc from grpcio-tools), so
    that a missing one is one sentence, not a traceback."""
    missing = []
    if importlib.util.find_spec("grpc_tools") is None:
        missing.append("grpcio-tools (protoc)")
    return missing


def main() -> int:
    missing = missing_tools()
    if missing:
        print(f"gen_proto needs the dev extra, which is not installed: {', '.join(missing)}. "
              f"Install it with: {sys.executable} -m pip install -e '.[dev]'", file=sys.stderr)
        return 2
    for path in generate(GEN_DIR):
        print(path.relative_to(REPO_ROOT))
    descriptor_set = (GEN_DIR / DESCRIPTOR_SET_NAME).read_bytes()
    for path, text in generate_view_fields(descriptor_set).items():
        path.write_text(text)
        print(path.relative_to(REPO_ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
