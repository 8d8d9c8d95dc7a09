"""Schemathesis hooks for test_schemathesis.py (loaded by `st run` through SCHEMATHESIS_HOOKS).

The run's games and tokens arrive in BRASS_ST_FIXTURE (JSON, written by the test):

- every request carries the token its operation needs (the seat to act of the live game,
  the waiting game's host or seat token, the operator token), chosen per request;
- some of the schema-valid SubmitAction, PreviewAction and RunBatch requests are replaced
  by legal ones (a legal option at the current version; a one-game batch of random bots),
  so that the successful paths are exercised, not only the refusals;
- a schema-valid request refused with 400 must be refused by the rules or the game's state,
  never by the server's own checks of the schema (that would be the document and the server
  disagreeing).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
from typing import Any

import schemathesis

FIXTURE: dict[str, Any] = json.loads(os.environ.get("BRASS_ST_FIXTURE", "{}"))
_rng = random.Random(FIXTURE.get("seed", 0))

# Operations whose token is the live game's seat to act, and the waiting game's tokens.
_SEAT_TO_ACT = {"SubmitAction", "PreviewAction", "ListLegalActions", "GetGame", "UndoAction"}
_OPERATOR = {"RunBatch", "CreateGameFromPosition", "CreateGame", "ExportGames"}

# The server's checks of a request's shape (api/rest_parse.py, openapi.BodyValidator) word their
# refusals so: a request the document admits must never get one of these.
_SHAPE_REFUSAL = re.compile(
    r"^the body (does not fit|is not JSON|must be a JSON object)|must be an integer from"
    r"|must be true or false|is not a \w+ name$"
)


def _call(method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", FIXTURE["port"], timeout=30)
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        connection.request(method, path, json.dumps(body) if body is not None else None,
                           headers)
        return json.loads(connection.getresponse().read() or b"{}")
    finally:
        connection.close()


def _seat_to_act() -> tuple[int | None, str]:
    summary = _call("GET", f"/v1/games/{FIXTURE['live']}")["state"]["summary"]
    return summary.get("currentSeat"), summary["version"]


@schemathesis.auth(refresh_interval=None)
class GameTokens:
    """The token each operation needs, looked up for every request."""

    def get(self, case: Any, context: Any) -> str | None:
        operation = case.operation.definition.raw.get("operationId")
        if operation in _SEAT_TO_ACT:
            seat, _version = _seat_to_act()
            return FIXTURE["live_tokens"][seat if seat is not None else 0]
        if operation == "StartGame":
            return str(FIXTURE["host_token"])
        if operation in ("ReissueSeatToken", "RevokeSeatToken", "SetSeatBot"):
            return str(FIXTURE["reissue_host_token"])  # another game: voids no other's token
        if operation == "ResignGame":  # a game of its own: the live one goes on
            return str(FIXTURE["resign_token"])
        if operation == "LeaveGame":
            return str(FIXTURE["waiting_seat_token"])
        if operation in _OPERATOR:
            return str(FIXTURE["operator_token"])
        return None

    def set(self, case: Any, data: str | None, context: Any) -> None:
        if data is not None:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


def _is_positive(case: Any) -> bool:
    return case.meta is not None and case.meta.generation.mode.is_positive


@schemathesis.hook
def before_call(context: Any, case: Any, kwargs: dict[str, Any]) -> None:
    """Half of the schema-valid submissions and previews become a legal option at the
    current version; a third of the schema-valid batches a one-game batch of random bots,
    a third of the positions a real one, and a third of the seat-bot requests a random bot
    on the open seat."""
    if not _is_positive(case):
        return
    operation = case.operation.definition.raw.get("operationId")
    if operation in ("SubmitAction", "PreviewAction") and _rng.random() < 0.5:
        seat, version = _seat_to_act()
        if seat is None:
            return  # the game is over: the generated body gets GAME_OVER
        legal = _call("GET", f"/v1/games/{FIXTURE['live']}/actions",
                      FIXTURE["live_tokens"][seat])
        if not legal.get("options"):
            return
        _replace_body(case, kwargs, {"action": {"optionId": _rng.choice(legal["options"])["id"]},
                                     "expectedVersion": version})
        if "headers" in kwargs and kwargs["headers"] is not None:
            kwargs["headers"]["Authorization"] = f"Bearer {FIXTURE['live_tokens'][seat]}"
    elif operation == "RunBatch" and _rng.random() < 0.34:
        _replace_body(case, kwargs, {"players": 2, "bots": ["random"], "games": 1,
                                     "seed": str(_rng.randrange(99))})
    elif operation == "CreateGameFromPosition" and _rng.random() < 0.34:
        _replace_body(case, kwargs, {"positionJson": FIXTURE["position_json"]})
    elif operation == "SetSeatBot" and _rng.random() < 0.34:
        # the reissue game's open seat, and a bot the server plays
        _replace_body(case, kwargs, {"seat": FIXTURE["reissue_open_seat"], "bot": "random"})


def _replace_body(case: Any, kwargs: dict[str, Any], body: dict[str, Any]) -> None:
    case.body = body
    if "json" in kwargs:
        kwargs["json"] = body
    elif "data" in kwargs:
        kwargs["data"] = json.dumps(body)


@schemathesis.check
def schema_valid_requests_pass_the_shape_checks(ctx: Any, response: Any, case: Any) -> None:
    """A request the document admits is refused (400) only by the rules or the game's
    state, never by the server's checks of what the document states."""
    if not _is_positive(case) or response.status_code != 400:
        return
    try:
        error = json.loads(response.content)["error"]
    except (ValueError, KeyError, TypeError):
        raise AssertionError("a 400 answer without an error body") from None
    message = str(error.get("message", ""))
    if _SHAPE_REFUSAL.search(message):
        raise AssertionError(
            f"a schema-valid request was refused by a shape check: {error.get('reason')}: "
            f"{message[:300]}"
        )
