"""`brass eval`: many games between a line-up of bots, with fair seating and statistics.

Game `i` seats entry `(seat + i) % players` of the line-up at `seat`, so every entry plays
every seat equally often; the deal seed and every bot's random stream derive from
`(seed, i, seat)` alone. Results are therefore identical for any number of workers (the
`timing` block aside), in process pools, on Ray, or through the game service.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from typing import Any

import brass
from brass_clients.bots import make_bot, parse_bot_spec

WILSON_Z = 1.959963984540054  # 95 %
# Options the service's GameOptions carries in fields of their own; every other option goes
# in its ruleset_options map.
SERVICE_TYPED_OPTIONS = ("beginner", "manufacturer_iv_cost", "auto_resolve")


@dataclass(frozen=True)
class GameResult:
    index: int
    seed: int
    seat_entries: list[int]  # line-up entry seated at each seat
    scores: list[int]        # by seat
    winners: list[int]       # seats sharing first place
    ranking: list[int]       # seats, best first
    decisions: int
    seconds: float
    # Per seat: the bot's CPU time (time.thread_time) in `choose`, its decisions, its worst.
    think_seconds: list[float] = field(default_factory=list)
    think_decisions: list[int] = field(default_factory=list)
    think_max: list[float] = field(default_factory=list)


class DecisionClock:
    """Each seat's CPU time in `choose` over one game (thread time: other processes on a
    shared machine do not count)."""

    def __init__(self, players: int) -> None:
        self.seconds = [0.0] * players
        self.decisions = [0] * players
        self.worst = [0.0] * players

    def record(self, seat: int, seconds: float) -> None:
        self.seconds[seat] += seconds
        self.decisions[seat] += 1
        self.worst[seat] = max(self.worst[seat], seconds)


def derive_seed(*parts: int) -> int:
    """A 63-bit seed from integers (stable across runs, processes and machines)."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def game_seed(base_seed: int, index: int) -> int:
    return derive_seed(base_seed, index, 0xB4A55)


def bot_rng(base_seed: int, index: int, seat: int) -> random.Random:
    return random.Random(derive_seed(base_seed, index, seat, 0xB07))


def lineup(bot_specs: Sequence[str], players: int) -> list[str]:
    """The line-up: bot specs repeated to fill `players` seats (`greedy` -> 2 greedy seats)."""
    specs = [s.strip() for s in bot_specs if s.strip()]
    if not specs:
        raise ValueError("give at least one bot")
    if len(specs) > players:
        raise ValueError(f"{len(specs)} bots for {players} seats")
    for spec in specs:
        make_bot(spec, allow_import=True)  # fail early on unknown bots or options
    return [specs[k % len(specs)] for k in range(players)]


def entry_labels(entries: Sequence[str]) -> list[str]:
    """Unique display labels: ``random``, ``random#2`` ... for repeated specs."""
    seen: dict[str, int] = {}
    labels = []
    for spec in entries:
        seen[spec] = seen.get(spec, 0) + 1
        labels.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return labels


def seat_entries(index: int, players: int) -> list[int]:
    return [(seat + index) % players for seat in range(players)]


def run_game(
    entries: Sequence[str],
    base_seed: int,
    index: int,
    options: dict[str, Any] | None = None,
    stop: Callable[[], bool] | None = None,
    ruleset: str = brass.DEFAULT_RULESET,
    clock: DecisionClock | None = None,
    allow_import: bool = False,
) -> tuple[brass.Game, list[int], int] | None:
    """Plays game `index` of an evaluation to the end in this process: its seating, deal
    seed and the bots' random streams all derive from (base_seed, index). `ruleset` and
    `options` are the engine's (`brass.Game.new`). Returns the game, the seating and the
    deal seed, or None when `stop()` turns true first. `clock` records each seat's time per
    decision; `allow_import` lets specs name bot classes by import path (not the service)."""
    players = len(entries)
    seating = seat_entries(index, players)
    bots = [make_bot(entries[entry], allow_import=allow_import) for entry in seating]
    for bot in bots:
        bot.stop = stop  # a search in progress ends early too
    rngs = [bot_rng(base_seed, index, seat) for seat in range(players)]
    seed = game_seed(base_seed, index)
    game = brass.Game.new(players, seed=seed, ruleset=ruleset, options=options)
    while not game.is_over:
        if stop is not None and stop():
            return None
        seat = game.current_seat
        assert seat is not None
        started = time.thread_time()
        option = bots[seat].choose(game, rngs[seat])
        if clock is not None:
            clock.record(seat, time.thread_time() - started)
        game.apply(option, seat)
    return game, seating, seed


def _past(deadline: float | None) -> Callable[[], bool] | None:
    """A stop test for a wall-clock deadline (time.time(): the same in every process)."""
    if deadline is None:
        return None
    return lambda: time.time() >= deadline


def play_game(entries: Sequence[str], base_seed: int, index: int,
              ruleset: str = brass.DEFAULT_RULESET,
              options: dict[str, Any] | None = None,
              deadline: float | None = None) -> GameResult | None:
    """Play game `index` of an evaluation in this process (None: `deadline` came first)."""
    started = time.perf_counter()
    clock = DecisionClock(len(entries))
    played = run_game(entries, base_seed, index, options, stop=_past(deadline),
                      ruleset=ruleset, clock=clock, allow_import=True)
    if played is None:
        return None
    game, seating, seed = played
    return GameResult(index, seed, seating, game.scores(), game.winners(), game.ranking(),
                      game.version, time.perf_counter() - started,
                      clock.seconds, clock.decisions, clock.worst)


def play_game_on_server(target: str, entries: Sequence[str], base_seed: int,
                        index: int, ruleset: str = brass.DEFAULT_RULESET,
                        options: dict[str, Any] | None = None) -> GameResult:
    """Play game `index` through the gRPC service: each seat submits with its own token.

    Bots decide on a local mirror of the game, created from the same seed and kept in step
    with the server (the server's version is checked after every submission, and its final
    scores against the mirror's).
    """
    from brass_clients.sdk import GameClient  # optional: needs the service's generated code

    players = len(entries)
    seating = seat_entries(index, players)
    bots = [make_bot(entries[entry], allow_import=True) for entry in seating]
    rngs = [bot_rng(base_seed, index, seat) for seat in range(players)]
    seed = game_seed(base_seed, index)
    started = time.perf_counter()
    clock = DecisionClock(players)
    labels = entry_labels(entries)
    options = dict(options or {})
    typed = {name: options.pop(name) for name in SERVICE_TYPED_OPTIONS if name in options}
    with GameClient(target) as client:
        created = client.create_game(players, seed=seed,
                                     seat_names=[labels[e][:40] for e in seating],
                                     ruleset=ruleset, ruleset_options=options, **typed)
        tokens = {s.seat: s.token for s in created.seats}
        mirror = brass.Game.new(players, seed=seed, ruleset=ruleset, options={**options, **typed})
        while not mirror.is_over:
            seat = mirror.current_seat
            assert seat is not None
            thinking = time.thread_time()
            option = bots[seat].choose(mirror, rngs[seat])
            clock.record(seat, time.thread_time() - thinking)
            response = client.submit_action(created.game_id, tokens[seat], option,
                                            expected_version=mirror.version)
            mirror.apply(option, seat)
            server_version = response.state.summary.version
            if server_version != mirror.version:
                raise RuntimeError(f"server at version {server_version}, mirror at "
                                   f"{mirror.version} (game {created.game_id})")
        final = client.get_game(created.game_id)
        if list(final.scores) != mirror.scores():
            raise RuntimeError(f"server scores {list(final.scores)} differ from the "
                               f"engine's {mirror.scores()} (game {created.game_id})")
    return GameResult(index, seed, seating, mirror.scores(), mirror.winners(),
                      mirror.ranking(), mirror.version, time.perf_counter() - started,
                      clock.seconds, clock.decisions, clock.worst)


def _play_chunk(entries: Sequence[str], base_seed: int, indices: Sequence[int],
                server: str | None, ruleset: str = brass.DEFAULT_RULESET,
                options: dict[str, Any] | None = None,
                deadline: float | None = None) -> list[GameResult]:
    """The games of `indices` that finish before `deadline` (a server game, once started,
    is played to its end: the server's game would be left half played)."""
    results: list[GameResult] = []
    for i in indices:
        if deadline is not None and time.time() >= deadline:
            break
        if server:
            results.append(play_game_on_server(server, entries, base_seed, i, ruleset,
                                               options))
            continue
        result = play_game(entries, base_seed, i, ruleset, options, deadline)
        if result is not None:
            results.append(result)
    return results


def wilson_interval(successes: float, trials: int, z: float = WILSON_Z) -> tuple[float, float]:
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _places(result: GameResult) -> list[int]:
    """Finishing place by seat (1 = first; seats tied with the winners share place 1)."""
    places = [0] * len(result.scores)
    for position, seat in enumerate(result.ranking):
        places[seat] = 1 if seat in result.winners else position + 1
    return places


def summarize(entries: Sequence[str], results: Sequence[GameResult]) -> dict[str, Any]:
    """Per line-up entry: games, wins (shared first place split), Wilson 95 % interval,
    VP mean / standard deviation, mean game length and an openskill PlackettLuce rating."""
    from openskill.models import PlackettLuce

    labels = entry_labels(entries)
    model = PlackettLuce()
    ratings = [model.rating(name=label) for label in labels]
    wins = [0.0] * len(entries)
    vps: list[list[int]] = [[] for _ in entries]
    lengths: list[list[int]] = [[] for _ in entries]
    for result in sorted(results, key=lambda r: r.index):
        places = _places(result)
        for seat, entry in enumerate(result.seat_entries):
            vps[entry].append(result.scores[seat])
            lengths[entry].append(result.decisions)
            if seat in result.winners:
                wins[entry] += 1.0 / len(result.winners)
        teams = [[ratings[entry]] for entry in result.seat_entries]
        rated = model.rate(teams, ranks=places)
        for seat, entry in enumerate(result.seat_entries):
            ratings[entry] = rated[seat][0]
    per_bot: dict[str, Any] = {}
    for entry, label in enumerate(labels):
        games = len(vps[entry])
        low, high = wilson_interval(wins[entry], games)
        per_bot[label] = {
            "bot": entries[entry],
            "games": games,
            "wins": round(wins[entry], 6),
            "win_rate": round(wins[entry] / games, 6) if games else 0.0,
            "win_rate_95": [round(low, 6), round(high, 6)],
            "vp_mean": round(statistics.fmean(vps[entry]), 6) if games else 0.0,
            "vp_stdev": round(statistics.pstdev(vps[entry]), 6) if games else 0.0,
            "mean_game_length": round(statistics.fmean(lengths[entry]), 6) if games else 0.0,
            "rating": {"mu": round(ratings[entry].mu, 6),
                       "sigma": round(ratings[entry].sigma, 6),
                       "ordinal": round(ratings[entry].ordinal(), 6)},
        }
    return per_bot


ProgressCallback = Callable[[int], None]


def _chunks(games: int, size: int) -> list[list[int]]:
    return [list(range(start, min(games, start + size))) for start in range(0, games, size)]


def run_games(entries: Sequence[str], games: int, seed: int, *, workers: int = 1,
              server: str | None = None, ray_address: str | None = None,
              on_done: ProgressCallback | None = None, ruleset: str = brass.DEFAULT_RULESET,
              options: dict[str, Any] | None = None,
              deadline: float | None = None) -> list[GameResult]:
    """Play games 0..games-1 (in-process, in worker processes or on Ray), sorted by index.
    With `deadline` (time.time()) the games not finished by then are left out: games in
    play stop at their next decision, or sooner when their bot looks at `stop`."""
    entries = list(entries)
    results: list[GameResult] = []
    rules = (ruleset, dict(options or {}), deadline)
    if ray_address:
        return _run_on_ray(entries, games, seed, ray_address, server, on_done, rules)
    if workers <= 1:
        for index in range(games):
            results += _play_chunk(entries, seed, [index], server, *rules)
            if on_done:
                on_done(1)
        return results
    chunk_size = max(1, min(8, games // (workers * 4) or 1))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending = {pool.submit(_play_chunk, entries, seed, chunk, server, *rules)
                   for chunk in _chunks(games, chunk_size)}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            if deadline is not None and time.time() >= deadline:
                for future in pending:
                    future.cancel()  # not started yet: nothing to wait for
            for future in finished:
                if future.cancelled():
                    continue
                chunk_results = future.result()
                results += chunk_results
                if on_done:
                    on_done(len(chunk_results))
    return sorted(results, key=lambda r: r.index)


def _run_on_ray(entries: list[str], games: int, seed: int, address: str,
                server: str | None, on_done: ProgressCallback | None,
                rules: tuple[str, dict[str, Any], float | None]) -> list[GameResult]:
    try:
        import ray
    except ImportError as exc:
        raise RuntimeError("--ray-address needs the optional extra: pip install "
                           "'brass-engine[ray]'") from exc
    if not ray.is_initialized():
        if address in ("local", "auto-local"):
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    remote_chunk = ray.remote(_play_chunk)
    pending = [remote_chunk.remote(entries, seed, chunk, server, *rules)
               for chunk in _chunks(games, max(1, min(8, games // 16 or 1)))]
    results: list[GameResult] = []
    while pending:
        finished, pending = ray.wait(pending, num_returns=1)
        chunk_results = ray.get(finished[0])
        results += chunk_results
        if on_done:
            on_done(len(chunk_results))
    return sorted(results, key=lambda r: r.index)


def evaluate(bot_specs: Sequence[str], players: int, games: int, seed: int = 1, *,
             workers: int | None = None, server: str | None = None,
             ray_address: str | None = None,
             on_done: ProgressCallback | None = None, ruleset: str = brass.DEFAULT_RULESET,
             options: dict[str, Any] | None = None,
             max_seconds: float | None = None) -> dict[str, Any]:
    """The whole evaluation as one JSON-ready dict (the `brass eval --json` document).

    `ruleset` ("birmingham", "pittsburgh") and `options` (the ruleset's, as
    `brass.Game.new` takes them) apply to every game; the engine refuses bad ones (a
    `brass.EngineError`) before any game is played. The report records the ruleset, its
    rules edition and the options the engine played (defaults included). With
    `max_seconds` the evaluation stops once that much wall time has passed and reports the
    games finished by then (`games` of `games_planned`, `stopped` true)."""
    if games < 1:
        raise ValueError("games must be at least 1")
    entries = lineup(bot_specs, players)
    used = brass.Game.new(players, seed=0, ruleset=ruleset,
                          options=options).replay_record()["options"]
    workers = workers or os.cpu_count() or 1
    started = time.perf_counter()
    deadline = None if max_seconds is None else time.time() + max_seconds
    results = run_games(entries, games, seed, workers=workers, server=server,
                        ray_address=ray_address, on_done=on_done, ruleset=ruleset,
                        options=options, deadline=deadline)
    elapsed = time.perf_counter() - started
    return {
        "bots": entries,
        "players": players,
        "games": len(results),
        "games_planned": games,
        "stopped": len(results) < games,
        "seed": seed,
        "ruleset": ruleset,
        "rules_edition": brass.get_ruleset(ruleset).rules_edition,
        "options": used,
        "via": "server" if server else "engine",
        "per_bot": summarize(entries, results),
        "timing": {
            "seconds": round(elapsed, 3),
            "games_per_second": round(len(results) / elapsed, 3) if elapsed else 0.0,
            "workers": "ray" if ray_address else workers,
            "mean_seconds_per_game": (round(statistics.fmean(r.seconds for r in results), 4)
                                      if results else 0.0),
            "per_bot": decision_times(entries, results),
        },
    }


def decision_times(entries: Sequence[str], results: Sequence[GameResult]) -> dict[str, Any]:
    """Per line-up entry: its decisions, mean and worst CPU milliseconds per decision."""
    seconds = [0.0] * len(entries)
    decisions = [0] * len(entries)
    worst = [0.0] * len(entries)
    for result in results:
        for seat, entry in enumerate(result.seat_entries):
            if seat < len(result.think_decisions):
                seconds[entry] += result.think_seconds[seat]
                decisions[entry] += result.think_decisions[seat]
                worst[entry] = max(worst[entry], result.think_max[seat])
    return {label: {"decisions": decisions[entry],
                    "ms_per_decision": (round(1000 * seconds[entry] / decisions[entry], 4)
                                        if decisions[entry] else 0.0),
                    "max_ms_per_decision": round(1000 * worst[entry], 3)}
            for entry, label in enumerate(entry_labels(entries))}


def result_as_dict(result: GameResult) -> dict[str, Any]:
    return asdict(result)


__all__ = [
    "GameResult",
    "evaluate",
    "game_seed",
    "lineup",
    "parse_bot_spec",
    "play_game",
    "play_game_on_server",
    "run_games",
    "summarize",
    "wilson_interval",
]
