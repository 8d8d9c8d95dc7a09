"""Any bot as an opponent in the RL adapters (PettingZoo, OpenSpiel, Gymnasium's vector env).

    from brass_clients.rl.opponents import BotOpponent
    opponent = BotOpponent("expert:iterations=16", seed=1)
    action = opponent.act(env.unwrapped.game)        # PettingZoo: the seat to act's move
    action = opponent.act(state.engine_game)         # OpenSpiel: the same on its state

The bot decides as it does in `brass eval` (`bot.choose(game, rng)`): the built-in bots read
only what the seat to act may see (their searches re-deal the rest with `determinize`).
Its random stream comes from `seed`, so a run repeats.
"""

from __future__ import annotations

import random

import brass
from brass_clients.bots import make_bot


class BotOpponent:
    """A bot from its spec (a registered name with options, or `module:Class`)."""

    def __init__(self, spec: str, seed: int = 0) -> None:
        self.spec = spec
        self.bot = make_bot(spec, allow_import=True)
        self.rng = random.Random(seed)

    def reset(self) -> None:
        """Call when a new game starts (bots may keep plans between decisions)."""
        self.bot.reset()

    def act(self, game: brass.Game | None) -> int:
        """The bot's id for the decision in front of the seat to act."""
        if game is None or game.is_over:
            raise ValueError("there is no decision to make: the game is not dealt or is over")
        return int(self.bot.choose(game, self.rng))
