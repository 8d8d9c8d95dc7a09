"""The board of the game page (issue 23 item 1) at 1400x900: it shows the whole board at
first, zooms and pans (buttons, wheel, drag, keyboard, fit), no text on it is under 11 CSS
px, both rulesets' markets are drawn with their cubes, built links are tracks in the
owner's colour, and another seat's last move is marked on the board and in the side panel
until the page's seat acts."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from .helpers import (
    PAGE_TIMEOUT_MS,
    Rest,
    current_seat,
    open_group,
    play_action_by_steps,
    shot,
    take_step,
    wait_my_options,
    wait_page_version,
)

pytestmark = [pytest.mark.xdist_group("browser"), pytest.mark.timeout(180)]

SEAT_RGB = ["rgb(192, 57, 43)", "rgb(36, 113, 163)", "rgb(183, 149, 11)", "rgb(125, 60, 152)"]

# The smallest text shown on the board, in CSS pixels: each visible <text>'s font size
# (view-box units) times the board's scale on screen.
SMALLEST_TEXT = """() => {
  const board = document.querySelector('svg.board');
  const scale = board.getScreenCTM().a;
  let smallest = Infinity;
  let which = '';
  for (const text of board.querySelectorAll('text')) {
    if (!text.checkVisibility() || !text.textContent.trim()) continue;
    const px = parseFloat(getComputedStyle(text).fontSize) * scale;
    if (px < smallest) { smallest = px; which = text.textContent; }
  }
  return [smallest, which];
}"""

# Every town box inside the board's view (the whole board is shown at the first zoom).
ALL_TOWNS_SHOWN = """() => {
  const view = document.querySelector('.board-view').getBoundingClientRect();
  return [...document.querySelectorAll('svg.board .town-box')].every((box) => {
    const r = box.getBoundingClientRect();
    return r.left >= view.left - 1 && r.right <= view.right + 1
      && r.top >= view.top - 1 && r.bottom <= view.bottom + 1;
  });
}"""


# The board's labels on screen: the pairs of shown labels that overlap (none may), and
# how many labels are hidden as crowded at this zoom.
LABELS_APART = """() => {
  const names = ['location-name', 'merchant-bonus', 'market-name', 'market-price', 'market-title'];
  const shown = [...document.querySelectorAll(names.map((n) => `svg.board text.${n}`).join(', '))]
    .filter((t) => t.checkVisibility() && t.textContent.trim())
    .map((t) => {
      // the box of the letters' ink: a text's box holds the font's whole ascent and descent
      const r = t.getBoundingClientRect();
      return [t.textContent, { left: r.left, right: r.right, top: r.top + r.height * 0.2,
                               bottom: r.top + r.height * 0.85 }];
    });
  const over = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const pairs = [];
  shown.forEach(([n, r], i) => shown.slice(i + 1).forEach(([m, q]) => {
    if (over(r, q)) pairs.push(`${n} / ${m}`);
  }));
  return [pairs, document.querySelectorAll('svg.board text.crowded').length, shown.length];
}"""

# Pittsburgh's market boxes that cover a location's box or another market's box.
MARKETS_APART = """() => {
  const rect = (e) => e.getBoundingClientRect();
  const over = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const markets = [...document.querySelectorAll('svg.board .placed-market')].map((g) => [
    g.dataset.market, rect(g.querySelector('.market-box'))]);
  const places = [...document.querySelectorAll('svg.board .town-box, svg.board .merchant-box')]
    .map((b) => [b.parentNode.querySelector('title')?.textContent, rect(b)]);
  const bad = [];
  markets.forEach(([m, r], i) => {
    for (const [p, q] of places) if (over(r, q)) bad.push(`${m} / ${p}`);
    for (const [n, q] of markets.slice(i + 1)) if (over(r, q)) bad.push(`${m} / ${n}`);
  });
  return bad;
}"""


def labels_apart(page: Any) -> tuple[int, int]:
    """(labels hidden as crowded, labels shown); no two shown ones overlap."""
    pairs, crowded, shown = page.evaluate(LABELS_APART)
    assert not pairs, pairs
    return crowded, shown


def seat_page(browser: Any, base: str, game_id: str, seat: int, token: str) -> Any:
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(f"{base}/#/play/{game_id}/{seat}/{token}")
    page.wait_for_selector("svg.board .town-box, svg.board .slot", state="attached")
    return page


def smallest_text(page: Any) -> float:
    size, text = page.evaluate(SMALLEST_TEXT)
    assert size >= 11, f"text {text!r} is {size:.1f} px on the board"
    return size


def view_box(page: Any) -> list[float]:
    return [float(x) for x in page.get_attribute("svg.board", "viewBox").split()]


def zoom(page: Any) -> float:
    return float(page.get_attribute(".board-wrap", "data-zoom"))


def test_the_birmingham_board_zooms_pans_and_marks_the_last_move(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    base, rest = site
    created = rest.call("POST", "/v1/games", body={"players": 2, "seed": "12",
                                                   "seatNames": ["Ann", "Bob"]})
    game_id = created["gameId"]
    tokens = {int(s.get("seat", 0)): s["token"] for s in created["seats"]}
    first = current_seat(created["state"])
    me = 1 - first
    page = seat_page(browser, base, game_id, me, tokens[me])
    # the whole board at first, nothing on it under 11 px, filling the space beside the panel
    page.wait_for_function(ALL_TOWNS_SHOWN)
    print(f"smallest text on the Birmingham map at 1400x900: {smallest_text(page):.1f} px")
    assert page.locator(".board-view").evaluate("e => e.clientWidth") >= 850
    # no two labels overlap: a crowded one moves beside its box or waits for a closer zoom
    crowded_far, _ = labels_apart(page)
    # Birmingham's markets: a ladder each, filled by the cubes the market holds
    state = rest.game(game_id, tokens[me])
    for resource in ("coal", "iron"):
        filled = page.locator(f".markets .market-{resource} .market-space.filled").count()
        assert filled == int(page.get_attribute(f".markets .market-{resource}", "data-cubes"))
        assert filled == state["birmingham"]["markets"][resource]
    # the other seat builds a link: a track in its colour, marked as its last move
    legal = rest.call("GET", f"/v1/games/{game_id}/actions?includeCompoundActions=true",
                      tokens[first])
    network = next(c for c in legal["compoundActions"] if c["key"].startswith("type:network"))
    link = network["key"].rsplit("link:", 1)[1]
    rest.call("POST", f"/v1/games/{game_id}/actions", tokens[first],
              {"action": {"compound": {"ids": network["ids"]}},
               "expectedVersion": legal["version"]})
    wait_page_version(page, int(rest.game(game_id)["summary"]["version"]))
    route = page.locator(f"svg.board .route.owned[data-link='{link}']")
    route.wait_for(state="attached", timeout=PAGE_TIMEOUT_MS)
    assert route.get_attribute("data-owner") == str(first)
    assert route.locator(".track-bed").count() >= 1
    assert route.locator(".route-line").first.evaluate(
        "e => getComputedStyle(e).stroke") == SEAT_RGB[first]
    assert route.get_attribute("data-recent-seat") == str(first)
    last = page.locator(f".last-moves > li[data-seat='{first}']")
    assert "Ann" in last.inner_text() or "Bob" in last.inner_text()
    assert page.locator(f".event-log li.recent[data-recent-seat='{first}']").count() >= 2
    # the action is one line of the log: what it does, what it paid, the card played
    lines = page.locator(".event-log li").all_inner_texts()
    linked = [line for line in lines if "builds a link" in line]
    assert len(linked) == 1 and re.search(r"card\)$", linked[0]), lines
    assert not [line for line in lines if re.search(r": Network \(", line)], lines
    wait_my_options(page)
    shot(page, artifacts, "32-board-last-move")
    # zoom: the buttons, the keyboard on the focused board, the wheel, a drag; fit resets
    page.click("button.zoom-in")
    assert zoom(page) == pytest.approx(1.25)
    smallest_text(page)
    page.click("button.zoom-in")
    page.click("button.zoom-in")
    crowded_near, _ = labels_apart(page)
    assert crowded_near < crowded_far or crowded_far == 0
    page.focus(".board-view")
    page.keyboard.press("0")
    assert zoom(page) == pytest.approx(1.0)
    page.keyboard.press("+")
    page.keyboard.press("+")
    assert zoom(page) == pytest.approx(1.5625, abs=0.01)
    before = view_box(page)
    page.keyboard.press("ArrowLeft")
    assert view_box(page)[0] < before[0]
    box = page.locator(".board-view").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -200)
    page.wait_for_function("() => Number(document.querySelector('.board-wrap').dataset.zoom) > 1.6")
    before = view_box(page)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 120, box["y"] + box["height"] / 2 + 60,
                    steps=6)
    page.mouse.up()
    moved = view_box(page)
    assert moved[0] < before[0] and moved[1] < before[1]
    assert page.get_attribute(".game", "data-preview-ready") == "false"  # a drag picks nothing
    shot(page, artifacts, "33-board-zoomed")
    page.click("button.zoom-fit")
    assert zoom(page) == pytest.approx(1.0)
    page.wait_for_function(ALL_TOWNS_SHOWN)
    # the page's seat acts, step by step: its steps stay in the page (nothing is sent, the
    # other seat's marks stay) until the whole action is confirmed once
    take_step(page, lambda: page.click(".decision button.option[data-option-id='0']"))  # Build
    assert page.get_attribute(".game", "data-preview-ready") == "false"
    assert page.locator(".decision .step-path li").count() >= 1
    assert page.locator("svg.board .recent").count() > 0
    page.click("button.step-back")
    assert page.get_attribute(".game", "data-steps") == "0"
    # the server at the build's slot decision (its first decisions sent over REST): a
    # greyed-out slot on the board says why when it is clicked (or tapped); the other
    # seat's marks go as soon as the page's seat acts
    for _ in range(4):
        legal = rest.call("GET", f"/v1/games/{game_id}/actions?includeUnavailable=true",
                          tokens[me])
        if legal["decision"] == "build_slot":
            break
        choice = next(o for o in legal["options"] if o["name"] != "type:network")
        rest.call("POST", f"/v1/games/{game_id}/actions", tokens[me],
                  {"action": {"optionId": choice["id"]}, "expectedVersion": legal["version"]})
    wait_page_version(page, int(rest.game(game_id)["summary"]["version"]))
    page.wait_for_function("() => !document.querySelector('svg.board .recent')")
    wait_my_options(page)
    refused = page.locator("svg.board .slot.refused[data-reason]").first
    reason = refused.get_attribute("data-reason", timeout=3000)
    assert reason and reason in refused.locator("title").text_content()
    refused.click()
    assert reason in page.locator(".board-said").inner_text()
    shot(page, artifacts, "35-board-refused-reason")
    # at a phone's width the whole board's labels are crowded most: none overlaps, more
    # are hidden, and they come back as one zooms in
    page.set_viewport_size({"width": 390, "height": 844})
    page.click("button.zoom-fit")
    page.wait_for_function(ALL_TOWNS_SHOWN)
    crowded_phone, shown_phone = labels_apart(page)
    assert crowded_phone >= crowded_far and shown_phone >= 20
    shot(page, artifacts, "37-board-phone")
    for _ in range(3):
        page.click("button.zoom-in")
    assert labels_apart(page)[0] < crowded_phone
    page.set_viewport_size({"width": 1400, "height": 900})
    page.click("button.zoom-fit")
    play_action_by_steps(page, random.Random(3))
    assert page.locator("svg.board .recent").count() == 0
    assert page.locator(".last-moves-card").is_hidden()
    assert page.locator(".event-log li.recent").count() == 0
    assert not page.errors


def test_the_pittsburgh_board_shows_its_markets_readably(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    base, rest = site
    created = rest.call("POST", "/v1/games", body={"players": 2, "seed": "5",
                                                   "ruleset": "RULESET_PITTSBURGH"})
    seat = current_seat(created["state"])
    token = {int(s.get("seat", 0)): s["token"] for s in created["seats"]}[seat]
    page = seat_page(browser, base, created["gameId"], seat, token)
    wait_my_options(page)
    page.wait_for_function(ALL_TOWNS_SHOWN)
    print(f"smallest text on the Pittsburgh map at 1400x900: {smallest_text(page):.1f} px")
    labels_apart(page)
    assert not page.evaluate(MARKETS_APART)
    markets = rest.game(created["gameId"], token)["pittsburgh"]["markets"]
    assert markets
    for market in markets:
        cubes = sum(n for key, n in market.items() if key in ("coal", "iron", "steel", "coke",
                                                              "oil"))
        drawn = page.locator(f".placed-market[data-market='{market['id']}'] .market-space.cube")
        assert drawn.count() == cubes, market
    # the whole actions: grouped by type, a big group by card; no list over 60 buttons, and
    # none made before its group is opened
    counts = lambda scope, cls: [int(re.search(r"\((\d+)\)$", text).group(1))  # noqa: E731
                                 for text in scope.locator(f"details.{cls} > summary")
                                 .all_inner_texts()]
    total = int(re.search(r"of (\d+)", page.inner_text("#compound-count")).group(1))
    assert sum(counts(page.locator(".compound"), "group")) == total > 60
    assert page.locator("button.whole-action").count() == 0
    groups = page.locator(".compound details.group")
    for i in range(groups.count()):
        group = groups.nth(i)
        open_group(group)
        size = counts(page.locator(".compound"), "group")[i]
        if size > 60:
            assert sum(counts(group, "subgroup")) == size
            open_group(group.locator("details.subgroup").first)
        for part in group.locator("ul.whole-actions").all():
            assert part.locator("button.whole-action").count() <= 60
        group.locator("summary").first.click()
    page.fill("#compound-filter", "develop")
    page.wait_for_function(
        "t => !document.querySelector('#compound-count').textContent.startsWith(t + ' ')",
        arg=str(total))
    assert all("Develop" in text for text in
               page.locator(".compound details.group > summary").all_inner_texts())
    shot(page, artifacts, "34-pittsburgh-board")
    assert not page.errors


# A game of seed 1 to a turn where seat 0 can sell: the whole actions the seats play first.
TO_A_SELL = [
    "type:network card:birmingham link:birmingham--oxford",
    "type:build card:kidderminster industry:cotton",
    "type:build card:kidderminster industry:cotton",
    "type:scout card:coalbrookdale card:iron card:coal",
    "type:network card:iron link:coalbrookdale--kidderminster",
    "type:scout card:dudley card:worcester card:birmingham",
    "type:pass card:worcester",
    "type:develop card:redditch industry:iron",
    "type:develop card:coalbrookdale industry:manufacturer",
    "type:pass card:brewery",
    "type:loan card:stafford",
    "type:network card:iron link:coalbrookdale--shrewsbury",
    "type:loan card:wild_industry",
    "type:network card:burton_on_trent link:birmingham--coventry",
    "type:network card:coventry link:kidderminster--worcester",
    "type:network card:birmingham link:gloucester--worcester",
    "type:build card:coventry industry:pottery",
]


def play_keys(rest: Rest, game_id: str, tokens: dict[int, str], keys: list[str]) -> None:
    for key in keys:
        seat = current_seat(rest.game(game_id))
        legal = rest.call("GET", f"/v1/games/{game_id}/actions?includeCompoundActions=true",
                          tokens[seat])
        ids = next(c["ids"] for c in legal["compoundActions"] if c["key"] == key)
        rest.call("POST", f"/v1/games/{game_id}/actions", tokens[seat],
                  {"action": {"compound": {"ids": ids}}, "expectedVersion": legal["version"]})


VERBS = {"sell": "sells", "network": "builds a link", "build": "builds"}


def turn_that_can(rest: Rest, game_id: str, tokens: dict[int, str], me: int, kind: str) -> None:
    """Until `me` is to act with some whole action of `kind` ("type:build"): the other seat
    plays, and `me` takes loans (the money for it)."""
    rng = random.Random(1)
    for _ in range(12):
        seat = current_seat(rest.game(game_id))
        if seat != me:
            rest.play_one_action(game_id, tokens[seat], rng)
            continue
        legal = rest.call("GET", f"/v1/games/{game_id}/actions?includeCompoundActions=true",
                          tokens[me])
        if any(c["key"].startswith(kind + " ") for c in legal["compoundActions"]):
            return
        loan = next(c for c in legal["compoundActions"] if c["key"].startswith("type:loan"))
        rest.call("POST", f"/v1/games/{game_id}/actions", tokens[me],
                  {"action": {"compound": {"ids": loan["ids"]}},
                   "expectedVersion": legal["version"]})
    raise AssertionError(f"no turn of seat {me} could play {kind}")


def test_clicks_per_action_on_the_map_and_by_steps(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    """A place on the board that whole actions go through picks the first of them at one
    click (its preview shown, the others listed by the filter); Confirm plays it: a sell
    (the seat's own unflipped tile), a build and a network take two clicks each. Step by
    step, the page keeps the choices, takes a step with one option itself and asks one
    Confirm for the whole action. The clicks are counted and printed."""
    base, rest = site
    created = rest.call("POST", "/v1/games", body={"players": 2, "seed": "1",
                                                   "seatNames": ["Ann", "Bob"]})
    game_id = created["gameId"]
    tokens = {int(s.get("seat", 0)): s["token"] for s in created["seats"]}
    play_keys(rest, game_id, tokens, TO_A_SELL)
    me = 0
    assert current_seat(rest.game(game_id)) == me
    page = seat_page(browser, base, game_id, me, tokens[me])
    clicks: dict[str, int] = {}
    sentences: dict[str, str] = {}
    played = {}
    for kind, element in (("sell", "slot.built"), ("network", "route"),
                          ("build", "slot")):
        turn_that_can(rest, game_id, tokens, me, f"type:{kind}")
        wait_page_version(page, int(rest.game(game_id)["summary"]["version"]))
        wait_my_options(page)
        version = int(page.get_attribute(".game", "data-version"))
        target = page.locator(f"svg.board .{element}.target").first
        if kind == "sell":
            assert target.get_attribute("data-owner") == str(me)
        place = target.get_attribute("data-target")
        target.click()  # click 1
        page.wait_for_selector(".game[data-preview-ready=true]")
        assert kind.title() in page.inner_text("#preview-heading")
        # the preview in a sentence: who does what, paying what, each cube from where
        sentence = page.inner_text(".preview-sentence")
        assert sentence.startswith(f"Ann {VERBS[kind]} "), sentence
        assert not re.search(r"\w+:\w|_", sentence), sentence  # no engine words
        sentences[kind] = sentence
        # the other whole actions of that place (or that card), listed by the filter
        assert page.input_value("#compound-filter")
        assert page.locator(".compound button.whole-action").count() >= 1
        shot(page, artifacts, f"36-map-{kind}-preview")
        page.click("button.confirm")  # click 2
        wait_page_version(page, version + 1)
        clicks[f"{kind} on the map"] = 2
        played[kind] = place.split(":", 1)[1]
        if kind == "sell":
            sold = rest.game(game_id)["birmingham"]["slots"][played["sell"]]
            assert sold.get("flipped") and int(sold.get("owner", 0)) == me
    built = page.locator(f"svg.board .slot.built[data-slot='{played['build']}']")
    assert built.get_attribute("data-owner") == str(me)
    assert played["build"] in rest.game(game_id)["birmingham"]["slots"]
    route = page.locator(f"svg.board .route.owned[data-link='{played['network']}']")
    assert route.get_attribute("data-owner") == str(me)
    links = rest.game(game_id)["birmingham"]["links"]
    assert played["network"] in links and int(links[played["network"]]) == me
    # a build step by step: the type, a card, the rest (on the board when it offers them)
    # until the page previews the whole action, then one Confirm
    kind = "build"
    turn_that_can(rest, game_id, tokens, me, "type:build")
    wait_page_version(page, int(rest.game(game_id)["summary"]["version"]))
    wait_my_options(page)
    version = int(page.get_attribute(".game", "data-version"))
    count = 1
    previewed = take_step(page, page.locator(".decision button.option[data-option-id='0']").click)
    while not previewed:
        count += 1
        on_board = page.locator("svg.board [data-action-id].legal:not(.target)")
        option = on_board.first if on_board.count() else page.locator(
            ".decision ul.options button.option").first
        previewed = take_step(page, option.click)
    assert kind.title() in page.inner_text("#preview-heading")
    page.click("button.confirm")
    count += 1
    wait_page_version(page, version + 1)
    clicks[f"{kind} by steps"] = count
    # the type, the card, the industry and the slot at most, and Confirm
    assert count <= 5
    print("clicks per action:", ", ".join(f"{k} {n}" for k, n in clicks.items()))
    print("previews:", " | ".join(sentences.values()))
    assert not page.errors


def test_a_later_step_kept_by_the_page_greys_out_its_options_with_the_reasons(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    """A build chosen step by step (Build, then the Coal card: nothing sent) asks for the
    slot: the slots that cannot take coal are greyed out on the board with the engine's
    reason on hover (their title) and on a click (the line above the board), and listed
    under the options as unavailable with it, as at the server's own decision."""
    base, rest = site
    created = rest.call("POST", "/v1/games", body={"players": 2, "seed": "1"})
    game_id = created["gameId"]
    tokens = {int(s.get("seat", 0)): s["token"] for s in created["seats"]}
    me = current_seat(rest.game(game_id))
    actions = rest.call("GET", "/v1/rulesets/birmingham")["ruleset"]["actions"]
    ids = {a["name"]: a["id"] for a in actions}
    # what the service says of that slot step (the page must show the same)
    after = rest.call("GET", f"/v1/games/{game_id}/actions?includeUnavailable=true"
                      f"&afterIds={ids['type:build']},{ids['card:coal']}", tokens[me])
    assert after["decision"] == "build_slot"
    wrong = next(u for u in after["unavailable"] if u["reason"] == "SLOT_WRONG_INDUSTRY")
    page = seat_page(browser, base, game_id, me, tokens[me])
    wait_my_options(page)
    for name in ("type:build", "card:coal"):
        option = page.locator(f".decision button.option[data-option-id='{ids[name]}']")
        take_step(page, option.click)
    assert page.get_attribute(".game", "data-steps") == "2"
    slot = page.locator(f"svg.board .slot.refused[data-action-id='{wrong['id']}']")
    slot.wait_for(state="attached", timeout=PAGE_TIMEOUT_MS)
    assert slot.get_attribute("data-reason") == wrong["message"]
    assert wrong["message"] in slot.locator("title").text_content()
    slot.click()
    assert wrong["message"] in page.locator(".board-said").inner_text()
    listed = page.locator(".decision .unavailable-options li"
                          f":has(button[data-option-id='{wrong['id']}'])")
    assert wrong["message"] in listed.locator(".reason").text_content()
    # the coal slots are still the step's options, on the board and in the list
    assert page.locator("svg.board .slot.legal:not(.target)").count() == len(after["options"])
    shot(page, artifacts, "38-step-refused-reason")
    assert int(rest.game(game_id)["summary"]["version"]) == 0  # nothing was sent
    assert not page.errors


def test_a_cubes_source_is_chosen_inside_the_one_preview(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    """Pittsburgh: a build whose cube may come from the market or from Vanderbilt (the
    rules leave it to the player) takes no step of its own for it: once the slot is chosen
    the whole action is previewed with the market's cube, the preview offers Vanderbilt
    instead (a second preview of the same build), and one Confirm plays the one shown."""
    base, rest = site
    created = rest.call("POST", "/v1/games", body={"players": 2, "seed": "5",
                                                   "ruleset": "RULESET_PITTSBURGH"})
    game_id = created["gameId"]
    tokens = {int(s.get("seat", 0)): s["token"] for s in created["seats"]}
    me = current_seat(rest.game(game_id))
    actions = rest.call("GET", "/v1/rulesets/pittsburgh")["ruleset"]["actions"]
    ids = {a["name"]: a["id"] for a in actions}
    page = seat_page(browser, base, game_id, me, tokens[me])
    wait_my_options(page)
    clicks = 0
    for name in ("type:build", "card:kerosene", "slot:toledo.0"):
        option = page.locator(f".decision button.option[data-option-id='{ids[name]}']")
        previewed = take_step(page, option.click)
        clicks += 1
    assert previewed, "the source was asked as a step of its own"
    page.wait_for_selector(".game[data-preview-ready=true] button.confirm:not([disabled])")
    chosen = page.locator(".preview .source-choice button.source[aria-pressed=true]")
    assert chosen.get_attribute("data-source") == "market:toledo"
    assert "the market at Toledo" in page.inner_text(".preview-sentence")
    other = page.locator(".preview .source-choice button.source[data-source=vanderbilt]")
    assert other.get_attribute("aria-pressed") == "false"
    shot(page, artifacts, "39-source-in-preview")
    other.click()
    page.wait_for_selector(".preview .source-choice button.source[data-source=vanderbilt]"
                           "[aria-pressed=true]", timeout=PAGE_TIMEOUT_MS)
    page.wait_for_selector(".game[data-preview-ready=true] button.confirm:not([disabled])")
    assert "Vanderbilt" in page.inner_text(".preview-sentence")
    page.click("button.confirm")
    clicks += 1
    wait_page_version(page, 1)
    played = [d["optionId"] for d in rest.call("GET", f"/v1/games/{game_id}/replay")["decisions"]]
    assert played[-1] == ids["vanderbilt"] and ids["market:toledo"] not in played
    # the type, the card, the slot and Confirm; one more to take Vanderbilt instead
    print("clicks for a Pittsburgh build by steps:", clicks, "(+1 for Vanderbilt)")
    assert clicks == 4
    assert not page.errors
