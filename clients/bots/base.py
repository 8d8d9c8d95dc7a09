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

import math
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import brass


class Bot:
    """Plays Brass by picking one legal id for the decision in front of the seat to act.

    `choose` must not change `game` (work on `game.clone()` to look ahead). `rng` is the
    only source of randomness a bot may use, so games replay exactly from their seeds.
    """

    name: ClassVar[str] = "bot"
    # Set by whoever plays the game (`brass_clients.eval.run_game`): true once the game is
    # abandoned, so a long search may stop early (its choice no longer matters).
    stop: Callable[[], bool] | None = None

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
        if not sep or not key.strip():
            raise ValueError(f"bad bot option {option!r} in {spec!r} (expected key=value)")
        if key.strip() in params:
            raise ValueError(f"bot option {key.strip()!r} is given twice in {spec!r}")
        params[key.strip()] = _parse_value(value.strip())
    return name.strip(), params


# Option checks for the bots' constructors: every option is checked when the bot is made,
# so a bad spec is refused up front (by `brass eval`, or by RunBatch at admission) rather
# than failing mid-game.


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _bound(limit: float) -> str:
    return str(int(limit)) if float(limit).is_integer() and abs(limit) < 1e15 else f"{limit:g}"


def number_option(bot: str, name: str, value: Any, *, integer: bool = False,
                  minimum: float | None = None, maximum: float | None = None) -> Any:
    """`value` as a finite number in [minimum, maximum] (an int when `integer`), or
    ValueError naming the bot and the option."""
    kind = "an integer" if integer else "a number"
    if type(value) is bool or not isinstance(value, int | float):
        raise ValueError(f"bot {bot!r}: {name} must be {kind}, not {_shown(value)}")
    if isinstance(value, float) and (not math.isfinite(value)
                                     or (integer and not value.is_integer())):
        raise ValueError(f"bot {bot!r}: {name} must be {kind}, not {_shown(value)}")
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        if minimum is not None and maximum is not None:
            bounds = f"from {_bound(minimum)} to {_bound(maximum)}"
        else:
            bounds = (f"at least {_bound(minimum)}" if minimum is not None
                      else f"at most {_bound(maximum)}")  # type: ignore[arg-type]
        raise ValueError(f"bot {bot!r}: {name} must be {bounds}, not {_shown(value)}")
    return int(value) if integer else float(value)


def bool_option(bot: str, name: str, value: Any) -> bool:
    if type(value) is not bool:
        raise ValueError(f"bot {bot!r}: {name} must be true or false, not {_shown(value)}")
    return value


def choice_option(bot: str, name: str, value: Any, choices: Sequence[str]) -> str:
    if value not in choices:
        raise ValueError(f"bot {bot!r}: {name} must be one of {', '.join(choices)}, "
                         f"not {_shown(value)}")
    return str(value)


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
