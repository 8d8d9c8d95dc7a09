"""Each (game, version, viewer)'s view encoded once per process.

A decision's new version is seen by the seat that made it (SubmitAction's answer), by every
watcher of that seat (its web page's event stream, a bot's WatchGame) and by GetGame; the
view, the bulk of each of those answers, is the same for all of them. A version's state
never changes (an undo is a version of its own), so its encoded view can be shared for as
long as it is kept: a bounded LRU of the latest ones.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from . import typed

T = TypeVar("T")

# Entries kept: a few kilobytes each (a Pittsburgh view's JSON is ~8 KB), so at most a few
# MB; the versions being answered and watched at a time on one process.
DEFAULT_ENTRIES = 256


class ViewCache:
    """The core's view of a game at a version for a seat (None: a spectator), as protobuf
    bytes and as JSON text."""

    def __init__(self, entries: int = DEFAULT_ENTRIES) -> None:
        self.entries = entries
        self._kept: OrderedDict[tuple[str, int, int | None, bool], Any] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def view_bytes(self, game_id: str, version: int, game: Any, seat: int | None) -> bytes:
        return self._get((game_id, version, seat, True), lambda: game.view_proto(seat))

    def view_json_text(self, game_id: str, version: int, game: Any, seat: int | None) -> str:
        return self._get((game_id, version, seat, False),
                         lambda: typed.view_json_text(game, seat))

    def _get(self, key: tuple[str, int, int | None, bool], make: Callable[[], T]) -> T:
        kept = self._kept
        try:
            value: T = kept[key]
        except KeyError:
            self.misses += 1
            value = kept[key] = make()
            if len(kept) > self.entries:
                kept.popitem(last=False)
            return value
        self.hits += 1
        kept.move_to_end(key)
        return value

    def __len__(self) -> int:
        return len(self._kept)
