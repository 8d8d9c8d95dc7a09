"""Birmingham's names of its action space and decisions, for its position reader, event
namer, bots and tests (not the neutral API: `Ruleset.names_with` gives any ruleset's)."""

from __future__ import annotations

from brass.rulesets import RULESETS

_BHAM = RULESETS["birmingham"]
INDUSTRIES = _BHAM.names_with("industry")
ACTION_TYPES = _BHAM.names_with("type")
ERAS = ("canal", "rail")
BONUS_KINDS = ("money", "vp", "income_spaces", "develop")
CARD_NAMES = _BHAM.names_with("card")
SLOT_NAMES = _BHAM.names_with("slot")
LINK_NAMES = _BHAM.names_with("link")
SPACE_NAMES = _BHAM.names_with("merchant")
PHASE_NAMES = _BHAM.decision_names
