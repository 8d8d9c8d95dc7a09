"""Bots that misbehave on purpose, for the batch tests: imported by the test process and
by the batch workers (BatchRunner's `bot_modules`)."""

from __future__ import annotations

import asyncio
import json
import os
import random
from typing import Any

import brass
from brass_clients.bots import Bot, register


class TwoArgumentError(Exception):
    """Like brass.EngineError once was: pickled as its message alone, it cannot be rebuilt."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@register("fails-mid-game")
class FailingBot(Bot):
    name = "fails-mid-game"

    def choose(self, game: brass.Game, rng: random.Random) -> int:
        raise TwoArgumentError("BROKEN", "this bot fails on its first decision")


@register("ends-its-process")
class ProcessEndingBot(Bot):
    """Stands for a game that takes its worker down (a crash in C, the memory limit)."""

    name = "ends-its-process"

    def choose(self, game: brass.Game, rng: random.Random) -> int:
        os._exit(70)


def worker_death_scenario() -> dict[str, Any]:
    """A healthy batch and one whose game ends its worker, on one shared pool of two
    workers; returns how each ended (reason and message, or OK) and the games it gave."""
    from brass_service.bots.batches import BatchLimits, BatchRunner
    from brass_service.errors import ServiceError
    from brass_service.observability import RequestRecord

    runner = BatchRunner(BatchLimits(workers=2, worker_nice=0), bot_modules=(__spec__.name,))

    async def outcome(bots: list[str], games: int) -> dict[str, Any]:
        indices: list[int] = []
        stream = runner._run(bots, 8, games, {}, False, RequestRecord("test", "RunBatch", "t"))
        try:
            async for result in stream:
                indices.append(result.index)
        except ServiceError as error:
            return {"outcome": f"{error.reason}: {error.message}", "indices": sorted(indices)}
        finally:
            await stream.aclose()
        return {"outcome": "OK", "indices": sorted(indices)}

    async def both() -> dict[str, Any]:
        healthy = asyncio.create_task(outcome(["greedy", "random"], 8))
        await asyncio.sleep(0.5)  # the healthy batch has games on both workers by then
        culprit = asyncio.create_task(outcome(["ends-its-process", "random"], 2))
        return {"healthy": await healthy, "culprit": await culprit}

    try:
        return asyncio.run(both())
    finally:
        runner.close()


if __name__ == "__main__":
    print(json.dumps(worker_death_scenario()))
