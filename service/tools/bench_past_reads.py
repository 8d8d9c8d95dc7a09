"""CPU figures of the reads of a long game's past (issue 20, item 5):

    python -m brass_service.tools.bench_past_reads [--versions 5000] [--reads 40] [--moves 20]

Builds, in this process on a fresh SQLite file, a game that one seat grows to `--versions`
versions the cheap way (a decision and its undo, over and over: the server's undo bound is
BRASS_MAX_UNDO_VERSION, 5,000 by default), then measures:

- GetGame `at_version` (a spectator's, as the replay viewer asks): `--reads` versions
  drawn at random, each asked once (none kept from an earlier read), the answer's bytes made;
- GetReplay after a move: `--moves` times, one more decision, then GetReplay and its bytes.

Printed per kind of read: the CPU time per request (process time: the event loop's thread
and any worker thread's, the store's reads included), median and max, and the longest time
the event loop was held by one step during those reads (what other clients of the process
wait). The calls are GameService's, in process (no transport), and only its public
ones, so the same script measures an older checkout of the service too (e.g. a copy of
main's service/ as the package brass_service first on PYTHONPATH). It is a measurement,
not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from ..games import Caller, GameService, ServiceSettings
from ..gen import game_service_pb2 as pb
from ..observability import RequestRecord
from ..store import open_store


def _record(method: str) -> RequestRecord:
    return RequestRecord("bench", method, "r")


class _LoopLag:
    """The longest gap between ticks of a task that wakes every millisecond: about the
    longest the event loop was held by anything else."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            self.longest = max(self.longest, now - last - 0.001)
            last = now

    def __enter__(self) -> _LoopLag:
        self._task = asyncio.get_running_loop().create_task(self._tick())
        return self

    def __exit__(self, *_exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


async def _cpu(call: Callable[[], Awaitable[Any]]) -> float:
    start = time.process_time()
    await call()
    return time.process_time() - start


async def _grow(service: GameService, versions: int) -> tuple[str, list[Caller]]:
    created = await service.create_game(pb.CreateGameRequest(players=2, seed=5),
                                        Caller(None, "127.0.0.1"), _record("CreateGame"))
    seats = [Caller(s.token, "127.0.0.1") for s in created.seats]
    game_id = created.game_id
    version = 0
    while version < versions:
        state = (await service.get_game(pb.GetGameRequest(game_id=game_id), seats[0],
                                        _record("GetGame"))).message.state
        seat = seats[state.summary.current_seat]
        legal = (await service.list_legal_actions(
            pb.ListLegalActionsRequest(game_id=game_id), seat,
            _record("ListLegalActions"))).message
        await service.submit_action(pb.SubmitActionRequest(
            game_id=game_id, action=pb.Action(option_id=legal.options[0].id),
            expected_version=version), seat, _record("SubmitAction"))
        version += 1
        if version < versions:
            try:
                await service.undo_action(pb.UndoActionRequest(
                    game_id=game_id, expected_version=version), seat, _record("UndoAction"))
                version += 1
            except Exception:  # noqa: BLE001 - nothing to undo here: go on deciding
                pass
    return game_id, seats


async def _move(service: GameService, game_id: str, seats: list[Caller]) -> None:
    state = (await service.get_game(pb.GetGameRequest(game_id=game_id), seats[0],
                                    _record("GetGame"))).message.state
    seat = seats[state.summary.current_seat]
    legal = (await service.list_legal_actions(
        pb.ListLegalActionsRequest(game_id=game_id), seat, _record("ListLegalActions"))).message
    await service.submit_action(pb.SubmitActionRequest(
        game_id=game_id, action=pb.Action(option_id=legal.options[0].id),
        expected_version=legal.version), seat, _record("SubmitAction"))


def _line(what: str, cpu: list[float], lag: float) -> str:
    return (f"{what}: CPU per request median {1000 * statistics.median(cpu):.1f} ms, "
            f"max {1000 * max(cpu):.1f} ms ({len(cpu)} requests); longest event-loop "
            f"hold {1000 * lag:.1f} ms")


async def _run(versions: int, reads: int, moves: int, seed: int) -> list[str]:
    with tempfile.TemporaryDirectory() as directory:
        store = open_store(f"sqlite:///{Path(directory) / 'games.sqlite3'}")
        await store.open()
        # no quotas: this process is the only client
        settings = ServiceSettings(create_game_rate="")
        if hasattr(settings, "past_read_rate"):  # (an older checkout has no such quota)
            settings.past_read_rate = ""
        service = GameService(store, settings)
        try:
            started = time.perf_counter()
            game_id, seats = await _grow(service, versions)
            lines = [f"game of {versions} versions grown in "
                     f"{time.perf_counter() - started:.1f} s"]
            anyone = Caller(None, "127.0.0.1")
            rng = random.Random(seed)
            asked = rng.sample(range(versions), min(reads, versions))

            async def past(version: int) -> None:
                reply = await service.get_game(
                    pb.GetGameRequest(game_id=game_id, at_version=version), anyone,
                    _record("GetGame"))
                reply.to_bytes()

            async def replay() -> None:
                (await service.get_replay(pb.GetReplayRequest(game_id=game_id), anyone,
                                          _record("GetReplay"))).to_bytes()

            await replay()  # the replay of the grown game, kept as a client would find it
            with _LoopLag() as lag:
                cpu = [await _cpu(lambda v=v: past(v)) for v in asked]
            lines.append(_line("GetGame at_version", cpu, lag.longest))
            cpu = []
            with _LoopLag() as lag:
                for _ in range(moves):
                    await _move(service, game_id, seats)
                    cpu.append(await _cpu(replay))
            lines.append(_line("GetReplay after a move", cpu, lag.longest))
            return lines
        finally:
            service.close()
            await store.close()


def main(argv: list[str] | None = None) -> list[str]:
    parser = argparse.ArgumentParser(prog="python -m brass_service.tools.bench_past_reads",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--versions", type=int, default=5000)
    parser.add_argument("--reads", type=int, default=40)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    lines = asyncio.run(_run(args.versions, args.reads, args.moves, args.seed))
    for line in lines:
        print(line)
    return lines


if __name__ == "__main__":
    main()
