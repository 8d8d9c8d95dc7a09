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

import importlib
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


def _is_import_path(name: str, first_option: str) -> bool:
    """`module:Class` names a bot class by import path: the name is not a registered bot
    and the part after it is a (dotted) identifier, not a key=value option."""
    return (name not in BOT_FACTORIES
            and all(part.isidentifier() for part in first_option.split("."))
            and all(part.isidentifier() for part in name.split(".")))


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:iterations=400:rollout_depth=60"`` -> ``("mcts", {"iterations": 400, ...})``;
    ``"my.bots:Mine:depth=3"`` -> ``("my.bots:Mine", {"depth": 3})`` (a class by import
    path, which `make_bot(..., allow_import=True)` loads)."""
    name, *options = (part.strip() for part in spec.strip().split(":"))
    if options and _is_import_path(name, options[0]):
        name = f"{name}:{options.pop(0)}"
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


def load_bot_class(path: str) -> Callable[..., Bot]:
    """The class named by `module:Class` (imported now), or ValueError saying why not."""
    module_name, _, attribute = path.partition(":")
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"bot {path!r}: cannot import {module_name!r}: {exc}") from None
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise ValueError(f"bot {path!r}: {module_name!r} has no {attribute!r}")
        target = getattr(target, part)
    if not isinstance(target, type) or not callable(getattr(target, "choose", None)):
        raise ValueError(f"bot {path!r} is not a class with a choose(game, rng) method")
    return target


def make_bot(spec: str, *, allow_import: bool = False) -> Bot:
    """A bot from its spec: a registered name, optionally with ``:key=value`` options.

    With `allow_import` (`brass eval`, `brass play`; never the service, whose specs come
    from clients) the name may also be a class by import path, ``module:Class``."""
    name, params = parse_bot_spec(spec)
    factory = BOT_FACTORIES.get(name)
    if factory is None and allow_import and ":" in name:
        factory = load_bot_class(name)
    if factory is None:
        known = ", ".join(sorted(BOT_FACTORIES))
        hint = " or module:Class" if allow_import else ""
        raise ValueError(f"unknown bot {name!r} (known: {known}{hint})")
    try:
        return factory(**params)
    except TypeError as exc:
        raise ValueError(f"bad options for bot {name!r}: {exc}") from None
