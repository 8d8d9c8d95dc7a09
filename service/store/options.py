"""A game's options as its row stores them: the ones that differ from the ruleset's defaults.

The engine's replay record names every option of the ruleset (Pittsburgh's 45 rulings make
1.7 KB of JSON a game, more than the rest of its row). Stored whole, that text filled the
store's pages and its page cache, and each row read back held its own 45-entry dict. The
row now keeps only the options set away from the defaults of the game's rules edition,
under the marker DEFAULTS_KEY, and a read puts the defaults back: callers still see every
option. The merged dicts are shared between rows with the same stored text, so they must
not be changed (no caller does: they are read, sent, or given to the engine).

Rows written before this keep their options whole (no marker): read as they are. A row
whose marker names a rules edition this engine does not have is refused as corrupt rather
than read with the wrong defaults.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import brass

from ..gen import game_service_pb2 as pb

DEFAULTS_KEY = "@defaults_of_edition"


@lru_cache(maxsize=8)
def _defaults(ruleset: int) -> tuple[int, dict[str, Any]] | None:
    """(rules edition, every option's default) of the engine's ruleset (None: no ruleset
    of the engine has that Ruleset value)."""
    try:
        name = pb.Ruleset.Name(ruleset).removeprefix("RULESET_").lower()
        engine = brass.get_ruleset(name)
    except (ValueError, brass.EngineError):
        return None
    return engine.rules_edition, {spec.name: spec.default for spec in engine.options}


def stored_options(ruleset: int, rules_edition: int, options: dict[str, Any]) -> str:
    """The options column's text: the options away from the defaults, with the marker
    (the whole dict, as before, for a ruleset or rules edition the engine does not have)."""
    known = _defaults(ruleset)
    if known is None or rules_edition != known[0]:
        return json.dumps(options, separators=(",", ":"))
    edition, defaults = known
    changed = {name: value for name, value in options.items()
               if name not in defaults or defaults[name] != value
               or type(defaults[name]) is not type(value)}
    return json.dumps({DEFAULTS_KEY: edition, **changed}, separators=(",", ":"))


@lru_cache(maxsize=256)
def options_of_row(ruleset: int, text: str) -> dict[str, Any]:
    """Every option of a row's game from its stored text (shared: not to be changed).
    ValueError when the text is not an object or names an edition this engine lacks."""
    stored = json.loads(text)
    if not isinstance(stored, dict):
        raise TypeError(f"dict expected, found {type(stored).__name__}")
    if DEFAULTS_KEY not in stored:
        return stored  # written whole, before the marker
    known = _defaults(ruleset)
    if known is None:
        raise ValueError(f"options stored against the defaults of ruleset {ruleset}, "
                         "which this engine does not have")
    edition, defaults = known
    marked = stored.pop(DEFAULTS_KEY)
    if marked != edition:
        raise ValueError(f"options stored against the defaults of rules edition {marked!r}; "
                         f"this engine has edition {edition}")
    return {**defaults, **stored}
