"""Each ruleset's table of hooks by ruleset name (brass.hooks; the core's RULESETS[])."""

from __future__ import annotations

from brass import birmingham, pittsburgh
from brass.hooks import NEUTRAL, PositionReader, RulesetHooks
from brass.rulesets import DEFAULT_RULESET

HOOKS: dict[str, RulesetHooks] = {"birmingham": birmingham.HOOKS,
                                  "pittsburgh": pittsburgh.HOOKS}


def hooks_of(name: str) -> RulesetHooks:
    """The ruleset's hooks (NEUTRAL for a ruleset of the core without a table here)."""
    return HOOKS.get(name, NEUTRAL)


def position_reader(ruleset: object) -> PositionReader:
    """The reader of a position whose "ruleset" member is `ruleset`: that ruleset's, else
    the default ruleset's (whose reader names what is wrong with the member)."""
    hooks = HOOKS.get(ruleset) if isinstance(ruleset, str) else None
    reader = hooks.read_position if hooks is not None else None
    if reader is None:
        reader = HOOKS[DEFAULT_RULESET].read_position
        assert reader is not None
    return reader
