"""Property tests over many random full games, through the Python API.

For each player count (2, 3, 4), GAMES random games (500 in the default run, or
$BRASS_PROP_GAMES; 5000 more with ``-m slow``) are played with a seeded random policy
(tests/core/_support.py) under varied options (£8/£14 manufacturer IV, auto-resolve on/off,
beginner variant).

Checked after EVERY decision of EVERY game (cheap checks, on the raw state read from the
snapshot bytes at the C struct's own field offsets (from cffi), _support.check_raw):
  * money >= 0 and VP >= 0 for every player;
  * card conservation: per card type, deck + hands + face-up discards + face-down cards ==
    the box composition for this player count (so the total is 40/54/64), wild cards in
    hands + piles == 4 each, hand_size == cards in hand <= 8;
  * tiles: per player and industry, tiles on the board <= tiles off the mat <= tiles in
    the box; link tiles on the board + supply == 14;
  * cube / barrel / tile accounting: the decision's events, replayed over the state before
    it, give the state after it (_support.check_accounting);
  * snapshot -> restore gives the same snapshot bytes and state_hash;
  * legal_ids() is non-empty while the game runs; round <= the era's rounds.

Checked on every decision of the first FULL_GAMES games per player count, and on a random
1 in SAMPLE_EVERY decisions of the other games (expensive checks):
  * the same money/card/tile/link invariants computed from position() (the documented
    JSON) and agreement of position() with the raw reading;
  * every listed legal option applies cleanly on a clone (seat given explicitly);
  * every other id of the action space is refused with EngineError(ILLEGAL_ACTION) with a
    reason, and the state (snapshot bytes) is unchanged afterwards;
  * the first legal option from another seat is refused with NOT_YOUR_TURN;
  * legal_mask() marks exactly legal_ids();
  * view(seat) for every seat and the spectator carries no hidden information
    (_support.check_view), and view(seat) is unchanged by determinize(seat, ...).

Checked once per game:
  * the game ends (within MAX_DECISIONS decisions); rounds per era are exactly 10/9/8
    (2/3/4 players), one era in the beginner variant, two otherwise;
  * Game.replay(g.replay_record()) reproduces the final state (state_hash and snapshot);
  * after the end every id is refused with GAME_OVER.
Across the run, every decision kind except income shortfall must have been met.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest

import brass
from brass import EngineError

from ._support import (
    ROUNDS_PER_ERA,
    check_accounting,
    check_position,
    check_raw,
    check_view,
    new_random_game,
    policy_choice,
    raw_matches_position,
    raw_state,
)

BIRMINGHAM = brass.get_ruleset("birmingham")

GAMES = int(os.environ.get("BRASS_PROP_GAMES", "200"))  # per player count (CI; slow: 5,000)
SLOW_GAMES = 5000
FULL_GAMES = 4
SAMPLE_EVERY = 50
MAX_DECISIONS = 20000
N = BIRMINGHAM.num_actions
EXPECTED_KINDS = {"action", "card", "scout_card", "build_industry", "build_slot", "coal",
                  "iron", "beer", "link", "second_rail", "develop", "sell_tile",
                  "sell_merchant", "free_develop"}


def full_checks(g: brass.Game, ids: list[int], rng: random.Random) -> None:
    seat = g.current_seat
    assert seat is not None
    snap = g.snapshot()
    pos = g.position()
    check_position(pos)
    raw_matches_position(raw_state(snap), pos)
    mask = g.legal_mask()
    assert sorted(int(i) for i in mask.nonzero()[0]) == sorted(ids)
    for i in ids:
        c = g.clone()
        c.apply(i, seat=seat)
        assert c.version == g.version + 1
    legal = set(ids)
    for i in range(N):
        if i in legal:
            continue
        try:
            g.apply(i)
        except EngineError as exc:
            assert exc.code == "ILLEGAL_ACTION" and exc.reason not in (None, "LEGAL"), (
                i, exc.code, exc.reason)
        else:
            raise AssertionError(f"illegal id {i} accepted at {g.decision}")
    other = (seat + 1) % g.num_players
    with pytest.raises(EngineError) as exc:
        g.apply(ids[0], seat=other)
    assert exc.value.code == "NOT_YOUR_TURN"
    assert g.snapshot() == snap, "a refused id changed the state"
    for s in [None, *range(g.num_players)]:
        v = check_view(g, s, pos)
        if s is not None:
            d = g.determinize(s, rng.getrandbits(64))
            assert json.dumps(d.view(s), sort_keys=True) == json.dumps(v, sort_keys=True)
    assert g.snapshot() == snap


def play_checked(players: int, seed: int, full: bool, kinds: Counter[str]) -> int:
    g = new_random_game(players, seed)
    beginner = seed % 11 == 0
    rng = random.Random(seed)
    snap = g.snapshot()
    st = raw_state(snap)
    check_raw(st)
    rounds: dict[str, list[int]] = {"canal": [], "rail": []}
    eras_ended: list[str] = []
    decisions = 0
    r_era = ROUNDS_PER_ERA[players]
    ids: list[int] = []
    while not g.is_over:
        ids = g.legal_ids()
        assert ids, f"no legal option at decision {decisions} ({g.decision})"
        kinds[g.decision] += 1
        if full or rng.randrange(SAMPLE_EVERY) == 0:
            full_checks(g, ids, rng)
        era = "rail" if st.era else "canal"
        events = g.apply(policy_choice(g, ids, rng))
        decisions += 1
        assert decisions < MAX_DECISIONS, "the game does not end"
        snap2 = g.snapshot()
        st2 = raw_state(snap2)
        check_raw(st2)
        check_accounting(st, events, st2)
        assert 1 <= st2.round <= r_era
        for e in events:
            if e["type"] == "round_end":
                rounds[era].append(e["round"])
            elif e["type"] == "era_end":
                eras_ended.append(e["era"])
                era = "rail"
        r = brass.Game.restore(snap2)
        assert r.snapshot() == snap2 and r.state_hash() == g.state_hash()
        snap, st = snap2, st2
    # the end
    assert eras_ended == (["canal"] if beginner else ["canal", "rail"])
    assert rounds["canal"] == list(range(1, r_era + 1))
    assert rounds["rail"] == ([] if beginner else list(range(1, r_era + 1)))
    pos = g.position()
    check_position(pos)
    raw_matches_position(st, pos)
    assert pos["game_over"] and g.current_seat is None and g.legal_ids() == []
    rep = brass.Game.replay(g.replay_record())
    assert rep.state_hash() == g.state_hash()
    assert rep.snapshot() == g.snapshot()
    for i in (0, ids[0], N - 1):
        with pytest.raises(EngineError) as exc:
            g.apply(i)
        assert exc.value.code == "GAME_OVER"
    assert len(g.scores()) == players and g.winners()
    return decisions


def run_games(players: int, games: int) -> None:
    kinds: Counter[str] = Counter()
    total = 0
    for k in range(games):
        total += play_checked(players, players * 1_000_003 + k, k < FULL_GAMES, kinds)
    missing = EXPECTED_KINDS - set(kinds)
    assert not missing, f"decision kinds never met in {games} games: {missing}"
    assert total > games * 50


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games(players: int) -> None:
    run_games(players, GAMES)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_long(players: int) -> None:
    run_games(players, SLOW_GAMES)
