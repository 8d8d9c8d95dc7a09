"""The transport-neutral game service (GameService) and its parts, one concern a module.

It authenticates seats, loads games from the store (through a per-replica cache that is
always brought up to the store's head before use), asks the engine every rules question,
and stores each accepted decision before answering. It never decides a game rule itself.
docs/ARCHITECTURE.md says which module holds which concern.
"""

from .access import Caller
from .service import GameService
from .settings import ServiceSettings

__all__ = ["Caller", "GameService", "ServiceSettings"]
