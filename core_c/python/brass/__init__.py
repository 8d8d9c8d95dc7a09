"""Python engine API over the Brass C core (see docs/ENGINE_API.md, docs/RULESETS.md).

Every rule lives in C (`brass._core`); this module only moves data in and out. Nothing
here is one ruleset's: sizes, editions, options and names come from `get_ruleset(name)`.
"""

from __future__ import annotations

from brass.engine import (
    DEFAULT_RULESET,
    UNDO,
    Compound,
    EngineError,
    Game,
    GameBatch,
    Option,
    OptionSpec,
    Ruleset,
    action_name,
    get_ruleset,
    random_playouts,
    rulesets,
)

__all__ = [
    "DEFAULT_RULESET",
    "UNDO",
    "Compound",
    "EngineError",
    "Game",
    "GameBatch",
    "Option",
    "OptionSpec",
    "Ruleset",
    "action_name",
    "get_ruleset",
    "random_playouts",
    "rulesets",
]
