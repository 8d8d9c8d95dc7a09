"""Python engine API over the Brass C core (see docs/ENGINE_API.md, docs/RULESETS.md).

Every rule lives in C (`brass._core`); this package only moves data in and out. Nothing
in its neutral modules is one ruleset's: sizes, editions, options and names come from
`get_ruleset(name)`, and each ruleset's Python specifics from its table of hooks
(brass.hooks, brass.registry).
"""

from __future__ import annotations

from brass import engine  # noqa: F401  the old import path (brass.engine.X), one release
from brass.batch import GameBatch
from brass.errors import EngineError
from brass.game import UNDO, Compound, Game, Option
from brass.playouts import random_playouts
from brass.rulesets import DEFAULT_RULESET, OptionSpec, Ruleset, action_name, get_ruleset, rulesets

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
