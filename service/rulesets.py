"""GetRuleset: the engine's description of a ruleset (brass.board) as brass.v1 messages.

The answer is the same for every caller and never changes while the server runs, so each
ruleset's reply (protobuf bytes and REST JSON text) is built once, on first use, and
served from memory after that.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from google.protobuf import json_format

from brass import EngineError
from brass.board import describe_ruleset

from .errors import ServiceError
from .gen import game_service_pb2 as pb
from .i18n.labels import ruleset_labels
from .views.reply import Reply

_PREFIX = "RULESET_"


def engine_name(ruleset: int) -> str:
    """The engine's name of a set Ruleset value."""
    try:
        return pb.Ruleset.Name(ruleset).removeprefix(_PREFIX).lower()
    except ValueError:
        raise ServiceError("UNKNOWN_RULESET", f"ruleset {ruleset} is not a Ruleset value",
                           field="ruleset") from None


def parse_ruleset(text: str) -> int:
    """A REST path's ruleset: its engine name ("birmingham") or its enum name."""
    name = text.upper()
    if not name.startswith(_PREFIX):
        name = _PREFIX + name
    if name == "RULESET_UNSPECIFIED" or name not in pb.Ruleset.keys():
        raise ServiceError("UNKNOWN_RULESET", f"no ruleset {text[:64]!r}; known: "
                           + ", ".join(n.removeprefix(_PREFIX).lower()
                                       for n in pb.Ruleset.keys()[1:]), field="ruleset")
    return pb.Ruleset.Value(name)


def _option(o: dict[str, Any]) -> pb.OptionInfo:
    info = pb.OptionInfo(key=o["key"], type=o["type"], description=o["description"])
    if o["type"] == "bool":
        info.default_bool = bool(o["default"])
        info.allowed_bools.extend(o["allowed"])
    elif o["type"] == "int":
        info.default_int = int(o["default"])
        info.allowed_ints.extend(o["allowed"])
        if o["min"] is not None:
            info.min, info.max = o["min"], o["max"]
    else:
        info.default_enum = str(o["default"])
        info.allowed_enums.extend(str(v) for v in o["allowed"])
    return info


def to_message(ruleset: int, d: dict[str, Any]) -> pb.RulesetDescription:
    """The description (brass.board.describe_ruleset's dict) as its message."""
    message = pb.RulesetDescription(
        ruleset=ruleset, name=d["ruleset"], title=d["title"], rules_edition=d["rules_edition"],
        min_players=d["players"]["min"], max_players=d["players"]["max"],
        provisional=d["provisional"], placeholders=d["placeholders"],
        options=[_option(o) for o in d["options"]], decision_kinds=d["decision_kinds"],
        actions=[pb.ActionInfo(**a) for a in d["actions"]],
        reasons=[pb.ReasonInfo(**r) for r in d["reasons"]],
        labels={language: pb.RulesetLabels(**tables)
                for language, tables in ruleset_labels(d).items()},
    )
    board = d.get("board")
    if board is not None:
        box, rest = board["view_box"], {k: v for k, v in board.items() if k != "view_box"}
        # the description's keys are Board's field names: parsed strictly, nothing dropped
        json_format.ParseDict({**rest, "view_width": box["width"], "view_height": box["height"]},
                              message.board, ignore_unknown_fields=False)
    return message


@cache
def _reply(ruleset: int) -> Reply:
    name = engine_name(ruleset)
    try:
        description = describe_ruleset(name)
    except EngineError as exc:  # a Ruleset value this engine does not play (yet)
        raise ServiceError("UNKNOWN_RULESET", f"this server's engine has no ruleset {name!r}: "
                           f"{exc.message}", field="ruleset") from None
    response = pb.GetRulesetResponse(ruleset=to_message(ruleset, description))
    reply = Reply(pb.GetRulesetResponse, message=response, data=response.SerializeToString())
    text = reply.to_json_text()
    return Reply(pb.GetRulesetResponse, data=reply.to_bytes(), message=response,
                 json_text=lambda: text)


async def get_ruleset(request: pb.GetRulesetRequest) -> Reply:
    """GetRuleset's answer (built once per ruleset, then the same object every time);
    unset means Birmingham, as in CreateGame."""
    return _reply(request.ruleset or pb.RULESET_BIRMINGHAM)
