"""Expert iteration for the `expert` bot's value network (numpy only, CPU).

    python -m brass_clients.expert_iteration --ruleset birmingham --seed 1 \\
        --start-games 2:300,3:150,4:150 --games 2:300,3:100,4:100 --rounds 1 \\
        --out clients/bots/weights/value_birmingham.npz

Round 0 trains a network on `greedy`'s self-play (`train_value.run`, the same arguments as
that command's): `--start-bot greedy` steps the bot from Python (the shipped weights' round
0), `--start-bot greedy_playout` plays the same policy in the core's batched playouts
(`brass_greedy_playout_batch`, docs/DATASET.md), several times as fast.
Round r then lets `expert`, valuing its leaves with round r − 1's network,
play `--games` against itself (`ExpertWithWeights`, dataset seed `seed + r`), and trains a
fresh network on every round's positions so far (greedy's included): the network learns
the outcomes of the stronger play it is meant to judge, and the next round's expert plays
with it. Every game is counted, not timed (the expert's `work` bound), so the same
arguments give the same weights on the same numpy build, with any number of `--workers`.
Each round's weights are kept in `--data` (`round-R.npz`) beside the self-play datasets,
which are reused when already there. The final network's `meta` records every round.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from brass_clients.bots.expert import ExpertBot
from brass_clients.bots.value_net import LAYER_KEYS, ValueNet, one_blas_thread
from brass_clients.train_value import (
    add_training_arguments,
    fit,
    parse_games,
    positions,
    run,
    selfplay_data,
)


def file_digest(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def network_digest(net: ValueNet) -> str:
    """SHA-256 of a network's layers (not of its file: the file's `meta` holds CPU times, so
    the same network trained again is another file): what names the games it played."""
    digest = hashlib.sha256()
    for key in LAYER_KEYS:
        layer = np.ascontiguousarray(net.layers[key])
        digest.update(f"{key}{layer.shape}".encode())
        digest.update(layer.tobytes())
    return digest.hexdigest()


@lru_cache(maxsize=8)
def _load(path: str, digest: str) -> ValueNet:
    del digest  # part of the cache's key only: a file rewritten in place is read again
    one_blas_thread()
    return ValueNet.load(path)


class ExpertWithWeights(ExpertBot):
    """`expert` valuing positions with the network in the file `weights` (a path) instead
    of the shipped one: the self-play player of expert iteration, and a way to compare two
    networks with `brass eval --bots
    brass_clients.expert_iteration:ExpertWithWeights:weights=PATH,expert`. Reached only by
    import path (`brass eval`, `brass play`, `brass selfplay`), never by the service's
    bot specs, so no client names a file to read. The other options are `expert`'s."""

    def __init__(self, weights: str = "", **options: Any) -> None:
        super().__init__(**options)
        if not isinstance(weights, str) or not weights:
            raise ValueError("bot 'ExpertWithWeights': weights must name a .npz file")
        try:
            self.net = _load(weights, file_digest(weights))
        except (OSError, ValueError, KeyError) as exc:
            raise ValueError(f"bot 'ExpertWithWeights': cannot read {weights!r}: {exc}"
                             ) from None

    def value_net(self, ruleset: str) -> ValueNet:
        if self.net.ruleset != ruleset:
            raise ValueError(f"the network in use is {self.net.ruleset}'s, "
                             f"the game is {ruleset}")
        return self.net


def generator_spec(weights: Path, options: str) -> str:
    """The bot spec of the self-play player valuing with `weights`."""
    spec = f"brass_clients.expert_iteration:ExpertWithWeights:weights={weights}"
    return f"{spec}:{options}" if options else spec


def iterate(ruleset: str, seed: int, start_games: list[tuple[int, int]],
            games: list[tuple[int, int]], rounds: int, out: Path, data: Path, *,
            bot_options: str = "", start_bot: str = "greedy", stride: int = 3,
            hidden: tuple[int, int] = (64, 32),
            epochs: int = 2, weight_decay: float = 3.0, workers: int = 1,
            log: Any = print) -> ValueNet:
    started = time.process_time()
    data.mkdir(parents=True, exist_ok=True)
    train_args: dict[str, Any] = {"hidden": hidden, "epochs": epochs,
                                  "weight_decay": weight_decay}
    previous = data / f"{ruleset}-round-0.npz"
    net = run(ruleset, seed, start_games, previous, data, bot=start_bot, stride=stride,
              workers=workers, log=log, **train_args)
    # Round 0's positions, drawn again as `run` drew them (its rng, from the seed).
    rng = np.random.default_rng(seed)
    parts = [positions(selfplay_data(data, ruleset, start_bot, players, count, seed),
                       stride, rng) for players, count in start_games]
    history: list[dict[str, Any]] = [{"round": 0, "bot": start_bot, "seed": seed,
                                      "games": _games_meta(start_games),
                                      "valid_loss": net.meta["valid_loss"]}]
    for round_ in range(1, rounds + 1):
        digest = network_digest(net)
        spec = generator_spec(previous, bot_options)
        data_seed = seed + round_
        for players, count in games:
            path = selfplay_data(data, ruleset, spec, players, count, data_seed,
                                 tag=digest[:12], workers=workers)
            parts.append(positions(path, stride, rng))
            log(f"round {round_}: {players} players, {count} games of expert (network "
                f"{digest[:12]}), {len(parts[-1][1])} positions (CPU of this process so "
                f"far {time.process_time() - started:.0f} s)")
        layers, facts = fit(parts, seed=seed, rng=rng, valid_share=0.1, batch=256,
                            lr=1e-3, log=log, **train_args)
        history.append({"round": round_, "bot": f"expert{':' + bot_options if bot_options else ''}",
                        "seed": data_seed, "games": _games_meta(games),
                        "network_sha256": digest, "positions": facts["positions"],
                        "valid_loss": facts["valid_loss"]})
        meta = {"ruleset": ruleset, "stride": stride, "method": "expert iteration",
                "rounds": history, **facts}
        net = ValueNet(layers, meta)
        previous = data / f"{ruleset}-round-{round_}.npz"
        net.save(previous)
        log(f"round {round_}: validation loss {facts['valid_loss']:.4f} on "
            f"{facts['positions']} positions; wrote {previous}")
    net.meta["cpu_seconds_main_process"] = round(time.process_time() - started, 1)
    out.parent.mkdir(parents=True, exist_ok=True)
    net.save(out)
    log(f"wrote {out} (round {rounds})")
    return net


def _games_meta(games: list[tuple[int, int]]) -> dict[str, int]:
    return {str(players): count for players, count in games}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_training_arguments(parser)
    parser.add_argument("--start-games", type=parse_games,
                        default=parse_games("2:300,3:150,4:150"),
                        help="players:games of greedy self-play for round 0")
    parser.add_argument("--start-bot", default="greedy", choices=("greedy", "greedy_playout"),
                        help="round 0's self-play: greedy stepped from Python (the shipped "
                             "weights'), or its policy in the core's batched playouts")
    parser.add_argument("--games", type=parse_games, default=parse_games("2:300,3:100,4:100"),
                        help="players:games of expert self-play per round")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--bot-options", default="",
                        help="the self-play expert's options, e.g. iterations=16")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    iterate(args.ruleset, args.seed, args.start_games, args.games, args.rounds, args.out,
            args.data, bot_options=args.bot_options, start_bot=args.start_bot,
            stride=args.stride,
            hidden=tuple(args.hidden), epochs=args.epochs, weight_decay=args.weight_decay,
            workers=args.workers)


if __name__ == "__main__":
    main()
