"""Worker processes of the server (the bot pools of RunBatch and of server bots, the
`--workers` processes): dying with the parent, the pools' initializer (nice, the shared
cancellation flags, the bots imported once) and terminating a pool at once."""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from typing import Any

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


# Cancellation flags shared with the workers, one per batch slot (batch id modulo the
# size): a game checks its batch's flag between decisions and stops when it is set, so a
# batch whose client left frees its workers within one decision.
CANCEL_SLOTS = 1024
_cancelled: Any = None  # the shared flags, in a worker process


def cancel_flags() -> Any:
    """The cancellation flags init_worker was given, in a worker process (else None)."""
    return _cancelled


def init_worker(
    nice: int, cancelled: Any, bot_modules: tuple[str, ...] = (), server_pid: int = 0
) -> None:
    global _cancelled

    # A server that is killed outright takes its workers along, rather than leaving them
    # to finish a game of minutes for nobody; one killed before this point already left.
    die_with_parent()
    if server_pid and os.getppid() != server_pid:
        os._exit(1)
    _cancelled = cancelled
    if nice > 0:
        with contextlib.suppress(OSError):
            os.nice(nice)
    import brass_clients.bots  # noqa: F401  (import once per worker, before the first game)

    for module in bot_modules:
        importlib.import_module(module)


def terminate(pool: ProcessPoolExecutor) -> None:
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
