"""The web frontend in a real browser (Debian's Chromium): a person creates a game and plays
to the end of the canal era, two people play each other by invite links, seat 0's page
never receives seat 1's hand, the page recovers after a server restart, the replay viewer
steps through a game (its controls wait for the replay), and a page left while it awaits the
server does not paint over the next. Screenshots of the key screens are saved (conftest.py)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from service.helpers import ServerProcess

from .helpers import (
    PAGE_TIMEOUT_MS,
    HeldGet,
    Rest,
    create_in_page,
    current_seat,
    invite_tokens,
    new_page,
    play_action_by_steps,
    play_step,
    play_whole_action,
    received_texts,
    server_has_bot_seats,
    shot,
    wait_my_options,
    wait_page_version,
    wait_until,
)

pytestmark = [pytest.mark.xdist_group("browser"), pytest.mark.timeout(300)]


def test_a_person_plays_to_the_end_of_the_canal_era(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    base, rest = site
    rng = random.Random(13)
    page = new_page(browser)
    started = time.monotonic()
    page.goto(base + "/")
    page.wait_for_selector("form.create-form")
    load_seconds = time.monotonic() - started
    shot(page, artifacts, "01-lobby")
    # the two other seats: the server's bots when it has them, else people driven over REST
    bots = server_has_bot_seats(rest)
    roles = ["me", "bot:random", "bot:random"] if bots else ["me", "invite", "invite"]
    game_id = create_in_page(page, base, 3, roles, ["Ada", "Bo", "Cy"], 7)
    tokens = invite_tokens(page)
    assert sorted(tokens) == ([] if bots else [1, 2])
    page_actions = 0
    first_preview_saved = False
    t0 = time.monotonic()
    while True:
        state = rest.game(game_id)
        if state["birmingham"]["era"] != "canal" or current_seat(state) is None:
            break
        seat = current_seat(state)
        if seat == 0:
            if not first_preview_saved:
                wait_my_options(page)
                shot(page, artifacts, "02-your-turn")
            play_whole_action(page, rng)
            page_actions += 1
            if not first_preview_saved:
                first_preview_saved = True
        elif bots:
            time.sleep(0.05)  # the server's bots play
        else:
            rest.play_one_action(game_id, tokens[seat], rng)
            wait_page_version(page, int(rest.game(game_id)["summary"]["version"]))
    seconds = time.monotonic() - t0
    state = rest.game(game_id)
    assert state["birmingham"]["era"] == "rail"
    wait_page_version(page, int(state["summary"]["version"]))
    page.wait_for_selector(".game[data-era=rail]")
    shot(page, artifacts, "03-rail-era-begins")
    assert page_actions >= 8  # 3 players: 1 + 2 x 8 actions each in the canal era
    assert not page.errors
    print(f"page load {load_seconds:.2f} s; canal era against "
          f"{'server bots' if bots else 'REST seats'}: {page_actions} page actions "
          f"in {seconds:.1f} s")




def test_two_people_play_by_invite_links_and_hidden_hands_stay_hidden(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    base, rest = site
    rng = random.Random(5)
    host = new_page(browser)
    game_id = create_in_page(host, base, 2, ["me", "invite"], ["Host", "Guest"], 11)
    link = host.locator("input.invite-link[data-seat='1']").input_value()
    assert link.startswith(base + "/#/play/")
    shot(host, artifacts, "04-invite-links")
    guest = new_page(browser, 390, 844)  # a phone
    guest.goto(link)
    guest.wait_for_selector(".game[data-version]")
    # the token leaves the address bar at once
    assert guest.url.endswith(f"#/game/{game_id}/1")
    tokens = {1: link.rsplit("/", 1)[1]}
    played = 0
    # steps, on the board or the list, until 14 decisions are played (a step is sent once
    # it completes its whole action, confirmed once)
    while int(rest.game(game_id)["summary"]["version"]) < 14:
        assert played < 40, "the steps never made 14 decisions"
        state = rest.game(game_id)
        seat = current_seat(state)
        page = host if seat == 0 else guest
        play_step(page, rng, on_board=played % 2 == 0)
        played += 1
        version = int(rest.game(game_id)["summary"]["version"])
        wait_page_version(host, version)
        wait_page_version(guest, version)
    shot(guest, artifacts, "05-phone-width")
    # nothing makes the phone's page wider than its screen (wide tables scroll in their card)
    assert guest.evaluate("document.documentElement.scrollWidth") <= 390
    assert int(rest.game(game_id)["summary"]["version"]) >= 14
    # the guest's own hand is on its page, as the server has it
    guest_hand = rest.game(game_id, tokens[1])["birmingham"]["playerState"][1]["hand"]
    assert guest_hand
    # what the host's page was sent: no view of any kind carries seat 1's hand
    documents = parsed_documents(received_texts(host))
    assert documents, "the host's page received nothing?"
    views = [d for d in documents if isinstance(d, dict)]
    seen_own_hand = False
    for player_states in find_player_states(views):
        # absent, or empty where a response prints every field (REST's always-print
        # encoding gives `"hand": {}`): no card of seat 1's either way
        assert not player_states[1].get("hand")
        assert not player_states[1].get("facedown")
        seen_own_hand |= bool(player_states[0].get("hand"))
    assert seen_own_hand
    # what the host's page shows: its own hand and nobody else's
    host_view = rest.game(game_id, host_token(host, game_id))["birmingham"]
    host_hand = host_view["playerState"][0]["hand"]
    chips = host.locator(".hand .card-chip").evaluate_all(
        "els => els.map(e => e.dataset.card)")
    assert sorted(chips) == sorted(k for k, n in host_hand.items() if n > 0)
    assert host.locator(".hand").count() == 1
    # the phone's lobby fits its screen too (the create form's long selects once widened it)
    guest.goto(base + "/")
    guest.wait_for_selector("form.create-form")
    assert guest.evaluate("document.documentElement.scrollWidth") <= 390
    assert not host.errors and not guest.errors


def host_token(page: Any, game_id: str) -> str:
    return page.evaluate(
        "id => JSON.parse(localStorage.getItem('brass.web.v1')).games[id].seats[0]", game_id)


def parsed_documents(received: list[tuple[int, str, str]]) -> list[Any]:
    """Every JSON document in the answers: whole bodies, and each event's data."""
    joined: dict[int, str] = {}
    urls: dict[int, str] = {}
    for request, url, text in received:
        urls[request] = url
        joined[request] = joined.get(request, "") + text
    documents = []
    for request, url in urls.items():
        text = joined[request]
        if "/events" in url:
            for line in text.splitlines():
                if line.startswith("data:"):
                    documents.append(json.loads(line[5:]))
        elif text.strip().startswith(("{", "[")):
            documents.append(json.loads(text))
    return documents


PLAYER_STATE_KEYS = ("player_state", "playerState", "playerStates")


def find_player_states(documents: list[Any]) -> list[list[dict[str, Any]]]:
    found = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in PLAYER_STATE_KEYS and isinstance(value, list):
                    found.append(value)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(documents)
    return found


def test_the_page_recovers_after_the_server_restarts(
    browser: Any, tmp_path: Path, artifacts: Path
) -> None:
    database = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    server = ServerProcess(tmp_path / "first", database_url=database, name="first").start()
    rest = Rest(server.http_port)
    created = rest.call("POST", "/v1/games", body={"players": 2, "seed": "3",
                                                   "seatNames": ["Ann", "Bob"]})
    game_id = created["gameId"]
    tokens = {s.get("seat", 0): s["token"] for s in created["seats"]}
    page = new_page(browser)
    seat = 0
    page.goto(f"http://127.0.0.1:{server.http_port}/#/play/{game_id}/{seat}/{tokens[seat]}")
    page.wait_for_selector(".game[data-connection=live]")
    # and a game waiting for a player: its page follows the lobby on the same event stream
    lobby = rest.call("POST", "/v1/games", body={"players": 2, "seed": "4", "openSeats": [1],
                                                 "seatNames": ["Ann", ""]})
    waiting = new_page(browser)
    waiting.goto(f"http://127.0.0.1:{server.http_port}/#/play/{lobby['gameId']}/0/"
                 f"{lobby['seats'][0]['token']}")
    waiting.wait_for_selector(".game[data-connection=live][data-status=GAME_STATUS_WAITING]")
    second = None
    try:
        server.stop()
        page.wait_for_selector(".game[data-connection=reconnecting]")
        waiting.wait_for_selector(".game[data-connection=reconnecting]")
        shot(page, artifacts, "06-reconnecting")
        second = ServerProcess(tmp_path / "second", database_url=database, name="second")
        second.grpc_port, second.http_port = server.grpc_port, server.http_port
        second.start()
        page.wait_for_selector(".game[data-connection=live]", timeout=20_000)
        waiting.wait_for_selector(".game[data-connection=live]", timeout=20_000)
        # someone joins, the host starts: the waiting page hears both on its stream
        rest.call("POST", f"/v1/games/{lobby['gameId']}:join", body={"name": "Bea"})
        waiting.wait_for_selector(".lobby-panel .seat-label:text('Seat 2: Bea')")
        rest.call("POST", f"/v1/games/{lobby['gameId']}:start", lobby["hostToken"], {})
        waiting.wait_for_selector(".game[data-status=GAME_STATUS_IN_PROGRESS]")
        streamed = "".join(text for _, url, text in received_texts(waiting) if "/events" in url)
        assert "seat_joined" in streamed and "game_started" in streamed
        assert "Bea joins" in waiting.locator(".event-log").inner_text()
        # moves made after the restart reach the page
        rng = random.Random(1)
        for _ in range(3):
            state = rest.game(game_id)
            to_act = current_seat(state)
            rest.play_one_action(game_id, tokens[to_act], rng)
            wait_page_version(page, int(rest.game(game_id)["summary"]["version"]))
        assert not page.errors and not waiting.errors
    finally:
        if second is not None:
            second.stop()
        server.stop()


def test_the_replay_viewer_steps_through_a_game(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    base, rest = site
    # a short game (the canal era) of networks where the seats can: its very last decision
    # places a link (seed 12), which the era's end takes off the board at once
    created = rest.call("POST", "/v1/games", body={"players": 2, "seed": "12",
                                                   "seatNames": ["Ann", "Bob"],
                                                   "options": {"beginner": True}})
    game_id = created["gameId"]
    tokens = {s.get("seat", 0): s["token"] for s in created["seats"]}
    rng = random.Random(2)
    while (seat := current_seat(rest.game(game_id))) is not None:
        legal = rest.call("GET", f"/v1/games/{game_id}/actions?includeCompoundActions=true",
                          tokens[seat])
        whole = legal["compoundActions"]
        chosen = rng.choice([c for c in whole if c["key"].startswith("type:network")] or whole)
        rest.call("POST", f"/v1/games/{game_id}/actions", tokens[seat],
                  {"action": {"compound": {"ids": chosen["ids"]}},
                   "expectedVersion": legal["version"]})
    final = rest.game(game_id)
    last_decision = rest.call("GET", f"/v1/games/{game_id}/replay")["decisions"][-1]
    assert last_decision["name"].startswith("link:"), last_decision
    last = int(final["summary"]["version"])
    page = new_page(browser)
    page.goto(f"{base}/#/replay/{game_id}")
    page.wait_for_selector(".replay-decisions li.current")
    assert page.locator(".replay-decisions li").count() == last + 1
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.querySelector('#replay-version').value === '{last}'")
    page.wait_for_selector(f".replay-decisions li.current[data-version='{last}']")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f".replay-decisions li.current[data-version='{last - 1}']")
    shot(page, artifacts, "07-replay")
    # the game page of a finished game shows the scores and links to the replay
    page.goto(f"{base}/#/game/{game_id}")
    page.wait_for_selector("ol.scores li")
    assert page.locator("ol.scores li").count() == 2
    # its board shows all that was built: the links the era's end took off too
    assert not final["birmingham"].get("links")
    before = rest.call("GET", f"/v1/games/{game_id}?atVersion={last - 1}")["state"]
    built = before["birmingham"].get("links", {})
    assert built
    page.wait_for_function("n => document.querySelectorAll('svg.board .route.owned').length >= n",
                           arg=len(built))
    last_link = last_decision["name"].split(":", 1)[1]
    assert last_link not in built  # placed by the last decision: in no stored view
    built[last_link] = int(last_decision.get("seat", 0))
    for link, owner in built.items():
        route = page.locator(f"svg.board .route.owned[data-link='{link}']")
        route.wait_for(state="attached", timeout=PAGE_TIMEOUT_MS)
        assert route.get_attribute("data-owner") == str(owner)
    shot(page, artifacts, "08-final-scores")
    assert not page.errors


def test_the_replay_controls_wait_for_the_replay(browser: Any, site: tuple[str, Rest]) -> None:
    """The replay's controls used while the replay is still on its way (its answer held
    back) do nothing: no error, no timer of Play's; once it has come, they step through it."""
    base, rest = site
    created = rest.call("POST", "/v1/games", body={"players": 2, "seed": "7"})
    game_id = created["gameId"]
    tokens = {int(s.get("seat", 0)): s["token"] for s in created["seats"]}
    rng = random.Random(7)
    for _ in range(2):
        rest.play_one_action(game_id, tokens[current_seat(rest.game(game_id))], rng)
    last = int(rest.game(game_id)["summary"]["version"])
    page = new_page(browser)
    held = HeldGet(page, f"**/v1/games/{game_id}/replay")
    page.goto(f"{base}/#/replay/{game_id}")
    page.wait_for_selector(".replay-controls")
    held.wait()
    page.keyboard.press("End")
    for button in page.locator(".replay-controls button").all():  # |◀ ◀ Play ▶ ▶|
        button.click()
    page.wait_for_timeout(900)  # Play's timer, had it started, would have ticked twice
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    held.release()
    page.wait_for_selector(".replay-decisions li.current[data-version='0']")
    page.keyboard.press("End")
    page.wait_for_selector(f".replay-decisions li.current[data-version='{last}']")
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("slow", ["lobby", "leaderboard", "game"])
def test_a_page_left_while_it_loads_does_not_paint_over_the_next(
    browser: Any, site: tuple[str, Rest], slow: str
) -> None:
    """A page that awaits the server before it paints (here the server's capabilities, the
    answer held back), left meanwhile for #/account, leaves the account page and the tab's
    title as they are once its answer comes; a game page left so closes its stream."""
    base, rest = site
    route = {"lobby": "#/", "leaderboard": "#/leaderboard"}.get(slow)
    if route is None:
        route = "#/game/" + rest.call("POST", "/v1/games", body={"players": 2})["gameId"]
    # the request the slow page makes once it has painted (the stream: the game's last)
    last_request = {"lobby": "/v1/games?", "leaderboard": "/v1/leaderboards/",
                    "game": "/events"}[slow]
    page = new_page(browser)
    failed: list[str] = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    held = HeldGet(page, "**/openapi.json")
    page.goto(f"{base}/{route}")
    held.wait()
    page.evaluate("location.hash = '#/account'")
    page.wait_for_selector("#signin-heading")
    title = page.title()
    with page.expect_request(lambda request: last_request in request.url):
        held.release()
    shown = page.eval_on_selector_all("main", "all => all.map((m) => m.firstChild.className)")
    assert shown == ["account lobby"]
    assert page.title() == title
    if slow == "game":  # the router ends the stale page: its stream is cut
        wait_until(page, lambda: any("/events" in url for url in failed), f"open: {failed}")
    assert not page.errors, page.errors  # type: ignore[attr-defined]


def test_a_page_that_awaits_the_server_shows_loading_meanwhile(
    browser: Any, site: tuple[str, Rest]
) -> None:
    """The server's capabilities held back (every page waits for them once), the reader
    goes from the lobby to the leaderboard: meanwhile the new page's <main> says it is
    loading (a status), rather than nothing; then the leaderboard paints."""
    base, _rest = site
    page = new_page(browser)
    held: list[Any] = []
    page.route("**/openapi.json", lambda route: held.append(route))  # every read, held
    page.goto(f"{base}/#/")
    wait_until(page, lambda: len(held) == 1, "the lobby did not ask for the capabilities")
    page.evaluate("location.hash = '#/leaderboard'")
    wait_until(page, lambda: len(held) == 2, "the leaderboard did not ask for them")
    status = page.locator("main > [role=status]")
    assert status.inner_text() == "Loading…"
    for route in held:
        route.continue_()
    page.wait_for_selector("#leaderboard-heading")
    assert status.count() == 0
    assert not page.errors, page.errors  # type: ignore[attr-defined]


def test_a_pittsburgh_game_plays_on_its_board(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    """Brass: Pittsburgh through the page against a server bot: its board drawn from its
    own board data (GetRuleset), a first decision made on the board with the keyboard, then
    whole actions (builds and networks); after each, every built tile and every link of the
    server's view is on the board, with its tile, owner and kind of link."""
    base, rest = site
    rng = random.Random(3)
    page = new_page(browser)
    game_id = create_in_page(page, base, 2, ["me", "bot:random"], ["Ada", "Bot"], 4,
                             ruleset="RULESET_PITTSBURGH")
    page.wait_for_selector("svg.board .oilfield")
    board = rest.call("GET", "/v1/rulesets/pittsburgh")["ruleset"]["board"]
    link_kinds = {t["id"]: t["kind"] for t in board["linkTiles"]}
    token = host_token(page, game_id)
    # each of seat 0's actions: the first on the board (keyboard), then builds and networks
    # as whole actions (with a pipeline where one is offered), and a pipeline step by step.
    # A pipeline that turns an oilfield's tile face up (P25) ends its whole action there:
    # the rest of the action is then chosen one decision at a time, after the reveal.
    plan = ["board", "Build", "pipeline", "pipeline", "Build", "pipeline", "Build", "pipeline"]
    for step in [*plan, None]:
        while current_seat(rest.game(game_id)) != 0:
            time.sleep(0.05)  # the server's bot plays
        # nobody else acts now: the page and the server's view are at the same version
        view = rest.game(game_id, token)
        wait_page_version(page, int(view["summary"]["version"]))
        assert_board_shows(page, view["pittsburgh"], link_kinds)
        if step == "board":
            play_step(page, rng, on_board=True)  # the action's type
            play_action_by_steps(page, rng)
        elif step == "pipeline" and not any(
                link_kinds[link["tile"]] == "pipeline" for link in view["pittsburgh"].get(
                    "links", [])):
            play_action_by_steps(page, rng, ("Pipe", "Network"))
        elif step == "pipeline":
            play_whole_action(page, rng, "Network", prefer="Pipeline")
            after = rest.game(game_id, token)
            if current_seat(after) == 0 and after["summary"]["decision"] != "action":
                wait_page_version(page, int(after["summary"]["version"]))
                play_action_by_steps(page, rng)  # the action goes on after the reveal
        elif step is not None:
            play_whole_action(page, rng, step, without="Pipeline")
    assert view["pittsburgh"].get("spaces"), "no tile was built"
    kinds = {link_kinds[link["tile"]] for link in view["pittsburgh"].get("links", [])}
    assert {"light_train", "pipeline"} <= kinds, kinds
    # the seat's mat and link tiles, as its view has them
    mine = view["pittsburgh"]["players"][0]
    shown = page.locator(".tiles-left li").evaluate_all("els => els.map(e => e.dataset.tile)")
    assert sorted(shown) == sorted([tile for tile, n in mine["mat"].items() if n]
                                   + [tile for tile, n in mine["supply"].items() if n])
    # Pittsburgh's events in words: tiles by the board's names, routes by theirs
    log = page.locator(".event-log").inner_text()
    assert "Undefined" not in log and "undefined" not in log
    # every event kind in a sentence of its own (the fallback names fields: "Kind — Field x")
    assert " — " not in log, log
    shot(page, artifacts, "09-pittsburgh")
    assert page.locator(".player-table tbody tr").count() == 2
    assert not page.errors


def assert_board_shows(page: Any, view: dict[str, Any], link_kinds: dict[str, str]) -> None:
    """Every built space and link of the view is on the SVG board (its tile, its owner:
    proto3 JSON leaves seat 0 out), and nothing else is."""
    spaces = view.get("spaces", [])
    links = view.get("links", [])
    for space in spaces:
        tile = page.locator(f"svg.board .slot.built[data-slot='{space['slot']}']")
        assert tile.get_attribute("data-tile") == space["tile"], space
        assert tile.get_attribute("data-owner") == str(space.get("owner", 0)), space
    for link in links:
        route = page.locator(f"svg.board .route.owned[data-link='{link['route']}']")
        assert route.get_attribute("data-link-tile") == link["tile"], link
        assert route.get_attribute("data-owner") == str(link.get("owner", 0)), link
        kind = link_kinds[link["tile"]]
        assert route.locator(f".link-{kind}").count() == 1, link
    assert page.locator("svg.board .slot.built").count() == len(spaces)
    assert page.locator("svg.board .route.owned").count() == len(links)
