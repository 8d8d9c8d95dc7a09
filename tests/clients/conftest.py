"""Shared helpers for the clients tests."""

from __future__ import annotations

import random

import brass


def advance_randomly(game: brass.Game, decisions: int, seed: int) -> brass.Game:
    """Play `decisions` random legal decisions (or until the end)."""
    rng = random.Random(seed)
    for _ in range(decisions):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_ids()))
    return game
