"""Bots for Brass: `random`, `greedy` (one-step heuristic), `mcts` (information-set MCTS),
`expert` (whole-action search with a learned value network).

    from brass_clients.bots import make_bot
    bot = make_bot("mcts:iterations=300")
    option_id = bot.choose(game, random.Random(1))
"""

from brass_clients.bots import (  # noqa: F401  (registers the bots)
    expert,
    greedy,
    mcts,
    random_bot,
)
from brass_clients.bots.base import BOT_FACTORIES, Bot, make_bot, parse_bot_spec, register
from brass_clients.bots.greedy import GreedyBot
from brass_clients.bots.heuristic import PositionEvaluator
from brass_clients.bots.mcts import MctsBot
from brass_clients.bots.random_bot import RandomBot

__all__ = [
    "BOT_FACTORIES",
    "Bot",
    "GreedyBot",
    "MctsBot",
    "PositionEvaluator",
    "RandomBot",
    "make_bot",
    "parse_bot_spec",
    "register",
]
