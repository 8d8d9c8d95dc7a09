"""Reads of a long game's past (issue 20, item 5): GetGame at_version reads only the
decisions after the snapshot at or before the version, GetReplay after a move replays only
the new decisions, both answer byte for byte what a rebuild from the first snapshot gives,
and a client's reads of the past are rate-limited over both transports."""

from __future__ import annotations

import asyncio
import http.client
import json
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

from brass_clients.sdk import GameClient, pb
from brass_service.games import Caller, GameService, ServiceSettings, replay
from brass_service.observability import RequestRecord
from brass_service.store import Snapshot, open_store
from brass_service.tools import bench_past_reads
from brass_service.views.convert import message_to_json_dict
from brass_service.views.reply import Reply

from .helpers import LOOPBACK, ServerProcess, expect_error

ANYONE = Caller(None, "127.0.0.1")
# A snapshot every 8 versions, so that a game of a few dozen versions has several.
EVERY = 8


def _record() -> RequestRecord:
    return RequestRecord("test", "Test", "r")


class _Counted:
    """A store whose decisions_after counts the rows it returns; reads only from the first
    snapshot when `from_first` (a rebuild that replays the whole log, as before)."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.rows = 0
        self.from_first = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def decisions_after(self, *args: Any, **kwargs: Any) -> Any:
        rows = await self._store.decisions_after(*args, **kwargs)
        self.rows += len(rows)
        return rows

    async def latest_snapshot(self, game_id: str, at_most: int | None = None
                              ) -> Snapshot | None:
        return await self._store.latest_snapshot(game_id, 0 if self.from_first else at_most)


async def _with_services(tmp_path: Path,
                         body: Callable[[GameService, GameService, _Counted],
                                        Awaitable[None]]) -> None:
    """`body(service, rebuild, counted)`: two services on one SQLite file, the second's
    store reading from the first snapshot only; no quota on past reads."""
    store = open_store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    await store.open()
    counted, full = _Counted(store), _Counted(store)
    full.from_first = True
    settings = ServiceSettings(snapshot_every=EVERY, create_game_rate="", past_read_rate="")
    service = GameService(counted, settings)  # type: ignore[arg-type]
    rebuild = GameService(full, settings)  # type: ignore[arg-type]
    try:
        await body(service, rebuild, counted)
    finally:
        service.close()
        rebuild.close()
        await store.close()


async def _new_game(service: GameService, clock: bool) -> tuple[str, list[Caller]]:
    options = pb.GameOptions(clock=pb.ClockOptions(initial_ms=600_000, increment_ms=5_000)
                             ) if clock else None
    created = await service.create_game(
        pb.CreateGameRequest(players=2, seed=31, options=options), ANYONE, _record())
    return created.game_id, [Caller(s.token, "127.0.0.1") for s in created.seats]


async def _move(service: GameService, game_id: str, seats: list[Caller], rng: random.Random,
                undo_share: float = 0.0) -> int:
    """One random decision (a whole compound action now and then), or an undo of the seat to
    act with `undo_share` when it may; returns the new version."""
    state = (await service.get_game(pb.GetGameRequest(game_id=game_id), ANYONE,
                                    _record())).message.state
    seat = seats[state.summary.current_seat]
    version = state.summary.version
    if rng.random() < undo_share and state.birmingham.undo_steps > 0:
        reply = await service.undo_action(
            pb.UndoActionRequest(game_id=game_id, expected_version=version), seat, _record())
        return reply.message.state.summary.version
    legal = (await service.list_legal_actions(
        pb.ListLegalActionsRequest(game_id=game_id, include_compound_actions=True), seat,
        _record())).message
    if legal.compound_actions and rng.random() < 0.3:
        action = pb.Action(compound=pb.ActionIds(ids=rng.choice(legal.compound_actions).ids))
    else:
        action = pb.Action(option_id=rng.choice(legal.options).id)
    reply = await service.submit_action(pb.SubmitActionRequest(
        game_id=game_id, action=action, expected_version=version), seat, _record())
    return reply.message.state.summary.version


def _same(one: Reply, other: Reply) -> None:
    assert one.to_bytes() == other.to_bytes()
    assert one.to_json_text() == other.to_json_text()


@pytest.mark.parametrize("clock", [False, True], ids=["no-clock", "fischer-clock"])
def test_a_past_version_reads_only_the_decisions_after_its_snapshot(
    tmp_path: Path, clock: bool
) -> None:
    """GetGame at_version on a game of ~70 versions (snapshots every 8) reads only the
    decisions from the newest snapshot at or before the version to the one spanning it
    (before: the whole log at every read); a version asked again reads nothing; every
    answer (each version, a spectator's and each seat's, bytes and JSON) is the one a
    rebuild from the first snapshot gives."""

    async def body(service: GameService, rebuild: GameService, counted: _Counted) -> None:
        game_id, seats = await _new_game(service, clock)
        rng = random.Random(7)
        head = 0
        while head < 70:
            head = await _move(service, game_id, seats, rng, undo_share=0.3)
        row = await counted.get_game(game_id)
        snapshots = [(await service.live.snapshot_game(row, v))[1] for v in range(head)]
        assert max(snapshots) >= head - 2 * EVERY  # the reads below start from them
        for version in range(head):
            for caller in (ANYONE, *seats):
                request = pb.GetGameRequest(game_id=game_id, at_version=version)
                counted.rows = 0
                answer = await service.get_game(request, caller, _record())
                # the snapshot's own decision, one at most a version after it up to the
                # version, the one spanning it (snapshot: the newest at or before the
                # version taken at an undo barrier, docs/UNDO.md)
                assert counted.rows <= version - snapshots[version] + 2, (version, counted.rows)
                _same(answer, await rebuild.get_game(request, caller, _record()))
                assert answer.message.state.summary.version == version
        counted.rows = 0
        request = pb.GetGameRequest(game_id=game_id, at_version=head - 1)
        await service.get_game(request, ANYONE, _record())
        assert counted.rows == 0  # a recent past state is kept

    asyncio.run(_with_services(tmp_path, body))


def test_a_replay_after_a_move_is_extended_not_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the first GetReplay of a game, each GetReplay after a move reads only the new
    stored decisions and replays only them in the engine (counted), up to the game's end
    with undos and compound actions on the way; each answer is byte for byte, bytes and
    JSON, a rebuild's from the first snapshot, and its JSON text is the message's
    canonical JSON as before."""
    replayed: list[int] = []
    extend = replay.extend_replay

    def counted_extend(game_id: str, parts: Any, rows: list[Any], version: int) -> None:
        before = parts.version
        extend(game_id, parts, rows, version)
        replayed.append(parts.version - before)

    monkeypatch.setattr(replay, "extend_replay", counted_extend)

    async def body(service: GameService, rebuild: GameService, counted: _Counted) -> None:
        game_id, seats = await _new_game(service, clock=False)
        rng = random.Random(3)
        ask = pb.GetReplayRequest(game_id=game_id)
        head = 0
        while head < 40:
            head = await _move(service, game_id, seats, rng, undo_share=0.2)
        await service.get_replay(ask, ANYONE, _record())
        assert replayed == [head]
        over = False
        moves = 0
        while not over:
            before = head
            head = await _move(service, game_id, seats, rng, undo_share=0.05)
            replayed.clear()
            counted.rows = 0
            answer = await service.get_replay(ask, ANYONE, _record())
            assert counted.rows == 1 and replayed == [head - before]
            again = await service.get_replay(ask, ANYONE, _record())
            assert again is answer and counted.rows == 1 and replayed == [head - before]
            over = answer.message.complete
            moves += 1
            if moves % 40 == 0 or over:
                rebuild.replays._replays.clear()
                rebuild.replays._replay_bytes = 0
                _same(answer, await rebuild.get_replay(ask, ANYONE, _record()))
                assert answer.to_json_text() == json.dumps(
                    message_to_json_dict(answer.message), separators=(",", ":"))
        finished = answer.message
        assert finished.version == len(finished.decisions) == head
        assert any(d.undo for d in finished.decisions) and "seed" in finished.record_json

    asyncio.run(_with_services(tmp_path, body))


def test_a_replay_is_made_once_per_version_and_kept_within_its_bounds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GetReplay asked again at the same version is the same answer, made once; past the
    kept bytes' budget nothing is kept and each answer is made from the start again."""
    replayed: list[int] = []
    extend = replay.extend_replay

    def counted_extend(game_id: str, parts: Any, rows: list[Any], version: int) -> None:
        before = parts.version
        extend(game_id, parts, rows, version)
        replayed.append(parts.version - before)

    monkeypatch.setattr(replay, "extend_replay", counted_extend)

    async def body(service: GameService, rebuild: GameService, counted: _Counted) -> None:
        game_id, seats = await _new_game(service, clock=False)
        ask = pb.GetReplayRequest(game_id=game_id)
        first = await service.get_replay(ask, ANYONE, _record())
        again = await service.get_replay(ask, ANYONE, _record())
        assert replayed == [0] and json.loads(first.to_json_text())["version"] == "0"
        _same(first, again)
        head = await _move(service, game_id, seats, random.Random(1))
        after = (await service.get_replay(ask, ANYONE, _record())).message
        assert after.version == head and replayed == [0, head]
        monkeypatch.setattr(replay, "_REPLAY_BYTES_KEPT", 0)
        replayed.clear()
        await service.get_replay(ask, ANYONE, _record())  # kept from before: then dropped
        await service.get_replay(ask, ANYONE, _record())
        replays = service.replays
        assert replayed == [head] and not replays._replays and replays._replay_bytes == 0

    asyncio.run(_with_services(tmp_path, body))


def _rest_get(server: ServerProcess, path: str) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection(LOOPBACK, server.http_port, timeout=60)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_reads_of_the_past_are_rate_limited_per_client_over_both_transports(
    tmp_path: Path
) -> None:
    """PAST_READ_RATE 4/minute: GetGame at_version and GetReplay count together per
    address over gRPC and REST; the 5th is refused (RATE_LIMITED, limit past_read_rate,
    RetryInfo over gRPC, Retry-After over REST), whatever seat token it carries; reads of
    the present are not counted."""
    server = ServerProcess(tmp_path, env={"BRASS_PAST_READ_RATE": "4/minute"}).start()
    try:
        with GameClient(server.grpc_target, timeout=30) as client:
            created = client.create_game(players=2, seed=3)
            game_id, token = created.game_id, created.seats[0].token
            past = pb.GetGameRequest(game_id=game_id, at_version=0)
            client._call("GetReplay", pb.GetReplayRequest(game_id=game_id), None)
            client._call("GetGame", past, token)
            assert _rest_get(server, f"/v1/games/{game_id}/replay")[0] == 200
            assert _rest_get(server, f"/v1/games/{game_id}?atVersion=0")[0] == 200
            for _ in range(3):  # the present is not counted
                client.get_game(game_id)
            refused = expect_error("RATE_LIMITED", client._call, "GetGame", past, token)
            assert refused.metadata["limit"] == "past_read_rate"
            try:
                client._stub.GetReplay(pb.GetReplayRequest(game_id=game_id), timeout=30)
                raise AssertionError("a 5th read of the past within the minute was answered")
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                status = status_pb2.Status.FromString(dict(error.trailing_metadata())[
                    "grpc-status-details-bin"])
                assert any(d.Is(error_details_pb2.RetryInfo.DESCRIPTOR) for d in status.details)
            for path in (f"/v1/games/{game_id}/replay", f"/v1/games/{game_id}?atVersion=0"):
                status_code, headers, body = _rest_get(server, path)
                assert status_code == 429 and int(headers["Retry-After"]) >= 1
                error_body = json.loads(body)["error"]
                assert error_body["reason"] == "RATE_LIMITED"
            assert _rest_get(server, f"/v1/games/{game_id}")[0] == 200
    finally:
        server.stop()


def test_the_past_reads_figures_command_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m brass_service.tools.bench_past_reads` (the figures of docs/SERVICE.md), on a
    short game: it prints both figures."""
    bench_past_reads.main(["--versions", "30", "--reads", "3", "--moves", "2"])
    printed = capsys.readouterr().out
    assert "GetGame at_version: CPU per request median" in printed
    assert "GetReplay after a move: CPU per request median" in printed
