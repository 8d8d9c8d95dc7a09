"""Self-play datasets: `brass selfplay` writes games of one bot as NumPy shards; `load`.

    from brass_clients.dataset import load, write_dataset
    write_dataset("data", bot="mcts:iterations=50", games=100, players=2, seed=1)
    data = load("data")                    # every shard, concatenated
    data.observations[data.game_rows(0)]   # the first game's positions

A dataset is a folder: `manifest.json` (what was played, the fields, each shard's games and
SHA-256) and `shard-00000.npz`, … (docs/DATASET.md lists the arrays). Game `i` is dealt from
`brass_clients.eval.game_seed(seed, i)` and every seat's bot draws from
`bot_rng(seed, i, seat)`, as in `brass eval`: the same arguments write byte-identical shards
(for bots whose budget is iterations, not seconds), with any number of workers.
`bot="greedy_playout"` (options: greedy's and `epsilon`) plays greedy's games inside the
core's batched playouts (`brass_greedy_playout_batch`), its random draws seeded from
`bot_rng(seed, i, 0)`, and replays them here for the rows.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import brass
from brass_clients.bots import make_bot
from brass_clients.bots.base import parse_bot_spec
from brass_clients.bots.greedy import GreedyPlayout
from brass_clients.eval import bot_rng, game_seed
from brass_clients.vector import outcome_rewards

FORMAT = "brass-selfplay/1"
MANIFEST = "manifest.json"
# Rows are decisions; `game_*` arrays have one row per game of the shard.
ROW_FIELDS = ("observations", "masks", "actions", "seats", "games", "visits", "has_visits")
GAME_FIELDS = ("game_index", "game_seeds", "scores", "rewards", "game_offsets")
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # fixed, so that the same games give the same bytes


def _visits(bot: Any, num_actions: int) -> np.ndarray | None:
    """The bot's visit shares for its last decision, if it searched and says so."""
    distribution = getattr(bot, "visit_distribution", None)
    shares = distribution() if callable(distribution) else {}
    if not shares:
        return None
    row = np.zeros(num_actions, dtype=np.float32)
    for option, share in shares.items():
        row[int(option)] = share
    return row


def playout_policy(spec: str) -> GreedyPlayout | None:
    """The policy a spec names when it is played inside the core (`greedy_playout`, with
    greedy's options and `epsilon`), else None (a bot, stepped from Python)."""
    name, params = parse_bot_spec(spec)
    if name != GreedyPlayout.name:
        return None
    try:
        return GreedyPlayout(**params)
    except TypeError as exc:
        raise ValueError(f"bad options for {name!r}: {exc}") from None


def play_shard(bot: str, players: int, seed: int, indices: Sequence[int],
               ruleset: str = brass.DEFAULT_RULESET,
               options: dict[str, Any] | None = None) -> dict[str, np.ndarray]:
    """The arrays of one shard: games `indices` of the dataset, every seat played by `bot`
    (a policy played inside the core, `playout_policy`, is replayed here for the rows)."""
    rules = brass.get_ruleset(ruleset)
    rows: dict[str, list[Any]] = {field: [] for field in ROW_FIELDS}
    seeds, scores, rewards, offsets = [], [], [], [0]
    in_core = playout_policy(bot)
    for index in indices:
        deal = game_seed(seed, index)
        game = brass.Game.new(players, seed=deal, ruleset=ruleset, options=options)
        if in_core is not None:
            played = iter(in_core.play(game, bot_rng(seed, index, 0).getrandbits(64)))
        else:
            bots = [make_bot(bot, allow_import=True) for _ in range(players)]
            rngs = [bot_rng(seed, index, seat) for seat in range(players)]
        while not game.is_over:
            seat = game.current_seat
            assert seat is not None
            rows["observations"].append(game.observation(seat))
            rows["masks"].append(game.legal_mask())
            if in_core is not None:
                option, visits = next(played, None), None
                if option is None:  # the core stops a game at MAX_GREEDY_DECISIONS
                    raise RuntimeError(f"game {index}: the playout ended before the game")
            else:
                option = bots[seat].choose(game, rngs[seat])
                visits = _visits(bots[seat], rules.num_actions)
            rows["visits"].append(visits if visits is not None
                                  else np.zeros(rules.num_actions, dtype=np.float32))
            rows["has_visits"].append(visits is not None)
            rows["actions"].append(option)
            rows["seats"].append(seat)
            rows["games"].append(index)
            game.apply(option, seat)
        seeds.append(deal)
        scores.append(game.scores())
        rewards.append(outcome_rewards(game))
        offsets.append(len(rows["actions"]))
    return {
        "observations": np.array(rows["observations"], dtype=np.float32
                                 ).reshape(-1, rules.observation_size),
        "masks": np.array(rows["masks"], dtype=bool).reshape(-1, rules.num_actions),
        "actions": np.array(rows["actions"], dtype=np.int32),
        "seats": np.array(rows["seats"], dtype=np.int8),
        "games": np.array(rows["games"], dtype=np.int64),
        "visits": np.array(rows["visits"], dtype=np.float32).reshape(-1, rules.num_actions),
        "has_visits": np.array(rows["has_visits"], dtype=bool),
        "game_index": np.array(list(indices), dtype=np.int64),
        "game_seeds": np.array(seeds, dtype=np.uint64),
        "scores": np.array(scores, dtype=np.int32).reshape(-1, players),
        "rewards": np.array(rewards, dtype=np.float32).reshape(-1, players),
        "game_offsets": np.array(offsets, dtype=np.int64),
    }


def save_shard(path: Path, arrays: dict[str, np.ndarray]) -> str:
    """Write a compressed .npz with fixed timestamps; returns its SHA-256."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(arrays):
            member = io.BytesIO()
            np.lib.format.write_array(member, np.ascontiguousarray(arrays[name]),
                                      allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, member.getvalue())
    data = buffer.getvalue()
    path.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def write_dataset(out: str | Path, bot: str, games: int, players: int = 2, seed: int = 1, *,
                  shard_games: int = 100, workers: int = 1,
                  ruleset: str = brass.DEFAULT_RULESET, options: dict[str, Any] | None = None,
                  on_shard: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play `games` self-play games of `bot` into the folder `out` (made if missing; its
    shards and manifest are replaced) and return the manifest."""
    if games < 1 or shard_games < 1:
        raise ValueError("games and shard_games must be at least 1")
    if playout_policy(bot) is None:  # a bad spec fails before any game
        make_bot(bot, allow_import=True)
    used = brass.Game.new(players, seed=0, ruleset=ruleset,
                          options=options).replay_record()["options"]
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    chunks = [list(range(start, min(games, start + shard_games)))
              for start in range(0, games, shard_games)]
    shards = []

    def record(k: int, arrays: dict[str, np.ndarray]) -> None:
        name = f"shard-{k:05d}.npz"
        digest = save_shard(folder / name, arrays)
        shards.append({"file": name, "games": len(chunks[k]),
                       "decisions": int(arrays["actions"].shape[0]), "sha256": digest})
        if on_shard:
            on_shard(len(chunks[k]))

    args = (players, seed)
    if workers <= 1:
        for k, chunk in enumerate(chunks):
            record(k, play_shard(bot, *args, chunk, ruleset, options))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(play_shard, bot, *args, chunk, ruleset, options)
                       for chunk in chunks]
            for k, future in enumerate(futures):
                record(k, future.result())
    manifest = {"format": FORMAT, "bot": bot, "players": players, "games": games,
                "seed": seed, "ruleset": ruleset,
                "rules_edition": brass.get_ruleset(ruleset).rules_edition, "options": used,
                "observation_size": brass.get_ruleset(ruleset).observation_size,
                "num_actions": brass.get_ruleset(ruleset).num_actions,
                "row_fields": list(ROW_FIELDS), "game_fields": list(GAME_FIELDS),
                "shards": shards}
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return manifest


@dataclass(frozen=True)
class Dataset:
    """Every shard's arrays concatenated (`game_offsets` made global: game k's rows are
    `game_offsets[k]:game_offsets[k + 1]`), with the manifest."""

    manifest: dict[str, Any]
    arrays: dict[str, np.ndarray]

    def __getattr__(self, name: str) -> np.ndarray:
        try:
            return self.arrays[name]
        except KeyError:
            raise AttributeError(name) from None

    def game_rows(self, k: int) -> slice:
        offsets = self.arrays["game_offsets"]
        return slice(int(offsets[k]), int(offsets[k + 1]))


def read_manifest(folder: str | Path) -> dict[str, Any]:
    manifest = json.loads((Path(folder) / MANIFEST).read_text())
    if manifest.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} dataset: {manifest.get('format')!r}")
    return manifest


def iter_shards(folder: str | Path, verify: bool = True) -> Iterator[dict[str, np.ndarray]]:
    """Each shard's arrays in order, checked against the manifest's SHA-256 (`verify`)."""
    for shard in read_manifest(folder)["shards"]:
        data = (Path(folder) / shard["file"]).read_bytes()
        if verify and hashlib.sha256(data).hexdigest() != shard["sha256"]:
            raise ValueError(f"{shard['file']} does not match its SHA-256 in the manifest")
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            yield {name: arrays[name] for name in arrays.files}


def load(folder: str | Path, verify: bool = True) -> Dataset:
    """The whole dataset in memory (iterate `iter_shards` for one too large for it)."""
    manifest = read_manifest(folder)
    parts: dict[str, list[np.ndarray]] = {}
    base = 0
    for arrays in iter_shards(folder, verify):
        for name, array in arrays.items():
            if name == "game_offsets":
                array = array[1:] + base if parts.get(name) else array + base
            parts.setdefault(name, []).append(array)
        base += int(arrays["actions"].shape[0])
    return Dataset(manifest, {name: np.concatenate(chunks) for name, chunks in parts.items()})
