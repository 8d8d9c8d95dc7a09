"""TypeScript types generated from the served /openapi.json type-check a small frontend client.

openapi-typescript (pinned by tests/contract/ts/package-lock.json, installed by `npm ci` in
.ci/run) writes the types; `tsc --noEmit` checks tests/contract/ts/client.ts against them.
Skipped loudly when node, npm or the installed packages are missing.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from service.helpers import ServerProcess, rest_once, skip_loudly

TS_DIR = Path(__file__).resolve().parent / "ts"
pytestmark = pytest.mark.xdist_group("typescript")  # one generated directory

BIN = TS_DIR / "node_modules" / ".bin"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("typescript"), name="typescript")
    proc.start()
    yield proc
    proc.stop()


def _tools() -> None:
    if shutil.which("node") is None or shutil.which("npm") is None:
        skip_loudly("NODE/NPM MISSING: the TypeScript contract check (openapi-typescript + "
                    "tsc) did NOT run")
    if not (BIN / "openapi-typescript").exists() or not (BIN / "tsc").exists():
        skip_loudly(f"NPM PACKAGES NOT INSTALLED (run `npm ci` in {TS_DIR}): the TypeScript "
                    "contract check did NOT run")


def test_generated_types_type_check_the_client(server: ServerProcess) -> None:
    _tools()
    status, document = rest_once(server.http_port, "GET", "/openapi.json")
    assert status == 200
    generated = TS_DIR / "generated"
    generated.mkdir(exist_ok=True)
    (generated / "openapi.json").write_text(json.dumps(document))
    run = subprocess.run(
        [str(BIN / "openapi-typescript"), str(generated / "openapi.json"),
         "-o", str(generated / "api.d.ts")],
        cwd=TS_DIR, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    types = (generated / "api.d.ts").read_text()
    # the contract's own names are there, typed (not free-form objects)
    assert "SubmitActionRequest: {" in types and "WatchEvent:" in types
    assert "undoSteps: number;" in types and "idempotencyKey?: string;" in types
    checked = subprocess.run([str(BIN / "tsc"), "-p", str(TS_DIR)], cwd=TS_DIR,
                             capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr


# (a field the client reads, the same read of a field the contract does not have): an
# option's name, a seat view's money (the view is typed, not free-form), a build event's
# slot (the event catalogue), the undo route's answer
WRONG_FIELDS = [("option.name", "option.title"), ("player.money", "player.cash"),
                ("build.slot", "build.place"), ("back.replayed", "back.repeated")]


@pytest.mark.parametrize(("right", "wrong_field"), WRONG_FIELDS)
def test_a_wrong_field_fails_the_type_check(server: ServerProcess, tmp_path: Path,
                                            right: str, wrong_field: str) -> None:
    """The check can fail: a client reading a field the contract does not have is refused."""
    _tools()
    if not (TS_DIR / "generated" / "api.d.ts").exists():
        test_generated_types_type_check_the_client(server)
    client = (TS_DIR / "client.ts").read_text()
    assert right in client
    wrong = client.replace(right, wrong_field)
    # a file of its own per case: a shared one was once checked holding another case's text
    wrong_file = TS_DIR / "generated" / f"wrong-{wrong_field.replace('.', '-')}.ts"
    wrong_file.write_text(wrong.replace('from "./generated/api"', 'from "./api"'))
    checked = subprocess.run(
        [str(BIN / "tsc"), "--noEmit", "--strict", "--target", "ES2022", "--module", "ES2022",
         "--moduleResolution", "bundler", "--lib", "ES2022,DOM", "--skipLibCheck",
         str(wrong_file)],
        cwd=TS_DIR, capture_output=True, text=True, timeout=300,
    )
    wrong_file.unlink()
    assert checked.returncode != 0 and wrong_field.split(".")[1] in checked.stdout, \
        checked.stdout
