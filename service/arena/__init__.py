"""Arenas: tournaments between bot accounts and server bots (arenas.py: the RPCs;
runner.py: running them; schedule.py: pairings and the table of results)."""

from .arenas import ArenaConfigError, Arenas
from .runner import ArenaRunner

__all__ = ["ArenaConfigError", "ArenaRunner", "Arenas"]
