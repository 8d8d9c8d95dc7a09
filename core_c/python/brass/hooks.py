"""What the Python layer does differently per ruleset, as one small table of hooks per
ruleset (like the core's RULESETS[] of C functions): naming events, a preview's cost
breakdown, reading a position, describing the board. Each ruleset's module fills its
table (brass.birmingham.HOOKS, brass.pittsburgh.HOOKS); brass.registry looks them up by
name, so no other module tests a ruleset's name."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from brass.events import EventNamer, _name_event_values
from brass.rulesets import Ruleset

# (events, seat to act, result before, result after) -> the cost breakdown of a preview
PreviewCost = Callable[[list[dict[str, Any]], int, Any, Any], dict[str, Any]]
# (position dict, or its JSON text when given as text) -> a state of the ruleset
PositionReader = Callable[[dict[str, Any], "str | bytes | None"], Any]
# (ruleset, board data, layout) -> the board's problems / the board description
BoardCheck = Callable[[Ruleset, dict[str, Any], dict[str, Any]], list[str]]
BoardBuilder = Callable[[Ruleset, dict[str, Any], dict[str, Any]], dict[str, Any]]


def _no_cost(events: list[dict[str, Any]], actor: int, before: Any, after: Any
             ) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class RulesetHooks:
    """One ruleset's Python specifics."""

    name_event: EventNamer = _name_event_values
    preview_cost: PreviewCost = _no_cost
    read_position: PositionReader | None = None
    # the board: (data file, layout file) in the data directory, the decision kinds that
    # may offer an id by its name's prefix, the check against the engine, the builder
    board_files: tuple[str, str] | None = None
    board_decisions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    board_problems: BoardCheck | None = None
    build_board: BoardBuilder | None = None


# A ruleset of the core without a table here: events named from its action names, no
# cost breakdown, no position reader, no board.
NEUTRAL = RulesetHooks()
