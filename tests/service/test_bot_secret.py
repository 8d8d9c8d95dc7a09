"""Server bots cannot be replayed from outside (issue 20, item 4).

A bot decision's seed is keyed with the server's secret (BRASS_BOT_SECRET, or one drawn at
start-up and handed by the `--workers` supervisor to every worker), not computable from the
game id and version alone; and the seat bot decides on what its seat may see only: in two
states that differ only in the hidden deck it chooses the same.
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import time
from pathlib import Path
from typing import Any

import pytest

from brass_service.app import workers
from brass_service.app.config import settings_from_env
from brass_service.bots.bot_seats import BOT_SECRET_ENV, decision_seed
from brass_service.games import GameService, ServiceSettings
from brass_service.gen import game_service_pb2 as pb
from brass_service.observability import RequestRecord
from brass_service.store import open_store
from brass_service.tools.bot_twins import differing_choices

from .test_server_moves import OPERATOR


def _public_seed(game_id: str, version: int) -> int:
    """The seed server bots had before: anyone could compute it."""
    return int.from_bytes(hashlib.sha256(f"{game_id}:{version}".encode()).digest()[:8], "little")


def test_the_seed_depends_on_the_secret_and_is_not_the_public_formula() -> None:
    seeds = {decision_seed(secret, "g1", 7) for secret in ("alpha", "beta", "gamma")}
    assert len(seeds) == 3 and _public_seed("g1", 7) not in seeds
    assert decision_seed("alpha", "g1", 7) == decision_seed("alpha", "g1", 7)
    assert decision_seed("alpha", "g1", 7) != decision_seed("alpha", "g1", 8)


class _RecordingBots:
    def __init__(self) -> None:
        self.seeds: list[int] = []

    async def choose(self, game: Any, spec: str, seat: int, seed: int) -> int:
        self.seeds.append(seed)
        await asyncio.Event().wait()  # one decision is all it takes: the game stops here
        return int(game.legal_ids()[0])

    def close(self) -> None:
        pass


def _first_bot_seed(tmp_path: Path, name: str, secret: str) -> tuple[str, int]:
    """A server with `secret` (empty: its own) starts an all-bot game: its id and the seed
    of the first bot decision."""

    async def scenario() -> tuple[str, int]:
        store = open_store(f"sqlite:///{tmp_path / (name + '.sqlite3')}")
        await store.open()
        service = GameService(store, ServiceSettings(
            operator_token=OPERATOR.token or "", bot_secret=secret, timer_poll_seconds=0.05))
        bots = _RecordingBots()
        service.bots = service.server_moves.bots = bots  # type: ignore[assignment]
        await service.start()
        try:
            created = await service.create_game(pb.CreateGameRequest(
                players=2, bot_seats=[pb.BotSeat(seat=0, bot="random"),
                                      pb.BotSeat(seat=1, bot="random")]),
                OPERATOR, RequestRecord("test", "CreateGame", "r"))
            deadline = time.monotonic() + 20  # bounds a broken server only
            while not bots.seeds:
                assert time.monotonic() < deadline, "no bot decision"
                await asyncio.sleep(0.02)
            return created.game_id, bots.seeds[0]
        finally:
            await service.stop()
            await store.close()

    return asyncio.run(scenario())


def test_a_servers_bots_are_seeded_with_its_secret(tmp_path: Path) -> None:
    game_id, seed = _first_bot_seed(tmp_path, "alpha", "alpha")
    versions = range(4)
    assert seed in {decision_seed("alpha", game_id, v) for v in versions}
    assert seed not in {decision_seed("beta", game_id, v) for v in versions}
    assert seed not in {_public_seed(game_id, v) for v in versions}
    # without BRASS_BOT_SECRET the server draws its own: still nothing a client can compute
    game_id, seed = _first_bot_seed(tmp_path, "drawn", "")
    assert seed not in {_public_seed(game_id, v) for v in versions}


def test_the_secret_comes_from_the_environment_and_stays_out_of_repr(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(BOT_SECRET_ENV, "from-the-environment")
    settings = settings_from_env()[0]
    assert settings.bot_secret == "from-the-environment"
    assert "from-the-environment" not in repr(settings)


def _secret_seen_by_a_worker(queue: Any) -> None:
    import os

    queue.put(settings_from_env()[0].bot_secret or os.environ.get(BOT_SECRET_ENV, ""))


def test_the_supervisor_hands_every_worker_the_same_secret(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without BRASS_BOT_SECRET the supervisor draws one and exports it; workers (spawned,
    as serve_workers starts them) read it from their settings. A given one is kept."""
    monkeypatch.delenv(BOT_SECRET_ENV, raising=False)
    drawn = workers.share_bot_secret()
    assert len(drawn) >= 32 and workers.share_bot_secret() == drawn
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    procs = [context.Process(target=_secret_seen_by_a_worker, args=(queue,)) for _ in range(2)]
    for proc in procs:
        proc.start()
    seen = [queue.get(timeout=60) for _ in procs]
    for proc in procs:
        proc.join(60)
    assert seen == [drawn, drawn]
    monkeypatch.setenv(BOT_SECRET_ENV, "given")
    assert workers.share_bot_secret() == "given"


def test_the_mcts_seat_bot_chooses_the_same_in_states_differing_only_in_the_deck() -> None:
    """Twin Birmingham states (every seat's view identical, the deck in another order): the
    seat bot, run as the server runs it with the same seed, decides the same in both. On a
    determinize that re-deals from the true deck order most pairs differ."""
    assert differing_choices(12, "mcts:iterations=60") == 0
