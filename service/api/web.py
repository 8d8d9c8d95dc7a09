"""The reference web frontend: static files inside the package, served at `/` and `/web/`.

The page is plain ES modules, SVG and CSS with no build step (service/api/static/); the server
reads every file once, when the app is made, and answers from memory, so a request never
touches the filesystem and only the listed names exist (no path is ever joined from a
request). Seat tokens travel in the URL's fragment, which browsers never send.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources

from aiohttp import web

_CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
}

# The page talks to this origin only, runs only its own scripts, and is never framed.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


@dataclass(frozen=True)
class StaticFile:
    body: bytes
    content_type: str
    etag: str


def load_static_files() -> dict[str, StaticFile]:
    """Every file of brass_service/api/static by its name (the folder is flat)."""
    files: dict[str, StaticFile] = {}
    for entry in resources.files("brass_service.api").joinpath("static").iterdir():
        name = entry.name
        suffix = name[name.rfind("."):] if "." in name else ""
        if not entry.is_file() or suffix not in _CONTENT_TYPES:
            continue
        body = entry.read_bytes()
        files[name] = StaticFile(body, _CONTENT_TYPES[suffix],
                                 '"' + hashlib.sha256(body).hexdigest()[:20] + '"')
    return files


class WebApp:
    """Handlers for `/` (index.html) and `/web/{name}` (the page's other files)."""

    def __init__(self) -> None:
        self.files = load_static_files()

    def _answer(self, request: web.Request, name: str) -> web.Response:
        found = self.files.get(name)
        if found is None:
            raise web.HTTPNotFound()
        # no-cache: the browser revalidates (a 304 costs a round trip, never a stale page
        # after an upgrade)
        headers = {**SECURITY_HEADERS, "ETag": found.etag, "Cache-Control": "no-cache"}
        if request.headers.get("If-None-Match") == found.etag:
            return web.Response(status=304, headers=headers)
        return web.Response(body=found.body, headers={**headers,
                                                      "Content-Type": found.content_type})

    async def index(self, request: web.Request) -> web.Response:
        return self._answer(request, "index.html")

    async def asset(self, request: web.Request) -> web.Response:
        return self._answer(request, request.match_info["name"])
