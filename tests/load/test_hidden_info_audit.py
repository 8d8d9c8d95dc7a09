"""Hidden-information audit: no seat's view, event, error or replay prefix reveals another
seat's hand, the deck order or the seed.

Two checks, over 600 random games in-process (the engine's own views and events, which the
service forwards as they are) and over a smaller sample through the running service:

- plain: no hidden field (deck, seed, face-down cards, another seat's hand) in any view,
  event or public replay record, and the seed's digits nowhere in any message;
- strong: take the state and a copy that differs only in what one seat cannot see
  (`g.determinize(seat, other_seed)`: the deck and the other hands re-dealt). That seat's
  view, the spectator's view, and the events and errors of the same next decision must be
  byte-identical in both (json.dumps with sort_keys): then they cannot depend on anything
  hidden from the seat. For the seat to act the same holds for its unavailable options,
  its compound actions, whole previews (events, cost and view; as the seat and as a
  spectator) of a decision and of a compound action, and the refusals of a broken compound
  action and of a preview, in turn or out of turn.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from google.protobuf import json_format
from service.helpers import engine_cost, engine_view

import brass
from brass_clients.sdk import BrassError, GameClient, cost_dict, event_dict, pb, view_dict

from .conftest import Backend, ServerProcess

BIRMINGHAM = brass.get_ruleset("birmingham")

ENGINE_GAMES = 600  # 1,200 sampled views of every seat and spectator; CI time
SAMPLES_PER_GAME = 2
SERVICE_GAMES = 24
HIDDEN_KEYS = {"deck", "seed", "facedown", "rng_state", "decisions_applied", "position"}
PUBLIC_REPLAY_KEYS = {"rules_edition", "ruleset", "players", "options", "decisions"}
TYPICAL_LENGTH = {2: 165, 3: 220, 4: 275}


def canonical(document: Any) -> str:
    return json.dumps(document, sort_keys=True, separators=(",", ":"))


def keys_of(document: Any) -> set[str]:
    if isinstance(document, dict):
        found = set(document)
        for value in document.values():
            found |= keys_of(value)
        return found
    if isinstance(document, list):
        found = set()
        for value in document:
            found |= keys_of(value)
        return found
    return set()


def check_plain_view(view: dict[str, Any], viewer: int | None, seed: int) -> None:
    assert not keys_of(view) & HIDDEN_KEYS, f"hidden field in the view of {viewer}"
    for seat, player in enumerate(view["player_state"]):
        if seat != viewer:
            assert not player.get("hand"), f"seat {seat}'s hand is in the view of {viewer}"
    assert str(seed) not in canonical(view), "the seed is in a view"


def check_plain_events(events: list[dict[str, Any]], seed: int) -> None:
    assert not keys_of(events) & (HIDDEN_KEYS | {"hand"}), events
    assert str(seed) not in canonical(events)


def apply_outcome(game: brass.Game, option: int, seat: int | None) -> str:
    """The events, or the error, of applying `option` as `seat` to a copy of `game`."""
    work = game.clone()
    try:
        return canonical({"events": work.apply(option, seat=seat)})
    except brass.EngineError as error:
        return canonical({"error": error.to_dict()})


def preview_outcome(game: brass.Game, ids: int | list[int], seat: int | None) -> str:
    """The whole preview (events, cost, view), or the error, of `ids` as `seat`."""
    try:
        return canonical({"preview": game.preview(ids, seat=seat)})
    except brass.EngineError as error:
        return canonical({"error": error.to_dict()})


def compound_outcome(game: brass.Game, ids: list[int], seat: int) -> str:
    work = game.clone()
    try:
        return canonical({"events": work.apply_compound(ids, seat=seat)})
    except brass.EngineError as error:
        return canonical({"error": error.to_dict()})


def observed_outcome(game: brass.Game, option: int, actor: int, seat: int) -> tuple[int, str]:
    """What `seat` learns when `actor` (another seat) applies `option`: how many decisions
    were applied (forced ones included), and the events, with the card the actor played
    masked. Playing a card reveals it (discards are face up), so it may differ between
    deals; it must be exactly the discard `seat` then sees in its view."""
    work = game.clone()
    events = work.apply(option, seat=actor)
    applied = work.decisions_applied - game.decisions_applied
    before, after = game.view(seat), work.view(seat)
    masked = []
    for event in events:
        if event["type"] == "action" and event["seat"] == actor and "card" in event:
            card = event["card"]
            if card.startswith("wild_"):  # a wild card goes back to its pile
                pile = card.removeprefix("wild_")
                assert after["wild_piles"][pile] == before["wild_piles"][pile] + 1, event
            else:  # face up on the discard pile (or the deck was rebuilt: a new era)
                assert (card == after["player_state"][actor]["last_discard"]
                        or after["discards"].get(card, 0) > before["discards"].get(card, 0)
                        or after["era"] != before["era"]), event
            event = {**event, "card": "<played card>"}
        masked.append(event)
    return applied, canonical({"events": masked})


def strong_check(game: brass.Game, seat: int, other_seed: int, rng: random.Random,
                 figures: Counter[str]) -> None:
    """`seat` sees, and gets, exactly the same from two deals it cannot tell apart."""
    twin = game.determinize(seat, other_seed)
    if canonical(twin.position()) != canonical(game.position()):
        figures["twins_differing"] += 1
    figures["twins"] += 1
    assert canonical(twin.view(seat)) == canonical(game.view(seat)), "the seat's view"
    assert canonical(twin.view(None)) == canonical(game.view(None)), "the spectator's view"
    if game.is_over:
        return
    actor = game.current_seat
    if actor == seat:
        # Its own options, their refusals and the outcome of each are the same in both.
        assert twin.legal_ids() == game.legal_ids()
        assert twin.unavailable() == game.unavailable()
        candidates = game.legal_ids()
        # Its whole actions, and the preview of one (as the seat and as a spectator,
        # the move made for it), events, cost and view: the cards it would draw are not
        # in them (issue 10 A).
        compounds, cut = game.compound_actions(limit=400)
        assert twin.compound_actions(limit=400) == (compounds, cut)
        if compounds:
            ids = list(rng.choice(compounds).ids)
            for viewer in (seat, None):
                assert preview_outcome(twin, ids, viewer) == preview_outcome(game, ids, viewer)
            assert compound_outcome(twin, ids, seat) == compound_outcome(game, ids, seat)
            figures["previews_compared"] += 1
        # A half action as a compound, or a refused id inside one: the same refusal.
        broken = list(rng.choice(compounds).ids)[:-1] if compounds else []
        broken.append(rng.randrange(BIRMINGHAM.num_actions))
        assert compound_outcome(twin, broken, seat) == compound_outcome(game, broken, seat)
        assert preview_outcome(twin, broken, seat) == preview_outcome(game, broken, seat)
    else:
        # Another seat acts; among the options open to it in both deals, the same choice
        # tells this seat the same thing.
        candidates = sorted(set(game.legal_ids()) & set(twin.legal_ids()))
        # And this seat, acting out of turn, learns nothing either.
        option = rng.randrange(BIRMINGHAM.num_actions)
        assert apply_outcome(twin, option, seat) == apply_outcome(game, option, seat)
        assert preview_outcome(twin, option, seat) == preview_outcome(game, option, seat)
    if candidates:
        option = rng.choice(candidates)
        if actor == seat:
            same = apply_outcome(twin, option, actor) == apply_outcome(game, option, actor)
            for viewer in (seat, None):
                same = same and (preview_outcome(twin, option, viewer)
                                 == preview_outcome(game, option, viewer))
        else:
            twin_applied, twin_seen = observed_outcome(twin, option, actor, seat)
            applied, seen = observed_outcome(game, option, actor, seat)
            # Whether the step was forced (auto_resolve) must not differ either.
            same = twin_applied == applied and twin_seen == seen
        assert same, f"the events of option {option} depend on what seat {seat} cannot see"
        figures["events_compared"] += 1
    # An option the actor cannot take now: the same refusal in both.
    refused = [i for i in range(BIRMINGHAM.num_actions) if i not in set(game.legal_ids())]
    if actor == seat and refused:
        option = rng.choice(refused)
        assert apply_outcome(twin, option, actor) == apply_outcome(game, option, actor)
        assert preview_outcome(twin, option, actor) == preview_outcome(game, option, actor)
        figures["errors_compared"] += 1


def check_replay_prefix(game: brass.Game, seed: int) -> None:
    """The public part of the replay record (what GetReplay gives before the end)."""
    record = game.replay_record()
    public = {k: v for k, v in record.items() if k in PUBLIC_REPLAY_KEYS}
    assert not keys_of(public) & HIDDEN_KEYS
    assert str(seed) not in canonical(public)


def test_engine_views_events_errors_hide_hands_deck_and_seed() -> None:
    rng = random.Random(1000)
    figures: Counter[str] = Counter()
    for index in range(ENGINE_GAMES):
        players = 2 + index % 3
        seed = rng.randrange(2**40, 2**63)  # large: its digits cannot appear by chance
        # Every fourth game without auto_resolve: every step explicit, no forced steps.
        game = brass.Game.new(players=players, seed=seed, auto_resolve=index % 4 != 0)
        sample_at = set(rng.sample(range(TYPICAL_LENGTH[players]), SAMPLES_PER_GAME))
        step = 0
        while not game.is_over:
            if step in sample_at:
                seat = rng.randrange(players)
                check_plain_view(game.view(seat), seat, seed)
                check_plain_view(game.view(None), None, seed)
                strong_check(game, seat, rng.getrandbits(64), rng, figures)
                check_replay_prefix(game, seed)
                figures["states"] += 1
            events = game.apply(rng.choice(game.legal_ids()))
            check_plain_events(events, seed)
            figures["decisions"] += 1
            step += 1
        seat = rng.randrange(players)
        strong_check(game, seat, rng.getrandbits(64), rng, figures)
        figures["games"] += 1
    print(f"\nhidden-information audit (engine): {dict(figures)}")
    assert figures["games"] == ENGINE_GAMES
    assert figures["states"] >= ENGINE_GAMES  # about two mid-game states per game
    assert figures["events_compared"] >= ENGINE_GAMES
    assert figures["errors_compared"] > 0
    assert figures["previews_compared"] >= ENGINE_GAMES // 2
    # The twins really differ in what the seat cannot see (else the check proves nothing).
    assert figures["twins_differing"] >= 0.95 * figures["twins"]


# --------------------------------------------------------------------- through the service


def message_text(message: Any) -> str:
    return json_format.MessageToJson(message)


def service_check_game(client: GameClient, server: ServerProcess, rng: random.Random,
                       figures: Counter[str]) -> None:
    players = rng.choice((2, 3, 4))
    seed = rng.randrange(2**40, 2**63)
    created = client.create_game(players=players, seed=seed)
    game_id, tokens = created.game_id, [s.token for s in created.seats]
    assert str(seed) not in message_text(created)
    full = brass.Game.new(players=players, seed=seed)  # the same game, everything visible
    local_events: list[str] = []
    past = [full.clone()]  # the game at each version, for the views at past versions
    for _ in range(rng.randrange(0, 25)):
        if full.is_over:
            break
        actor = full.current_seat
        if rng.random() < 0.25 and full.undo_steps(actor):
            # an undo: the engine's event and view, as for a submission
            response = client.undo_action(game_id, tokens[actor],
                                          expected_version=full.version)
            expected_events = full.undo(seat=actor)
            assert str(seed) not in message_text(response)
            got = [event_dict(e) for e in response.events]
            assert canonical(got) == canonical(json.loads(json.dumps(expected_events)))
            assert canonical(view_dict(response.state)) == canonical(engine_view(full.view(actor)))
            local_events += [canonical(e) for e in json.loads(json.dumps(expected_events))]
            past.append(full.clone())
            figures["undos"] += 1
            continue
        legal = client.list_legal_actions(game_id, tokens[actor])
        assert str(seed) not in message_text(legal)
        option = rng.choice(legal.options).id
        response = client.submit_action(game_id, tokens[actor], option,
                                         expected_version=legal.version)
        expected_events = full.apply(option, seat=actor)
        assert str(seed) not in message_text(response)
        got = [event_dict(e) for e in response.events]
        assert canonical(got) == canonical(json.loads(json.dumps(expected_events)))
        assert canonical(view_dict(response.state)) == canonical(engine_view(full.view(actor)))
        local_events += [canonical(e) for e in json.loads(json.dumps(expected_events))]
        past.append(full.clone())
        figures["submissions"] += 1
    # Views at past versions (GetGame at_version), before and after undos: each viewer's
    # view then, nothing more (the same engine views the strong check covers).
    for version in rng.sample(range(len(past)), min(3, len(past))):
        for viewer, token in [(None, None), *enumerate(tokens)]:
            then = client._call("GetGame", pb.GetGameRequest(game_id=game_id,
                                                             at_version=version), token).state
            assert then.summary.version == version
            assert canonical(view_dict(then)) == canonical(
                engine_view(past[version].view(viewer)))
            figures["past_views"] += 1
    # Every viewer's view is the engine's, which the strong check covers.
    for viewer, token in [(None, None), *enumerate(tokens)]:
        state = client.get_game(game_id, token)
        view = view_dict(state)
        assert canonical(view) == canonical(engine_view(full.view(viewer)))
        check_plain_view(view, viewer, seed)
        assert str(seed) not in message_text(state)
        if viewer is not None:
            strong_check(full, viewer, rng.getrandbits(64), rng, figures)
    # Errors: what a seat is told when refused is what it would be told in any deal it
    # cannot tell apart from this one.
    if not full.is_over:
        actor = full.current_seat
        legal_ids = set(full.legal_ids())
        refused = rng.choice([i for i in range(BIRMINGHAM.num_actions) if i not in legal_ids])
        for seat, option in ((actor, refused), ((actor + 1) % players, min(legal_ids))):
            try:
                client.submit_action(game_id, tokens[seat], option)
                raise AssertionError("a refused action was accepted")
            except BrassError as error:
                assert str(seed) not in error.message + canonical(error.metadata)
                twin = full.determinize(seat, rng.getrandbits(64))
                try:
                    twin.clone().apply(option, seat=seat)
                    raise AssertionError("the twin accepted what the service refused")
                except brass.EngineError as twin_error:
                    assert error.message == twin_error.message
                    assert error.metadata.get("engine_reason") == (twin_error.reason or None)
                refusal = error.message
                figures["errors"] += 1
            # A preview is refused just as the submission is.
            try:
                client.preview_action(game_id, tokens[seat], option)
                raise AssertionError("a refused preview was answered")
            except BrassError as preview_error:
                assert preview_error.message == refusal
        # The service's preview is the engine's (events, cost, view), which the strong
        # check shows to be the same in every deal the seat cannot tell apart.
        option = rng.choice(sorted(legal_ids))
        preview = client.preview_action(game_id, tokens[actor], option)
        expected = json.loads(json.dumps(full.preview(option, seat=actor)))
        assert view_dict(preview) == engine_view(expected["view"])
        assert cost_dict(preview) == engine_cost(expected["cost"])
        assert [event_dict(e) for e in preview.events] == expected["events"]
        assert str(seed) not in message_text(preview)
        figures["previews"] += 1
    # The replay prefix before the end: public fields only.
    complete, record = client.get_replay(game_id)
    if not full.is_over:
        assert not complete and set(record) <= PUBLIC_REPLAY_KEYS
        assert record["decisions"] == full.replay_record()["decisions"]
        assert str(seed) not in canonical(record)
    # A spectator watching from the start gets every event, exactly the engine's.
    watched: list[str] = []
    for update in client.watch_game(game_id, from_version=0):
        watched += [canonical(event_dict(e)) for e in update.events]
        assert str(seed) not in message_text(update)
        if update.version == full.version:
            break
    assert watched == local_events
    summary = next(g for g in client.list_games(page_size=100).games if g.game_id == game_id)
    assert str(seed) not in message_text(summary)
    figures["games"] += 1


# What the service reveals does not depend on the store: checked once, on SQLite.
@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_service_messages_hide_hands_deck_and_seed(backend: Backend,
                                                   server: ServerProcess) -> None:
    rng = random.Random(24)
    figures: Counter[str] = Counter()
    with server.client() as client:
        for _ in range(SERVICE_GAMES):
            service_check_game(client, server, rng, figures)
    print(f"\nhidden-information audit (service): {dict(figures)}")
    assert figures["games"] == SERVICE_GAMES
    assert figures["errors"] > 0 and figures["submissions"] > 0 and figures["previews"] > 0
    assert figures["undos"] > 0 and figures["past_views"] > 0


def test_undos_reveal_nothing() -> None:
    """An undo (docs/UNDO.md) restores a state of the same turn byte for byte, so every
    seat's view after it is one that seat saw before; its event names only decisions of the
    public record; whether it is refused, and why, is the same in every deal a seat cannot
    tell apart (the twins); and the public replay prefix stays public."""
    rng = random.Random(77)
    figures: Counter[str] = Counter()
    # 16 games (every player count, with and without auto-resolve): thousands of undos
    for index in range(16):
        players = 2 + index % 3
        seed = rng.randrange(2**40, 2**63)
        game = brass.Game.new(players=players, seed=seed, auto_resolve=index % 4 != 0)
        seen: dict[bytes, list[str]] = {}
        while not game.is_over:
            views = [canonical(game.view(v)) for v in [None, *range(players)]]
            seen[game.snapshot()] = views
            for seat in rng.sample(range(players), 2):
                twin = game.determinize(seat, rng.getrandbits(64))
                assert twin.undo_steps(game.current_seat) == game.undo_steps(game.current_seat)
                assert undo_outcome(twin, seat) == undo_outcome(game, seat)
                figures["refusals_compared"] += 1
            if rng.random() < 0.3 and game.undo_steps() > 0:
                decisions = game.replay_record()["decisions"]
                [event] = game.undo()
                check_plain_events([event], seed)
                # it names decisions of the public record only
                assert set(event) == {"type", "seat", "decisions", "ids"}
                assert all(i in decisions for i in event["ids"])
                # every seat (and a spectator) sees again what it saw then, nothing else
                assert [canonical(game.view(v)) for v in [None, *range(players)]] == \
                    seen[game.snapshot()]
                check_replay_prefix(game, seed)
                figures["undos"] += 1
                continue
            game.apply(rng.choice(game.legal_ids()))
        figures["games"] += 1
    print(f"\nhidden-information audit (undo): {dict(figures)}")
    assert figures["undos"] > 200 and figures["refusals_compared"] > 1000


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_the_views_undo_now_is_public(ruleset: str) -> None:
    """Every view says how far the seat to act's undo reaches now, or why it is refused
    (undo_steps, undo_refused: docs/UNDO.md). It is the same in every viewer's view, and in
    every deal a seat cannot tell apart (twins re-dealing its hidden cards and, in
    Pittsburgh, the face-down oilfield tiles), and it is what an undo then does: so it
    follows from public facts only. Random games with undos one time in four."""
    rng = random.Random(5)
    figures: Counter[str] = Counter()
    for index in range(6):
        players = 2 + index % 3
        game = brass.Game.new(players=players, seed=rng.randrange(2**40), ruleset=ruleset)
        while not game.is_over:
            views = [game.view(v) for v in [None, *range(players)]]
            now = {(v["undo_steps"], v["undo_refused"]) for v in views}
            assert len(now) == 1, "the viewers see different undo states"
            [(steps, refused)] = now
            assert steps == game.undo_steps()
            for seat in rng.sample(range(players), 1):
                twin = game.determinize(seat, rng.getrandbits(64))
                for viewer in (seat, None):
                    seen = twin.view(viewer)
                    assert (seen["undo_steps"], seen["undo_refused"]) == (steps, refused)
                figures["twins"] += 1
            if rng.random() < 0.25:
                if steps:
                    game.undo()
                    figures["undos"] += 1
                else:
                    with pytest.raises(brass.EngineError) as exc:
                        game.undo()
                    assert exc.value.reason == refused
                    figures["refusals"] += 1
                continue
            game.apply(rng.choice(game.legal_ids()))
        assert game.view(None)["undo_steps"] == 0 and game.view(None)["undo_refused"] is None
    print(f"\nhidden-information audit (undo now, {ruleset}): {dict(figures)}")
    assert figures["undos"] > 100 and figures["refusals"] > 50


def undo_outcome(game: brass.Game, seat: int) -> str:
    """The refusal (or the size) of an undo by `seat` on a copy of `game`: from what is
    public (whose turn, how many decisions since the barrier, the option) only."""
    steps = game.undo_steps(seat)
    if steps:
        return canonical({"steps": steps})
    try:
        game.clone().undo(seat)
    except brass.EngineError as error:
        return canonical(error.to_dict())
    raise AssertionError("an undo with no steps was accepted")


def test_forced_steps_do_not_reveal_hidden_cards() -> None:
    """With auto_resolve on, whether an opponent's step was forced must not depend on its hidden
    hand: action types and card choices are never resolved automatically (docs/RULINGS.md)."""
    rng = random.Random(7)
    for _ in range(25):  # every state of 25 games, every common option
        seed = rng.randrange(2**40, 2**63)
        game = brass.Game.new(players=rng.choice((2, 3, 4)), seed=seed)
        while not game.is_over:
            actor = game.current_seat
            seat = (actor + 1) % game.num_players
            twin = game.determinize(seat, rng.getrandbits(64))
            for option in sorted(set(game.legal_ids()) & set(twin.legal_ids())):
                assert observed_outcome(twin, option, actor, seat) == observed_outcome(
                    game, option, actor, seat
                ), f"seat {seat} can tell whether seat {actor}'s next step is forced"
            game.apply(rng.choice(game.legal_ids()))
