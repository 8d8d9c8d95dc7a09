"""A stop gives back every claim the store holds for this process, even one whose write
was still in flight when the stop cancelled the move (CI once found a game kept for the
whole lease after a SIGTERM: test_sigterm_gives_back_the_games_whose_bots_were_searching).

The store here is a stand-in whose claim write runs in a thread, as the real stores' do:
cancelling the coroutine that waits for it does not stop the write."""

from __future__ import annotations

import asyncio
import threading
import time
from types import SimpleNamespace
from typing import Any

from brass_service.games.timer import ServerMoves


class ThreadedClaims:
    """claim_due's conditions on a single game's next_due, written from a thread after a
    delay (a slow disk)."""

    def __init__(self, write_seconds: float) -> None:
        self.next_due: float | None = 0.0
        self.write_seconds = write_seconds
        self.lock = threading.Lock()

    async def claim_due(self, game_id: str, version: int, seats_revision: int, now: float,
                        until: float | None) -> bool:
        def write() -> bool:
            time.sleep(self.write_seconds)
            with self.lock:
                if self.next_due is None or self.next_due > now:
                    return False
                self.next_due = until
                return True

        return await asyncio.to_thread(write)


def _moves(store: Any, lease_seconds: float) -> ServerMoves:
    settings = SimpleNamespace(bot_secret="s", server_move_lease_seconds=lease_seconds)
    return ServerMoves(store, settings, None, None, None, None, None, 1)  # type: ignore[arg-type]


async def _stop_while(store: ThreadedClaims, moves: ServerMoves, wait_before_stop: float) -> None:
    async def search() -> None:
        async with moves._claimed("g", 3, 0) as claimed:
            assert claimed
            await asyncio.sleep(30)  # a long bot search

    moves._moving["g"] = asyncio.create_task(search())
    await asyncio.sleep(wait_before_stop)
    await moves.stop()
    assert store.next_due is not None


def test_a_claim_written_while_the_stop_cancels_is_given_back() -> None:
    store = ThreadedClaims(write_seconds=0.2)
    moves = _moves(store, lease_seconds=60)
    # The stop comes while the claim's write is in flight (0.05 s into 0.2 s).
    asyncio.run(_stop_while(store, moves, wait_before_stop=0.05))
    assert store.next_due is not None and store.next_due <= time.time()


def test_a_claim_held_during_the_search_is_given_back() -> None:
    store = ThreadedClaims(write_seconds=0.0)
    moves = _moves(store, lease_seconds=60)
    asyncio.run(_stop_while(store, moves, wait_before_stop=0.1))
    assert store.next_due is not None and store.next_due <= time.time()


def test_a_renewal_written_while_the_stop_cancels_is_given_back() -> None:
    # Lease 0.3 s: the renewal starts at 0.1 s and writes until 0.15 s; the stop at 0.12 s.
    store = ThreadedClaims(write_seconds=0.05)
    moves = _moves(store, lease_seconds=0.3)
    asyncio.run(_stop_while(store, moves, wait_before_stop=0.12 + 0.05))
    assert store.next_due is not None and store.next_due <= time.time()
