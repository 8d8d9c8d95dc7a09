"""EngineError, and the C core's error codes as its machine-readable codes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from brass._core import lib

if TYPE_CHECKING:
    from brass.rulesets import Ruleset


class EngineError(Exception):
    """A refused call. ``code`` is machine-readable; ``reason`` says why an action is illegal."""

    def __init__(self, code: str, message: str, reason: str | None = None,
                 field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.field = field

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "reason": self.reason, "message": self.message,
                "field": self.field}

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled with all its fields (the default would rebuild it from the message alone
        # and fail), so it crosses process pools intact.
        return type(self), (self.code, self.message, self.reason, self.field)


_ERRORS = {
    lib.BRASS_E_ILLEGAL: "ILLEGAL_ACTION",
    lib.BRASS_E_NOT_YOUR_TURN: "NOT_YOUR_TURN",
    lib.BRASS_E_GAME_OVER: "GAME_OVER",
    lib.BRASS_E_UNKNOWN_ACTION: "UNKNOWN_ACTION",
    lib.BRASS_E_BAD_SNAPSHOT: "BAD_SNAPSHOT",
    lib.BRASS_E_BAD_POSITION: "BAD_POSITION",
    lib.BRASS_E_BAD_ARGUMENT: "INVALID_ARGUMENT",
    lib.BRASS_E_BUFFER: "INTERNAL",
    # mismatches keep the codes callers know; the field ("ruleset", "rules_edition") and
    # the message say which
    lib.BRASS_E_WRONG_RULESET: "BAD_SNAPSHOT",
    lib.BRASS_E_WRONG_EDITION: "BAD_SNAPSHOT",
    lib.BRASS_E_CANNOT_UNDO: "CANNOT_UNDO",
    lib.BRASS_E_UNSUPPORTED: "UNSUPPORTED",
}


def engine_error(err: int, reason: int = 0, what: str = "", field: str | None = None, *,
                 rs: Ruleset) -> EngineError:
    """The EngineError of a core error code; `rs` names the reason of a refusal."""
    code = _ERRORS.get(err, "INTERNAL")
    if err == lib.BRASS_E_ILLEGAL:
        msg = f"{what} is not legal now: {rs.reason_message(reason)}"
        return EngineError(code, msg, rs.reason_name(reason), field)
    if err == lib.BRASS_E_CANNOT_UNDO:
        return EngineError(code, f"nothing can be undone: {rs.reason_message(reason)}",
                           rs.reason_name(reason), field)
    messages = {
        "NOT_YOUR_TURN": f"it is not this seat's turn ({what})",
        "GAME_OVER": "the game is over",
        "UNKNOWN_ACTION": f"{what} is outside the action space 0..{rs.num_actions - 1}",
        "BAD_SNAPSHOT": "snapshot bytes are corrupt, truncated or from another format",
        "BAD_POSITION": f"invalid position: {field or what}",
        "INVALID_ARGUMENT": f"invalid argument: {what}",
    }
    return EngineError(code, messages.get(code, f"internal error {err}"), None, field)
