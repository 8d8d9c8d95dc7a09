"""Expert iteration (`brass_clients.expert_iteration`): the self-play expert that values with
a network from a file, and a tiny run of the loop (CI trains nothing heavy)."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import brass
from brass_clients.bots import make_bot
from brass_clients.bots.value_net import LAYER_KEYS, ValueNet, weights_path
from brass_clients.expert_iteration import (
    ExpertWithWeights,
    iterate,
    network_digest,
)
from brass_clients.train_value import run

FAST_OPTIONS = "iterations=2:candidates=2"


def _play(bots: list, players: int, seed: int, ruleset: str = "birmingham",
          decisions: int = 40) -> list[int]:
    game = brass.Game.new(players, seed=seed, ruleset=ruleset)
    rngs = [random.Random(seed * 10 + seat) for seat in range(players)]
    chosen = []
    while not game.is_over and len(chosen) < decisions:
        seat = game.current_seat
        chosen.append(bots[seat].choose(game, rngs[seat]))
        game.apply(chosen[-1], seat)
    return chosen


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_given_the_shipped_weights_it_plays_exactly_as_expert(ruleset: str, tmp_path) -> None:  # noqa: ANN001
    copy = tmp_path / "copy.npz"
    shutil.copy(weights_path(ruleset), copy)
    spec = f"brass_clients.expert_iteration:ExpertWithWeights:weights={copy}:{FAST_OPTIONS}"
    weighted = [make_bot(spec, allow_import=True) for _ in range(2)]
    shipped = [make_bot(f"expert:{FAST_OPTIONS}") for _ in range(2)]
    assert _play(weighted, 2, 3, ruleset) == _play(shipped, 2, 3, ruleset)


def test_another_network_changes_the_values_it_searches_with(tmp_path) -> None:  # noqa: ANN001
    net = ValueNet.load(weights_path("birmingham"))
    flipped = ValueNet({**net.layers, "w0": -net.layers["w0"]}, net.meta)
    flipped.save(tmp_path / "flipped.npz")
    bot = ExpertWithWeights(weights=str(tmp_path / "flipped.npz"))
    game = brass.Game.new(2, seed=1)
    assert bot.value_net("birmingham").values(game) == flipped.values(game)
    assert bot.value_net("birmingham").values(game) != net.values(game)


def test_bad_weights_are_refused_up_front_and_never_by_the_services_specs(tmp_path) -> None:  # noqa: ANN001
    with pytest.raises(ValueError, match="cannot read"):
        ExpertWithWeights(weights=str(tmp_path / "missing.npz"))
    (tmp_path / "junk.npz").write_bytes(b"not an archive")
    with pytest.raises(ValueError, match="cannot read"):
        ExpertWithWeights(weights=str(tmp_path / "junk.npz"))
    with pytest.raises(ValueError, match="weights must name"):
        ExpertWithWeights()
    bot = ExpertWithWeights(weights=str(weights_path("birmingham")))
    with pytest.raises(ValueError, match="birmingham's, the game is pittsburgh"):
        bot.value_net("pittsburgh")
    # The service makes bots without import paths: a client cannot name a file to read.
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot(f"brass_clients.expert_iteration:ExpertWithWeights:weights="
                 f"{weights_path('birmingham')}")


def test_a_tiny_expert_iteration_is_reproducible_and_records_its_rounds(tmp_path) -> None:  # noqa: ANN001
    def iteration(name: str) -> ValueNet:
        return iterate("birmingham", 5, [(2, 2)], [(2, 1)], 2, tmp_path / f"{name}.npz",
                       tmp_path / f"data-{name}", bot_options=FAST_OPTIONS, hidden=(4, 2),
                       epochs=1, log=lambda _line: None)

    first, second = iteration("a"), iteration("b")
    for key in LAYER_KEYS:
        assert np.array_equal(first.layers[key], second.layers[key])
    rounds = first.meta["rounds"]
    assert [entry["round"] for entry in rounds] == [0, 1, 2]
    assert rounds[0]["bot"] == "greedy" and rounds[1]["bot"] == f"expert:{FAST_OPTIONS}"
    # Round r's games were played by round r - 1's network, named by its layers' digest
    # (round 0's file holds its CPU time: the same network in another file)
    data = tmp_path / "data-a"
    round0 = ValueNet.load(data / "birmingham-round-0.npz")
    assert rounds[1]["network_sha256"] == network_digest(round0)
    assert rounds[2]["network_sha256"] == network_digest(
        ValueNet.load(data / "birmingham-round-1.npz"))
    # so a second run tags its datasets as the first did (and would find them)
    assert network_digest(ValueNet.load(tmp_path / "data-b" / "birmingham-round-0.npz")) \
        == rounds[1]["network_sha256"]

    def tags(folder: Path) -> list[str]:
        return sorted(re.findall(r"-([0-9a-f]{12})-s\d+-n\d+$", p.name)[0]
                      for p in folder.iterdir() if "Expert" in p.name)

    assert tags(data) == tags(tmp_path / "data-b") == sorted(
        entry["network_sha256"][:12] for entry in rounds[1:])
    assert rounds[1]["positions"] < rounds[2]["positions"] == first.meta["positions"]
    # Round 0 is train_value's network from greedy's games, the same arguments.
    alone = run("birmingham", 5, [(2, 2)], tmp_path / "alone.npz", tmp_path / "data-a",
                hidden=(4, 2), epochs=1, log=lambda _line: None)
    for key in LAYER_KEYS:
        assert np.array_equal(alone.layers[key], round0.layers[key])


def test_training_gives_the_same_weights_whatever_blas_threads_the_process_has() -> None:
    # A process that made an expert has BLAS on one thread (value_net.one_blas_thread):
    # training there gave other weights than in a fresh process before training pinned
    # its own thread count (train_value.TRAINING_BLAS_THREADS).
    from threadpoolctl import threadpool_limits

    from brass_clients.train_value import fit

    data = np.random.default_rng(3)
    x = data.standard_normal((20000, 978)).astype(np.float32)
    y = (x[:, :5].sum(axis=1) > 0).astype(np.float32)
    parts = [(x, y, np.arange(len(y)) // 50)]

    def trained(threads: int) -> dict:
        with threadpool_limits(limits=threads, user_api="blas"):
            layers, _facts = fit(parts, seed=1, rng=np.random.default_rng(1), hidden=(64, 32),
                                 epochs=1, batch=256, lr=1e-3, weight_decay=3.0,
                                 valid_share=0.1, log=lambda _line: None)
        return layers

    one, two = trained(1), trained(2)
    for key in LAYER_KEYS:
        assert np.array_equal(one[key], two[key]), key
