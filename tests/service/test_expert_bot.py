"""The `expert` bot on the server (issue 26, item 4): RunBatch and bot seats take it by
name, refuse its time budget (`ms`), count its search in the bot budget, and a worker
decides for its seat from a re-dealt copy."""

from __future__ import annotations

import pytest

import brass
from brass_clients.bots import make_bot
from brass_service.bots.batches import BatchLimits, check_bot_spec, play_batch_game
from brass_service.bots.bot_seats import check_seat_bot, choose_decision, search_cost
from brass_service.errors import ServiceError
from brass_service.limits import BOT_SEAT_MAX_MCTS_ITERATIONS, BOT_SEAT_MAX_SEARCH_COST


def test_batches_take_expert_by_name_but_not_its_time_budget() -> None:
    assert check_bot_spec("expert:iterations=8", BatchLimits()) == "expert:iterations=8"
    with pytest.raises(ServiceError) as refused:
        check_bot_spec("expert:ms=200", BatchLimits())
    assert refused.value.metadata["field"] == "bots"
    assert "time budgets (ms=)" in refused.value.message
    with pytest.raises(ServiceError, match=r"time budgets \(max_ms=\)"):
        check_bot_spec("expert:max_ms=900", BatchLimits())
    with pytest.raises(ServiceError, match="iterations must be 1 to 2000"):
        check_bot_spec("expert:iterations=5000", BatchLimits())


def test_a_seat_counts_the_expert_search_in_its_budget() -> None:
    default = make_bot("expert")
    assert search_cost(default) == 32 * (250 + 40)  # iterations x (reply + leaf)
    assert search_cost(make_bot("expert:depth=4")) == 32 * (4 * 250 + 40)
    assert search_cost(make_bot("expert:depth=0:iterations=10")) == 10 * 40
    for fits in ("expert", "expert:iterations=113"):  # the default fits a server seat
        assert search_cost(make_bot(fits)) <= BOT_SEAT_MAX_SEARCH_COST
        assert check_seat_bot(fits, BOT_SEAT_MAX_MCTS_ITERATIONS, "bot",
                              BOT_SEAT_MAX_SEARCH_COST) == fits
    with pytest.raises(ServiceError):  # one iteration more than fits
        check_seat_bot("expert:iterations=114", BOT_SEAT_MAX_MCTS_ITERATIONS, "bot",
                       BOT_SEAT_MAX_SEARCH_COST)
    with pytest.raises(ServiceError) as refused:
        check_seat_bot("expert:iterations=500", BOT_SEAT_MAX_MCTS_ITERATIONS,
                       "bot_seats[1].bot", BOT_SEAT_MAX_SEARCH_COST)
    assert refused.value.metadata["field"] == "bot_seats[1].bot"
    assert "decisions a turn" in refused.value.message


@pytest.mark.parametrize("ruleset", ["birmingham", "pittsburgh"])
def test_a_worker_decides_for_an_expert_seat(ruleset: str) -> None:
    game = brass.Game.new(3, seed=4, ruleset=ruleset)
    seat = game.current_seat
    assert seat is not None
    choice = choose_decision(game.snapshot(), "expert:iterations=2:candidates=2", seat, 99)
    assert choice in game.legal_ids()
    assert choice == choose_decision(game.snapshot(), "expert:iterations=2:candidates=2",
                                     seat, 99)


def test_a_batch_game_with_an_expert_seat_replays() -> None:
    result = play_batch_game(["expert:iterations=2:candidates=2:depth=0", "random"], 5, 0, {},
                             True)
    assert result is not None and "failure" not in result
    record = {"ruleset": "birmingham", "rules_edition": 1, "players": 2,
              "seed": result["seed"], "options": {}, "decisions": result["decision_ids"]}
    assert brass.Game.replay(record).scores() == result["scores"]
