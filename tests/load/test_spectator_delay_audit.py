"""Hidden-information audit of the spectator delay (issue 25, item 3): at every version of
random games of both rulesets, undos included, a delayed spectator's GetGame is exactly the
engine's spectator view N whole turns back, its replay is the decisions up to there, every
newer version is refused to it (GetGame at_version, WatchGame from_version), its watch
stream's first update goes no further, and nothing of the game's present is in any of them
(the head's version appears only in the seats' answers)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from service.helpers import engine_view

import brass
from brass_clients.sdk import BrassError, GameClient, pb, view_dict

from .conftest import Backend, ServerProcess

GAMES = 3  # per ruleset, 2 to 4 players, a delay of 1 to 4 turns


def delayed(seats_to_act: list[int | None], delay: int) -> int:
    """The start of the turn `delay` turns before the current one, a turn beginning where
    the engine's seat to act changes (seats_to_act: at versions 0 to the head)."""
    starts = [0] + [v for v in range(1, len(seats_to_act))
                    if seats_to_act[v] != seats_to_act[v - 1]]
    return starts[max(len(starts) - 1 - delay, 0)]


def refused(call: object) -> str:
    try:
        call()  # type: ignore[operator]
    except BrassError as error:
        return error.reason
    return "answered"


def audit_game(client: GameClient, ruleset: str, players: int, delay: int,
               rng: random.Random, figures: Counter[str]) -> None:
    seed = rng.randrange(2**40)
    created = client.create_game(players, seed=seed, ruleset=ruleset,
                                 spectator_delay_turns=delay)
    game_id, tokens = created.game_id, [s.token for s in created.seats]
    mirror = brass.Game.new(players, seed=seed, ruleset=ruleset)
    seats: list[int | None] = [mirror.current_seat]
    views = [json.loads(json.dumps(mirror.view(None)))]
    while not mirror.is_over and mirror.version < 80:
        seat = mirror.current_seat
        if rng.random() < 0.15 and mirror.undo_steps() > 0:
            client.undo_action(game_id, tokens[seat], expected_version=mirror.version)
            mirror.undo()
            figures["undos"] += 1
        else:
            option = rng.choice(mirror.legal_ids())
            client.submit_action(game_id, tokens[seat], option,
                                 expected_version=mirror.version)
            mirror.apply(option)
        seats.append(mirror.current_seat)
        views.append(json.loads(json.dumps(mirror.view(None))))
        head, seen = mirror.version, delayed(seats, delay)
        state = client.get_game(game_id)
        assert state.summary.version == seen <= head
        assert view_dict(state) == engine_view(views[seen], ruleset), (game_id, head, seen)
        complete, record = client.get_replay(game_id)
        assert not complete
        assert record["decisions"] == mirror.replay_record()["decisions"][:seen]
        newer = rng.randrange(seen + 1, head + 1) if seen < head else None
        if newer is not None:
            request = pb.GetGameRequest(game_id=game_id, at_version=newer)
            assert refused(lambda r=request: client._call("GetGame", r)) == "SPECTATOR_DELAY"  # type: ignore[attr-defined]
            assert refused(lambda v=newer: next(iter(client.watch_game(
                game_id, from_version=v)))) == "SPECTATOR_DELAY"
            figures["newer_refused"] += 1
        if head % 10 == 0:
            stream = client._stub.WatchGame(pb.WatchGameRequest(game_id=game_id))  # type: ignore[attr-defined]
            update = next(iter(stream))
            stream.cancel()
            assert update.version == seen and update.state.summary.version == seen
            assert all(e.version <= seen for e in update.events)
            figures["streams"] += 1
        figures["versions"] += 1
        figures["delayed"] += seen < head
    figures["games"] += 1


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_delayed_spectator_sees_the_game_n_turns_back_and_nothing_newer(
        backend: Backend, server: ServerProcess) -> None:
    rng = random.Random(2503)
    figures: Counter[str] = Counter()
    with server.client() as client:
        for index in range(2 * GAMES):
            ruleset = ("birmingham", "pittsburgh")[index % 2]
            audit_game(client, ruleset, 2 + index % 3, 1 + index % 4, rng, figures)
    print(f"\nspectator delay audit: {dict(figures)}")
    assert figures["games"] == 2 * GAMES
    assert figures["delayed"] > figures["versions"] // 2 and figures["undos"] > 5
