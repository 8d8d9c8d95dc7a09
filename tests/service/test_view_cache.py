"""A version's view is encoded once per process and shared (views/view_cache.py), and a
watcher's update is made of its parts (views/answers.py WatchUpdate) rather than built as a
message and walked by json_format: both must give exactly what the plain route gives.

The plain route here is the one the service used before: the update as a message
(`game_state` into WatchGameResponse.state), its bytes serialized, its REST JSON by
json_format. Over random games of both rulesets, for every seat and the spectator.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format

import brass
from brass_service.games import GameService, ServiceSettings
from brass_service.games.access import Caller
from brass_service.gen import game_service_pb2 as pb
from brass_service.model import LiveGame, status_of
from brass_service.observability import RequestRecord
from brass_service.store import GameRow, open_store
from brass_service.views.answers import StateParts, WatchUpdate, game_state
from brass_service.views.convert import message_to_json_dict
from brass_service.views.view_cache import ViewCache

from .helpers import without_defaults

_RULESET_ENUM = {"birmingham": pb.RULESET_BIRMINGHAM, "pittsburgh": pb.RULESET_PITTSBURGH}


def _row(game: Any, game_id: str) -> GameRow:
    now = time.time()
    return GameRow(
        game_id=game_id, ruleset=_RULESET_ENUM[game.ruleset], rules_edition=1,
        players=game.num_players, seed=1, options={}, position_json=None,
        seat_names=[f"P{i}" for i in range(game.num_players)],
        token_hashes=["x"] * game.num_players, created_at=now - 10.5, updated_at=now,
        version=0, status=status_of(game), current_seat=game.current_seat,
        decision=game.decision,
    )


def _plain_update(row: GameRow, live: LiveGame, seat: int | None,
                  events: list[pb.GameEvent], with_state: bool) -> pb.WatchGameResponse:
    update = pb.WatchGameResponse(version=live.version, events=events)
    if with_state:
        game_state(row, live, seat, into=update.state)
    return update


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_watch_updates_are_the_plain_route_bytes_and_json(ruleset: str) -> None:
    rng = random.Random(7)
    views = ViewCache()
    for players in (2, 4):
        game = brass.Game.new(players=players, seed=players, ruleset=ruleset)
        row = _row(game, f"{ruleset}-{players}")  # one id a game, as the service's are
        version = 0
        while not game.is_over and version < 300:
            game.apply(rng.choice(game.legal_ids()), game.current_seat)
            version += 1
            if version % 37 and not game.is_over:
                continue
            live = LiveGame(game.clone(), version, time.time(), None)
            event = pb.GameEvent(version=version, seat=1)
            event.lobby.kind = "seat_joined"
            event.lobby.seat = 1
            event.lobby.name = "Ann"
            event.lobby.time.FromSeconds(1_700_000_000)
            for seat in [*range(players), None]:
                for with_state in (True, False):
                    plain = _plain_update(row, live, seat, [event], with_state)
                    update = WatchUpdate(version, [event],
                                         StateParts(row, live, seat, views) if with_state
                                         else None)
                    assert update.version == version
                    assert pb.WatchGameResponse.FromString(update.to_bytes()) == plain
                    document = json.loads(update.to_json_text())
                    assert without_defaults(document) == without_defaults(
                        message_to_json_dict(plain))
                    # and strictly the same message when parsed back
                    assert json_format.ParseDict(
                        document, pb.WatchGameResponse(), ignore_unknown_fields=False) == plain


def test_each_version_and_seat_is_encoded_once_and_the_cache_is_bounded() -> None:
    views = ViewCache(entries=3)
    game = brass.Game.new(players=2, seed=5)
    calls: list[tuple[str, int | None]] = []

    class Counting:
        """The game, counting the core's encodings of its view."""

        def __getattr__(self, name: str) -> Any:
            return getattr(game, name)

        def view_proto(self, seat: int | None) -> bytes | None:
            calls.append(("bytes", seat))
            return game.view_proto(seat)

        def view_json(self, seat: int | None = None, **kwargs: Any) -> str:
            calls.append(("json", seat))
            return game.view_json(seat, **kwargs)

    counted = Counting()
    first = views.view_bytes("g", 4, counted, 0)
    assert views.view_bytes("g", 4, counted, 0) == first
    assert views.view_json_text("g", 4, counted, 0) == views.view_json_text("g", 4, counted, 0)
    assert calls == [("bytes", 0), ("json", 0)]
    assert (views.hits, views.misses) == (2, 2)
    # another seat, version or game is its own entry
    views.view_bytes("g", 4, counted, 1)
    views.view_bytes("g", 5, counted, 0)
    views.view_bytes("h", 4, counted, 0)
    assert len(views) == 3  # the oldest went
    assert calls.count(("bytes", 0)) == 3  # g at 4, g at 5, h at 4
    views.view_bytes("g", 4, counted, 0)  # ("g", 4, 0, bytes) was the oldest: made again
    assert calls.count(("bytes", 0)) == 4


def test_a_watcher_of_the_seat_that_moved_gets_the_answers_view(tmp_path: Path) -> None:
    """SubmitAction's answer encodes the mover's view at the new version; the mover's own
    stream (its web page) then sends that version without encoding it again."""

    async def scenario() -> None:
        store = open_store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
        await store.open()
        service = GameService(store, ServiceSettings(watch_poll_seconds=600))
        anyone = Caller(token=None, peer="192.0.2.1")
        record = RequestRecord("test", "watch", "r")
        try:
            created = await service.create_game(
                pb.CreateGameRequest(players=2, seed=3), anyone, record)
            seat = created.state.summary.current_seat
            token = created.seats[seat].token
            caller = Caller(token=token, peer="192.0.2.1")
            game = brass.Game.new(players=2, seed=3)
            option = game.legal_ids()[0]
            answer = await service.submit_action(
                pb.SubmitActionRequest(game_id=created.game_id, action=pb.Action(
                    option_id=option), expected_version=0), caller, record)
            answer_json = json.loads(answer.to_json_text())
            misses = service.views.misses
            stream = await service.watch_game(
                pb.WatchGameRequest(game_id=created.game_id, from_version=1), caller, record)
            try:
                update = await stream.__aiter__().__anext__()
            finally:
                await stream.aclose()
            assert update.version == 1
            assert json.loads(update.to_json_text())["state"]["birmingham"] == \
                answer_json["state"]["birmingham"]
            assert service.views.misses == misses  # from the cache, not encoded again
        finally:
            service.close()
            await store.close()

    asyncio.run(scenario())


def test_the_watch_benchmark_prints_each_route(capsys: pytest.CaptureFixture[str]) -> None:
    from brass_service.tools import bench_watch

    bench_watch.main(["--rounds", "1", "--updates", "5"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 * 2 * 3  # rulesets x transports x routes
    assert all("µs/update" in line and "x plain" in line for line in lines)
    assert sum("1.000 x plain" in line for line in lines if " plain " in line) == 4
