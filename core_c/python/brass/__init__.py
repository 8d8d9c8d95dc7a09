"""Python engine API over the Brass C core (see docs/ENGINE_API.md).

Every rule lives in C (`brass._core`); this module only moves data in and out.
"""

from __future__ import annotations

from brass.engine import (
    NUM_DISTINCT_ACTIONS,
    OBSERVATION_SIZE,
    RULES_EDITION,
    Compound,
    EngineError,
    Game,
    GameBatch,
    Option,
    action_name,
    json_to_struct_bytes,
    random_playouts,
)

__all__ = [
    "NUM_DISTINCT_ACTIONS",
    "OBSERVATION_SIZE",
    "RULES_EDITION",
    "Compound",
    "EngineError",
    "Game",
    "GameBatch",
    "Option",
    "action_name",
    "json_to_struct_bytes",
    "random_playouts",
]
