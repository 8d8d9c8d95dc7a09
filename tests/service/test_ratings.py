"""Ratings (issue 24, item 3): a rated game between accounts updates their ratings (per
ruleset and player count, openskill Plackett-Luce), the winner's up and the loser's
down; a resignation is a loss; unrated games and games with an anonymous seat count for
nothing; the summary carries the changes; the leaderboard (people, bots) and an account's
history, over gRPC and REST, on both back ends."""

from __future__ import annotations

import time
import uuid
from typing import Any

import brass
from brass_clients.sdk import GameClient, pb
from brass_service.ratings.ratings import ranks_of

from .helpers import ServerProcess, expect_error


def _account(client: GameClient, prefix: str, bot: bool = False) -> Any:
    return client.create_account(f"{prefix} {uuid.uuid4().hex[:8]}", bot=bot)


def _settled(client: GameClient, game_id: str) -> pb.GameSummary:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        summary = client.get_game(game_id).summary
        if summary.rating_changes:
            return summary
        time.sleep(0.1)
    raise AssertionError(f"game {game_id} was not rated")


def test_a_resignation_moves_ratings_and_the_boards_over_grpc_and_rest(
        server: ServerProcess) -> None:
    with server.client() as client:
        win2, lose2 = _account(client, "Win2", bot=True), _account(client, "Lose2")
        created = client.create_game(players=2, seed=12, open_seats=[1], rated=True,
                                     account_key=win2.key,
                                     on_resign=pb.RESIGN_POLICY_GAME_ENDS)
        joined = client.join_game(created.game_id, account_key=lose2.key)
        client.start_game(created.game_id, created.host_token)
        client.resign_game(created.game_id, joined.seat.token)
        summary = _settled(client, created.game_id)
        changes = {change.account_id: change for change in summary.rating_changes}
        won, lost = changes[win2.account.account_id], changes[lose2.account.account_id]
        assert (won.rank, lost.rank) == (1, 2)
        assert won.rating_after > won.rating_before and lost.rating_after < lost.rating_before
        assert won.games == 1 and won.provisional

        board = client.get_leaderboard(2, kind=pb.ACCOUNT_KIND_BOTS, page_size=100)
        bots = [entry.account_id for entry in board.entries]
        assert win2.account.account_id in bots and lose2.account.account_id not in bots
        entry = next(e for e in board.entries if e.account_id == win2.account.account_id)
        assert entry.rating == won.rating_after and entry.bot and entry.games == 1
        ratings = [entry.rating for entry in board.entries]
        assert ratings == sorted(ratings, reverse=True)
        history = client.get_rating_history(lose2.account.account_id)
        assert [(h.game_id, h.rank, h.rating_after) for h in history.entries] == [
            (created.game_id, 2, lost.rating_after)]
    rest = server.rest()
    try:
        people = rest.get("/v1/leaderboards/birmingham?players=2&kind=ACCOUNT_KIND_PEOPLE"
                          "&pageSize=100")
        ids = [entry["accountId"] for entry in people["entries"]]
        assert lose2.account.account_id in ids and win2.account.account_id not in ids
        history_json = rest.get(f"/v1/accounts/{win2.account.account_id}/ratings")
        assert history_json["entries"][0]["gameId"] == created.game_id
        assert history_json["entries"][0]["ratingAfter"] == won.rating_after
        game = rest.get(f"/v1/games/{created.game_id}")["state"]["summary"]
        assert game["rated"] is True and len(game["ratingChanges"]) == 2
    finally:
        rest.close()


def test_unrated_and_anonymous_games_count_for_nothing(server: ServerProcess) -> None:
    with server.client() as client:
        ann, bob = _account(client, "Ann"), _account(client, "Bob")
        unrated = client.create_game(players=2, open_seats=[1], account_key=ann.key,
                                     on_resign=pb.RESIGN_POLICY_GAME_ENDS)
        joined = client.join_game(unrated.game_id, account_key=bob.key)
        client.start_game(unrated.game_id, unrated.host_token)
        client.resign_game(unrated.game_id, joined.seat.token)
        anonymous = client.create_game(players=2, open_seats=[1], account_key=ann.key,
                                       rated=True, on_resign=pb.RESIGN_POLICY_GAME_ENDS)
        other = client.join_game(anonymous.game_id, "Nobody")
        client.start_game(anonymous.game_id, anonymous.host_token)
        client.resign_game(anonymous.game_id, other.seat.token)
        time.sleep(1.0)
        for game_id in (unrated.game_id, anonymous.game_id):
            assert not client.get_game(game_id).summary.rating_changes
        history = client.get_rating_history(ann.account.account_id)
        assert list(history.entries) == []
        expect_error("INVALID_ARGUMENT", client.get_leaderboard, 5)


def test_ranks_put_resigned_seats_last() -> None:
    game = brass.Game.new(players=3, seed=1)
    row = type("Row", (), {"hosting": {"resigned": [0]}, "players": 3})()
    assert ranks_of(row, game) == [2, 1, 1]  # type: ignore[arg-type]
