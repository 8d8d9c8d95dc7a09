"""CPU of one watcher's update (WatchGame's message for a new version), per transport.

    python -m brass_service.tools.bench_watch [--rounds 5] [--updates 300]

Each decision sends every watcher of the game an update with its view of the new version
(the seats' web pages, bots' streams, spectators). For a mid-game position of each ruleset
and 4 players, for every seat and the spectator, it times in this process:

- plain: the update built as a message (`game_state` into WatchGameResponse) and sent as
  gRPC's bytes (SerializeToString) or REST's JSON (json_format, as the service did before
  WatchUpdate);
- parts, first: WatchUpdate with its view encoded by the core for this update (the first
  watcher of a seat at a version);
- parts, shared: WatchUpdate with the view already encoded for this version and seat (by
  the answer to the seat's own move, or an earlier watcher of it): ViewCache's hit.

Rounds alternate the routes; printed: the median and range of µs of CPU per update (this
process's time), and each route's ratio to plain. A measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

import brass

from ..gen import game_service_pb2 as pb
from ..model import LiveGame, status_of
from ..store import GameRow
from ..views.answers import StateParts, WatchUpdate, game_state
from ..views.convert import message_to_json_dict
from ..views.view_cache import ViewCache

_RULESETS = {"birmingham": pb.RULESET_BIRMINGHAM, "pittsburgh": pb.RULESET_PITTSBURGH}


def _position(ruleset: str, decisions: int) -> tuple[GameRow, LiveGame]:
    game = brass.Game.new(players=4, seed=11, ruleset=ruleset)
    rng = random.Random(11)
    for _ in range(decisions):
        game.apply(rng.choice(game.legal_ids()), game.current_seat)
    now = time.time()
    row = GameRow(
        game_id="bench-watch", ruleset=_RULESETS[ruleset], rules_edition=1, players=4,
        seed=11, options={}, position_json=None, seat_names=["Ann", "Bob", "Cy", "Di"],
        token_hashes=["x"] * 4, created_at=now, updated_at=now, version=decisions,
        status=status_of(game), current_seat=game.current_seat, decision=game.decision,
    )
    return row, LiveGame(game, decisions, now, None)


def _routes(row: GameRow, live: LiveGame) -> dict[str, Callable[[int | None, bool], object]]:
    shared = ViewCache()

    def plain(seat: int | None, rest: bool) -> object:
        update = pb.WatchGameResponse(version=live.version)
        game_state(row, live, seat, into=update.state)
        if rest:
            return json.dumps(message_to_json_dict(update), separators=(",", ":"))
        return update.SerializeToString()

    def first(seat: int | None, rest: bool) -> object:
        update = WatchUpdate(live.version, [], StateParts(row, live, seat, ViewCache()))
        return update.to_json_text() if rest else update.to_bytes()

    def hit(seat: int | None, rest: bool) -> object:
        update = WatchUpdate(live.version, [], StateParts(row, live, seat, shared))
        return update.to_json_text() if rest else update.to_bytes()

    return {"plain": plain, "parts, first": first, "parts, shared": hit}


def _time(route: Callable[[int | None, bool], object], rest: bool, updates: int) -> float:
    seats: list[int | None] = [0, 1, 2, 3, None]
    route(0, rest)
    start = time.process_time()
    for index in range(updates):
        route(seats[index % len(seats)], rest)
    return (time.process_time() - start) / updates * 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--updates", type=int, default=300)
    args = parser.parse_args(argv)
    for ruleset, decisions in (("birmingham", 120), ("pittsburgh", 120)):
        row, live = _position(ruleset, decisions)
        routes = _routes(row, live)
        for transport, rest in (("grpc", False), ("rest", True)):
            times: dict[str, list[float]] = {name: [] for name in routes}
            names = list(routes)
            for round_number in range(args.rounds):
                shift = round_number % len(names)
                for name in names[shift:] + names[:shift]:
                    times[name].append(_time(routes[name], rest, args.updates))
            base = statistics.median(times["plain"])
            for name, values in times.items():
                median = statistics.median(values)
                print(f"{ruleset} {transport} {name:<14} {median:8.1f} µs/update "
                      f"({min(values):.1f}-{max(values):.1f}), {median / base:.3f} x plain")


if __name__ == "__main__":
    main()
