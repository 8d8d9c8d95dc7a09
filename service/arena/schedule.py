"""An arena's pairings and table of results as plain functions of its documents (no I/O):
round-robin rounds, a Swiss round from the standings, the seats of a table (rotated by
each entrant's seat history), the games' seeds, and the standings.

An arena's `state` document (stored by store/arenas.py):

    {"round": 0,                         the round being played (0-based)
     "rounds": [{"tables": [{"seats": [2, 0],        entrant indexes by seat
                             "seed": 123,            the game's seed
                             "game_id": "g…",        once created
                             "done": true, "ranks": [1, 2], "changes": [4.1, -3.9],
                             "ratings": [1.2, -2.0], "forfeited": [1]}],
                 "byes": [3]}],          entrants sitting the round out (Swiss)
     "finished_at": 1764600000.5}        once every round was played
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from typing import Any

Table = list[int]  # entrant indexes by seat


def seats_of(members: list[int], seat_debt: dict[int, float]) -> Table:
    """The table's seats: the entrant that sat latest so far (the largest seat debt: the
    sum of its seats' distance past the middle seat) takes seat 0, and so on; level ones
    keep the order given."""
    return sorted(members, key=lambda member: -seat_debt.get(member, 0.0))


def _sit(table: Table, seat_debt: dict[int, float]) -> None:
    middle = (len(table) - 1) / 2
    for seat, member in enumerate(table):
        seat_debt[member] = seat_debt.get(member, 0.0) + seat - middle


def round_robin(entrants: int, players: int, cycles: int) -> list[list[Table]]:
    """Every group of `players` entrants, `cycles` times, packed into rounds in which each
    entrant plays at most one table (tables taken in order, each into the first round it
    fits). The first time, a group's seats follow the seat history (seats_of); the c-th
    time, they are the first time's turned by c: so a pair plays both ways round in two
    cycles, and a table of n every seat in n."""
    seat_debt: dict[int, float] = {}
    first = []
    for group in itertools.combinations(range(entrants), players):
        table = seats_of(list(group), seat_debt)
        _sit(table, seat_debt)
        first.append(table)
    pending = [table[cycle % players:] + table[:cycle % players]
               for cycle in range(cycles) for table in first]
    rounds: list[list[Table]] = []
    while pending:
        busy: set[int] = set()
        tables, rest = [], []
        for table in pending:
            if busy.isdisjoint(table):
                busy.update(table)
                tables.append(table)
            else:
                rest.append(table)
        rounds.append(tables)
        pending = rest
    return rounds


def round_robin_games(entrants: int, players: int, cycles: int) -> int:
    return cycles * math.comb(entrants, players)


def swiss_round(entrants: int, players: int, state: dict[str, Any]) -> tuple[list[Table],
                                                                              list[int]]:
    """The next Swiss round's tables and byes: entrants by points then wins; the
    `entrants % players` left over sit out (from the bottom, the fewest byes first); each
    table starts with the best entrant not seated yet and takes, one at a time, the entrant
    nearest in the standings among those who met its members the fewest times."""
    lines = tallies(entrants, players, state)
    order = sorted(range(entrants), key=lambda i: (-lines[i]["points"], -lines[i]["wins"], i))
    left_over = entrants % players
    byes = sorted(reversed(order), key=lambda i: lines[i]["byes"])[:left_over]
    playing = [i for i in order if i not in byes]
    met = meetings(state)
    seat_debt = seat_debts(state)
    tables = []
    while playing:
        members = [playing.pop(0)]
        while len(members) < players:
            nearest = min(range(len(playing)), key=lambda j: (
                sum(met[frozenset((playing[j], m))] for m in members), j))
            members.append(playing.pop(nearest))
        table = seats_of(members, seat_debt)
        _sit(table, seat_debt)
        tables.append(table)
    return tables, sorted(byes)


def meetings(state: dict[str, Any]) -> Counter[frozenset[int]]:
    met: Counter[frozenset[int]] = Counter()
    for table in _tables(state):
        for pair in itertools.combinations(table["seats"], 2):
            met[frozenset(pair)] += 1
    return met


def seat_debts(state: dict[str, Any]) -> dict[int, float]:
    debt: dict[int, float] = {}
    for table in _tables(state):
        _sit(table["seats"], debt)
    return debt


def _tables(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [table for round_ in state["rounds"] for table in round_["tables"]]


def new_round(tables: list[Table], byes: list[int], seed: int, index: int) -> dict[str, Any]:
    """A planned round: its tables with their games' seeds (drawn from the arena's seed, the
    round and the table: the same arena deals the same games)."""
    return {"tables": [{"seats": table, "seed": game_seed(seed, index, number),
                        "game_id": None, "done": False}
                       for number, table in enumerate(tables)], "byes": byes}


def game_seed(seed: int, round_index: int, table: int) -> int:
    return random.Random(f"{seed}:{round_index}:{table}").getrandbits(63)


def points(rank: int, players: int) -> int:
    """Points of a place at a table of `players`: first scores players - 1, last 0."""
    return players - rank


def tallies(entrants: int, players: int, state: dict[str, Any]) -> list[dict[str, Any]]:
    """Each entrant's points, wins, games, forfeits, byes, latest rating and summed rating
    change, from the finished tables (in the order they were played)."""
    lines: list[dict[str, Any]] = [
        {"points": 0, "wins": 0, "games": 0, "forfeits": 0, "byes": 0, "rating": 0.0,
         "rating_change": 0.0} for _ in range(entrants)]
    for round_ in state["rounds"]:
        for entrant in round_.get("byes", ()):
            lines[entrant]["byes"] += 1
        for table in round_["tables"]:
            if not table.get("done"):
                continue
            for seat, entrant in enumerate(table["seats"]):
                line, rank = lines[entrant], table["ranks"][seat]
                line["points"] += points(rank, len(table["seats"]))
                line["wins"] += rank == 1
                line["games"] += 1
                line["forfeits"] += seat in table.get("forfeited", ())
                line["rating"] = table["ratings"][seat]
                line["rating_change"] = round(line["rating_change"] + table["changes"][seat], 3)
    return lines


def standings(entrants: int, players: int, state: dict[str, Any]
              ) -> list[tuple[int, int, dict[str, Any]]]:
    """(place, entrant, tally) best first: by points, then wins; level entrants share a
    place."""
    lines = tallies(entrants, players, state)
    order = sorted(range(entrants), key=lambda i: (-lines[i]["points"], -lines[i]["wins"], i))
    placed = []
    for position, entrant in enumerate(order):
        key = (lines[entrant]["points"], lines[entrant]["wins"])
        if position and key == (lines[order[position - 1]]["points"],
                                lines[order[position - 1]]["wins"]):
            place = placed[-1][0]
        else:
            place = position + 1
        placed.append((place, entrant, lines[entrant]))
    return placed
