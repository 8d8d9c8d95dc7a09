"""Hosted play through the page in a real browser (Debian's Chromium): undo, the clock and
its timeout policies, resigning, and a bot seated by the host. Each test acts in the page
and checks the outcome both on the page and in the server's state (GetGame over REST)."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from .helpers import (
    PAGE_TIMEOUT_MS,
    HeldGet,
    Rest,
    create_in_page,
    current_seat,
    invite_tokens,
    new_page,
    page_state,
    play_action_by_steps,
    shot,
    wait_my_options,
    wait_page_version,
)

pytestmark = [pytest.mark.xdist_group("browser"), pytest.mark.timeout(300)]


def version_of(state: dict[str, Any]) -> int:
    return int(state["summary"]["version"])


def wait_for_seat(rest: Rest, game_id: str, seat: int, seconds: float = 20) -> dict[str, Any]:
    """Until `seat` is to act (the server's bots play the other seats)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = rest.game(game_id)
        if current_seat(state) == seat:
            return state
        time.sleep(0.05)
    raise AssertionError(f"seat {seat} never came to act: {state['summary']}")


def wait_log_line(page: Any, words: str) -> str:
    """Until the page's event log has a line with `words`; returns that line."""
    try:
        page.wait_for_function(
            "w => [...document.querySelectorAll('.event-log li')]"
            ".some(li => li.textContent.includes(w))", arg=words, timeout=PAGE_TIMEOUT_MS)
    except Exception as exc:
        raise AssertionError(f"no {words!r} in the event log: {log_lines(page)}") from exc
    return next(line for line in log_lines(page) if words in line)


def log_lines(page: Any) -> list[str]:
    return page.locator(".event-log li").all_inner_texts()


def test_a_player_undoes_the_action_in_progress(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    """docs/UNDO.md: the seat to act takes back the action in progress (back to its first
    decision); the undo is a new version, and the game is exactly as before the action."""
    base, rest = site
    page = new_page(browser)
    game_id = create_in_page(page, base, 2, ["me", "bot:random"], ["Ada", "Bot"], 21)
    before = wait_for_seat(rest, game_id, 0)
    token = page.evaluate(
        "id => JSON.parse(localStorage.getItem('brass.web.v1')).games[id].seats[0]", game_id)
    seat_view = rest.game(game_id, token)
    assert seat_view["summary"]["decision"] == "action"
    wait_page_version(page, version_of(before))
    wait_my_options(page)
    # at the turn's start there is nothing to take back: the button is greyed out, with
    # the engine's reason (the view's undo_refused, GetRuleset's words for it)
    assert seat_view["birmingham"]["undoRefused"] == "NOTHING_TO_UNDO"
    assert page.locator("button.undo").is_disabled()
    assert page.locator("#undo-reason").inner_text() == (
        "no decision of this turn is left to take back")
    # the action's first decision (its type), sent by another client of the seat (the
    # page sends an action's decisions together): the page shows the action in progress
    legal = rest.call("GET", f"/v1/games/{game_id}/actions", token)
    label = legal["options"][0]["name"]
    rest.call("POST", f"/v1/games/{game_id}/actions", token,
              {"action": {"optionId": legal["options"][0]["id"]},
               "expectedVersion": legal["version"]})
    wait_page_version(page, version_of(before) + 1)
    mid = rest.game(game_id, token)
    assert version_of(mid) == version_of(before) + 1
    assert mid["summary"]["decision"] != "action", label
    wait_my_options(page)
    assert mid["birmingham"]["undoSteps"] == 1
    assert page.locator("button.undo").inner_text() == "Undo (1 decision)"
    page.click("button.undo")
    wait_page_version(page, version_of(before) + 2)
    after = rest.game(game_id, token)
    assert version_of(after) == version_of(before) + 2  # an undo is a version of its own
    assert after["summary"]["decision"] == "action"
    assert current_seat(after) == 0
    assert after["birmingham"] == seat_view["birmingham"]  # the same game as before
    assert wait_log_line(page, "takes back") == "Ada takes back 1 decision"
    wait_my_options(page)
    assert page.get_attribute(".game", "data-version") == str(version_of(after))
    # the page offers the action types again, and the undo left no error behind
    assert page.locator(".decision .prompt").inner_text().startswith("Choose an action")
    assert not page.locator(".decision .error").count(), page_state(page)
    shot(page, artifacts, "10-undo")
    assert not page.errors


def test_the_clock_counts_down_and_a_timeout_applies_its_policy(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    """docs/SERVICE.md, Clocks: a fixed time per turn; past its deadline the stand-in bot
    plays the rest of the turn (TIMEOUT_POLICY_BOT_PLAYS_TURN), with a turn_timed_out
    event; TIMEOUT_POLICY_FORFEIT with on_resign ending the game ends it, unscored."""
    base, rest = site
    page = new_page(browser)
    game_id = create_in_page(page, base, 2, ["me", "bot:random"], ["Ada", "Bot"], 22, fields={
        "#create-clock": "turn", "#clock-turn": "4",
        "#create-on-timeout": "TIMEOUT_POLICY_BOT_PLAYS_TURN"})
    state = wait_for_seat(rest, game_id, 0)
    clock = state["summary"]["clock"]
    assert clock["options"]["turnMs"] == 4000 and clock["turnSeat"] == 0
    wait_page_version(page, version_of(state))
    timer = page.locator(".status-bar .clock[role=timer]")
    first = seconds_shown(timer.inner_text())
    assert 0 < first <= 4
    page.wait_for_function(
        "s => { const t = document.querySelector('.status-bar .clock');"
        " return t && Number(t.textContent.split(':').pop()) < s; }",
        arg=first, timeout=PAGE_TIMEOUT_MS)
    shot(page, artifacts, "11-clock-running")
    # nothing played in the page: the server's timer plays the turn for the seat
    line = wait_log_line(page, "runs out of time")
    assert line.startswith("Ada") and "a bot plays the turn" in line
    later = rest.game(game_id)
    assert version_of(later) > version_of(state)
    assert later["summary"]["status"] == "GAME_STATUS_IN_PROGRESS"
    assert not any(s["resigned"] for s in later["summary"]["seats"])
    assert not page.errors

    forfeit = create_in_page(page, base, 2, ["me", "bot:random"], ["Ada", "Bot"], 23, fields={
        "#create-clock": "turn", "#clock-turn": "2",
        "#create-on-timeout": "TIMEOUT_POLICY_FORFEIT",
        "#create-on-resign": "RESIGN_POLICY_GAME_ENDS"})
    page.wait_for_selector(".decision h2:text('Final scores')", timeout=PAGE_TIMEOUT_MS)
    assert "ended early (Forfeited)" in page.locator(".decision").inner_text()
    ended = rest.game(forfeit)["summary"]
    assert ended["status"] == "GAME_STATUS_FINISHED"
    assert ended["endReason"] == "END_REASON_FORFEITED"
    assert ended["seats"][0]["resigned"]
    wait_log_line(page, "forfeits on time")
    shot(page, artifacts, "12-forfeit-on-time")
    assert not page.errors


def seconds_shown(text: str) -> int:
    """'⏱ 1:05' -> 65."""
    minutes, seconds = text.replace("⏱", "").strip().split(":")[-2:]
    return int(minutes) * 60 + int(seconds)


def test_fischer_clocks_show_every_seats_time(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    """Fischer: each seat's time left is in the players' table, the seat to act's running
    down between updates, the other's still."""
    base, rest = site
    page = new_page(browser)
    game_id = create_in_page(page, base, 2, ["me", "invite"], ["Ada", "Bea"], 24, fields={
        "#create-clock": "fischer", "#clock-minutes": "2", "#clock-increment": "5"})
    state = rest.game(game_id)
    to_act = current_seat(state)
    other = 1 - to_act
    cells = {s: page.locator(f".seat-clock[data-seat='{s}']") for s in (0, 1)}
    first = {s: seconds_shown(cells[s].inner_text()) for s in (0, 1)}
    assert first[other] == 120
    page.wait_for_function(
        "([s, v]) => { const [m, sec] = document.querySelector(`.seat-clock[data-seat='${s}']`)"
        ".textContent.split(':').map(Number); return m * 60 + sec < v; }",
        arg=[to_act, first[to_act]], timeout=PAGE_TIMEOUT_MS)
    assert seconds_shown(cells[other].inner_text()) == 120
    # the server agrees: the seat to act's clock runs, the other's does not
    remaining = [int(ms) for ms in rest.game(game_id)["summary"]["clock"]["remainingMs"]]
    assert remaining[other] == 120_000 and remaining[to_act] < 120_000
    shot(page, artifacts, "13-fischer-clocks")
    # the replay viewer at version 0 shows the clocks of then (everyone's full time), and at
    # the turn's first decision the clock as it stood when that decision was stored
    tokens = invite_tokens(page)
    if to_act == 1:
        rest.play_one_action(game_id, tokens[1], random.Random(24))
    else:
        play_action_by_steps(page, random.Random(24))
    time.sleep(1.2)  # the seat's clock runs on meanwhile
    page.goto(f"{base}/#/replay/{game_id}/0")
    page.wait_for_selector(".replay-decisions li.current[data-version='0']")
    replay_cells = page.locator(".players .seat-clock")
    assert replay_cells.all_inner_texts() == ["2:00", "2:00"]
    then = rest.call("GET", f"/v1/games/{game_id}?atVersion=1")["state"]["summary"]["clock"]
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(".replay-decisions li.current[data-version='1']")
    shown = seconds_shown(page.locator(f".players .seat-clock[data-seat='{to_act}']").inner_text())
    assert shown == -(-int(then["remainingMs"][to_act]) // 1000)  # whole seconds, rounded up
    now = rest.game(game_id)["summary"]["clock"]["remainingMs"][to_act]
    assert int(now) != int(then["remainingMs"][to_act])  # not the clock of now
    assert not page.errors


def test_resigning_in_the_page_hands_the_seat_to_a_bot(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    """docs/SERVICE.md, Resigning: RESIGN_POLICY_BOT_TAKES_OVER (the default): the stand-in
    bot plays the seat on; the seat shows resigned and bot; the token can no longer act."""
    base, rest = site
    page = new_page(browser)
    game_id = create_in_page(page, base, 2, ["me", "invite"], ["Ada", "Bea"], 25, fields={
        "#create-on-resign": "RESIGN_POLICY_BOT_TAKES_OVER"})
    tokens = invite_tokens(page)
    rng = random.Random(25)
    if current_seat(rest.game(game_id)) == 1:
        rest.play_one_action(game_id, tokens[1], rng)
    wait_my_options(page)
    page.click(".decision .resign button:text('Resign…')")
    page.wait_for_selector(".resign[role=group]")
    page.click(".resign[role=group] button.primary")
    row = page.locator(".player-table tbody tr").nth(0)
    row.locator(".badge:text('resigned')").wait_for(timeout=PAGE_TIMEOUT_MS)
    assert "bot: greedy" in row.inner_text()
    seat = rest.game(game_id)["summary"]["seats"][0]
    assert seat["resigned"] and seat["bot"] == "greedy"
    wait_log_line(page, "resigns")
    # the stand-in plays seat 0's turns: each REST move of seat 1 gets a reply
    for _ in range(2):
        state = wait_for_seat(rest, game_id, 1)
        rest.play_one_action(game_id, tokens[1], rng)
        wait_for_seat(rest, game_id, 1)
        wait_page_version(page, version_of(state) + 2)
    assert page.locator(".decision .resigned-note").inner_text() == (
        "You resigned: a bot (greedy) plays your seat.")
    assert not page.locator(".decision button.option").count()  # no options for a resigned seat
    assert not page.locator(".decision .resign button").count()
    shot(page, artifacts, "14-resigned-bot-plays")
    assert not page.errors


def test_the_host_seats_a_bot_in_an_open_seat(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    """SetSeatBot before the start: the open seat is taken by the server's bot, the host
    starts the game, and the bot plays its seat."""
    base, rest = site
    page = new_page(browser)
    game_id = create_in_page(page, base, 2, ["me", "open"], ["Ada", ""], 26)
    waiting = rest.game(game_id)["summary"]
    assert waiting["status"] == "GAME_STATUS_WAITING" and waiting["openSeats"] == 1
    page.wait_for_selector(".lobby-panel button.start[disabled]")
    # the host's policy, as the summary states it, in words for whoever takes the seat
    policy = waiting["hostPolicy"]
    assert policy["onResign"] == "RESIGN_POLICY_BOT_TAKES_OVER"
    assert page.locator(".lobby-panel .host-policy").inner_text() == (
        f"If a player resigns, a bot ({policy['standInBot']}) plays the seat on.")
    panel = page.locator(".lobby-panel .seat-links li").nth(1)
    panel.locator("select").select_option("greedy")
    shot(page, artifacts, "15-waiting-seat-a-bot")
    panel.locator("button:text('Seat a bot')").click()
    page.wait_for_selector(".lobby-panel button.start:not([disabled])", timeout=PAGE_TIMEOUT_MS)
    seat = rest.game(game_id)["summary"]["seats"][1]
    assert seat["bot"] == "greedy" and not seat["open"]
    page.click(".lobby-panel button.start")
    page.wait_for_selector(".game[data-status=GAME_STATUS_IN_PROGRESS]",
                           timeout=PAGE_TIMEOUT_MS)
    page.locator(".player-table tbody tr").nth(1).locator(".badge:text('bot: greedy')").wait_for(
        timeout=PAGE_TIMEOUT_MS)
    # the bot plays: its turn passes without anyone acting for it
    state = wait_for_seat(rest, game_id, 0)
    wait_page_version(page, version_of(state))
    wait_my_options(page)
    assert state["summary"]["status"] == "GAME_STATUS_IN_PROGRESS"
    shot(page, artifacts, "16-bot-seated-game-started")
    assert not page.errors


def test_join_clicked_before_the_page_has_loaded_the_game_takes_the_seat(
    browser: Any, site: tuple[str, Rest]
) -> None:
    """#/join/ID: the Join button works while the page is still fetching the game (its
    answer held back here), rather than falling through to the browser's own form
    submission, a page load that loses the route (a CI failure of 2026-12-07)."""
    base, rest = site
    created = rest.call("POST", "/v1/games", body={"players": 2, "seed": "5", "openSeats": [1],
                                                   "seatNames": ["Ann", ""]})
    game_id = created["gameId"]
    page = new_page(browser)
    held = HeldGet(page, f"**/v1/games/{game_id}")
    page.goto(f"{base}/#/join/{game_id}")
    page.wait_for_selector("form.join-form")
    held.wait()
    page.fill("#join-name", "Bea")
    page.click("form.join-form button[type=submit]")
    page.wait_for_selector(".game[data-version]", timeout=PAGE_TIMEOUT_MS)
    assert page.url.endswith(f"#/game/{game_id}/1")
    held.release()
    seat = rest.game(game_id)["summary"]["seats"][1]
    assert seat["name"] == "Bea" and not seat["open"]
    assert not page.errors  # type: ignore[attr-defined]


def test_a_rematch_from_the_finished_games_page(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    """docs/SERVICE.md, Rematch: the page of a finished game has a Rematch button; once
    the other seat accepts, it links to the new game, where the seat is the next one."""
    base, rest = site
    page = new_page(browser)
    game_id = create_in_page(page, base, 2, ["me", "invite"], ["Ada", "Bea"], 26, fields={
        "#create-on-resign": "RESIGN_POLICY_GAME_ENDS"})
    tokens = invite_tokens(page)
    rest.call("POST", f"/v1/games/{game_id}:resign", tokens[1], {})  # the game ends
    page.click(".decision .rematch button:text('Rematch')", timeout=PAGE_TIMEOUT_MS)
    page.wait_for_selector(".rematch:has-text('waiting for the other players')")
    assert rest.game(game_id)["summary"]["rematch"]["acceptedSeats"] == [0]
    accepted = rest.call("POST", f"/v1/games/{game_id}:rematch", tokens[1], {})
    new_id = accepted["rematch"]["gameId"]
    page.click(".rematch button:text('Check again')")
    page.click(".rematch a:text('Play the rematch')", timeout=PAGE_TIMEOUT_MS)
    page.wait_for_url(f"**/#/game/{new_id}/1", timeout=PAGE_TIMEOUT_MS)
    state = rest.game(new_id)
    assert state["summary"]["rematchOf"] == game_id
    assert [s["name"] for s in state["summary"]["seats"]] == ["Bea", "Ada"]
    shot(page, artifacts, "16-rematch")
    assert not page.errors


def test_a_spectator_of_a_delayed_game_is_told_so(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    """docs/SERVICE.md, Spectator delay: the spectator's page shows the delayed state and
    says how far behind it is."""
    base, rest = site
    created = rest.call("POST", "/v1/games", None, {
        "players": 2, "seed": "27", "options": {"spectatorDelayTurns": 2}})
    game_id, tokens = created["gameId"], {s["seat"]: s["token"] for s in created["seats"]}
    rng = random.Random(27)
    for _ in range(3):
        # (a seat sees who is to act now; a spectator, the seat of turns back)
        rest.play_one_action(game_id, tokens[current_seat(rest.game(game_id, tokens[0]))], rng)
    shown = version_of(rest.game(game_id))  # a spectator's: the delayed version
    assert shown < version_of(rest.game(game_id, tokens[0]))
    page = new_page(browser)
    page.goto(f"{base}/#/game/{game_id}")
    note = page.locator(".decision .spectator-delay")
    note.wait_for(timeout=PAGE_TIMEOUT_MS)
    assert note.inner_text() == "Spectators see this game 2 whole turns behind until it ends."
    wait_page_version(page, shown)
    assert not page.errors
