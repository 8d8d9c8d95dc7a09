"""Accounts (issue 24, item 1): a person's or a bot's account with a name no other account
has, an API key shown once (only its digest stored), rotated and revoked; a key on
CreateGame or JoinGame binds the seat to the account, whose games ListGames lists; an
account cannot act for another; creation is limited per address. Over gRPC and REST, on
both back ends."""

from __future__ import annotations

import sqlite3

import psycopg

from brass_clients.sdk import pb

from .conftest import Backend
from .helpers import ServerProcess, expect_error, expect_rest_error


def _unique(prefix: str) -> str:
    import uuid

    return f"{prefix} {uuid.uuid4().hex[:8]}"


def test_accounts_bind_seats_and_list_their_games_over_grpc(server: ServerProcess) -> None:
    with server.client() as client:
        ann_name = _unique("Ann")
        ann = client.create_account(ann_name)
        assert ann.key.startswith("brass_ak_") and len(ann.key) > 40
        assert (ann.account.name, ann.account.bot, ann.account.active) == (ann_name, False, True)
        bot = client.create_account(_unique("Robo"), bot=True)
        assert bot.account.bot and client.get_account(bot.account.account_id).bot
        # one name per account, ignoring case; the name rule of seat names
        expect_error("NAME_TAKEN", client.create_account, ann_name.upper())
        expect_error("INVALID_ARGUMENT", client.create_account, "bad\u202ename")
        expect_error("UNKNOWN_ACCOUNT", client.get_account, "a0000000000000000")
        assert client.get_account("me", ann.key) == ann.account  # the key's own account
        expect_error("UNAUTHENTICATED", client.get_account, "me")

        # CreateGame with a key: the first seat neither open nor a bot's is the account's
        created = client.create_game(players=3, seed=5, open_seats=[2], account_key=ann.key,
                                     seat_names=["x", "Bea", ""])
        game_id = created.game_id
        seats = created.state.summary.seats
        assert (seats[0].name, seats[0].account_id) == (ann_name, ann.account.account_id)
        assert seats[1].account_id == "" and seats[1].name == "Bea"
        # JoinGame with a key: the seat takes the account's name (a name given must be it)
        expect_error("INVALID_ARGUMENT", client.join_game, game_id, "Someone",
                     account_key=bot.key)
        joined = client.join_game(game_id, account_key=bot.key)
        assert joined.seat.name == bot.account.name
        assert joined.summary.seats[2].account_id == bot.account.account_id
        started = client.start_game(game_id, created.host_token)
        # the seat tokens keep working as before
        tokens = {seat.seat: seat.token for seat in created.seats}
        tokens[2] = joined.seat.token
        to_act = tokens[started.state.summary.current_seat]
        option = client.list_legal_actions(game_id, to_act).options[0].id
        client.submit_action(game_id, to_act, option_id=option)
        token = tokens[0]

        listed = client.list_games(account_id=ann.account.account_id)
        assert [g.game_id for g in listed.games] == [game_id]
        assert [g.game_id for g in client.list_games(
            account_id=bot.account.account_id).games] == [game_id]

        # an unlisted game lists only for the account's own key
        hidden = client.create_game(players=2, account_key=bot.key,
                                    visibility=pb.VISIBILITY_UNLISTED, account_seat=1)
        assert hidden.state.summary.seats[1].account_id == bot.account.account_id
        assert [g.game_id for g in client.list_games(
            account_id=bot.account.account_id).games] == [game_id]
        assert [g.game_id for g in client.list_games(
            account_id=bot.account.account_id, account_key=bot.key).games] == [
                hidden.game_id, game_id]
        # a key lists nobody else's unlisted games
        assert [g.game_id for g in client.list_games(
            account_id=bot.account.account_id, account_key=ann.key).games] == [game_id]

        # an account cannot act for another
        expect_error("NOT_YOUR_ACCOUNT", client.rotate_account_key, bot.account.account_id,
                     ann.key)
        expect_error("UNAUTHENTICATED", client.rotate_account_key, bot.account.account_id,
                     token)
        # rotation: the old key is void, the new one works
        new_key = client.rotate_account_key(ann.account.account_id, ann.key)
        assert new_key != ann.key
        expect_error("UNAUTHENTICATED", client.join_game, game_id, account_key=ann.key)
        expect_error("UNAUTHENTICATED", client.create_game, players=2, account_key=ann.key)
        again = client.create_game(players=2, account_key=new_key)
        assert again.state.summary.seats[0].account_id == ann.account.account_id
        # revocation: no key works; the operator may give the account a key again
        revoked = client.revoke_account_key(ann.account.account_id, new_key)
        assert not revoked.active and not client.get_account(ann.account.account_id).active
        expect_error("UNAUTHENTICATED", client.create_game, players=2, account_key=new_key)
        assert server.operator_token is not None
        restored = client.rotate_account_key(ann.account.account_id, server.operator_token)
        assert client.get_account(ann.account.account_id).active
        client.create_game(players=2, account_key=restored)


def test_accounts_over_rest(server: ServerProcess) -> None:
    rest = server.rest()
    try:
        name = _unique("Cleo")
        created = rest.post("/v1/accounts", {"name": name, "bot": True})
        account_id, key = created["account"]["accountId"], created["key"]
        assert created["account"]["bot"] is True and key.startswith("brass_ak_")
        fetched = rest.get(f"/v1/accounts/{account_id}")["account"]
        assert fetched["name"] == name and fetched["active"] is True
        assert key not in str(fetched)
        expect_rest_error("NAME_TAKEN", 409, rest.post, "/v1/accounts", {"name": name.lower()})
        expect_rest_error("UNKNOWN_ACCOUNT", 404, rest.get, "/v1/accounts/nobody")
        # "me": whose key this is (a sign-in with the key alone); nobody's without one
        assert rest.get("/v1/accounts/me", token=key)["account"] == fetched
        expect_rest_error("UNAUTHENTICATED", 401, rest.get, "/v1/accounts/me")
        expect_rest_error("UNAUTHENTICATED", 401, rest.get, "/v1/accounts/me",
                          token="brass_ak_not-a-key")
        expect_rest_error("INVALID_ARGUMENT", 400, rest.post, "/v1/accounts", {"name": ""})

        game = rest.post("/v1/games", {"players": 2, "openSeats": [1]}, token=key)
        assert game["state"]["summary"]["seats"][0]["accountId"] == account_id
        other = rest.post("/v1/accounts", {"name": _unique("Dan")})
        # the seat takes the account's name: another is refused as such (the key is no
        # seat of the game yet, and that is no reason to refuse it as UNAUTHENTICATED)
        refused = expect_rest_error("INVALID_ARGUMENT", 400, rest.post,
                                    f"/v1/games/{game['gameId']}:join", {"name": "Not Dan"},
                                    token=other["key"])
        assert refused.body["error"]["details"][0]["metadata"]["field"] == "name"
        joined = rest.post(f"/v1/games/{game['gameId']}:join", {}, token=other["key"])
        assert joined["seat"]["name"] == other["account"]["name"]
        assert joined["summary"]["seats"][1]["accountId"] == other["account"]["accountId"]
        expect_rest_error("ALREADY_SEATED", 409, rest.post, f"/v1/games/{game['gameId']}:join",
                          {}, token=other["key"])
        listed = rest.get(f"/v1/games?accountId={account_id}")
        assert [g["gameId"] for g in listed["games"]] == [game["gameId"]]

        path = f"/v1/accounts/{account_id}"
        expect_rest_error("UNAUTHENTICATED", 401, rest.post, path + ":rotateKey", {})
        expect_rest_error("NOT_YOUR_ACCOUNT", 403, rest.post, path + ":rotateKey", {},
                          token=other["key"])
        new_key = rest.post(path + ":rotateKey", {}, token=key)["key"]
        expect_rest_error("UNAUTHENTICATED", 401, rest.post, path + ":revokeKey", {}, token=key)
        revoked = rest.post(path + ":revokeKey", {}, token=new_key)
        assert revoked["account"]["active"] is False
        expect_rest_error("UNAUTHENTICATED", 401, rest.post, "/v1/games", {"players": 2},
                          token=new_key)
    finally:
        rest.close()


def _stored_text(backend: Backend, server: ServerProcess) -> str:
    """Every row of the accounts' tables, as text."""
    url = server.database_url
    if backend.name == "sqlite":
        assert url is not None
        with sqlite3.connect(url[len("sqlite:///"):]) as conn:
            rows = [*conn.execute("SELECT * FROM accounts"),
                    *conn.execute("SELECT * FROM account_seats")]
    else:
        with psycopg.connect(url) as conn:
            rows = [*conn.execute("SELECT * FROM accounts"),
                    *conn.execute("SELECT * FROM account_seats")]
    return repr(rows)


def test_keys_are_stored_as_digests_only_and_never_logged(backend: Backend) -> None:
    server = backend.start_server("accounts-keys")
    with server.client() as client:
        made = client.create_account("Keeper")
        game = client.create_game(players=2, account_key=made.key)
        rotated = client.rotate_account_key(made.account.account_id, made.key)
        stored = _stored_text(backend, server)
    rest = server.rest()
    try:  # the same over REST: the keys go in headers and answers only
        other = rest.post("/v1/accounts", {"name": "Keeper Two"})
        rest.post("/v1/games", {"players": 2}, token=other["key"])
        rest_rotated = rest.post(f"/v1/accounts/{other['account']['accountId']}:rotateKey",
                                 {}, token=other["key"])["key"]
        listed = rest.get(f"/v1/games?accountId={other['account']['accountId']}",
                          token=rest_rotated)
        assert rest_rotated not in str(listed) and other["key"] not in str(listed)
        stored = _stored_text(backend, server)
        assert rest_rotated not in stored and other["key"] not in stored
    finally:
        rest.close()
    import hashlib

    assert hashlib.sha256(rotated.encode()).hexdigest() in stored
    assert made.account.account_id in stored and game.game_id in stored
    for key in (made.key, rotated):
        assert key not in stored
        assert key[len("brass_ak_"):] not in stored
    server.stop()
    log = server.log_text()
    assert "CreateAccount" in log and "RotateAccountKey" in log
    for key in (made.key, rotated, other["key"], rest_rotated):
        assert key not in log and key[len("brass_ak_"):] not in log


def test_account_creation_is_limited_per_address(backend: Backend) -> None:
    server = backend.start_server("accounts-quota", env={
        "BRASS_CREATE_ACCOUNT_RATE": "2/minute", "BRASS_ACCOUNT_KEY_RATE": "1/minute",
        "BRASS_MAX_ACCOUNT_GAMES": "1"})
    with server.client() as client:
        first = client.create_account("Quota One")
        client.create_account("Quota Two")
        limited = expect_error("RATE_LIMITED", client.create_account, "Quota Three")
        assert limited.metadata["limit"] == "create_account_rate"
        rest = server.rest()
        try:
            expect_rest_error("RATE_LIMITED", 429, rest.post, "/v1/accounts",
                              {"name": "Quota Four"})
        finally:
            rest.close()
        key = client.rotate_account_key(first.account.account_id, first.key)
        expect_error("RATE_LIMITED", client.rotate_account_key, first.account.account_id, key)
        # the operator is not limited
        operator_token = server.operator_token
        assert operator_token is not None
        key = client.rotate_account_key(first.account.account_id, operator_token)
        # one game at once for an account (BRASS_MAX_ACCOUNT_GAMES=1): a second is refused
        # until the first is over
        game = client.create_game(players=2, open_seats=[1], account_key=key,
                                  on_resign=pb.RESIGN_POLICY_GAME_ENDS)
        games = expect_error("RATE_LIMITED", client.create_game, players=2, account_key=key)
        assert games.metadata["limit"] == "max_account_games"
        other = client.create_game(players=2, open_seats=[1])
        expect_error("RATE_LIMITED", client.join_game, other.game_id, account_key=key)
        joined = client.join_game(game.game_id, "Guest")
        client.start_game(game.game_id, game.host_token)
        client.resign_game(game.game_id, joined.seat.token)
        client.create_game(players=2, account_key=key)


def test_an_account_key_acts_for_its_seat_as_the_seat_token_would(
        server: ServerProcess) -> None:
    with server.client() as client:
        one, two = client.create_account(_unique("Kay")), client.create_account(_unique("Lee"))
        stranger = client.create_account(_unique("Sam"))
        created = client.create_game(players=2, seed=3, open_seats=[1], account_key=one.key)
        game_id = created.game_id
        client.join_game(game_id, account_key=two.key)
        client.start_game(game_id, created.host_token)
        keys = {0: one.key, 1: two.key}
        state = client.get_game(game_id, keys[0])
        assert state.viewer_seat == 0 and client.get_game(game_id, keys[1]).viewer_seat == 1
        for _ in range(3):
            seat = client.get_game(game_id).summary.current_seat
            options = client.list_legal_actions(game_id, keys[seat]).options
            client.submit_action(game_id, keys[seat], option_id=options[0].id)
            other = keys[1 - client.get_game(game_id).summary.current_seat]
            expect_error("NOT_YOUR_TURN", client.list_legal_actions, game_id, other)
        # a key of no seat of the game is refused as a foreign token is
        expect_error("UNAUTHENTICATED", client.list_legal_actions, game_id, stranger.key)
        version = client.get_game(game_id).summary.version
    rest = server.rest()
    try:
        seat = rest.get(f"/v1/games/{game_id}")["state"]["summary"]["currentSeat"]
        listed = rest.get(f"/v1/games/{game_id}/actions", token=keys[seat])
        answer = rest.post(f"/v1/games/{game_id}/actions",
                           {"action": {"optionId": listed["options"][0]["id"]},
                            "expectedVersion": str(version)}, token=keys[seat])
        assert int(answer["state"]["summary"]["version"]) == version + 1
        expect_rest_error("UNAUTHENTICATED", 401, rest.get, f"/v1/games/{game_id}/actions",
                          token=stranger.key)
    finally:
        rest.close()
