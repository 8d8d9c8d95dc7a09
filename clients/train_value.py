"""Train the `expert` bot's value network from self-play on the C core (numpy only).

    python -m brass_clients.train_value --ruleset birmingham --seed 1 \\
        --games 2:300,3:150,4:150 --out clients/bots/weights/value_birmingham.npz

1. Data: `brass selfplay` games of `--bot` (default `greedy`) for each player count
   (`brass_clients.dataset.write_dataset`, kept in `--data` and reused when already there:
   the same arguments write the same bytes).
2. Positions: each game is replayed from its deal seed and ids; every `--stride`-th
   decision (from a random offset) gives one row per seat, the network's input for the seat
   (`value_net.position_features`: its observation and the static evaluator's value), with
   the seat's final reward in `mcts.final_rewards`' shape as the target.
3. An MLP (`value_net.forward_logits`) fitted with Adam on binary cross-entropy (soft
   targets), games split into training and validation sets, all drawn from `--seed`.

The same arguments give the same weights (on the same numpy build and CPU kind: BLAS runs
on TRAINING_BLAS_THREADS threads). It prints the positions, the losses and the CPU time.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import time
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

import brass
from brass_clients.bots.heuristic import evaluator_for
from brass_clients.bots.mcts import MARGIN_SCALE, RANK_WEIGHT
from brass_clients.bots.value_net import (
    LAYER_KEYS,
    USED_ENTRIES,
    ValueNet,
    forward_logits,
    position_features,
)
from brass_clients.dataset import load, read_manifest, write_dataset

# The evaluator's value / HEURISTIC_SCALE (20 VP) times 2: a logistic of value / 10 VP, the
# scale that predicts greedy games' outcomes best (validation loss 0.570 on Birmingham).
INITIAL_HEURISTIC_SLOPE = 2.0
# BLAS threads of the training (the same weights on any machine of the same numpy build and
# CPU kind with at least this many cores; the shipped weights were trained so).
TRAINING_BLAS_THREADS = 2
# Weight decay shrinks the MLP's correction and the observation's linear weights, not the
# evaluator's slope.
DECAYED = ("w1", "w2", "w3")


def target_rewards(outcome: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """`mcts.final_rewards` of a finished game from the dataset's per-seat outcome rewards
    (place p of n is 1 − 2p/(n−1), shared first places averaged) and scores."""
    outcome = np.asarray(outcome, dtype=np.float64)
    scores = np.asarray(scores, dtype=np.float64)
    rank_part = (outcome + 1.0) / 2.0
    best_other = np.array([np.max(np.delete(scores, seat)) for seat in range(len(scores))])
    margin = np.clip(0.5 + (scores - best_other) / (2 * MARGIN_SCALE), 0.0, 1.0)
    return RANK_WEIGHT * rank_part + (1 - RANK_WEIGHT) * margin


def selfplay_data(folder: Path, ruleset: str, bot: str, players: int, games: int,
                  seed: int, *, tag: str = "", workers: int = 1) -> Path:
    """The dataset folder of these games, written unless already there. `tag` tells apart
    datasets of one spec whose bot differs (expert iteration: the generating network's
    digest)."""
    slug = re.sub(r"[^\w=.-]+", "_", bot)
    if len(slug) > 60:  # a long spec: its start, and a digest to tell specs apart
        slug = f"{slug[:40]}-{hashlib.sha256(bot.encode()).hexdigest()[:8]}"
    name = f"{ruleset}-{players}p-{slug}{'-' + tag if tag else ''}-s{seed}-n{games}"
    path = folder / name
    try:
        manifest = read_manifest(path)
        if (manifest["bot"], manifest["games"], manifest["players"], manifest["seed"],
                manifest["ruleset"]) == (bot, games, players, seed, ruleset):
            return path
    except (OSError, ValueError, KeyError):
        pass
    write_dataset(path, bot=bot, games=games, players=players, seed=seed, shard_games=50,
                  ruleset=ruleset, workers=workers)
    return path


def positions(path: Path, stride: int, rng: np.random.Generator
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(observations, targets, game ids) of the sampled positions of one dataset: every
    seat's observation at every `stride`-th decision of each game."""
    data = load(path)
    ruleset, players = data.manifest["ruleset"], data.manifest["players"]
    evaluator = evaluator_for(ruleset)
    observations, targets, game_ids = [], [], []
    for k, index in enumerate(data.game_index):
        rows = data.game_rows(k)
        rewards = target_rewards(data.rewards[k], data.scores[k])
        game = brass.Game.new(players, seed=int(data.game_seeds[k]), ruleset=ruleset)
        offset = int(rng.integers(stride))
        for step, option in enumerate(data.actions[rows]):
            if step % stride == offset:
                observations.extend(position_features(game, evaluator))
                targets.extend(rewards)
                game_ids.extend([int(index) * 8 + players] * players)
            game.apply(int(option))
        assert game.is_over and game.scores() == data.scores[k].tolist()
    return (np.array(observations, dtype=np.float32), np.array(targets, dtype=np.float32),
            np.array(game_ids, dtype=np.int64))


def init_layers(inputs: int, hidden: tuple[int, int],
                rng: np.random.Generator) -> dict[str, np.ndarray]:
    sizes = (inputs, *hidden, 1)
    # The linear part starts as a logistic of the evaluator's value (the last input) at
    # INITIAL_HEURISTIC_SLOPE; the correction starts small.
    layers = {"w0": np.zeros((inputs, 1), dtype=np.float32)}
    layers["w0"][-1, 0] = INITIAL_HEURISTIC_SLOPE
    for k in range(3):
        fan_in, fan_out = sizes[k], sizes[k + 1]
        layers[f"w{k + 1}"] = (rng.standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in)
                               ).astype(np.float32)
        layers[f"b{k + 1}"] = np.zeros(fan_out, dtype=np.float32)
    layers["w3"] *= 0.1
    return layers


def gradients(layers: dict[str, np.ndarray], x: np.ndarray,
              y: np.ndarray) -> tuple[float, dict[str, np.ndarray]]:
    """Mean binary cross-entropy of sigmoid(network) against soft targets y, and its
    gradient by backpropagation."""
    h1 = np.maximum(x @ layers["w1"] + layers["b1"], 0.0)
    h2 = np.maximum(h1 @ layers["w2"] + layers["b2"], 0.0)
    z = (x @ layers["w0"] + h2 @ layers["w3"] + layers["b3"])[:, 0]
    p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
    eps = 1e-7
    loss = float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))
    dz = ((p - y) / len(y)).astype(np.float32)[:, None]
    grads = {"w0": x.T @ dz, "w3": h2.T @ dz, "b3": dz.sum(axis=0)}
    dh2 = (dz @ layers["w3"].T) * (h2 > 0)
    grads["w2"], grads["b2"] = h1.T @ dh2, dh2.sum(axis=0)
    dh1 = (dh2 @ layers["w2"].T) * (h1 > 0)
    grads["w1"], grads["b1"] = x.T @ dh1, dh1.sum(axis=0)
    return loss, grads


def bce(layers: dict[str, np.ndarray], x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """(cross-entropy, mean absolute error) of the network on (x, y)."""
    p = 1.0 / (1.0 + np.exp(-np.clip(forward_logits(layers, x), -30, 30)))
    eps = 1e-7
    loss = float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))
    return loss, float(np.mean(np.abs(p - y)))


def train(x: np.ndarray, y: np.ndarray, valid: np.ndarray, *, hidden: tuple[int, int],
          epochs: int, batch: int, lr: float, weight_decay: float, rng: np.random.Generator,
          log: Any = print) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    """Adam (decoupled weight decay on the MLP's weights) over shuffled mini-batches; `valid`
    marks the validation rows. Returns the layers and the final losses."""
    layers = init_layers(x.shape[1], hidden, rng)
    moments = {key: np.zeros_like(value) for key, value in layers.items()}
    squares = {key: np.zeros_like(value) for key, value in layers.items()}
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    train_rows = np.flatnonzero(~valid)
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(train_rows)
        rate = lr * 0.5 * (1 + np.cos(np.pi * epoch / epochs))  # cosine decay
        for start in range(0, len(order), batch):
            rows = order[start:start + batch]
            _, grads = gradients(layers, x[rows], y[rows])
            step += 1
            for key in LAYER_KEYS:
                moments[key] = beta1 * moments[key] + (1 - beta1) * grads[key]
                squares[key] = beta2 * squares[key] + (1 - beta2) * grads[key] ** 2
                update = (moments[key] / (1 - beta1 ** step)) / (
                    np.sqrt(squares[key] / (1 - beta2 ** step)) + eps)
                if key in DECAYED:
                    update = update + weight_decay * layers[key]
                elif key == "w0":  # the observation's linear weights, not the evaluator's
                    update[:-1] += weight_decay * layers[key][:-1]
                layers[key] = (layers[key] - rate * update).astype(np.float32)
        train_loss, _ = bce(layers, x[train_rows[:20000]], y[train_rows[:20000]])
        valid_loss, valid_mae = bce(layers, x[valid], y[valid]) if valid.any() else (0.0, 0.0)
        log(f"epoch {epoch + 1}/{epochs}: train loss {train_loss:.4f}, "
            f"validation loss {valid_loss:.4f} (mean abs error {valid_mae:.4f})")
    train_loss, _ = bce(layers, x[train_rows], y[train_rows])
    valid_loss, valid_mae = bce(layers, x[valid], y[valid]) if valid.any() else (0.0, 0.0)
    return layers, {"train_loss": train_loss, "valid_loss": valid_loss,
                    "valid_mae": valid_mae}


def parse_games(text: str) -> list[tuple[int, int]]:
    """``"2:300,3:150"`` -> [(2, 300), (3, 150)] (players: games)."""
    pairs = []
    for part in text.split(","):
        players, _, games = part.partition(":")
        if not (players.strip().isdigit() and games.strip().isdigit()):
            raise argparse.ArgumentTypeError(f"bad players:games pair {part!r}")
        pairs.append((int(players), int(games)))
    return pairs


Positions = tuple[np.ndarray, np.ndarray, np.ndarray]


def fit(parts: list[Positions], *, seed: int, rng: np.random.Generator,
        hidden: tuple[int, int], epochs: int, batch: int, lr: float, weight_decay: float,
        valid_share: float, log: Any = print) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Train on the positions of `parts`, `valid_share` of the games held out; the layers
    and the facts of the run (for the weights' `meta`)."""
    x = np.concatenate([part[0] for part in parts])
    y = np.concatenate([part[1] for part in parts])
    game_ids = np.concatenate([part[2] for part in parts])
    held = rng.permutation(np.unique(game_ids))
    held = held[: int(len(held) * valid_share)]
    valid = np.isin(game_ids, held)
    if valid.any():
        constant = float(y[~valid].mean())
        base = float(-np.mean(y[valid] * np.log(constant) + (1 - y[valid])
                              * np.log(1 - constant)))
        logistic = 1.0 / (1.0 + np.exp(-INITIAL_HEURISTIC_SLOPE * x[valid, -1]))
        heuristic = float(-np.mean(y[valid] * np.log(logistic + 1e-7)
                                   + (1 - y[valid]) * np.log(1 - logistic + 1e-7)))
        log(f"{len(y)} positions ({int(valid.sum())} for validation); validation loss of "
            f"the constant {constant:.3f}: {base:.4f}, of the evaluator's logistic: "
            f"{heuristic:.4f}")
    # BLAS's thread count changes the sums' order, so the weights: training always runs on
    # TRAINING_BLAS_THREADS threads, whatever else the process limited them to (the
    # expert's network sets one thread in a process that made an expert, as self-play
    # does before its games; its round's network then came out otherwise).
    with threadpool_limits(limits=TRAINING_BLAS_THREADS, user_api="blas"):
        layers, losses = train(x, y, valid, hidden=hidden, epochs=epochs, batch=batch, lr=lr,
                               weight_decay=weight_decay, rng=rng, log=log)
    facts = {"seed": seed, "positions": int(len(y)), "hidden": list(hidden),
             "epochs": epochs, "batch": batch, "lr": lr, "weight_decay": weight_decay,
             "target": "mcts.final_rewards",
             **{key: round(value, 5) for key, value in losses.items()}}
    return layers, facts


def run(ruleset: str, seed: int, games: list[tuple[int, int]], out: Path, data: Path,
        bot: str = "greedy", stride: int = 3, hidden: tuple[int, int] = (64, 32),
        epochs: int = 2, batch: int = 256, lr: float = 1e-3, weight_decay: float = 3.0,
        valid_share: float = 0.1, workers: int = 1, log: Any = print) -> ValueNet:
    started = time.process_time()
    rng = np.random.default_rng(seed)
    parts = []
    for players, count in games:
        path = selfplay_data(data, ruleset, bot, players, count, seed, workers=workers)
        parts.append(positions(path, stride, rng))
        log(f"{players} players: {count} games of {bot}, {len(parts[-1][1])} positions "
            f"(CPU so far {time.process_time() - started:.0f} s)")
    layers, facts = fit(parts, seed=seed, rng=rng, hidden=hidden, epochs=epochs,
                        batch=batch, lr=lr, weight_decay=weight_decay,
                        valid_share=valid_share, log=log)
    cpu = time.process_time() - started
    meta = {"ruleset": ruleset, "bot": bot, "stride": stride,
            "games": {str(players): count for players, count in games},
            "cpu_seconds": round(cpu, 1), **facts}
    net = ValueNet(layers, meta)
    out.parent.mkdir(parents=True, exist_ok=True)
    net.save(out)
    log(f"wrote {out}: {facts['positions']} positions, CPU {cpu:.0f} s (self-play data "
        f"made now included, in this process), validation loss {facts['valid_loss']:.4f}")
    return net


def add_training_arguments(parser: argparse.ArgumentParser) -> None:
    """The options this command shares with `brass_clients.expert_iteration`."""
    parser.add_argument("--ruleset", choices=sorted(USED_ENTRIES), default="birmingham")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--data", type=Path, default=Path("selfplay-data"),
                        help="folder of the self-play datasets (kept and reused)")
    parser.add_argument("--out", type=Path, required=True, help="the weights file (.npz)")
    parser.add_argument("--stride", type=int, default=3)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--hidden", type=int, nargs=2, default=(64, 32))
    parser.add_argument("--weight-decay", type=float, default=3.0,
                        help="decoupled weight decay (AdamW's), times the learning rate")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes playing the self-play games (the same games)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_training_arguments(parser)
    parser.add_argument("--games", type=parse_games, default=parse_games("2:300,3:150,4:150"),
                        help="players:games pairs of self-play (default 2:300,3:150,4:150)")
    parser.add_argument("--bot", default="greedy", help="the self-play bot's spec")
    args = parser.parse_args(argv)
    run(args.ruleset, args.seed, args.games, args.out, args.data, bot=args.bot,
        stride=args.stride, hidden=tuple(args.hidden), epochs=args.epochs,
        weight_decay=args.weight_decay, workers=args.workers)


if __name__ == "__main__":
    main()
