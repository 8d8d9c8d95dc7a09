"""Does a server bot read the hidden deck? (issue 20, item 4.)

Pairs of Birmingham states that differ only in the order of the face-down deck (every
seat's view identical), each taken from a random game some decisions in; the seat bot
(`choose_decision`, as the server runs it) decides in both with the same seed. A bot that
sees only what its seat may see decides the same in both.

    python -m brass_service.tools.bot_twins --pairs 37 --bot mcts:iterations=200
"""

from __future__ import annotations

import argparse
import json
import random

import brass

from ..bots.bot_seats import choose_decision


def twin_pair(seed: int) -> tuple[brass.Game, brass.Game]:
    """A random Birmingham game 10-60 decisions in, and the same with its deck reordered."""
    rng = random.Random(seed)
    game = brass.Game.new(2 + seed % 3, seed)
    for _ in range(rng.randrange(10, 60)):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_ids()))
    pos = game.position()
    deck = list(pos["deck"])
    while len(set(deck)) > 1 and deck == pos["deck"]:
        rng.shuffle(deck)
    twin = dict(pos, deck=deck)
    return brass.Game.from_position(pos), brass.Game.from_position(twin)


def differing_choices(pairs: int, bot: str, first_seed: int = 0) -> int:
    """How many of `pairs` twin pairs make `bot` choose differently."""
    differ = 0
    for k in range(pairs):
        a, b = twin_pair(first_seed + k)
        seat = a.current_seat
        if seat is None:
            continue
        views = [json.dumps(g.view(s), sort_keys=True) for g in (a, b)
                 for s in (None, *range(a.num_players))]
        assert views[: len(views) // 2] == views[len(views) // 2:], "not twins"
        seed = random.Random(k).getrandbits(64)
        differ += choose_decision(a.snapshot(), bot, seat, seed) != choose_decision(
            b.snapshot(), bot, seat, seed)
    return differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=37)
    parser.add_argument("--bot", default="mcts:iterations=200")
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    differ = differing_choices(args.pairs, args.bot, args.first_seed)
    print(f"{args.bot}: {differ} of {args.pairs} twin pairs chosen differently")


if __name__ == "__main__":
    main()
