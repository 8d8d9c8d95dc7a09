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

REPO_ROOT = Path(__file__).resolve().parents[2]
PROTO_ROOT = REPO_ROOT / "proto"
GEN_DIR = Path(__file__).resolve().parents[1] / "gen"  # service/gen
PROTO_FILES = sorted(
    p.relative_to(PROTO_ROOT).as_posix() for p in PROTO_ROOT.glob("brass/v1/*.proto")
)

DESCRIPTOR_SET_NAME = "brass_v1_descriptor_set.binpb"
# nanopb's C code for the view messages the C core encodes itself (their sizes in the
# options file of the same name): core_c/src/birmingham/bham_view_proto.c,
# core_c/src/pittsburgh/pgh_view_proto.c.
NANOPB_DIR = REPO_ROOT / "core_c" / "nanopb"
NANOPB_PROTOS = ("brass/v1/birmingham.proto", "brass/v1/pittsburgh.proto")
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


def generate_nanopb(out_dir: Path) -> list[Path]:
    """Runs protoc with nanopb's generator plugin (the `nanopb` package of the dev extra):
    out_dir/brass/v1/<name>.pb.c and .pb.h for each of NANOPB_PROTOS."""
    import grpc_tools
    from grpc_tools import protoc

    plugin = Path(sys.executable).parent / "protoc-gen-nanopb"
    include = Path(grpc_tools.__file__).parent / "_proto"
    written = []
    for proto in NANOPB_PROTOS:
        options = NANOPB_DIR / (Path(proto).stem + ".options")
        args = [
            "protoc",
            f"-I{PROTO_ROOT}",
            f"-I{include}",
            f"--plugin=protoc-gen-nanopb={plugin}",
            f"--nanopb_out=-f{options}:{out_dir}",
            proto,
        ]
        if protoc.main(args) != 0:
            raise RuntimeError(f"protoc with nanopb's plugin failed on {proto}")
        stem = out_dir / proto.removesuffix(".proto")
        written += [stem.with_suffix(".pb.c"), stem.with_suffix(".pb.h")]
    return written


def missing_tools() -> list[str]:
    """What of the dev extra this needs is not installed (protoc from grpcio-tools, nanopb's
    protoc plugin beside the interpreter), so that a missing one is one sentence, not a
    traceback."""
    missing = []
    if importlib.util.find_spec("grpc_tools") is None:
        missing.append("grpcio-tools (protoc)")
    if not (Path(sys.executable).parent / "protoc-gen-nanopb").exists():
        missing.append(f"nanopb (protoc-gen-nanopb beside {sys.executable})")
    return missing


def main() -> int:
    missing = missing_tools()
    if missing:
        print(f"gen_proto needs the dev extra, which is not installed: {', '.join(missing)}. "
              f"Install it with: {sys.executable} -m pip install -e '.[dev]'", file=sys.stderr)
        return 2
    for path in generate_nanopb(NANOPB_DIR):
        print(path.relative_to(REPO_ROOT))
    for path in generate(GEN_DIR):
        print(path.relative_to(REPO_ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
