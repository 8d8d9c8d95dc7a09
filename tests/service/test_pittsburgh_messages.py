"""Pittsburgh's documents fit their messages (proto/brass/v1/pittsburgh.proto) exactly.

Over random Pittsburgh games of 2, 3 and 4 players through the Python engine, every view
(each seat, a spectator, the full position), every event, every option meaning and every
preview (events, cost breakdown, view) parses strictly into its message (an unknown key
fails) and prints back to the same document, so the messages neither drop nor invent a
field. Every event kind of the engine is in the catalogue and occurs: in these games, or,
for the kinds random play rarely reaches, in the recorded games of
data/pittsburgh_rare_events.json (regenerate them with `python -m
tests.service.test_pittsburgh_messages` when the rules change).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format
from google.protobuf.message import Message

import brass
from brass.engine import meaning
from brass.pittsburgh import event_by_kind
from brass_service.gen import pittsburgh_pb2 as ppb

RULESET = brass.get_ruleset("pittsburgh")
NAMES = RULESET.action_names
RARE_FILE = Path(__file__).parent / "data" / "pittsburgh_rare_events.json"
# Random play seldom reaches these kinds; RARE_FILE holds a recorded game for each.
RARE_KINDS = ("quality", "replaced", "upgrade_score")
# Views and previews are checked every this many decisions (events and meanings always).
VIEW_EVERY = 7


def _without_nulls(value: Any) -> Any:
    """The document as proto3 JSON prints it back: a null key is an unset field."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def strict(cls: type[Message], document: dict[str, Any]) -> Message:
    """`document` parsed into a `cls` refusing unknown keys; it must print back the same."""
    message = json_format.ParseDict(document, cls(), ignore_unknown_fields=False)
    printed = json_format.MessageToDict(message, preserving_proto_field_name=True,
                                        always_print_fields_with_no_presence=True)
    assert printed == _without_nulls(document), cls.__name__
    return message


def check_event(e: dict[str, Any]) -> str:
    message = strict(ppb.PittsburghEvent, event_by_kind(e))
    assert message.WhichOneof("kind") == e["type"]
    return e["type"]


def check_view(game: brass.Game, seat: int | None) -> None:
    view = strict(ppb.PittsburghView, game.view(seat))
    for p, player in enumerate(view.players):
        if p != seat:
            assert not player.hand, "another seat's hand is shown"
    for field in view.oilfields:
        if field.tile_state == "face_down":
            assert not field.HasField("tile"), "a face-down oilfield tile is shown"


def check_preview(game: brass.Game, ids: int | list[int]) -> set[str]:
    preview = game.preview(ids, seat=game.current_seat)
    assert set(preview) == {"events", "cost", "view"}
    strict(ppb.PittsburghPreviewCost, preview["cost"])
    strict(ppb.PittsburghView, preview["view"])
    return {check_event(e) for e in preview["events"]}


def check_compound_preview(game: brass.Game, compound: brass.Compound) -> set[str]:
    """A whole action's preview. A pipeline's first placement reveals a face-down oilfield
    tile, which the preview (from what the seat knows) deals in a canonical order: its
    reward there may differ (a free develop), so the action can end elsewhere and the
    preview refuses it as INCOMPLETE_ACTION although SubmitAction would accept it."""
    try:
        return check_preview(game, list(compound.ids))
    except brass.EngineError as exc:
        if exc.reason == "INCOMPLETE_ACTION" and "pipeline:" in compound.key:
            return set()
        raise


def play(players: int, seed: int) -> set[str]:
    """A random game, every document checked; the event kinds it produced."""
    game = brass.Game.new(players, seed, ruleset="pittsburgh")
    rng = random.Random(seed)
    kinds: set[str] = set()
    step = 0
    while not game.is_over:
        options = game.legal_actions()
        for option in options:
            assert option.decision == game.decision
            strict(ppb.PittsburghOptionMeaning, option.meaning)
        if step % VIEW_EVERY == 0:
            for seat in (*range(players), None):
                check_view(game, seat)
            kinds |= check_preview(game, options[0].id)
            kinds |= check_preview(game, options[-1].id)
            if game.decision == "action":
                compounds, _ = game.compound_actions(limit=40)
                kinds |= check_compound_preview(game, rng.choice(compounds))
        kinds |= {check_event(e) for e in game.apply(rng.choice(options).id)}
        step += 1
    for seat in (*range(players), None):
        check_view(game, seat)
    # The undo now is a view's (docs/UNDO.md), not a position's: a position read back has
    # no undo record. Its unset undo_steps prints as 0.
    position = _view_part(game.position())
    assert not {"undo_steps", "undo_refused"} & set(position)
    strict(ppb.PittsburghView, {**position, "undo_steps": 0})
    return kinds


# Keys only the full position holds (docs/PITTSBURGH.md, "Position format": what makes it the
# whole state for the reader); PittsburghView types the rest, which the position shares.
FULL_ONLY = ("format", "rules_edition", "turn_index", "auto_resolve", "deck", "rail_bonus_taken",
             "pending", "seed", "rng", "decisions_applied")
FULL_ONLY_PLAYER = ("facedown", "last_discard", "links_released")


def _view_part(position: dict[str, Any]) -> dict[str, Any]:
    """The position less its full-only keys (each of which it must hold)."""
    assert all(k in position for k in FULL_ONLY)
    view = {k: v for k, v in position.items() if k not in FULL_ONLY}
    view["players"] = [{k: v for k, v in p.items() if k not in FULL_ONLY_PLAYER}
                       for p in position["players"]]
    assert all(all(k in p for k in FULL_ONLY_PLAYER) for p in position["players"])
    return view


def test_the_catalogue_is_the_engines_event_kinds() -> None:
    catalogue = {f.name for f in ppb.PittsburghEvent.DESCRIPTOR.oneofs_by_name["kind"].fields}
    # "undo" is Game.undo's event (made by the Python API, not in the core's event table)
    assert catalogue == {name for name, _ in RULESET.event_names} | {"undo"}


def test_every_option_meaning_parses() -> None:
    kinds = {strict(ppb.PittsburghOptionMeaning, meaning(a, RULESET)).kind
             for a in range(RULESET.num_actions)}
    assert {"action_type", "card", "tile", "slot", "oilfield", "link", "pipeline",
            "oil_city_via", "market", "vanderbilt", "link_tile", "merchant", "quality",
            "cube", "bonus_sell", "done"} <= kinds


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_fit_the_messages(players: int) -> None:
    for seed in range(3):
        play(players, seed)


def test_random_play_produces_every_common_event_kind() -> None:
    """Seeded random games (events checked, as in play) until every kind not listed as rare
    has occurred; random play reaches all of them within a few games of each count."""
    wanted = {name for name, _ in RULESET.event_names} - set(RARE_KINDS)
    seen: set[str] = set()
    for seed in range(30):
        game = brass.Game.new(2 + seed % 3, 100 + seed, ruleset="pittsburgh")
        rng = random.Random(seed)
        while not game.is_over:
            seen |= {check_event(e) for e in game.apply(rng.choice(game.legal_ids()))}
        if wanted <= seen:
            break
    assert wanted - seen == set(), "kinds random play no longer produces: list them as rare"


def _replay_to(record: dict[str, Any]) -> tuple[brass.Game, int]:
    decisions = record["decisions"]
    game = brass.Game.replay({**record, "decisions": decisions[:-1]})
    return game, decisions[-1]


@pytest.mark.parametrize("kind", RARE_KINDS)
def test_rare_event_kinds_occur_in_their_recorded_game(kind: str) -> None:
    record = json.loads(RARE_FILE.read_text())[kind]
    game, last = _replay_to(record)
    check_view(game, game.current_seat)
    assert kind in check_preview(game, last)
    events = game.apply(last)
    assert kind in {check_event(e) for e in events}


# The options _find_rare prefers, per rare kind (none: uniformly random play).
_BIAS = {"quality": ("type:sell", "type:build", "quality:", "tile:mfg", "tile:auto",
                     "tile:oil_city", "oilfield:", "oil_city_via:", "link_tile:ht_resource_oil"),
         "replaced": ("link_tile:ht_replacement",), "upgrade_score": ()}


def _find_rare(kind: str) -> dict[str, Any]:
    """A seeded game played up to the first decision that produces `kind` (for RARE_FILE),
    preferring the options of _BIAS[kind] four times in five."""
    bias = _BIAS[kind]
    for players in (2, 3, 4):
        for seed in range(400):
            game = brass.Game.new(players, seed, ruleset="pittsburgh")
            rng = random.Random(seed)
            while not game.is_over:
                ids = game.legal_ids()
                preferred = [i for i in ids if bias and NAMES[i].startswith(bias)]
                choice = rng.choice(preferred if preferred and rng.random() < 0.8 else ids)
                if any(e["type"] == kind for e in game.apply(choice)):
                    record = game.replay_record()
                    del record["options"]  # the defaults: a new option leaves it valid
                    return record
    raise AssertionError(f"no game produced {kind}")


if __name__ == "__main__":
    RARE_FILE.parent.mkdir(exist_ok=True)
    RARE_FILE.write_text(json.dumps({k: _find_rare(k) for k in RARE_KINDS}) + "\n")
