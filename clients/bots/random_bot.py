"""Uniformly random legal decisions."""

from __future__ import annotations

import random

import brass
from brass_clients.bots.base import Bot, register


@register("random")
class RandomBot(Bot):
    name = "random"

    def choose(self, game: brass.Game, rng: random.Random) -> int:
        return rng.choice(game.legal_ids())
