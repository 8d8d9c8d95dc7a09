"""The server's own moves under a flood of bot work (issue 20, item 3): bot turns are
shared round-robin between the games' creators, and forfeits on time never wait behind bot
searches. The bot workers are replaced by a stand-in whose decisions wait until the test
lets them go, so that "bot work is queued" is a state the test holds, not a race."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from brass_service.bots.fair_slots import FairSlots
from brass_service.games import Caller, GameService, ServiceSettings
from brass_service.gen import game_service_pb2 as pb
from brass_service.observability import RequestRecord
from brass_service.store import open_store

OPERATOR = Caller(token="operator-token", peer="192.0.2.1")
PERSON = Caller(token=None, peer="198.51.100.7")


def test_turns_go_round_robin_between_creators_first_come_within_one() -> None:
    async def scenario() -> list[str]:
        slots = FairSlots(1)
        order: list[str] = []
        await slots.acquire("held")  # the one slot is taken: everyone below waits

        async def wait(key: str, name: str) -> None:
            async with slots.turn(key):
                order.append(name)

        tasks = []
        for key, name in [("a", "a1"), ("a", "a2"), ("a", "a3"), ("b", "b1"), ("c", "c1"),
                          ("b", "b2")]:
            tasks.append(asyncio.create_task(wait(key, name)))
            await asyncio.sleep(0)  # queued in this order
        cancelled = asyncio.create_task(wait("c", "never"))
        await asyncio.sleep(0)
        cancelled.cancel()  # a waiter that leaves gives up its place, and nothing else
        slots.release()
        await asyncio.gather(*tasks)
        assert slots.busy == 0 and slots.waiting == 0
        return order

    assert asyncio.run(scenario()) == ["a1", "b1", "c1", "a2", "b2", "a3"]


def test_turns_for_games_a_person_waits_on_come_first() -> None:
    async def scenario() -> list[str]:
        slots = FairSlots(1)
        order: list[str] = []
        await slots.acquire("held")

        async def wait(key: str, name: str, urgent: bool) -> None:
            async with slots.turn(key, urgent=urgent):
                order.append(name)

        tasks = []
        for key, name, urgent in [("flood", "f1", False), ("flood", "f2", False),
                                  ("p", "p1", True), ("q", "q1", True), ("p", "p2", True),
                                  ("other", "o1", False)]:
            tasks.append(asyncio.create_task(wait(key, name, urgent)))
            await asyncio.sleep(0)
        slots.release()
        await asyncio.gather(*tasks)
        return order

    assert asyncio.run(scenario()) == ["p1", "q1", "p2", "f1", "o1", "f2"]


class _HeldBots:
    """The bot pool's stand-in: each decision waits until the test releases one, and says
    which bot spec asked, in order."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.releases = asyncio.Semaphore(0)

    async def choose(self, game: Any, spec: str, seat: int, seed: int) -> int:
        self.asked.append(spec)
        await self.releases.acquire()
        return int(game.legal_ids()[0])

    def close(self) -> None:
        pass


async def _until(predicate: Any, what: str, timeout: float = 20.0) -> None:
    """A bounded wait (the bound only makes a broken server fail, it is not a timing)."""
    deadline = time.monotonic() + timeout
    while not await predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        await asyncio.sleep(0.02)


async def _service(tmp_path: Path) -> tuple[GameService, _HeldBots]:
    store = open_store(f"sqlite:///{tmp_path / 'moves.sqlite3'}")
    await store.open()
    settings = ServiceSettings(operator_token=OPERATOR.token or "", bot_workers=1,
                               timer_poll_seconds=0.05)
    service = GameService(store, settings)
    bots = _HeldBots()
    service.bots = service.server_moves.bots = bots  # type: ignore[assignment]
    await service.start()
    return service, bots


def test_a_forfeit_due_while_bot_work_is_queued_happens_without_waiting(
    tmp_path: Path,
) -> None:
    """Six all-bot games hold and queue the bot work (none of it finishes); a person's
    game whose turn runs out (100 ms, forfeit) is forfeited meanwhile. On a server whose
    forfeits share the bot turns' slots it waits for bot searches that never end."""

    async def scenario() -> None:
        service, bots = await _service(tmp_path)
        record = RequestRecord("test", "CreateGame", "r")
        try:
            for _ in range(6):
                await service.create_game(pb.CreateGameRequest(
                    players=2, bot_seats=[pb.BotSeat(seat=0, bot="random"),
                                          pb.BotSeat(seat=1, bot="random")]),
                    OPERATOR, record)

            async def queued() -> bool:  # one decision under way, the rest in hand
                return bots.asked != [] and len(service.server_moves._moving) >= min(
                    6, service.settings.max_server_moves)

            await _until(queued, "the bot work queued")
            timed = await service.create_game(pb.CreateGameRequest(
                players=2, options=pb.GameOptions(
                    clock=pb.ClockOptions(turn_ms=100),
                    on_timeout=pb.TIMEOUT_POLICY_FORFEIT,
                    on_resign=pb.RESIGN_POLICY_GAME_ENDS)), PERSON, record)

            async def forfeited() -> bool:
                row = await service.store.get_game(timed.game_id)
                assert row is not None
                return row.status == pb.GAME_STATUS_FINISHED

            await _until(forfeited, "the forfeit")
            assert len(bots.asked) == 1  # the bot work is still where it was
            assert service.server_moves._bot_lane.waiting == 5
        finally:
            await service.stop()
            await service.store.close()

    asyncio.run(scenario())


def test_a_persons_bot_turn_comes_before_a_flooding_creators_queue(tmp_path: Path) -> None:
    """The operator's six all-bot games fill the bot worker's queue first; a person's game
    with a bot created after them gets its bot's decision after at most one more of the
    operator's (round-robin between creators), not after all of them."""

    async def scenario() -> None:
        service, bots = await _service(tmp_path)
        record = RequestRecord("test", "CreateGame", "r")
        try:
            for _ in range(6):
                await service.create_game(pb.CreateGameRequest(
                    players=2, bot_seats=[pb.BotSeat(seat=0, bot="random"),
                                          pb.BotSeat(seat=1, bot="random")]),
                    OPERATOR, record)

            async def all_in_hand() -> bool:
                return bots.asked != [] and len(service.server_moves._moving) >= min(
                    6, service.settings.max_server_moves)

            await _until(all_in_hand, "the operator's bot work")
            person = await service.create_game(pb.CreateGameRequest(
                players=2, bot_seats=[pb.BotSeat(seat=0, bot="greedy"),
                                      pb.BotSeat(seat=1, bot="greedy")]), PERSON, record)

            async def person_in_hand() -> bool:
                return person.game_id in service.server_moves._moving

            await _until(person_in_hand, "the person's bot work")
            started = len(bots.asked)
            for _ in range(2):  # two of the operator's decisions end; the next start
                bots.releases.release()

            async def two_more() -> bool:
                return len(bots.asked) >= started + 2

            await _until(two_more, "two more decisions started")
            assert "greedy" in bots.asked[started:started + 2], bots.asked
        finally:
            for _ in range(50):
                bots.releases.release()
            await service.stop()
            await service.store.close()

    asyncio.run(scenario())


def test_a_claim_is_renewed_while_its_bot_works_and_given_back_on_stop(
    tmp_path: Path,
) -> None:
    """Item 8: the lease of a claim (1 s here) is renewed every third of it while the bot
    works, so a search longer than the lease keeps the game; a graceful stop (stop()) gives
    it back, due at once, instead of leaving it claimed for the rest of the lease."""

    async def scenario() -> None:
        store = open_store(f"sqlite:///{tmp_path / 'lease.sqlite3'}")
        await store.open()
        service = GameService(store, ServiceSettings(
            operator_token=OPERATOR.token or "", bot_workers=1, timer_poll_seconds=0.05,
            server_move_lease_seconds=1.0))
        bots = _HeldBots()
        service.bots = service.server_moves.bots = bots  # type: ignore[assignment]
        await service.start()
        try:
            created = await service.create_game(pb.CreateGameRequest(
                players=2, bot_seats=[pb.BotSeat(seat=0, bot="random"),
                                      pb.BotSeat(seat=1, bot="random")]),
                OPERATOR, RequestRecord("test", "CreateGame", "r"))

            async def asked() -> bool:
                return bots.asked != []

            await _until(asked, "the bot's decision")
            await asyncio.sleep(2.5)  # over two leases into the search
            row = await store.get_game(created.game_id)
            assert row is not None and row.next_due is not None
            assert row.next_due > time.time(), "the claim lapsed while the bot worked"
            await service.stop()
            stopped = time.time()
            row = await store.get_game(created.game_id)
            assert row is not None and row.next_due is not None
            assert row.next_due <= stopped and row.version == 0
        finally:
            service.close()
            await store.close()

    asyncio.run(scenario())
