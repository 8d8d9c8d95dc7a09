"""The web frontend's files as `brass serve` serves them (no browser needed): `/` is the page,
`/web/<name>` its modules and styles, from memory, with a strict content security policy;
every module the page imports is served; nothing else is."""

from __future__ import annotations

import gzip
import http.client
import re
from importlib import resources

from service.helpers import ServerProcess

STATIC = resources.files("brass_service.api").joinpath("static")


def get(port: int, path: str, headers: dict[str, str] | None = None
        ) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers=headers or {})
        answer = conn.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        conn.close()


def static_names() -> list[str]:
    return sorted(entry.name for entry in STATIC.iterdir() if entry.is_file())


def test_the_page_and_its_files_are_served(web_server: ServerProcess) -> None:
    status, headers, body = get(web_server.http_port, "/")
    assert status == 200
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "no-referrer"
    assert b'<script type="module" src="/web/main.js"></script>' in body
    for name in static_names():
        status, headers, served = get(web_server.http_port, f"/web/{name}")
        assert status == 200, name
        assert served == STATIC.joinpath(name).read_bytes()
        assert headers["x-content-type-options"] == "nosniff"
    status, headers, _ = get(web_server.http_port, "/web/main.js")
    assert headers["content-type"] == "text/javascript; charset=utf-8"
    # revalidation: the same ETag gives 304 and no body
    status, _, body = get(web_server.http_port, "/web/main.js",
                          {"If-None-Match": headers["etag"]})
    assert (status, body) == (304, b"")


def test_only_the_packaged_files_exist(web_server: ServerProcess) -> None:
    for path in ("/web/nope.js", "/web/..%2Fweb.py", "/web/%2E%2E%2Fgames.py", "/web/",
                 "/index.html", "/web/app.css/x"):
        status, headers, body = get(web_server.http_port, path)
        assert status == 404, path
        assert b'"UNKNOWN_ROUTE"' in body


def test_every_module_the_page_imports_is_in_the_package() -> None:
    names = set(static_names())
    index = STATIC.joinpath("index.html").read_text(encoding="utf-8")
    referenced = set(re.findall(r'(?:src|href)="/web/([^"]+)"', index))
    assert referenced <= names
    # no inline script or style: the content security policy would refuse them
    assert not re.search(r"<script(?![^>]*\bsrc=)", index)
    assert "<style" not in index and " style=" not in index
    for name in names:
        if not name.endswith(".js"):
            continue
        text = STATIC.joinpath(name).read_text(encoding="utf-8")
        for module in re.findall(r"""from\s+['"]\./([^'"]+)['"]""", text):
            assert module in names, f"{name} imports ./{module}, which is not served"
        # nothing from the server or other players is ever parsed as markup
        assert "innerHTML" not in text and "insertAdjacentHTML" not in text, name
        assert "style:" not in text, f"{name}: inline styles are refused by the policy"


def test_bundle_size() -> None:
    """Prints the figure the issue asks for: the page's files, raw and gzipped."""
    raw = sum(len(STATIC.joinpath(n).read_bytes()) for n in static_names())
    packed = sum(len(gzip.compress(STATIC.joinpath(n).read_bytes(), 9)) for n in static_names())
    assert raw > 0
    print(f"web frontend: {len(static_names())} files, {raw / 1024:.1f} KiB "
          f"({packed / 1024:.1f} KiB gzipped)")
