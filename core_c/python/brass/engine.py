"""The old import path of the engine API, kept for one release (bots, tests and users import
`LINK_NAMES`, `CARD_NAMES`, `id_of`, `meaning`... from here). New code imports from the
modules of each concern (docs/ENGINE_API.md, "Modules"): brass.game, brass.batch,
brass.rulesets, brass.errors, brass.birmingham_names, brass.playouts and so on."""

from __future__ import annotations

from brass._core import ffi, lib
from brass.args import (
    _INT32_MAX,
    _SEED_MASK,
    MAX_BATCH,
    MAX_COMPOUND_LIMIT,
    _c_options,
    _deal_seed,
    _integer,
    _is_integer,
    _json_value,
    _seed,
    _value_name,
)
from brass.batch import GameBatch, _unpickle_batch
from brass.birmingham import name_event as _name_birmingham_event
from brass.birmingham_names import (
    _BHAM,
    ACTION_TYPES,
    BONUS_KINDS,
    CARD_NAMES,
    ERAS,
    INDUSTRIES,
    LINK_NAMES,
    PHASE_NAMES,
    SLOT_NAMES,
    SPACE_NAMES,
)
from brass.errors import _ERRORS, EngineError
from brass.events import _NAMED_FIELDS, _name_event_values, _prefix_names
from brass.game import UNDO, Compound, Game, Option, _unpickle_game
from brass.playouts import PLAYOUT_POLICIES, _policy, random_playouts
from brass.rulesets import (
    _ACTION_IDS,
    _BY_ID,
    DEFAULT_RULESET,
    RULESETS,
    OptionSpec,
    Ruleset,
    _action_id,
    _id_list,
    _load_ruleset,
    _raise,
    _ruleset_of,
    _text,
    action_name,
    get_ruleset,
    id_of,
    meaning,
    rulesets,
)
from brass.states import _snapshot_of
from brass.views import (
    KEY_STYLES,
    POSITION_FORMAT,
    _json_buffer,
    _new_uncleared,
    _position_of,
    _view_json,
    _view_proto,
)

_NONE = lib.BRASS_NONE

__all__ = [
    "ACTION_TYPES", "BONUS_KINDS", "CARD_NAMES", "DEFAULT_RULESET", "ERAS", "INDUSTRIES",
    "KEY_STYLES", "LINK_NAMES", "MAX_BATCH", "MAX_COMPOUND_LIMIT", "PHASE_NAMES",
    "PLAYOUT_POLICIES", "POSITION_FORMAT", "RULESETS", "SLOT_NAMES", "SPACE_NAMES", "UNDO",
    "_ACTION_IDS", "_BHAM", "_BY_ID", "_ERRORS", "_INT32_MAX", "_NAMED_FIELDS", "_NONE",
    "_SEED_MASK", "Compound", "EngineError", "Game", "GameBatch", "Option", "OptionSpec",
    "Ruleset", "_action_id", "_c_options", "_deal_seed", "_id_list", "_integer",
    "_is_integer", "_json_buffer", "_json_value", "_load_ruleset", "_name_birmingham_event",
    "_name_event_values", "_new_uncleared", "_policy", "_position_of", "_prefix_names",
    "_raise", "_ruleset_of", "_seed", "_snapshot_of", "_text", "_unpickle_batch",
    "_unpickle_game", "_value_name", "_view_json", "_view_proto", "action_name", "ffi",
    "get_ruleset", "id_of", "lib", "meaning", "random_playouts", "rulesets",
]
