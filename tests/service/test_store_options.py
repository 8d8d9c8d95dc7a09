"""A game's options in its row: only those away from the ruleset's defaults are stored, and
every option comes back (service/store/options.py), on both back ends."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

import brass
from brass_service.gen import game_service_pb2 as pb
from brass_service.store import CorruptRecord, GameRow, Snapshot, open_store
from brass_service.store.options import DEFAULTS_KEY

from .conftest import Backend
from .test_store import _execute


def _row(game_id: str, options: dict[str, object], edition: int) -> GameRow:
    now = time.time()
    return GameRow(
        game_id=game_id, ruleset=pb.RULESET_PITTSBURGH, rules_edition=edition, players=2,
        seed=7, options=options, position_json=None, seat_names=["A", "B"],
        token_hashes=["0" * 64, "1" * 64], created_at=now, updated_at=now, version=0,
        status=1, current_seat=0, decision="action")


def _stored_text(url: str, game_id: str) -> str:
    if url.startswith("sqlite:///"):
        import sqlite3

        with sqlite3.connect(url[len("sqlite:///"):]) as conn:
            return str(conn.execute("SELECT options FROM games WHERE game_id = ?",
                                    (game_id,)).fetchone()[0])
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT options FROM games WHERE game_id = %s", (game_id,)).fetchone()
        assert row is not None
        return str(row[0])


def test_pittsburgh_options_are_stored_as_their_changes_and_read_back_whole(
        backend: Backend) -> None:
    engine = brass.get_ruleset("pittsburgh")
    game = brass.Game.new(2, 7, ruleset="pittsburgh",
                          options={"mfg_v_vp": 11, "links_count_unflipped": True})
    whole = game.replay_record()["options"]
    defaults = {spec.name: spec.default for spec in engine.options}
    assert len(whole) > 40 and set(whole) - set(defaults) == {"auto_resolve"}  # (no spec: kept)
    url = backend.new_database_url()

    async def scenario() -> None:
        store = open_store(url)
        await store.open()
        try:
            await store.create_game(_row("o1", whole, engine.rules_edition), Snapshot(0, b"s"))
            # rows written before the change hold every option, without the marker
            await store.create_game(_row("o2", whole, engine.rules_edition), Snapshot(0, b"s"))
            _execute(url, f"UPDATE games SET options = '{json.dumps(whole)}' "
                          "WHERE game_id = 'o2'")
            # a marker of a rules edition this engine does not have
            await store.create_game(_row("o3", whole, engine.rules_edition), Snapshot(0, b"s"))
            _execute(url, "UPDATE games SET options = "
                          f"'{{\"{DEFAULTS_KEY}\": 99, \"mfg_v_vp\": 11}}' WHERE game_id = 'o3'")
            assert json.loads(_stored_text(url, "o1")) == {
                DEFAULTS_KEY: engine.rules_edition, "auto_resolve": True, "mfg_v_vp": 11,
                "links_count_unflipped": True}
            for game_id in ("o1", "o2"):
                row = await store.get_game(game_id)
                assert row is not None and row.options == whole
            with pytest.raises(CorruptRecord, match="rules edition 99") as raised:
                await store.get_game("o3")
            assert raised.value.game_id == "o3"
        finally:
            await store.close()

    asyncio.run(scenario())


def test_options_of_another_rules_edition_are_stored_whole(backend: Backend) -> None:
    engine = brass.get_ruleset("pittsburgh")
    options = {"mfg_v_vp": 11}  # as an older edition's game might name them
    url = backend.new_database_url()

    async def scenario() -> None:
        store = open_store(url)
        await store.open()
        try:
            await store.create_game(_row("e1", options, engine.rules_edition - 1),
                                    Snapshot(0, b"s"))
            assert json.loads(_stored_text(url, "e1")) == options
            row = await store.get_game("e1")
            assert row is not None and row.options == options
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_marked_row_of_a_ruleset_the_engine_lacks_is_corrupt_and_others_read_whole(
        backend: Backend) -> None:
    url = backend.new_database_url()

    async def scenario() -> None:
        store = open_store(url)
        await store.open()
        try:
            for game_id in ("u1", "u2"):
                row = _row(game_id, {"mfg_v_vp": 11}, 2)
                row.ruleset = 0  # RULESET_UNSPECIFIED: no ruleset of the engine
                await store.create_game(row, Snapshot(0, b"s"))
            assert json.loads(_stored_text(url, "u1")) == {"mfg_v_vp": 11}  # stored whole
            read = await store.get_game("u1")
            assert read is not None and read.options == {"mfg_v_vp": 11}
            _execute(url, f"UPDATE games SET options = '{{\"{DEFAULTS_KEY}\": 2}}' "
                          "WHERE game_id = 'u2'")
            with pytest.raises(CorruptRecord, match="ruleset 0") as raised:
                await store.get_game("u2")
            assert raised.value.game_id == "u2"
        finally:
            await store.close()

    asyncio.run(scenario())
