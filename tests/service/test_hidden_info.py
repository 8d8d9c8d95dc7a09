"""Views of 200 random games, as the service sends them, hold no hidden information.

Hidden: other seats' hands and face-down cards, the deck order, the seed. Each game is
created and advanced through the service; every viewer's view (each seat, and a
spectator) is checked three ways:
- it is exactly the engine's redacted view for that viewer;
- it does not change when everything the viewer cannot see is re-dealt (determinize);
- its JSON names no hidden field and contains neither the seed nor other seats' hands.
"""

from __future__ import annotations

import json
import random

import pytest

import brass
from brass_clients.sdk import GameClient, cost_dict, view_dict
from brass_service.views import typed

from .conftest import Backend
from .helpers import (
    ServerProcess,
    engine_cost,
    engine_view,
    play_random_grpc,
    without_defaults,
)

GAMES = 200
_HIDDEN_KEYS = {"deck", "seed", "facedown", "rng_state", "decisions_applied"}


def _keys(document: object) -> set[str]:
    if isinstance(document, dict):
        return set(document) | set().union(*(_keys(v) for v in document.values()))
    if isinstance(document, list):
        return set().union(*(_keys(v) for v in document)) if document else set()
    return set()


def _check_view(view: dict, viewer: int | None, full: brass.Game, seed: int, text: str) -> None:
    assert not (_keys(view) & _HIDDEN_KEYS), f"hidden field in the view of {viewer}"
    assert str(seed) not in text, "the seed leaked into a view"
    for seat, player in enumerate(view["player_state"]):
        if seat != viewer:
            assert not player.get("hand"), f"seat {seat}'s hand is visible to {viewer}"
    # Re-dealing what the viewer cannot see changes nothing it sees.
    seats = [viewer] if viewer is not None else list(range(full.num_players))
    for index, seat in enumerate(seats):
        redealt = full.determinize(seat, seed + 1 + index)
        assert engine_view(redealt.view(viewer)) == view


# Redaction does not depend on the store: checked once, on SQLite.
@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_views_of_200_random_games_hide_what_they_must(
    backend: Backend, server: ServerProcess
) -> None:
    rng = random.Random(200)
    with server.client() as client:
        for _ in range(GAMES):
            players = rng.choice((2, 3, 4))
            seed = rng.randrange(2**40, 2**63)  # large: cannot appear in a view by chance
            created = client.create_game(players=players, seed=seed)
            tokens = [s.token for s in created.seats]
            play_random_grpc(client, created.game_id, tokens, rng,
                             max_submissions=rng.randrange(0, 5))
            complete, record = client.get_replay(created.game_id)
            assert not complete and "seed" not in record
            # The same game, rebuilt locally with everything hidden in it.
            full = brass.Game.new(players=players, seed=seed)
            for decision in record["decisions"]:
                full.apply(decision)
            viewers: list[tuple[int | None, str | None]] = [(None, None)]
            viewers += list(enumerate(tokens))
            for viewer, token in viewers:
                state = client.get_game(created.game_id, token)
                view = view_dict(state)
                assert view == engine_view(full.view(viewer))
                _check_view(view, viewer, full, seed, str(state))
            _check_other_messages(client, created.game_id, tokens, full, seed)


def _check_other_messages(
    client: GameClient, game_id: str, tokens: list[str], full: brass.Game, seed: int
) -> None:
    """Legal options, watch updates and listings carry no hidden information either."""
    if full.is_over:
        return
    to_act = full.current_seat
    legal = client.list_legal_actions(game_id, tokens[to_act])
    assert str(seed) not in str(legal)
    watcher = client.watch_game(game_id, from_version=legal.version)
    update = next(watcher)
    watcher.close()
    assert not update.state.HasField("viewer_seat")
    view = view_dict(update.state)
    assert view == engine_view(full.view(None))
    summary = client.list_games(page_size=1).games[0]
    assert str(seed) not in str(summary)


# Previews are the engine's (Game.preview, through gRPC and REST alike): checked on SQLite.
@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_previews_do_not_show_the_cards_the_seat_will_draw(
    backend: Backend, server: ServerProcess
) -> None:
    """Issue 10 A: a preview of a turn-ending action showed the cards the seat would then
    draw from the face-down deck (and the real draw matched it). Through both fronts the
    previewed hand is the one kept before the draw, `hand_unseen` counts the cards drawn,
    and the preview is the same for every deal the seat cannot tell apart."""
    rng = random.Random(31)
    rest = server.rest()
    with server.client() as client:
        for _ in range(6):
            players = rng.choice((2, 3, 4))
            seed = rng.randrange(2**40, 2**63)
            created = client.create_game(players=players, seed=seed)
            game_id, tokens = created.game_id, [s.token for s in created.seats]
            full = brass.Game.new(players=players, seed=seed)
            seat = full.current_seat
            assert seat is not None
            # In the first canal round every action ends the turn with one card drawn.
            compounds, _ = full.compound_actions(limit=200)
            ids = list(rng.choice(compounds).ids)
            expected = json.loads(json.dumps(full.preview(ids, seat=seat)))
            twin = full.determinize(seat, rng.getrandbits(64))
            assert json.loads(json.dumps(twin.preview(ids, seat=seat))) == expected
            mine = expected["view"]["player_state"][seat]
            assert mine["hand_unseen"] == 1 and sum(mine["hand"].values()) == 7
            grpc_preview = client.preview_action(game_id, tokens[seat], compound=ids)
            assert view_dict(grpc_preview) == engine_view(expected["view"])
            assert cost_dict(grpc_preview) == engine_cost(expected["cost"])
            rest_preview = rest.post(f"/v1/games/{game_id}/actions:preview",
                                     {"action": {"compound": {"ids": ids}}}, tokens[seat])
            assert without_defaults(rest_preview["birmingham"]) == without_defaults(
                typed.view_json("birmingham", expected["view"]))
            # The real move then draws a card the preview did not show.
            response = client.submit_action(game_id, tokens[seat], compound=ids)
            after = view_dict(response.state)["player_state"][seat]
            assert after["hand_size"] == 8 and "hand_unseen" not in after
            assert sum(after["hand"].values()) == 8
    rest.close()
