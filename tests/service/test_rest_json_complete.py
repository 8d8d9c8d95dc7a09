"""The REST JSON of a view is its typed message's proto3 JSON with every field written.

The OpenAPI document's response schemas require every field without presence (service/api/
openapi.py: "the server writes them all, defaults too"), so a view must carry empty lists
and maps and zeros as well: both rulesets' view text comes from the core (Birmingham's
camel-case writer, Pittsburgh's snake_case text re-keyed in C: the throughput path), and is
compared exactly, not up to
defaults, with json_format's rendering of the same message (always printing every field
without presence), for every seat and the spectator, along random games of every player
count (two players leave merchant spaces without a tile: their goods list is empty).
"""

from __future__ import annotations

import json
import random

import pytest
from google.protobuf import json_format

import brass
from brass_service.views import typed


def _positions(ruleset: str, players: int, seed: int, samples: int) -> list[brass.Game]:
    rng = random.Random(seed)
    game = brass.Game.new(players, seed, ruleset=ruleset)
    out = [game.clone()]
    while not game.is_over and len(out) < samples:
        for _ in range(rng.randint(1, 40)):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_ids()))
        out.append(game.clone())
    return out


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_field_of_the_view_is_written(ruleset: str, players: int) -> None:
    checked = 0
    for game in _positions(ruleset, players, seed=100 + players, samples=12):
        for seat in [None, *range(players)]:
            sent = json.loads(typed.view_json_text(game, seat))
            message = typed.view_from_document(ruleset, game.view(seat))
            expected = json_format.MessageToDict(
                message, always_print_fields_with_no_presence=True)
            assert sent == expected, (ruleset, players, seat, game.version)
            checked += 1
    assert checked >= 2 * (players + 1)
