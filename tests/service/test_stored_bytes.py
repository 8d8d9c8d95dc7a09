"""What a live game's rows cost the store (issue 22): snapshots are stored deflated (and the
raw rows of earlier versions still read), and a decision without an idempotency key keeps
no request fingerprint (only a retry with the same key reads it)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
import zlib
from pathlib import Path

import pytest

import brass
from brass_service.errors import ServiceError
from brass_service.games import Caller, GameService, ServiceSettings
from brass_service.gen import game_service_pb2 as pb
from brass_service.observability import RequestRecord
from brass_service.store import CorruptRecord, GameRow, Snapshot, open_store


def _row(game_id: str) -> GameRow:
    now = time.time()
    return GameRow(
        game_id=game_id, ruleset=0, rules_edition=1, players=2, seed=7,
        options={"beginner": False}, position_json=None, seat_names=["A", "B"],
        token_hashes=["0" * 64, "1" * 64], created_at=now, updated_at=now,
        version=0, status=1, current_seat=0, decision="action",
    )


def _column(path: Path, sql: str) -> list[tuple]:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return conn.execute(sql).fetchall()


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_snapshots_are_stored_deflated_and_raw_rows_still_read(tmp_path: Path,
                                                              ruleset: str) -> None:
    path = tmp_path / "store.sqlite3"
    snapshot = brass.Game.new(2, seed=7, ruleset=ruleset).snapshot()

    async def scenario() -> None:
        store = open_store(f"sqlite:///{path}")
        await store.open()
        try:
            await store.create_game(_row("deflated"), Snapshot(0, snapshot))
            await store.create_game(_row("raw"), Snapshot(0, b"placeholder"))
            await store.create_game(_row("broken"), Snapshot(0, b"placeholder"))
            [(stored,)] = _column(path, "SELECT data FROM snapshots WHERE game_id = 'deflated'")
            assert len(stored) < len(snapshot) / 2 and zlib.decompress(stored) == snapshot
            # a row as earlier versions wrote it: the engine's bytes as they are
            with contextlib.closing(sqlite3.connect(path)) as conn:
                conn.execute("UPDATE snapshots SET data = ? WHERE game_id = 'raw'", (snapshot,))
                conn.execute("UPDATE snapshots SET data = ? WHERE game_id = 'broken'",
                             (zlib.compress(snapshot)[:-9],))
                conn.commit()
            for game_id in ("deflated", "raw"):
                read = await store.latest_snapshot(game_id)
                assert read is not None and read.version == 0 and read.data == snapshot
                assert brass.Game.restore(read.data).snapshot() == snapshot
            with pytest.raises(CorruptRecord, match="broken"):
                await store.latest_snapshot("broken")  # a deflated row cut short
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_decision_keeps_a_fingerprint_only_with_an_idempotency_key(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"

    async def scenario() -> None:
        store = open_store(f"sqlite:///{path}")
        await store.open()
        operator = Caller(token="op", peer="127.0.0.1")
        service = GameService(store, ServiceSettings(operator_token="op"))
        try:
            created = await service.create_game(
                pb.CreateGameRequest(players=2, seed=3), operator,
                RequestRecord("test", "CreateGame", "1"))
            for key in (None, "k1"):
                _, live = await service.live.get(created.game_id)
                game = live.game
                seat = Caller(token=created.seats[game.current_seat].token, peer="127.0.0.1")
                request = pb.SubmitActionRequest(
                    game_id=created.game_id, expected_version=live.version,
                    action=pb.Action(option_id=game.legal_ids()[0]))
                if key is not None:
                    request.idempotency_key = key
                await service.submit_action(request, seat,
                                            RequestRecord("test", "SubmitAction", "2"))
            rows = _column(path, "SELECT idempotency_key, fingerprint FROM decisions "
                                 "ORDER BY from_version")
            assert rows[0] == (None, "") and rows[1][0] == "k1" and len(rows[1][1]) == 64
            # the retry with the key is still told apart from another request with it
            _, live = await service.live.get(created.game_id)
            other = pb.SubmitActionRequest(
                game_id=created.game_id, expected_version=1, idempotency_key="k1",
                action=pb.Action(option_id=live.game.legal_ids()[-1]))
            with pytest.raises(ServiceError) as refused:
                await service.submit_action(other, seat,
                                            RequestRecord("test", "SubmitAction", "3"))
            assert refused.value.reason == "IDEMPOTENCY_KEY_REUSED"
        finally:
            await store.close()

    asyncio.run(scenario())
