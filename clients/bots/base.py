"""The bot interface: one method, `choose`, returning a legal id for the current decision.

A new bot is a dozen lines::

    from brass_clients.bots import Bot, register

    @register("first")
    class FirstOptionBot(Bot):
        name = "first"

        def choose(self, game, rng):
            return game.legal_ids()[0]

Legality always comes from the engine (`game.legal_ids()`); a bot only picks among ids.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

import brass


class Bot:
    """Plays Brass by picking one legal id for the decision in front of the seat to act.

    `choose` must not change `game` (work on `game.clone()` to look ahead). `rng` is the
    only source of randomness a bot may use, so games replay exactly from their seeds.
    """

    name: ClassVar[str] = "bot"

    def choose(self, game: brass.Game, rng: random.Random) -> int:
        raise NotImplementedError

    def reset(self) -> None:
        """Forget anything kept between decisions (called at the start of every game)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


BOT_FACTORIES: dict[str, Callable[..., Bot]] = {}


def register(name: str) -> Callable[[type[Bot]], type[Bot]]:
    """Class decorator: make a bot available to `make_bot`, the CLI and `brass eval`."""

    def decorate(cls: type[Bot]) -> type[Bot]:
        BOT_FACTORIES[name] = cls
        return cls

    return decorate


def _parse_value(text: str) -> Any:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:iterations=400:rollout_depth=60"`` -> ``("mcts", {"iterations": 400, ...})``."""
    name, *options = spec.strip().split(":")
    params: dict[str, Any] = {}
    for option in options:
        key, sep, value = option.partition("=")
        if not sep or not key:
            raise ValueError(f"bad bot option {option!r} in {spec!r} (expected key=value)")
        params[key.strip()] = _parse_value(value.strip())
    return name.strip(), params


def make_bot(spec: str) -> Bot:
    """A bot from its spec: a registered name, optionally with ``:key=value`` options."""
    name, params = parse_bot_spec(spec)
    try:
        factory = BOT_FACTORIES[name]
    except KeyError:
        known = ", ".join(sorted(BOT_FACTORIES))
        raise ValueError(f"unknown bot {name!r} (known: {known})") from None
    try:
        return factory(**params)
    except TypeError as exc:
        raise ValueError(f"bad options for bot {name!r}: {exc}") from None
