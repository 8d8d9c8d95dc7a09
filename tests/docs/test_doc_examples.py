"""Every ```python block of the README and docs/ runs (docs are tested).

A block is run on its own, in a fresh namespace, in a temporary working directory. A block
that talks to a server (it names 127.0.0.1:50051 or 127.0.0.1:8080, the defaults of
`brass serve`) runs against a real server on free loopback ports, the addresses swapped in.
Listings that are not meant to run use a ```text fence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```", re.S | re.M)
GRPC_DEFAULT, HTTP_DEFAULT = "127.0.0.1:50051", "127.0.0.1:8080"
# The docs' server has an operator token; examples read it from BRASS_OPERATOR_TOKEN.
DOCS_OPERATOR_TOKEN = "docs-operator-token"


def _examples() -> Iterator[pytest.param]:
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            yield pytest.param(doc, match.group(1), id=f"{doc.relative_to(ROOT)}:{line}")


EXAMPLES = list(_examples())


def test_the_docs_have_examples() -> None:
    assert len(EXAMPLES) >= 4  # README, ENGINE_API, SERVICE, BOTS at least


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    from service.helpers import ServerProcess  # tests/ is on the path, as for tests/load

    proc = ServerProcess(tmp_path_factory.mktemp("docs-server"),
                         env={"BRASS_OPERATOR_TOKEN": DOCS_OPERATOR_TOKEN,
                              # docs/WEBHOOKS.md's receiver listens on loopback
                              "BRASS_WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8",
                              "BRASS_WEBHOOK_POLL_SECONDS": "0.1"})
    proc.start()
    yield proc
    proc.stop()


@pytest.mark.parametrize(("doc", "code"), EXAMPLES)
def test_doc_example_runs(doc: Path, code: str, request: pytest.FixtureRequest,
                          tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if GRPC_DEFAULT in code or HTTP_DEFAULT in code:
        server = request.getfixturevalue("server")
        code = code.replace(GRPC_DEFAULT, server.grpc_target)  # type: ignore[attr-defined]
        code = code.replace(HTTP_DEFAULT, f"127.0.0.1:{server.http_port}")  # type: ignore[attr-defined]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BRASS_OPERATOR_TOKEN", DOCS_OPERATOR_TOKEN)
    exec(compile(code, f"{doc.name} example", "exec"), {"__name__": "doc_example"})
