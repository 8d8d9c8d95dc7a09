"""The arena's pairings and table (service/arena/schedule.py), as plain functions:
round-robin rounds with seats rotated, Swiss rounds from the standings (no repeated
meeting while another is possible, byes from the bottom), points by placing."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from brass_service.arena import schedule


def _play(state: dict[str, Any], tables: list[list[int]], byes: list[int],
          winners: set[int]) -> None:
    """Plays a round: at each table the members in `winners` share first, the rest last."""
    round_ = schedule.new_round(tables, byes, seed=1, index=len(state["rounds"]))
    for table in round_["tables"]:
        first = [seat for seat, member in enumerate(table["seats"]) if member in winners]
        table.update(done=True, changes=[0.0] * len(table["seats"]),
                     ratings=[0.0] * len(table["seats"]),
                     ranks=[1 if seat in first else len(first) + 1
                            for seat in range(len(table["seats"]))])
    state["rounds"].append(round_)
    state["round"] += 1


def test_round_robin_meets_every_group_once_with_seats_rotated() -> None:
    rounds = schedule.round_robin(4, 2, cycles=1)
    tables = [table for round_ in rounds for table in round_]
    assert sorted(tuple(sorted(table)) for table in tables) == list(
        itertools.combinations(range(4), 2))
    assert len(rounds) == 3  # each entrant at one table a round: 2 tables a round
    for round_ in rounds:
        members = [member for table in round_ for member in table]
        assert len(members) == len(set(members))
    # twice over: every pair meets twice, once in each seat order
    twice = [table for round_ in schedule.round_robin(4, 2, cycles=2) for table in round_]
    assert Counter(tuple(table) for table in twice) == Counter(
        {pair: 1 for group in itertools.combinations(range(4), 2)
         for pair in (group, group[::-1])})
    # 4 a table, 5 entrants: 5 tables, each a round; every entrant at seat 0 once
    four = [table for round_ in schedule.round_robin(5, 4, cycles=1) for table in round_]
    assert len(four) == 5 and schedule.round_robin_games(5, 4, 1) == 5
    assert sorted(table[0] for table in four) == [0, 1, 2, 3, 4]


def test_swiss_pairs_by_standings_without_repeats_and_gives_byes_from_the_bottom() -> None:
    state: dict[str, Any] = {"round": 0, "rounds": []}
    tables, byes = schedule.swiss_round(4, 2, state)
    assert sorted(map(sorted, tables)) == [[0, 1], [2, 3]] and byes == []
    _play(state, tables, byes, winners={1, 3})
    tables, _ = schedule.swiss_round(4, 2, state)
    # the two winners meet, the two losers meet
    assert sorted(map(sorted, tables)) == [[0, 2], [1, 3]]
    _play(state, tables, [], winners={1, 2})
    tables, _ = schedule.swiss_round(4, 2, state)
    # 1 leads (2 wins); its nearest rivals were all met but 2... 1 met 0 and 3: it meets 2
    assert sorted(map(sorted, tables)) == [[0, 3], [1, 2]]
    # seats rotate: each entrant has sat in seat 0 at most twice in three rounds
    _play(state, tables, [], winners={1})
    seat_zero = Counter(table["seats"][0] for round_ in state["rounds"]
                        for table in round_["tables"])
    assert max(seat_zero.values()) <= 2

    five: dict[str, Any] = {"round": 0, "rounds": []}
    tables, byes = schedule.swiss_round(5, 2, five)
    assert byes == [4] and len(tables) == 2  # the last in the standings sits out
    _play(five, tables, byes, winners={0, 2})
    tables, byes = schedule.swiss_round(5, 2, five)
    assert byes != [4] and len(byes) == 1  # the fewest byes first
    lines = schedule.tallies(5, 2, five)
    assert lines[4]["byes"] == 1 and lines[4]["points"] == 0


def test_points_by_placing_and_shared_places() -> None:
    state: dict[str, Any] = {"round": 0, "rounds": []}
    _play(state, [[0, 1, 2]], [], winners={0})
    lines = schedule.tallies(3, 3, state)
    # first scores players - 1; the two level last share second place (1 point each)
    assert [line["points"] for line in lines] == [2, 1, 1]
    assert [line["wins"] for line in lines] == [1, 0, 0]
    placed = schedule.standings(3, 3, state)
    assert [(place, entrant) for place, entrant, _ in placed] == [(1, 0), (2, 1), (2, 2)]
    assert schedule.points(1, 4) == 3 and schedule.points(4, 4) == 0
