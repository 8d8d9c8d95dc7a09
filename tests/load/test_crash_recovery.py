"""Crash recovery under load: SIGKILL the server at random moments while client threads play,
restart it on the same database, and check that nothing acknowledged was lost.

Each client thread plays its own games through the SDK (ListLegalActions, then SubmitAction
with the version it saw and an idempotency key) and records every decision the server
acknowledged. A submission whose answer was lost in a crash is resubmitted, unchanged and
with the same key, once the server is back: it must then be acknowledged (as the stored
answer when it had been committed, or applied now when it had not) — never lost, never
applied twice. After each restart and at the end:
- every acknowledged decision is in the game's decision log, at its version;
- every game replays from its seed and decision log (brass.Game.replay) to the stored state:
  the state hash stored with each decision, and the view GetGame shows every seat and a
  spectator;
- play continues, and every game is played to its end.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest
from service.helpers import engine_view

import brass
from brass_clients.sdk import BrassError, GameClient, pb, view_dict
from brass_service.store import open_store

from .conftest import Backend, ServerProcess

T = TypeVar("T")

KILLS = 4
CLIENT_THREADS = 4
# Transport failures while the server is down or dying; anything else is a finding.
TRANSIENT = {"UNAVAILABLE", "DEADLINE_EXCEEDED"}
DOWNTIME_LIMIT_SECONDS = 90.0


@dataclass
class Ack:
    """A decision the server acknowledged (SubmitAction returned OK)."""

    from_version: int
    to_version: int
    option: int
    key: str
    replayed: bool


@dataclass
class PlayedGame:
    game_id: str
    players: int
    seed: int
    tokens: list[str]
    acks: list[Ack] = field(default_factory=list)
    finished: bool = False


class Player(threading.Thread):
    """Plays whole games until told to stop, riding out server crashes."""

    def __init__(self, target: str, index: int, stop: threading.Event) -> None:
        super().__init__(name=f"player-{index}", daemon=True)
        self.target = target
        self.rng = random.Random(1000 + index)
        self.stop_after_game = stop
        self.games: list[PlayedGame] = []
        self.lock = threading.Lock()
        self.unexpected: list[str] = []
        self.transient_failures = 0
        self.resolved_after_crash = 0  # lost answers, resolved by resubmitting the key

    def retry(self, what: str, call: Any, *args: Any, **kwargs: Any) -> Any:
        deadline = time.monotonic() + DOWNTIME_LIMIT_SECONDS
        while True:
            try:
                return call(*args, **kwargs)
            except BrassError as error:
                if error.reason not in TRANSIENT or time.monotonic() > deadline:
                    raise
                self.transient_failures += 1
                time.sleep(0.05)

    def run(self) -> None:
        try:
            with GameClient(self.target, timeout=10, retries=1) as client:
                while not self.stop_after_game.is_set():
                    self.play_game(client)
        except Exception as exc:  # reported to the test, which fails on it
            self.unexpected.append(f"{type(exc).__name__}: {exc}")

    def play_game(self, client: GameClient) -> None:
        players, seed = self.rng.choice((2, 3)), self.rng.getrandbits(63)
        created = self.retry("CreateGame", client.create_game, players=players, seed=seed)
        game = PlayedGame(created.game_id, players, seed, [s.token for s in created.seats])
        with self.lock:
            self.games.append(game)
        state = created.state
        while state.summary.status == pb.GAME_STATUS_IN_PROGRESS:
            seat = state.summary.current_seat
            token = game.tokens[seat]
            legal = self.retry("ListLegalActions", client.list_legal_actions, game.game_id, token)
            version = legal.version
            expected = game.acks[-1].to_version if game.acks else 0
            if version != expected:
                raise AssertionError(
                    f"{game.game_id}: the server is at version {version}, but the last "
                    f"acknowledged decision left it at {expected}"
                )
            option, key = self.rng.choice(legal.options).id, uuid.uuid4().hex
            response = self.submit(client, game, token, option, version, key)
            with self.lock:
                game.acks.append(Ack(version, response.state.summary.version, option, key,
                                     response.replayed))
            state = response.state
        game.finished = True

    def submit(self, client: GameClient, game: PlayedGame, token: str, option: int,
               version: int, key: str) -> pb.SubmitActionResponse:
        """Submits until the outcome is known; the same key and body every time."""
        lost_answer = False
        deadline = time.monotonic() + DOWNTIME_LIMIT_SECONDS
        while True:
            try:
                response = client.submit_action(
                    game.game_id, token, option, expected_version=version, idempotency_key=key
                )
            except BrassError as error:
                if error.reason not in TRANSIENT or time.monotonic() > deadline:
                    raise
                self.transient_failures += 1
                lost_answer = True
                time.sleep(0.05)
                continue
            if lost_answer:
                self.resolved_after_crash += 1
            if response.state.summary.version != version + 1:
                raise AssertionError(f"{game.game_id}: {version} -> "
                                     f"{response.state.summary.version} for one option id")
            return response

    def snapshot(self) -> list[tuple[PlayedGame, list[Ack]]]:
        with self.lock:
            return [(game, list(game.acks)) for game in self.games]


def _stored_decisions(database_url: str, game_id: str, up_to: int) -> list[Any]:
    async def read() -> list[Any]:
        store = open_store(database_url)
        await store.open()
        try:
            return list(await store.decisions_after(game_id, 0, up_to=up_to))
        finally:
            await store.close()

    return asyncio.run(read())


def _view(document: dict[str, Any]) -> dict[str, Any]:
    """The engine's view as the service's typed view reads back (sdk.view_dict)."""
    return engine_view(document)


def check_games(server: ServerProcess, database_url: str, players: list[Player],
                final: bool) -> dict[str, int]:
    """Acknowledged decisions present; games replay to the stored state. Returns figures."""
    figures = {"games": 0, "acks": 0, "lost": 0, "replays_checked": 0}
    with server.client() as client:
        for player in players:
            for game, acks in player.snapshot():
                figures["games"] += 1
                figures["acks"] += len(acks)
                complete, record = client.get_replay(game.game_id)
                decisions = record["decisions"]
                for ack in acks:
                    at = ack.from_version
                    if at >= len(decisions) or decisions[at] != ack.option:
                        figures["lost"] += 1
                if final:
                    assert complete and record["seed"] == str(game.seed)
                    assert len(decisions) == len(acks), "unacknowledged decisions were stored"
                    versions = [(a.from_version, a.to_version) for a in acks]
                    assert versions == [(v, v + 1) for v in range(len(acks))]
                # The seed and the stored log rebuild the stored state, decision by decision.
                rebuilt = brass.Game.new(players=game.players, seed=game.seed)
                rows = _stored_decisions(database_url, game.game_id, len(decisions))
                assert [i for row in rows for i in row.action["ids"]] == decisions
                for row in rows:
                    rebuilt.apply(row.action["ids"][0], seat=row.seat)
                    assert rebuilt.state_hash() == row.state_hash, (
                        f"{game.game_id}: replay leaves version {row.to_version} in another "
                        "state than the one stored"
                    )
                if final:
                    replayed = brass.Game.replay(record)
                    assert replayed.state_hash() == rebuilt.state_hash()
                    assert replayed.is_over
                    state = client.get_game(game.game_id)
                    assert state.summary.version == len(decisions)
                    assert view_dict(state) == _view(replayed.view(None))
                    for seat, token in enumerate(game.tokens):
                        seat_state = client.get_game(game.game_id, token)
                        assert view_dict(seat_state) == _view(replayed.view(seat))
                    assert list(state.scores) == replayed.scores()
                    assert list(state.winners) == replayed.winners()
                figures["replays_checked"] += 1
    return figures


@pytest.mark.timeout(600)
def test_sigkill_under_load_loses_no_acknowledged_decision(backend: Backend) -> None:
    database_url = backend.new_database_url()
    server = backend.start_server("crash-recovery", database_url=database_url)
    rng = random.Random(2024)
    stop = threading.Event()
    players = [Player(server.grpc_target, i, stop) for i in range(CLIENT_THREADS)]
    for player in players:
        player.start()
    recovery_runs = 0
    lost_per_run: list[int] = []
    try:
        for _ in range(KILLS):
            time.sleep(rng.uniform(0.5, 2.5))  # let the load build up, then crash mid-flight
            acked_before = sum(len(acks) for p in players for _, acks in p.snapshot())
            server.stop(crash=True)
            time.sleep(rng.uniform(0.0, 0.5))
            server.start()
            recovery_runs += 1
            figures = check_games(server, database_url, players, final=False)
            assert figures["acks"] >= acked_before
            lost_per_run.append(figures["lost"])
            assert figures["lost"] == 0, f"acknowledged decisions lost: {figures}"
    finally:
        stop.set()  # each player finishes the game it is playing, then stops
        for player in players:
            player.join(timeout=400)
    for player in players:
        assert not player.is_alive(), f"{player.name} did not finish its game"
        assert not player.unexpected, player.unexpected
    figures = check_games(server, database_url, players, final=True)
    resolved = sum(p.resolved_after_crash for p in players)
    replayed = sum(ack.replayed for p in players for _, acks in p.snapshot() for ack in acks)
    print(
        f"\n[{backend.name}] recovery runs: {recovery_runs}; moves lost: {figures['lost']} "
        f"(per run: {lost_per_run}); games: {figures['games']}, all finished; acknowledged "
        f"decisions: {figures['acks']}; lost answers resolved by resubmitting the key: "
        f"{resolved} ({replayed} of them committed before the crash and answered from the "
        f"store); transient failures ridden out: "
        f"{sum(p.transient_failures for p in players)}"
    )
    assert recovery_runs == KILLS
    assert figures["lost"] == 0
    assert all(game.finished for p in players for game, _ in p.snapshot())
    server.stop()
