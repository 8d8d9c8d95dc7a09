"""UndoAction over gRPC and REST on every back end (docs/UNDO.md): the seat to act only,
refusals with machine-readable reasons, a new version each time (never a rewrite), durable
across SIGKILL (also when the newest snapshot is mid-turn), seen by watchers (gRPC stream
and SSE), in GetReplay, and random games with random undos that replay exactly."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import brass
from brass_clients.sdk import GameClient, event_dict, pb, view_dict

from .conftest import Backend
from .helpers import (
    RestClient,
    ServerProcess,
    engine_view,
    expect_error,
    expect_rest_error,
    play_random_grpc,
    sse_events,
)


def _seat(client: GameClient, game_id: str) -> int:
    return client.get_game(game_id).summary.current_seat


def _to_mid_turn(client: GameClient, game_id: str, tokens: list[str],
                 rng: random.Random) -> pb.SubmitActionResponse:
    """Random decisions until the seat to act has one it may take back, inside an action."""
    while True:
        seat = _seat(client, game_id)
        legal = client.list_legal_actions(game_id, tokens[seat])
        answer = client.submit_action(game_id, tokens[seat], rng.choice(legal.options).id,
                                      expected_version=legal.version)
        state = answer.state
        if state.summary.current_seat == seat and state.summary.decision != "action":
            return answer


def test_undo_over_grpc_refusals_versions_watch_and_replay(server: ServerProcess) -> None:
    rng = random.Random(5)
    with server.client() as client:
        created = client.create_game(players=2, seed=42)
        game_id, tokens = created.game_id, [s.token for s in created.seats]
        seat = _seat(client, game_id)
        other = 1 - seat
        expect_error("NOTHING_TO_UNDO", client.undo_action, game_id, tokens[seat])
        before = client.get_game(game_id, tokens[seat])
        answer = _to_mid_turn(client, game_id, tokens, rng)
        seat = answer.state.summary.current_seat
        version = answer.state.summary.version
        expect_error("NOT_YOUR_TURN", client.undo_action, game_id, tokens[1 - seat])
        expect_error("UNAUTHENTICATED", client.undo_action, game_id, "")
        expect_error("STALE_VERSION", client.undo_action, game_id, tokens[seat],
                     expected_version=version - 1)
        undone = client.undo_action(game_id, tokens[seat], expected_version=version,
                                    include_legal_actions=True)
        # a new version (never a rewrite), at the start of the action, with its event
        assert undone.state.summary.version == version + 1
        assert undone.state.summary.decision == "action"
        [event] = [event_dict(e) for e in undone.events]
        assert event["type"] == "undo" and event["seat"] == seat and event["decisions"] >= 1
        assert undone.next_actions.options
        # GetReplay: the record holds the undo and replays to the same state
        complete, record = client.get_replay(game_id)
        assert not complete and record["decisions"][-1] == "undo"
        assert len(record["decisions"]) == version + 1
        typed = client._call("GetReplay", pb.GetReplayRequest(game_id=game_id)).decisions
        assert typed[-1].undo and typed[-1].undone == event["decisions"]
        assert typed[-1].seat == seat and typed[-1].name == "undo"
        assert not typed[-1].HasField("option_id")  # no option, not option 0
        # the watch stream carries it
        updates = client.watch_game(game_id, from_version=version)
        first = next(updates)
        updates.close()
        assert first.version == version + 1
        assert [event_dict(e)["type"] for e in first.events] == ["undo"]
        # seat `other` and spectators see the turn's start again
        assert client.get_game(game_id, tokens[other]) is not None
        assert before.summary.version == 0


def test_undo_disabled_at_create_game(server: ServerProcess) -> None:
    rng = random.Random(6)
    with server.client() as client:
        created = client.create_game(players=2, seed=3, undo=False)
        game_id, tokens = created.game_id, [s.token for s in created.seats]
        answer = _to_mid_turn(client, game_id, tokens, rng)
        seat = answer.state.summary.current_seat
        error = expect_error("UNDO_DISABLED", client.undo_action, game_id, tokens[seat])
        assert error.code.name == "FAILED_PRECONDITION"
        _, record = client.get_replay(game_id)
        assert record["options"]["undo"] is False and "undo" not in record["decisions"]


def test_undo_over_rest_and_sse(server: ServerProcess) -> None:
    rest = server.rest()
    created = rest.post("/v1/games", {"players": 3, "seed": "9"})
    game_id, tokens = created["gameId"], [s["token"] for s in created["seats"]]
    seat = created["state"]["summary"]["currentSeat"]
    error = expect_rest_error("NOTHING_TO_UNDO", 400, rest.post, f"/v1/games/{game_id}:undo",
                              {}, token=tokens[seat])
    assert error.body["error"]["status"] == "FAILED_PRECONDITION"
    legal = rest.get(f"/v1/games/{game_id}/actions", token=tokens[seat])
    start = rest.get(f"/v1/games/{game_id}", token=tokens[seat])["state"]
    rest.post(f"/v1/games/{game_id}/actions",
              {"action": {"optionId": legal["options"][0]["id"]}, "expectedVersion": "0"},
              token=tokens[seat])
    expect_rest_error("NOT_YOUR_TURN", 403, rest.post, f"/v1/games/{game_id}:undo", {},
                      token=tokens[(seat + 1) % 3])
    expect_rest_error("UNAUTHENTICATED", 401, rest.post, f"/v1/games/{game_id}:undo", {})
    undone = rest.post(f"/v1/games/{game_id}:undo", {"expectedVersion": "1"},
                       token=tokens[seat])
    assert undone["state"]["summary"]["version"] == "2"
    assert undone["state"]["birmingham"] == start["birmingham"]  # where the turn began
    assert "undo" in undone["events"][0]["birmingham"]
    stream = sse_events(server.http_port, f"/v1/games/{game_id}/events?fromVersion=1")
    _kind, event_id, update = next(stream)  # the first update: the undo, version 2
    stream.close()
    assert event_id == "2"
    assert [list(e["birmingham"]) for e in update["events"]] == [["undo"]]
    rest.close()


def test_an_undo_survives_sigkill_and_undo_works_after_restart(backend: Backend) -> None:
    rng = random.Random(12)
    server = backend.start_server("undo-crash")
    with server.client() as client:
        created = client.create_game(players=2, seed=21)
        game_id, tokens = created.game_id, [s.token for s in created.seats]
        play_random_grpc(client, game_id, tokens, rng, max_submissions=40)  # past a snapshot
        answer = _to_mid_turn(client, game_id, tokens, rng)
        seat = answer.state.summary.current_seat
        undone = client.undo_action(game_id, tokens[seat],
                                    expected_version=answer.state.summary.version)
        answer = _to_mid_turn(client, game_id, tokens, rng)
        seat = answer.state.summary.current_seat
        mid_turn = client.get_game(game_id, tokens[seat])
        _, record = client.get_replay(game_id)
    server.stop(crash=True)
    server.start()
    with server.client() as client:
        assert client.get_game(game_id, tokens[seat]) == mid_turn  # the undo is there
        assert client.get_replay(game_id)[1] == record
        again = client.undo_action(game_id, tokens[seat],
                                   expected_version=mid_turn.summary.version)
        assert again.state.summary.version == mid_turn.summary.version + 1
        assert undone.state.summary.version < again.state.summary.version
    server.stop()


def _random_game_with_undos_grpc(client: GameClient, rng: random.Random, seed: int) -> None:
    created = client.create_game(players=2, seed=seed)
    game_id, tokens = created.game_id, [s.token for s in created.seats]
    state = client.get_game(game_id)
    for _ in range(150):
        seat = state.summary.current_seat
        version = state.summary.version
        if rng.random() < 0.3:
            try:
                state = client.undo_action(game_id, tokens[seat], expected_version=version).state
                continue
            except Exception as exc:  # refused: nothing to undo here
                assert getattr(exc, "reason", None) == "NOTHING_TO_UNDO", exc
        legal = client.list_legal_actions(game_id, tokens[seat])
        state = client.submit_action(game_id, tokens[seat], rng.choice(legal.options).id,
                                     expected_version=version).state
    _, record = client.get_replay(game_id)
    record.update(seed=seed)
    replayed = brass.Game.replay(record)
    assert "undo" in record["decisions"]
    assert replayed.version == state.summary.version
    assert engine_view(replayed.view()) == view_dict(client.get_game(game_id))


def _random_game_with_undos_rest(rest: RestClient, rng: random.Random, seed: int) -> None:
    created = rest.post("/v1/games", {"players": 2, "seed": str(seed)})
    game_id, tokens = created["gameId"], [s["token"] for s in created["seats"]]
    state = created["state"]
    for _ in range(150):
        seat = state["summary"]["currentSeat"]
        version = state["summary"]["version"]
        if rng.random() < 0.3:
            try:
                state = rest.post(f"/v1/games/{game_id}:undo", {"expectedVersion": version},
                                  token=tokens[seat])["state"]
                continue
            except Exception as exc:
                assert getattr(exc, "reason", None) == "NOTHING_TO_UNDO", exc
        legal = rest.get(f"/v1/games/{game_id}/actions", token=tokens[seat])
        state = rest.post(f"/v1/games/{game_id}/actions",
                          {"action": {"optionId": rng.choice(legal["options"])["id"]},
                           "expectedVersion": version}, token=tokens[seat])["state"]
    record = rest.get(f"/v1/games/{game_id}/replay")
    document = json.loads(record["recordJson"])
    document["seed"] = seed
    replayed = brass.Game.replay(document)
    assert "undo" in document["decisions"]
    assert str(replayed.version) == state["summary"]["version"]
    assert json.loads(replayed.view_json(None, keys="camel")) == rest.get(
        f"/v1/games/{game_id}")["state"]["birmingham"]


def test_random_games_with_undos_replay_exactly_over_both_transports(
    server: ServerProcess,
) -> None:
    rng = random.Random(77)
    with server.client() as client:
        for seed in (1, 2):
            _random_game_with_undos_grpc(client, rng, seed)
    rest = server.rest()
    for seed in (3, 4):
        _random_game_with_undos_rest(rest, rng, seed)
    rest.close()


def _reason_name(view: Any) -> str | None:
    """A typed view's undo_refused by name (None when unset)."""
    if not view.HasField("undo_refused"):
        return None
    enum = view.DESCRIPTOR.fields_by_name["undo_refused"].enum_type
    return str(enum.values_by_number[view.undo_refused].name)


def _undo_now(client: GameClient, rest: RestClient, ids: tuple[str, str],
              tokens: tuple[list[str], list[str]], arm: str) -> set[tuple[int, str | None]]:
    """The undo now of every view (a spectator's and each seat's) of the same game over
    gRPC (ids[0]) and REST (ids[1]): one pair when they all agree."""
    seen = set()
    for token in (None, *tokens[0]):
        view = getattr(client.get_game(ids[0], token), arm)
        seen.add((view.undo_steps, _reason_name(view)))
    for token in (None, *tokens[1]):
        document = rest.get(f"/v1/games/{ids[1]}", token=token)["state"][arm]
        seen.add((document.get("undoSteps", 0), document.get("undoRefused")))
    return seen


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_every_view_says_whether_the_seat_to_act_may_undo(
    backend: Backend, server: ServerProcess, ruleset: str
) -> None:
    """The views' undo now (docs/UNDO.md): what UndoAction would do, the same for every
    viewer, on both transports; back at the action's start after the undo; UNDO_DISABLED in
    a game with the option off."""
    rest = server.rest()
    rest_ruleset = "RULESET_" + ruleset.upper()
    with server.client() as client:
        for undo in (True, False):
            created = client.create_game(players=2, seed=8, ruleset=ruleset, undo=undo)
            made = rest.post("/v1/games", {"players": 2, "seed": "8", "ruleset": rest_ruleset,
                                           "options": {"undo": undo}})
            ids = (created.game_id, made["gameId"])
            tokens = ([s.token for s in created.seats], [s["token"] for s in made["seats"]])
            mirror = brass.Game.new(2, seed=8, ruleset=ruleset, undo=undo)
            assert _undo_now(client, rest, ids, tokens, ruleset) == {
                (0, "NOTHING_TO_UNDO" if undo else "UNDO_DISABLED")}
            while mirror.undo_depth == 0:  # the first decision of the turn's action
                seat, option = mirror.current_seat, mirror.legal_ids()[0]
                mirror.apply(option, seat=seat)
                answer = client.submit_action(ids[0], tokens[0][seat], option)
                rest.post(f"/v1/games/{ids[1]}/actions", {"action": {"optionId": option}},
                          token=tokens[1][seat])
            if not undo:
                assert _undo_now(client, rest, ids, tokens, ruleset) == {(0, "UNDO_DISABLED")}
                continue
            steps = mirror.undo_steps()
            assert steps > 0 and getattr(answer.state, ruleset).undo_steps == steps
            assert _undo_now(client, rest, ids, tokens, ruleset) == {(steps, None)}
            undone = client.undo_action(ids[0], tokens[0][seat])
            assert _reason_name(getattr(undone.state, ruleset)) == "NOTHING_TO_UNDO"
            rest.post(f"/v1/games/{ids[1]}:undo", {}, token=tokens[1][seat])
            assert mirror.undo(seat=seat)[0]["decisions"] == steps
            assert _undo_now(client, rest, ids, tokens, ruleset) == {(0, "NOTHING_TO_UNDO")}
    rest.close()


def _to_second_undo(mirror: brass.Game, rng: random.Random,
                    submit: Any) -> int:
    """Random decisions (each also sent with `submit(seat, option)`) until two undos in a
    row would each take something back: an action in progress after a completed one of the
    same turn. Returns the seat to act."""
    while True:
        probe = mirror.clone()
        if probe.undo_steps() and probe.decision != "action":
            probe.undo()
            if probe.undo_steps():
                return int(mirror.current_seat)  # type: ignore[arg-type]
        seat, option = mirror.current_seat, rng.choice(mirror.legal_ids())
        mirror.apply(option, seat=seat)
        submit(seat, option)


def test_a_retried_undo_answers_the_stored_result_and_undoes_once_over_grpc(
    server: ServerProcess,
) -> None:
    """UndoAction's idempotency key (as SubmitAction's, docs/SERVICE.md): the retry of an
    accepted undo answers its stored result (replayed) and takes back nothing more, where
    an undo without the key would take back the turn's previous action; another key at the
    old version is STALE_VERSION; the key on another request is IDEMPOTENCY_KEY_REUSED."""
    rng = random.Random(31)
    with server.client() as client:
        created = client.create_game(players=2, seed=17)
        game_id, tokens = created.game_id, [s.token for s in created.seats]
        mirror = brass.Game.new(2, seed=17)
        seat = _to_second_undo(mirror, rng, lambda s, o: client.submit_action(
            game_id, tokens[s], o))
        version = mirror.version
        first = client.undo_action(game_id, tokens[seat], expected_version=version,
                                   idempotency_key="undo-1")
        [event] = mirror.undo(seat=seat)
        assert not first.replayed and first.state.summary.version == version + 1
        assert event_dict(first.events[0]) == event
        again = client.undo_action(game_id, tokens[seat], expected_version=version,
                                   idempotency_key="undo-1")
        assert again.replayed
        assert again.state == first.state and list(again.events) == list(first.events)
        # undone once: the game is where the first undo left it, the previous action stands
        now = client.get_game(game_id, tokens[seat])
        assert now.summary.version == version + 1 and mirror.undo_steps() > 0
        assert view_dict(now) == engine_view(mirror.view(seat))
        _, record = client.get_replay(game_id)
        assert record["decisions"].count("undo") == 1
        expect_error("STALE_VERSION", client.undo_action, game_id, tokens[seat],
                     expected_version=version, idempotency_key="undo-2")
        expect_error("IDEMPOTENCY_KEY_REUSED", client.undo_action, game_id, tokens[seat],
                     expected_version=version + 1, idempotency_key="undo-1")
        option = mirror.legal_ids()[0]
        expect_error("IDEMPOTENCY_KEY_REUSED", client.submit_action, game_id, tokens[seat],
                     option, idempotency_key="undo-1")
        # a retry without expected_version matches a first undo without it
        blind = client.undo_action(game_id, tokens[seat], idempotency_key="undo-3")
        mirror.undo(seat=seat)
        assert client.undo_action(game_id, tokens[seat], idempotency_key="undo-3").replayed
        assert client.get_game(game_id).summary.version == blind.state.summary.version
        assert view_dict(client.get_game(game_id)) == engine_view(mirror.view())


def test_a_retried_undo_answers_the_stored_result_and_undoes_once_over_rest(
    server: ServerProcess,
) -> None:
    rng = random.Random(32)
    rest = server.rest()
    created = rest.post("/v1/games", {"players": 2, "seed": "19"})
    game_id, tokens = created["gameId"], [s["token"] for s in created["seats"]]
    mirror = brass.Game.new(2, seed=19)
    seat = _to_second_undo(mirror, rng, lambda s, o: rest.post(
        f"/v1/games/{game_id}/actions", {"action": {"optionId": o}}, token=tokens[s]))
    version = str(mirror.version)
    body = {"expectedVersion": version, "idempotencyKey": "undo-1"}
    first = rest.post(f"/v1/games/{game_id}:undo", body, token=tokens[seat])
    mirror.undo(seat=seat)
    again = rest.post(f"/v1/games/{game_id}:undo", body, token=tokens[seat])
    assert first["replayed"] is False and again["replayed"] is True
    assert again["state"] == first["state"] and again["events"] == first["events"]
    now = rest.get(f"/v1/games/{game_id}", token=tokens[seat])["state"]
    assert now["summary"]["version"] == str(mirror.version)
    assert now["birmingham"] == json.loads(mirror.view_json(seat, keys="camel"))
    expect_rest_error("STALE_VERSION", 409, rest.post, f"/v1/games/{game_id}:undo",
                      {"expectedVersion": version, "idempotencyKey": "undo-2"},
                      token=tokens[seat])
    rest.close()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_undos_stop_at_the_servers_bound_on_a_games_versions_and_decisions_go_on(
    backend: Backend,
) -> None:
    """UNDO_LIMIT (ServiceSettings.max_undo_version): taking a decision back and making
    one again cannot grow a game's log without end. At the bound UndoAction is refused over
    both transports with the limit, nothing is stored, the views still say what the rules
    allow, and decisions go on."""
    limit = 8
    server = backend.start_server("undo-limit", env={"BRASS_MAX_UNDO_VERSION": str(limit)})
    rng = random.Random(7)
    rest = server.rest()
    with server.client() as client:
        created = client.create_game(players=2, seed=5)
        game_id, tokens = created.game_id, [s.token for s in created.seats]
        undos = 0
        answer = _to_mid_turn(client, game_id, tokens, rng)
        while answer.state.summary.version < limit:
            seat, version = answer.state.summary.current_seat, answer.state.summary.version
            client.undo_action(game_id, tokens[seat], expected_version=version)
            undos += 1
            answer = _to_mid_turn(client, game_id, tokens, rng)
        assert undos >= 1  # the bound was reached through undos, not decisions alone
        seat, version = answer.state.summary.current_seat, answer.state.summary.version
        error = expect_error("UNDO_LIMIT", client.undo_action, game_id, tokens[seat],
                             expected_version=version)
        assert error.code.name == "FAILED_PRECONDITION"
        assert error.metadata["limit"] == str(limit)
        assert error.metadata["version"] == str(version)
        rest_error = expect_rest_error("UNDO_LIMIT", 400, rest.post,
                                       f"/v1/games/{game_id}:undo", {}, token=tokens[seat])
        assert rest_error.body["error"]["details"][0]["metadata"]["limit"] == str(limit)
        state = client.get_game(game_id, tokens[seat])
        assert state.summary.version == version  # nothing stored
        assert view_dict(state)["undo_steps"] > 0  # the rules would allow it
        legal = client.list_legal_actions(game_id, tokens[seat])
        going_on = client.submit_action(game_id, tokens[seat], legal.options[0].id,
                                        expected_version=version)
        assert going_on.state.summary.version == version + 1
        _, record = client.get_replay(game_id)
        assert record["decisions"].count("undo") == undos
    rest.close()
