"""Whole games and the main flows, through gRPC and REST, on every back end."""

from __future__ import annotations

import asyncio
import http.client
import json
import random
import re
import threading
import urllib.request
from pathlib import Path

import brass
from brass_clients.aio_sdk import AsyncGameClient
from brass_clients.sdk import BrassError, GameClient, event_dict, pb, view_dict
from brass_service.views.convert import message_to_json_dict

from .helpers import (
    ServerProcess,
    engine_view,
    play_random_grpc,
    play_random_rest,
    sse_events,
    without_defaults,
)


def _tokens(created: pb.CreateGameResponse) -> list[str]:
    return [seat.token for seat in created.seats]


def _replayed_engine_game(client: GameClient, game_id: str) -> brass.Game:
    complete, record = client.get_replay(game_id)
    assert complete
    return brass.Game.replay(record)


def test_full_random_game_through_grpc(server: ServerProcess) -> None:
    rng = random.Random(11)
    with server.client() as client:
        created = client.create_game(players=3, seed=1234, seat_names=["Ann", "Bob", "Cy"])
        assert [s.name for s in created.seats] == ["Ann", "Bob", "Cy"]
        assert len({s.token for s in created.seats}) == 3
        game_id = created.game_id
        submissions = play_random_grpc(client, game_id, _tokens(created), rng)
        assert submissions > 0
        final = client.get_game(game_id)
        assert final.summary.status == pb.GAME_STATUS_FINISHED
        assert not final.summary.HasField("current_seat")
        assert len(final.scores) == 3 and len(final.winners) >= 1
        # The stored replay reproduces the game exactly with the engine alone.
        replayed = _replayed_engine_game(client, game_id)
        assert replayed.version == final.summary.version
        assert replayed.scores() == list(final.scores)
        assert replayed.winners() == list(final.winners)
        complete, record = client.get_replay(game_id)
        assert record["seed"] == "1234"  # a decimal string, as proto3 JSON writes int64
        # Nothing more can be played.
        legal_error = None
        try:
            client.submit_action(game_id, created.seats[0].token, 0)
        except BrassError as error:
            legal_error = error
        assert legal_error is not None and legal_error.reason == "GAME_OVER"


def test_full_random_game_through_rest(server: ServerProcess) -> None:
    rng = random.Random(22)
    rest = server.rest()
    created = rest.post("/v1/games", {"players": 2, "seed": "987654321"})
    game_id = created["gameId"]
    tokens = [seat["token"] for seat in created["seats"]]
    assert created["state"]["summary"]["status"] == "GAME_STATUS_IN_PROGRESS"
    play_random_rest(rest, game_id, tokens, rng)
    final = rest.get(f"/v1/games/{game_id}", token=tokens[0])["state"]
    assert final["summary"]["status"] == "GAME_STATUS_FINISHED"
    assert final["viewerSeat"] == 0
    replay = rest.get(f"/v1/games/{game_id}/replay")
    assert replay["complete"] is True
    record = json.loads(replay["recordJson"])
    assert record["seed"] == "987654321"  # survives JavaScript's JSON.parse
    replayed = brass.Game.replay(record)
    assert replayed.scores() == final["scores"]


def test_compound_action_and_preview(server: ServerProcess) -> None:
    with server.client() as client:
        created = client.create_game(players=2, seed=5)
        game_id, tokens = created.game_id, _tokens(created)
        seat = created.state.summary.current_seat
        legal = client.list_legal_actions(game_id, tokens[seat], include_compound_actions=True)
        assert legal.compound_actions, "the engine lists complete compound actions"
        compound = legal.compound_actions[0]
        preview = client.preview_action(game_id, tokens[seat], compound_key=compound.key)
        assert preview.version == legal.version
        # A preview commits nothing.
        assert client.get_game(game_id).summary.version == legal.version
        response = client.submit_action(
            game_id, tokens[seat], compound=list(compound.ids), expected_version=legal.version
        )
        assert response.state.summary.version >= legal.version + len(compound.ids)
        assert [event_dict(e) for e in response.events] == [
            event_dict(e) for e in preview.events
        ]
        # The view is the real one but for the card drawn at the turn's end, which the
        # preview does not show (it counts it: hand_unseen).
        previewed, after = view_dict(preview), view_dict(response.state)
        kept = previewed["player_state"][seat].pop("hand")
        drawn = previewed["player_state"][seat].pop("hand_unseen")
        held = after["player_state"][seat].pop("hand")
        assert drawn == 1 and sum(held.values()) == sum(kept.values()) + 1
        assert all(held.get(card, 0) >= k for card, k in kept.items())
        assert previewed == after


def test_spectator_and_seat_views(server: ServerProcess) -> None:
    with server.client() as client:
        created = client.create_game(players=4, seed=77)
        game_id = created.game_id
        spectator = client.get_game(game_id)
        assert not spectator.HasField("viewer_seat")
        engine_game = brass.Game.new(players=4, seed=77)
        assert view_dict(spectator) == engine_view(engine_game.view(None))
        for seat, token_info in enumerate(created.seats):
            state = client.get_game(game_id, token_info.token)
            assert state.viewer_seat == seat
            assert view_dict(state) == engine_view(engine_game.view(seat))


def test_idempotent_retry_applies_once(server: ServerProcess) -> None:
    with server.client() as client:
        created = client.create_game(players=2, seed=8)
        game_id, tokens = created.game_id, _tokens(created)
        seat = created.state.summary.current_seat
        legal = client.list_legal_actions(game_id, tokens[seat])
        option = legal.options[0].id
        first = client.submit_action(
            game_id, tokens[seat], option, expected_version=legal.version, idempotency_key="k-1"
        )
        again = client.submit_action(
            game_id, tokens[seat], option, expected_version=legal.version, idempotency_key="k-1"
        )
        assert not first.replayed and again.replayed
        again.replayed = False
        assert again == first
        assert client.get_game(game_id).summary.version == first.state.summary.version
        _, record = client.get_replay(game_id)
        assert len(record["decisions"]) == first.state.summary.version


def test_idempotent_retry_through_rest(server: ServerProcess) -> None:
    rest = server.rest()
    created = rest.post("/v1/games", {"players": 2, "seed": "9"})
    game_id = created["gameId"]
    tokens = [s["token"] for s in created["seats"]]
    seat = created["state"]["summary"]["currentSeat"]
    legal = rest.get(f"/v1/games/{game_id}/actions", token=tokens[seat])
    body = {
        "action": {"optionId": legal["options"][0]["id"]},
        "expectedVersion": legal["version"],
        "idempotencyKey": "rest-key",
    }
    first = rest.post(f"/v1/games/{game_id}/actions", body, token=tokens[seat])
    again = rest.post(f"/v1/games/{game_id}/actions", body, token=tokens[seat])
    assert first["replayed"] is False and again["replayed"] is True
    assert again["state"] == first["state"] and again["events"] == first["events"]
    now = rest.get(f"/v1/games/{game_id}")["state"]["summary"]["version"]
    assert now == first["state"]["summary"]["version"]


def _race(server: ServerProcess, submissions: list[dict]) -> list[object]:
    """Runs the submissions at the same moment, each on its own connection."""
    barrier = threading.Barrier(len(submissions))
    outcomes: list[object] = [None] * len(submissions)

    def submit(index: int) -> None:
        with server.client() as own:
            barrier.wait()
            try:
                outcomes[index] = own.submit_action(**submissions[index])
            except BrassError as error:
                outcomes[index] = error

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(len(submissions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_two_clients_racing_exactly_one_wins(server: ServerProcess) -> None:
    """Both submit on the same version; one is applied, the other gets STALE_VERSION."""
    with server.client() as client:
        for seed in range(3):
            created = client.create_game(players=2, seed=100 + seed)
            game_id, tokens = created.game_id, _tokens(created)
            seat = created.state.summary.current_seat
            legal = client.list_legal_actions(game_id, tokens[seat])
            outcomes = _race(
                server,
                [
                    {"game_id": game_id, "token": tokens[seat], "option_id": option,
                     "expected_version": legal.version}
                    for option in (legal.options[0].id, legal.options[-1].id)
                ],
            )
            winners = [o for o in outcomes if isinstance(o, pb.SubmitActionResponse)]
            losers = [o for o in outcomes if isinstance(o, BrassError)]
            assert len(winners) == 1 and len(losers) == 1, outcomes
            assert losers[0].reason == "STALE_VERSION"
            assert losers[0].metadata["version"] == str(winners[0].state.summary.version)
            _, record = client.get_replay(game_id)
            assert len(record["decisions"]) == winners[0].state.summary.version


def test_watch_resumes_without_missing_anything(server: ServerProcess) -> None:
    rng = random.Random(5)
    with server.client() as client:
        created = client.create_game(players=2, seed=31)
        game_id, tokens = created.game_id, _tokens(created)
        stream = client.watch_game(game_id, from_version=0)
        first = next(stream)  # the initial state
        assert first.version == 0 and first.HasField("state")
        play_random_grpc(client, game_id, tokens, rng, max_submissions=3)
        seen_versions = [first.version]
        events: list[dict] = []
        while seen_versions[-1] < client.get_game(game_id).summary.version:
            update = next(stream)
            seen_versions.append(update.version)
            events.extend(event_dict(e) for e in update.events)
        stream.close()  # the client goes away
        last = seen_versions[-1]
        play_random_grpc(client, game_id, tokens, rng, max_submissions=4)
        head = client.get_game(game_id).summary.version
        resumed = client.watch_game(game_id, from_version=last)
        while last < head:
            update = next(resumed)
            assert update.version > last
            last = update.version
            events.extend(event_dict(e) for e in update.events)
        assert update.HasField("state")
        assert update.state.summary.version == head
        resumed.close()
        # Every event of the game arrived exactly once, in order: compare with a watcher
        # that reads everything from version 0 in one go.
        full = client.watch_game(game_id, from_version=0)
        all_events: list[dict] = []
        version = -1
        while version < head:
            update = next(full)
            version = update.version
            all_events.extend(event_dict(e) for e in update.events)
        full.close()
        assert events == all_events


def test_sse_watch_resumes_with_last_event_id(server: ServerProcess) -> None:
    rng = random.Random(6)
    rest = server.rest()
    created = rest.post("/v1/games", {"players": 2, "seed": "44"})
    game_id = created["gameId"]
    tokens = [s["token"] for s in created["seats"]]
    play_random_rest(rest, game_id, tokens, rng, max_submissions=3)
    head = int(rest.get(f"/v1/games/{game_id}")["state"]["summary"]["version"])
    stream = sse_events(server.http_port, f"/v1/games/{game_id}/events?fromVersion=0")
    last_id = None
    events_seen = []
    for event, event_id, data in stream:
        assert event == "update"
        last_id = event_id
        events_seen.extend(data["events"])
        if int(data["version"]) == head:
            assert data["state"]["summary"]["version"] == str(head)
            break
    stream.close()
    play_random_rest(rest, game_id, tokens, rng, max_submissions=3)
    head2 = int(rest.get(f"/v1/games/{game_id}")["state"]["summary"]["version"])
    assert last_id == str(head)
    resumed = sse_events(
        server.http_port, f"/v1/games/{game_id}/events", token=tokens[0], last_event_id=last_id
    )
    for _event, event_id, data in resumed:
        assert int(event_id) > int(last_id)
        events_seen.extend(data["events"])
        if int(data["version"]) == head2:
            assert data["state"]["viewerSeat"] == 0
            break
    resumed.close()
    decision_events = [e for e in events_seen if e]
    assert decision_events, "moves produce events"
    assert all(int(e["version"]) <= head2 for e in events_seen)


def test_watch_hears_live_moves(server: ServerProcess) -> None:
    with server.client() as client:
        created = client.create_game(players=2, seed=3)
        game_id, tokens = created.game_id, _tokens(created)
        stream = client.watch_game(game_id, tokens[1], from_version=0)
        assert next(stream).version == 0
        received: list[pb.WatchGameResponse] = []

        def listen() -> None:
            received.append(next(stream))

        listener = threading.Thread(target=listen)
        listener.start()
        play_random_grpc(client, game_id, tokens, random.Random(1), max_submissions=1)
        listener.join(timeout=60)
        assert received, "the watcher heard the move"
        assert received[0].version == client.get_game(game_id).summary.version
        assert received[0].state.viewer_seat == 1
        stream.close()


def test_list_games_pages_through_everything(server: ServerProcess) -> None:
    with server.client() as client:
        made = {client.create_game(players=2, seed=i).game_id for i in range(7)}
        seen: list[str] = []
        token = ""
        while True:
            page = client.list_games(page_size=3, page_token=token)
            assert len(page.games) <= 3
            seen.extend(g.game_id for g in page.games)
            token = page.next_page_token
            if not token:
                break
        assert made <= set(seen)
        assert len(seen) == len(set(seen)), "no game listed twice"
        in_progress = client.list_games(page_size=100, status=pb.GAME_STATUS_IN_PROGRESS)
        assert all(g.status == pb.GAME_STATUS_IN_PROGRESS for g in in_progress.games)
    rest_page = server.rest().get("/v1/games?pageSize=2")
    assert len(rest_page["games"]) == 2 and rest_page["nextPageToken"]


def test_public_replay_before_the_end_has_no_seed(server: ServerProcess) -> None:
    with server.client() as client:
        created = client.create_game(players=2, seed=123456789)
        play_random_grpc(
            client, created.game_id, _tokens(created), random.Random(2), max_submissions=2
        )
        complete, record = client.get_replay(created.game_id)
        assert not complete
        assert "seed" not in record and "position" not in record
        assert len(record["decisions"]) == client.get_game(created.game_id).summary.version


def test_game_from_position(server: ServerProcess) -> None:
    source = brass.Game.new(players=3, seed=99)
    with server.client() as client:
        created = client.create_game_from_position(source.position())
        state = client.get_game(created.game_id)
        assert state.summary.from_position
        assert view_dict(state) == engine_view(source.view(None))
        seat = state.summary.current_seat
        legal = client.list_legal_actions(created.game_id, created.seats[seat].token)
        assert sorted(o.id for o in legal.options) == sorted(o.id for o in source.legal_actions())


def test_asyncio_sdk_plays_and_watches(server: ServerProcess) -> None:
    async def scenario() -> None:
        async with AsyncGameClient(server.grpc_target) as client:
            created = await client.create_game(players=2, seed=55)
            tokens = _tokens(created)
            watcher = client.watch_game(created.game_id, from_version=0)
            assert (await watcher.__anext__()).version == 0
            rng = random.Random(3)
            for _ in range(3):
                state = await client.get_game(created.game_id)
                seat = tokens[state.summary.current_seat]
                legal = await client.list_legal_actions(created.game_id, seat)
                await client.submit_action(
                    created.game_id, seat, rng.choice(legal.options).id,
                    expected_version=legal.version,
                )
            head = (await client.get_game(created.game_id)).summary.version
            version = 0
            while version < head:
                version = (await watcher.__anext__()).version
            assert version == head
            await watcher.aclose()
            try:
                await client.get_game("no-such-game")
            except BrassError as error:
                assert error.reason == "UNKNOWN_GAME"
            else:
                raise AssertionError("expected UNKNOWN_GAME")

    asyncio.run(scenario())


def test_asyncio_sdk_hosts_pittsburgh_with_undo_bots_and_resign(server: ServerProcess) -> None:
    """The asyncio SDK has the sync SDK's calls: a Pittsburgh game with an open seat taken
    by a server bot, an action undone (once, even when the request is sent twice with
    its idempotency key), and a resignation."""
    async def scenario() -> None:
        async with AsyncGameClient(server.grpc_target) as client:
            created = await client.create_game(2, seed=8, ruleset="pittsburgh",
                                               open_seats=[1], on_resign=pb.RESIGN_POLICY_GAME_ENDS)
            assert created.host_token
            summary = (await client.set_seat_bot(created.game_id, 1, "random",
                                                 created.host_token)).summary
            assert [s.bot for s in summary.seats] == ["", "random"]
            await client.start_game(created.game_id, created.host_token)
            state = await client.get_game(created.game_id)
            while state.summary.current_seat != 0:  # the server's bot may move first
                await asyncio.sleep(0.05)
                state = await client.get_game(created.game_id)
            token = created.seats[0].token
            before = view_dict(await client.get_game(created.game_id, token))
            legal = await client.list_legal_actions(created.game_id, token)
            done = await client.submit_action(created.game_id, token, legal.options[0].id,
                                              expected_version=legal.version)
            undone = await client.undo_action(created.game_id, token, idempotency_key="u1",
                                              expected_version=done.state.summary.version)
            again = await client.undo_action(created.game_id, token, idempotency_key="u1",
                                             expected_version=done.state.summary.version)
            assert again.replayed and not undone.replayed
            assert again.state.summary.version == undone.state.summary.version
            after = view_dict(await client.get_game(created.game_id, token))
            assert {k: v for k, v in after.items() if k != "undo_refused"} == {
                k: v for k, v in before.items() if k != "undo_refused"}
            await client.resign_game(created.game_id, token)
            over = (await client.get_game(created.game_id)).summary
            assert (over.status, over.end_reason) == (pb.GAME_STATUS_FINISHED,
                                                      pb.END_REASON_RESIGNED)

    asyncio.run(scenario())


def test_play_module_runs_bots_and_a_prompted_human(server: ServerProcess) -> None:
    """`brass play`: a scripted "human" (answering 0 at every prompt) against a random bot."""
    import io

    from brass_clients.play import play

    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        return "0" if len(prompts) % 2 else "not a number"  # also exercises the re-prompt

    out = io.StringIO()
    final = play(server.grpc_target, players=2, seats=["human", "greedy"], seed=3,
                 read=answer, out=out)
    assert prompts and "game over" in out.getvalue()
    assert "please type one of the numbers shown" in out.getvalue()
    with server.client() as client:  # the server's game is the one played here
        state = client.get_game(final.game_id)
    assert state.summary.status == pb.GAME_STATUS_FINISHED
    assert list(state.scores) == final.scores and state.summary.version == final.decisions
    # the human seat's token and the web page's links to resume or watch (issue 23, item 8)
    host = server.grpc_target.rpartition(":")[0]
    token = re.search(r"^  seat 0: token (\S+)$", out.getvalue(), re.M)
    assert token is not None and "seat 1: token" not in out.getvalue()  # the bot's is not shown
    page = f"http://{host}:8080"
    assert f"resume in a browser: {page}/#/play/{final.game_id}/0/{token[1]}" in out.getvalue()
    assert f"watch: {page}/#/game/{final.game_id}" in out.getvalue()
    assert (f"brass play --server {server.grpc_target} --game {final.game_id} "
            f"--token {token[1]}") in out.getvalue()
    with server.client() as client:  # the token printed is the seat's
        assert client.get_game(final.game_id, token[1]).viewer_seat == 0


def test_play_with_server_bots_prints_the_seat_token_and_links(server: ServerProcess) -> None:
    import io

    from brass_clients.play import play

    out = io.StringIO()
    final = play(server.grpc_target, players=2, seats=["greedy", "human"], seed=5,
                 read=lambda prompt: "0", out=out, server_bots=True,
                 web=f"http://127.0.0.1:{server.http_port}/")
    page = f"http://127.0.0.1:{server.http_port}"
    text = out.getvalue()
    assert "(bots on the server: seat 0 greedy)" in text
    token = re.search(rf"resume in a browser: {re.escape(page)}/#/play/{final.game_id}/1/(\S+)",
                      text)
    assert token is not None and f"  seat 1: token {token[1]}\n" in text
    assert f"watch: {page}/#/game/{final.game_id}" in text
    with urllib.request.urlopen(f"{page}/") as index:  # the page the links open
        assert index.status == 200


def test_play_joins_a_game_by_token_as_a_human(server: ServerProcess) -> None:
    """`brass play --game ID --token T`: the seats given are played here, the others by
    whoever holds their tokens (here: a random player in a thread)."""
    import io
    import threading

    from brass_clients.play import play

    with server.client() as client:
        created = client.create_game(players=2, seed=11)
    tokens = [s.token for s in created.seats]
    other = threading.Thread(target=play, args=(server.grpc_target,), kwargs={
        "game_id": created.game_id, "tokens": [tokens[1]], "seats": ["random"],
        "out": io.StringIO()}, daemon=True)
    other.start()
    out = io.StringIO()
    final = play(server.grpc_target, game_id=created.game_id, tokens=[tokens[0]],
                 seats=["human"], read=lambda prompt: "0", out=out)
    other.join(timeout=120)
    assert "joined game" in out.getvalue() and "game over" in out.getvalue()
    with server.client() as client:
        assert list(client.get_game(created.game_id).scores) == final.scores


def test_rest_answers_are_the_json_of_the_grpc_answers(server: ServerProcess) -> None:
    """REST bodies are made without going through the protobuf messages; they must still be
    the canonical JSON of what gRPC returns for the same state (up to the default values
    proto3 JSON may leave out or write)."""
    rest = server.rest()
    with server.client() as client:
        created = client.create_game(players=3, seed=33)
        game_id, tokens = created.game_id, [s.token for s in created.seats]
        rng = random.Random(33)
        for step in range(8):
            state = client.get_game(game_id, tokens[step % 3])
            assert without_defaults(rest.get(f"/v1/games/{game_id}", token=tokens[step % 3])) == (
                without_defaults(message_to_json_dict(pb.GetGameResponse(state=state)))
            )
            seat = state.summary.current_seat
            for query, kwargs in (
                ("", {}),
                ("?includeUnavailable=true&includeCompoundActions=true",
                 {"include_unavailable": True, "include_compound_actions": True}),
            ):
                legal = client.list_legal_actions(game_id, tokens[seat], **kwargs)
                assert without_defaults(rest.get(f"/v1/games/{game_id}/actions{query}",
                                                 token=tokens[seat])) == (
                    without_defaults(message_to_json_dict(legal))
                )
            option = rng.choice(legal.options).id
            key = f"same-{step}"
            answer = rest.post(
                f"/v1/games/{game_id}/actions",
                {"action": {"optionId": option}, "expectedVersion": str(legal.version),
                 "idempotencyKey": key},
                token=tokens[seat],
            )
            # The gRPC retry with the same key replays the stored answer.
            replayed = client.submit_action(game_id, tokens[seat], option,
                                            expected_version=legal.version,
                                            idempotency_key=key)
            assert replayed.replayed
            replayed.replayed = False
            assert without_defaults(answer) == without_defaults(message_to_json_dict(replayed))


def test_sse_stream_says_why_it_ends(tmp_path: Path) -> None:
    """`end` (reason GAME_OVER) only when the game is over; at a server shutdown the stream
    ends with `shutdown` (reason SERVER_SHUTTING_DOWN, the version to resume from, and a
    `retry` delay), so a client that stops at `end` keeps watching across a deploy."""
    import signal

    server = ServerProcess(tmp_path / "sse-end").start()
    try:
        rest = server.rest()
        created = rest.post("/v1/games", {"players": 2, "seed": "5"})
        game_id = created["gameId"]
        tokens = [s["token"] for s in created["seats"]]
        play_random_rest(rest, game_id, tokens, random.Random(5), max_submissions=4)
        head = rest.get(f"/v1/games/{game_id}")["state"]["summary"]["version"]
        connection = http.client.HTTPConnection("127.0.0.1", server.http_port, timeout=60)
        connection.request("GET", f"/v1/games/{game_id}/events?fromVersion=0",
                           headers={"Accept": "text/event-stream"})
        response = connection.getresponse()
        assert response.status == 200
        seen = b""
        while f"id: {head}\n".encode() not in seen:  # caught up with the game
            seen += response.readline()
        assert server.process is not None
        server.process.send_signal(signal.SIGTERM)
        tail = response.read()  # to the end of the stream: the server closes it
        connection.close()
        assert b"event: end" not in tail
        last = tail.strip().split(b"\n\n")[-1].decode().splitlines()
        assert last[:2] == ["retry: 1000", "event: shutdown"], tail[-300:]
        assert json.loads(last[2].removeprefix("data: ")) == {
            "reason": "SERVER_SHUTTING_DOWN", "version": head}
        server.process.wait(timeout=30)

        # restarted: the game plays to its end, and then the stream's last word is `end`
        server.start()
        rest = server.rest()
        play_random_rest(rest, game_id, tokens, random.Random(6))
        final = rest.get(f"/v1/games/{game_id}")["state"]["summary"]["version"]
        events = list(sse_events(server.http_port, f"/v1/games/{game_id}/events",
                                 last_event_id=head))
        assert events[-1] == ("end", None, {"reason": "GAME_OVER", "version": final})
        assert all(event == "update" for event, _id, _data in events[:-1])
    finally:
        server.stop()
