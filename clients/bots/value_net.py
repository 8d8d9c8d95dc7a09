"""A small value network over the engine's observation vectors (numpy inference only).

`ValueNet.values(game)` estimates every seat's final reward, in the shape of
`mcts.final_rewards` (0.7 · rank part + 0.3 · VP-margin part, in [0, 1]), from each seat's
own observation (`game.observation(seat)`: only what the seat may see) and the static
evaluator's value of the position for the seat (`heuristic.evaluator_for`, public
information only) divided by HEURISTIC_SCALE. The network is an MLP: those inputs, two ReLU
layers, one sigmoid output. Its weights ship
in the package (`brass_clients/bots/weights/value_<ruleset>.npz`) and are reproduced by
`python -m brass_clients.train_value` (docs/BOTS.md, `expert`).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

import brass
from brass_clients.bots.heuristic import Evaluator, evaluator_for

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
LAYER_KEYS = ("w0", "w1", "b1", "w2", "b2", "w3", "b3")
# Entries of the observation that are ever non-zero (docs/ENGINE_API.md): the rest is
# padding and is not fed to the network.
USED_ENTRIES = {"birmingham": 977, "pittsburgh": 1377}


# The static evaluator's value (VP units) enters the network divided by this.
HEURISTIC_SCALE = 20.0


def weights_path(ruleset: str) -> Path:
    return WEIGHTS_DIR / f"value_{ruleset}.npz"


class ValueNet:
    """Inference of a trained value network (float32 numpy)."""

    def __init__(self, layers: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        self.layers = {key: np.asarray(layers[key], dtype=np.float32) for key in LAYER_KEYS}
        self.meta = meta
        self.ruleset = str(meta["ruleset"])
        self.inputs = int(self.layers["w1"].shape[0])
        if self.inputs != USED_ENTRIES[self.ruleset] + 1:
            raise ValueError(f"a {self.ruleset} value network takes "
                             f"{USED_ENTRIES[self.ruleset] + 1} inputs, not {self.inputs}")
        self._evaluator: Evaluator | None = None

    @property
    def evaluator(self) -> Evaluator:
        if self._evaluator is None:
            self._evaluator = evaluator_for(self.ruleset)
        return self._evaluator

    @classmethod
    def load(cls, path: str | Path) -> ValueNet:
        with np.load(path, allow_pickle=False) as archive:
            layers = {key: archive[key] for key in LAYER_KEYS}
            meta = json.loads(str(archive["meta"]))
        return cls(layers, meta)

    def save(self, path: str | Path) -> None:
        """A compressed .npz: the layers and the training facts as JSON text (no pickles)."""
        arrays: dict[str, Any] = dict(self.layers)
        arrays["meta"] = np.array(json.dumps(self.meta, sort_keys=True))
        with open(path, "wb") as out:
            np.savez_compressed(out, **arrays)

    def features(self, game: brass.Game, seat: int, heuristic: float | None = None
                 ) -> np.ndarray:
        """The network's input for `seat`: its observation's used entries and the static
        evaluator's value (computed unless given) / HEURISTIC_SCALE."""
        if heuristic is None:
            heuristic = self.evaluator.value(game, seat)
        row = np.empty(self.inputs, dtype=np.float32)
        row[:-1] = game.observation(seat)[: self.inputs - 1]
        row[-1] = heuristic / HEURISTIC_SCALE
        return row

    def predict(self, features: np.ndarray) -> np.ndarray:
        """Estimated rewards in (0, 1), one per row of `features`."""
        return _sigmoid(forward_logits(self.layers, np.asarray(features, dtype=np.float32)))

    def values(self, game: brass.Game) -> list[float]:
        """Every seat's estimated reward."""
        rows = position_features(game, self.evaluator)
        return [float(v) for v in self.predict(rows)]

    def value(self, game: brass.Game, seat: int) -> float:
        return float(self.predict(self.features(game, seat)[None, :])[0])


def position_features(game: brass.Game, evaluator: Evaluator) -> np.ndarray:
    """Every seat's network input (one row per seat): its observation's used entries and
    the static evaluator's value for it / HEURISTIC_SCALE."""
    used = USED_ENTRIES[game.ruleset]
    heuristic = evaluator.values(game)
    rows = np.empty((game.num_players, used + 1), dtype=np.float32)
    for seat in range(game.num_players):
        rows[seat, :used] = game.observation(seat)[:used]
        rows[seat, used] = heuristic[seat] / HEURISTIC_SCALE
    return rows


def forward_logits(layers: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """The network before its sigmoid: x·w0 + relu(relu(x·w1 + b1)·w2 + b2)·w3 + b3 (a
    linear part, which starts as a logistic of the static evaluator, and a correction)."""
    hidden = np.maximum(x @ layers["w1"] + layers["b1"], 0.0)
    hidden = np.maximum(hidden @ layers["w2"] + layers["b2"], 0.0)
    return (x @ layers["w0"] + hidden @ layers["w3"] + layers["b3"])[..., 0]


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))


@lru_cache(maxsize=1)
def one_blas_thread() -> None:
    """Keep BLAS on one thread in this process: a search multiplies small matrices
    thousands of times a decision, and OpenBLAS's threads spinning for each made a product
    30 times slower on a busy 2-core machine (46 ms against 1.5 ms). threadpoolctl is a
    dependency of the package; an environment without it plays the same moves, slower."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return
    threadpool_limits(limits=1, user_api="blas")


@lru_cache(maxsize=4)
def shipped_net(ruleset: str) -> ValueNet:
    """The network shipped for `ruleset` (loaded once per process)."""
    path = weights_path(ruleset)
    if not path.exists():
        raise ValueError(f"no value network is shipped for ruleset {ruleset!r} ({path.name})")
    one_blas_thread()
    return ValueNet.load(path)
