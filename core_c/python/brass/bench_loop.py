"""The Python loop's cost (issue 22): µs per decision of ``legal_ids()`` + ``apply()`` over
random full games, µs per ``clone()`` and heap bytes per ``Game`` object (slope), per
ruleset. ``python -m brass.bench_loop [--games N] [--rounds R]``; prints one line a figure.

Where OpenSpiel is installed (the ``rl`` extra), the same loop over its chess is measured in
the same run, rounds alternating with ours, and each ruleset's loop is also printed as a
ratio to it: issue 22's goals were set against chess on one machine (5.05 µs there), and
the ratio carries them to a machine of another speed."""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Any

from brass.game import Game
from brass.rulesets import RULESETS


def loop_us(ruleset: str, games: int, seed: int = 1) -> float:
    """µs per decision of legal_ids() + apply() over `games` random full 2-player games."""
    rng = random.Random(seed)
    decisions = 0
    elapsed = 0.0
    for k in range(games):
        g = Game.new(2, seed=seed + k, ruleset=ruleset)
        choice = rng.choice
        t0 = time.process_time()
        while not g.is_over:
            g.apply(choice(g.legal_ids()))
            decisions += 1
        elapsed += time.process_time() - t0
    return elapsed / max(decisions, 1) * 1e6


def chess_loop_us(games: int, seed: int = 1) -> float | None:
    """µs per decision of OpenSpiel chess's legal_actions() + apply_action() over `games`
    random games, timed as loop_us; None without OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    chess = pyspiel.load_game("chess")
    rng = random.Random(seed)
    decisions = 0
    elapsed = 0.0
    for _ in range(games):
        state = chess.new_initial_state()
        choice = rng.choice
        t0 = time.process_time()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
            decisions += 1
        elapsed += time.process_time() - t0
    return elapsed / max(decisions, 1) * 1e6


def clone_us(ruleset: str, copies: int = 20000) -> float:
    """µs per clone() of a game a few decisions in."""
    g = Game.new(2, seed=3, ruleset=ruleset)
    for _ in range(5):
        g.apply(g.legal_ids()[0])
    t0 = time.process_time()
    for _ in range(copies):
        g.clone()
    return (time.process_time() - t0) / copies * 1e6


def _heap_bytes() -> int:
    """Bytes of the C heap in use (glibc's mallinfo2); with PYTHONMALLOC=malloc every Python
    object is there too, beside cffi's allocations (which tracemalloc does not see). Unlike
    resident memory it counts a calloc'd block's untouched pages."""
    info = _MALLINFO2()
    return int(info.uordblks + info.hblkhd)


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _mallinfo2() -> Any:
    try:
        fn = ctypes.CDLL(None).mallinfo2
    except (AttributeError, OSError):
        return None
    fn.restype = _Mallinfo2
    return fn


_MALLINFO2 = _mallinfo2()


def _game_bytes_here(ruleset: str, small: int, large: int) -> float:
    gc.collect()
    keep: list[Any] = []
    mark = 0
    for k in range(large):
        if k == small:
            mark = _heap_bytes()
        g = Game.new(2, seed=k, ruleset=ruleset)
        for _ in range(3):
            g.apply(g.legal_ids()[0])
        keep.append(g)
    return (_heap_bytes() - mark) / (large - small)


def game_bytes(ruleset: str, small: int = 2000, large: int = 12000) -> float | None:
    """Heap bytes per live Game object three decisions in (the slope between two counts),
    measured in a child process with PYTHONMALLOC=malloc; None without glibc's mallinfo2."""
    if _MALLINFO2 is None:
        return None
    code = ("import sys; from brass.bench_loop import _game_bytes_here as f; "
            "print(f(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))")
    out = subprocess.run([sys.executable, "-c", code, ruleset, str(small), str(large)],
                         env={**os.environ, "PYTHONMALLOC": "malloc"}, check=True,
                         capture_output=True, text=True).stdout
    return float(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m brass.bench_loop", description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="random games per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (medians printed)")
    parser.add_argument("--copies", type=int, default=20000, help="clones timed per round")
    parser.add_argument("--memory-games", type=int, default=12000,
                        help="live games for the memory slope (from a sixth of them)")
    parser.add_argument("--ruleset", action="append", choices=sorted(RULESETS))
    args = parser.parse_args(argv)
    names = args.ruleset or sorted(RULESETS)
    loops: dict[str, list[float]] = {name: [] for name in names}
    chess: list[float] = []
    for r in range(args.rounds):  # the loops alternate round by round, chess among them
        for name in names:
            loops[name].append(loop_us(name, args.games, seed=1 + r * args.games))
        anchor = chess_loop_us(max(1, args.games // 4), seed=1 + r)
        if anchor is not None:
            chess.append(anchor)
    if chess:
        print(f"openspiel_chess loop_us_per_decision {statistics.median(chess):.2f} "
              f"(range {min(chess):.2f}-{max(chess):.2f})")
    for name in names:
        clones = [clone_us(name, args.copies) for _ in range(args.rounds)]
        size = game_bytes(name, args.memory_games // 6, args.memory_games)
        ours = loops[name]
        print(f"{name} loop_us_per_decision {statistics.median(ours):.2f} "
              f"(range {min(ours):.2f}-{max(ours):.2f})")
        if chess:
            ratios = [mine / theirs for mine, theirs in zip(ours, chess, strict=True)]
            print(f"{name} loop_to_chess {statistics.median(ratios):.3f} "
                  f"(range {min(ratios):.3f}-{max(ratios):.3f})")
        print(f"{name} clone_us {statistics.median(clones):.2f} "
              f"(range {min(clones):.2f}-{max(clones):.2f})")
        if size is not None:
            print(f"{name} game_bytes {size:.0f}")


if __name__ == "__main__":
    main()
