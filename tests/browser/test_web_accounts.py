"""The web page's accounts (issue 24, item 5): an account made in the page and its key
shown once, signing in with the key, "my games" (a game created and one joined while
signed in are bound to the accounts), a challenge sent from one browser and accepted in
another over the account streams, the leaderboard of rated results and an account's
rating history, and an arena's table, live."""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from service.helpers import TEST_OPERATOR_TOKEN

from .helpers import PAGE_TIMEOUT_MS, Rest, new_page, shot

pytestmark = [pytest.mark.xdist_group("browser"), pytest.mark.timeout(120)]


def unique(prefix: str) -> str:
    return f"{prefix} {uuid.uuid4().hex[:6]}"


def create_account_in_page(page: Any, base: str, name: str) -> tuple[str, str]:
    """Creates an account on #/account; answers its id and the key the page showed."""
    page.goto(base + "/#/account")
    page.fill("#account-name", name)
    page.click("form.account-create-form button[type=submit]")
    page.wait_for_selector(".key-card #new-key")
    key = page.input_value("#new-key")
    account_id = page.inner_text("code.account-id")
    return account_id, key


def sign_in(page: Any, base: str, key: str) -> None:
    """Signs in with the key alone (the page asks the server whose key it is)."""
    page.goto(base + "/#/account")
    page.fill("#signin-key", key)
    page.click("form.signin-form button[type=submit]")
    page.wait_for_selector(".account-card .sign-out")


def test_an_account_made_in_the_page_signs_in_with_its_key_and_lists_its_games(
        browser: Any, site: tuple[str, Rest], artifacts: Path) -> None:
    base, rest = site
    page = new_page(browser, 1400, 900)
    name = unique("Ada")
    account_id, key = create_account_in_page(page, base, name)
    assert key.startswith("brass_ak_")
    assert rest.call("GET", f"/v1/accounts/{account_id}")["account"]["name"] == name
    assert "Shown once" in page.inner_text(".key-card .warning")
    shot(page, artifacts, "account-key-shown-once")
    # the key is shown once: a reload shows the account without it
    page.reload()
    page.wait_for_selector(".account-card")
    assert page.locator(".key-card").count() == 0
    assert name in page.inner_text("#site-nav")

    page.click(".account-card .sign-out")
    page.wait_for_selector("form.signin-form")
    assert page.evaluate("localStorage.getItem('brass.account.v1')") is None
    # a wrong key: the server knows no account of it, and the sign-in form says so
    page.fill("#signin-key", "brass_ak_not-the-key")
    page.click("form.signin-form button[type=submit]")
    page.wait_for_selector("form.signin-form .error:not([hidden])")
    assert "UNAUTHENTICATED" in page.inner_text("form.signin-form .error")
    assert page.evaluate("localStorage.getItem('brass.account.v1')") is None
    sign_in(page, base, key)
    page.wait_for_selector(".connection-live")
    assert account_id in page.inner_text("code.account-id")
    assert name in page.inner_text("#account-heading")

    # a game created in the lobby while signed in: its seat is the account's
    page.goto(base + "/")
    page.wait_for_selector("form.create-form")
    page.select_option("#create-players", "2")
    page.select_option("#seat-1-role", "open")
    page.click("form.create-form button[type=submit]")
    page.wait_for_selector(".game[data-version]")
    game_id = page.url.split("#/game/")[1].split("/")[0]
    seats = rest.game(game_id)["summary"]["seats"]
    assert seats[0]["accountId"] == account_id and seats[0]["name"] == name

    # another browser signed in joins the open seat: the seat is its account's, by its name
    # (this page leaves the board meanwhile: two boards drawing at once crowd a busy machine)
    page.goto(base + "/#/account")
    other = rest.call("POST", "/v1/accounts", body={"name": unique("Joiner")})
    joiner = new_page(browser, 1400, 900)
    sign_in(joiner, base, other["key"])
    joiner.goto(f"{base}/#/join/{game_id}")
    assert joiner.input_value("#join-name") == other["account"]["name"]
    joiner.click("form.join-form button[type=submit]")
    joiner.wait_for_selector(".game[data-version]")
    seats = rest.game(game_id)["summary"]["seats"]
    assert seats[1]["accountId"] == other["account"]["accountId"]
    assert not joiner.errors  # type: ignore[attr-defined]

    page.reload()
    row = page.locator(f".my-games li[data-game-id='{game_id}']")
    row.wait_for(timeout=PAGE_TIMEOUT_MS)
    assert "Seat 1" in row.inner_text() and other["account"]["name"] in row.inner_text()
    shot(page, artifacts, "account-my-games")
    row.locator("a.play-mine").click()
    page.wait_for_selector(".game[data-version]")
    assert page.url.endswith(f"#/game/{game_id}/0")
    assert not page.errors  # type: ignore[attr-defined]


def test_a_challenge_sent_in_one_browser_is_accepted_in_another(
        browser: Any, site: tuple[str, Rest], artifacts: Path) -> None:
    base, rest = site
    challenger = new_page(browser, 1400, 900)
    challenged = new_page(browser, 1400, 900)
    one_id, _ = create_account_in_page(challenger, base, unique("Challenger"))
    # the other account made over REST, then signed in with its key in the page
    made = rest.call("POST", "/v1/accounts", body={"name": unique("Challenged")})
    two_id = made["account"]["accountId"]
    sign_in(challenged, base, made["key"])
    challenged.wait_for_selector(".connection-live")

    challenger.wait_for_selector("form.challenge-form")
    challenger.fill("#challenge-opponent-0", two_id)
    challenger.click("form.challenge-form button[type=submit]")
    outgoing = challenger.locator(".outgoing li.challenge")
    outgoing.first.wait_for(timeout=PAGE_TIMEOUT_MS)
    # heard over the other browser's account stream, with the challenger's name
    incoming = challenged.locator(".incoming li.challenge[data-status=open]")
    incoming.first.wait_for(timeout=PAGE_TIMEOUT_MS)
    challenged.wait_for_function(
        "() => document.querySelector('.incoming li.challenge .game-title')"
        ".textContent.startsWith('Challenger')", timeout=PAGE_TIMEOUT_MS)
    shot(challenged, artifacts, "account-challenge-incoming")
    incoming.first.locator("button.accept").click()
    # the accepting page opens the new game as seat 1
    challenged.wait_for_selector(".game[data-version]")
    game_id = challenged.url.split("#/game/")[1].split("/")[0]
    assert challenged.url.endswith("/1")
    seats = rest.game(game_id)["summary"]["seats"]
    assert [seat["accountId"] for seat in seats] == [one_id, two_id]
    # the challenger's page hears of the acceptance and opens the game as seat 0
    accepted = challenger.locator(".outgoing li.challenge[data-status=accepted] a.open-game")
    accepted.wait_for(timeout=PAGE_TIMEOUT_MS)
    accepted.click()
    challenger.wait_for_selector(".game[data-version]")
    assert challenger.url.endswith(f"#/game/{game_id}/0")
    for page in (challenger, challenged):
        assert not page.errors  # type: ignore[attr-defined]


def rated_game(rest: Rest, winner: dict[str, Any], loser: dict[str, Any]) -> str:
    """A rated 2-player game between two accounts that the loser resigns; answers its id
    once its rating changes are made."""
    created = rest.call("POST", "/v1/games", winner["key"], {
        "players": 2, "openSeats": [1], "rated": True,
        "options": {"onResign": "RESIGN_POLICY_GAME_ENDS"}})
    joined = rest.call("POST", f"/v1/games/{created['gameId']}:join", loser["key"],
                       {"name": loser["account"]["name"]})
    rest.call("POST", f"/v1/games/{created['gameId']}:start", created["hostToken"], {})
    rest.call("POST", f"/v1/games/{created['gameId']}:resign", joined["seat"]["token"], {})
    deadline = time.monotonic() + 20
    while not rest.game(created["gameId"])["summary"].get("ratingChanges"):
        assert time.monotonic() < deadline, "the game was not rated"
        time.sleep(0.1)
    return created["gameId"]


def test_the_leaderboard_and_a_history_show_rated_results(
        browser: Any, site: tuple[str, Rest], artifacts: Path) -> None:
    base, rest = site
    person = rest.call("POST", "/v1/accounts", body={"name": unique("Winner")})
    bot = rest.call("POST", "/v1/accounts", body={"name": unique("Loser bot"), "bot": True})
    game_id = rated_game(rest, person, bot)
    page = new_page(browser, 1400, 900)
    page.goto(base + "/#/leaderboard/RULESET_BIRMINGHAM/2/ACCOUNT_KIND_UNSPECIFIED")
    winner_row = page.locator(f"tr[data-account-id='{person['account']['accountId']}']")
    loser_row = page.locator(f"tr[data-account-id='{bot['account']['accountId']}']")
    winner_row.wait_for(timeout=PAGE_TIMEOUT_MS)
    ids = [row.get_attribute("data-account-id")
           for row in page.locator("table.leaderboard tbody tr").all()]
    assert ids.index(person["account"]["accountId"]) < ids.index(bot["account"]["accountId"])
    assert "bot" in loser_row.inner_text()
    shot(page, artifacts, "leaderboard")
    # bots only: the person is gone, the bot stays
    page.select_option("#board-kind", "ACCOUNT_KIND_BOTS")
    page.wait_for_function(
        "() => location.hash.endsWith('ACCOUNT_KIND_BOTS')"
        " && document.querySelectorAll('table.leaderboard tbody tr[data-account-id]').length")
    loser_row.wait_for(timeout=PAGE_TIMEOUT_MS)
    assert winner_row.count() == 0
    loser_row.locator("a").click()
    history = page.locator(f"table.history tr[data-game-id='{game_id}']")
    history.wait_for(timeout=PAGE_TIMEOUT_MS)
    change = rest.game(game_id)["summary"]["ratingChanges"]
    after = next(c for c in change if c["accountId"] == bot["account"]["accountId"])
    assert f"{after['ratingAfter']:.1f}" in history.inner_text()
    shot(page, artifacts, "rating-history")
    assert not page.errors  # type: ignore[attr-defined]


def test_an_arenas_table_follows_it_live_to_its_end(
        browser: Any, site: tuple[str, Rest], artifacts: Path) -> None:
    """An arena of two server bots (a beginner game: seconds) opened as it starts: the
    page's table moves with WatchArena's stream, without a reload, to the finished table
    the server answers."""
    base, rest = site
    arena = rest.call("POST", "/v1/arenas", TEST_OPERATOR_TOKEN, {
        "name": unique("Web arena"), "seed": "3", "options": {"beginner": True},
        "entrants": [{"serverBot": "random"}, {"serverBot": "greedy"}]})["arena"]
    page = new_page(browser, 1400, 900)
    page.goto(f"{base}/#/arena/{arena['arenaId']}")
    page.wait_for_selector(".arena-table table.arena-standings tbody tr")
    first = int(page.get_attribute(".arena-table", "data-revision"))
    assert page.locator("table.arena-standings tbody tr").count() == 2
    page.wait_for_selector(".arena-table[data-status=finished]", timeout=90_000)
    assert int(page.get_attribute(".arena-table", "data-revision")) > first
    table = rest.call("GET", f"/v1/arenas/{arena['arenaId']}")["arena"]
    shown = [(row.get_attribute("data-account-id"), row.locator("td.points").inner_text())
             for row in page.locator("table.arena-standings tbody tr").all()]
    assert shown == [(line["accountId"], str(line.get("points", 0)))
                     for line in table["standings"]]
    links = page.locator("table.arena-tables a[href^='#/replay/']")
    assert links.count() == len(table["tables"]) == 1
    shot(page, artifacts, "arena-table")
    assert not page.errors  # type: ignore[attr-defined]
