"""Driving the web frontend in Chromium, and other seats over REST, for the browser tests."""

from __future__ import annotations

import json
import random
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Wraps the page's fetch so that every byte of every answer it reads (JSON bodies and the
# event stream as it arrives) is kept in window.__received, for the hidden-information
# check: what the page was sent, not only what it shows.
RECORD_NETWORK = """
(() => {
  const original = window.fetch.bind(window);
  window.__received = [];
  let requests = 0;
  window.fetch = async (...args) => {
    const response = await original(...args);
    const request = requests++;
    const url = typeof args[0] === 'string' ? args[0] : args[0].url;
    const copy = response.clone();
    (async () => {
      const reader = copy.body && copy.body.getReader();
      if (!reader) return;
      const decoder = new TextDecoder();
      for (;;) {
        let part;
        try { part = await reader.read(); } catch { return; }
        if (part.done) return;
        const text = decoder.decode(part.value, { stream: true });
        window.__received.push({ request, url, text });
      }
    })();
    return response;
  };
})();
"""

PAGE_TIMEOUT_MS = 20_000


class Rest:
    """A tiny REST client of one server (the tests' other seats and checks)."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"

    def call(self, method: str, path: str, token: str | None = None,
             body: dict[str, Any] | None = None) -> dict[str, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as exc:
            raise AssertionError(f"{method} {path}: {exc.code} {exc.read()[:400]!r}") from exc

    def game(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        return self.call("GET", f"/v1/games/{game_id}", token)["state"]

    def play_one_action(self, game_id: str, token: str, rng: random.Random) -> None:
        """One whole (compound) action of the seat to act, chosen at random."""
        legal = self.call("GET", f"/v1/games/{game_id}/actions?includeCompoundActions=true",
                          token)
        compound = legal.get("compoundActions") or []
        if compound:
            action = {"compound": {"ids": rng.choice(compound)["ids"]}}
        else:
            action = {"optionId": rng.choice(legal["options"])["id"]}
        self.call("POST", f"/v1/games/{game_id}/actions", token,
                  {"action": action, "expectedVersion": legal["version"]})


def current_seat(state: dict[str, Any]) -> int | None:
    summary = state["summary"]
    if summary.get("status") != "GAME_STATUS_IN_PROGRESS":
        return None
    return int(summary.get("currentSeat", 0))


def wait_page_version(page: Any, at_least: int) -> None:
    try:
        page.wait_for_function(
            "v => Number(document.querySelector('.game')?.dataset.version || -1) >= v",
            arg=at_least, timeout=PAGE_TIMEOUT_MS)
    except Exception as exc:
        raise AssertionError(f"the page did not reach version {at_least}: "
                             f"{page_state(page)}") from exc


def page_state(page: Any) -> str:
    """The page's state attributes and its error line, for a failure's message."""
    return page.evaluate(
        "() => JSON.stringify({...(document.querySelector('.game')?.dataset || {}),"
        " error: document.querySelector('.error')?.textContent || ''})")


def wait_my_options(page: Any) -> None:
    """Until the page shows the seat's options for the current version."""
    try:
        page.wait_for_function(
            "() => { const g = document.querySelector('.game'); return g"
            " && g.dataset.myTurn === 'true' && g.dataset.legalVersion === g.dataset.version"
            " && g.dataset.busy === 'false'; }",
            timeout=PAGE_TIMEOUT_MS)
    except Exception as exc:
        raise AssertionError(f"the page did not offer its options: {page_state(page)}") from exc


def confirm_preview(page: Any) -> None:
    try:
        page.wait_for_selector(".game[data-preview-ready=true] button.confirm:not([disabled])",
                               timeout=PAGE_TIMEOUT_MS)
    except Exception as exc:
        raise AssertionError(f"no preview to confirm: {page_state(page)}") from exc
    version = int(page.get_attribute(".game", "data-version"))
    page.click("button.confirm")
    wait_page_version(page, version + 1)


def any_of(locator: Any, rng: random.Random) -> Any:
    return locator.nth(rng.randrange(locator.count()))


def play_whole_action(page: Any, rng: random.Random, group_name: str | None = None,
                      without: str | None = None, prefer: str | None = None) -> str:
    """Through the page: pick a whole action from the list (of the group `group_name`,
    "Build", when the page offers it; none whose words hold `without`; one whose words hold
    `prefer` when there is one), preview it, confirm it."""
    wait_my_options(page)
    groups = page.locator(".compound details.group")
    if group_name is not None:
        named = groups.filter(has=page.locator(f"summary:text-matches('^{group_name} ')"))
        if named.count():
            groups = named
    group = any_of(groups, rng)
    open_group(group)
    # a big group is split by its second choice (the card): its parts in a random order
    parts = group.locator("details.subgroup")
    count = parts.count()
    scopes = [parts.nth(i) for i in rng.sample(range(count), count)] or [group]
    for scope in scopes:
        open_group(scope)
        buttons = scope.locator("button.whole-action")
        if without is not None:
            buttons = buttons.filter(has_not_text=without)
        if prefer is not None and buttons.filter(has_text=prefer).count():
            buttons = buttons.filter(has_text=prefer)
            break
        if prefer is None and buttons.count():
            break
    button = any_of(buttons, rng)
    label = button.inner_text()
    button.click()
    confirm_preview(page)
    return label


def open_group(details: Any) -> None:
    """Opens a group of the whole-action list; its body is made on the toggle event, which
    comes a moment after the click: until it is there."""
    if details.get_attribute("open") is None:
        details.locator("summary").first.click()
    details.locator("details.subgroup, ul.whole-actions").first.wait_for(state="attached")


# After a step's click: the page asked the next step (its path grew, nothing to preview)
# or previewed the whole action (or, without whole actions, the decision alone).
STEP_TAKEN = """steps => {
  const g = document.querySelector('.game');
  return g.dataset.previewReady === 'true' || document.querySelector('.decision .error')
    || (g.dataset.steps !== steps && g.dataset.selected === 'false');
}"""


def take_step(page: Any, act: Any) -> bool:
    """`act()` picks a step's option; until the page took it. True: a preview is there."""
    steps = page.get_attribute(".game", "data-steps")
    act()
    try:
        page.wait_for_function(STEP_TAKEN, arg=steps, timeout=PAGE_TIMEOUT_MS)
    except Exception as exc:
        raise AssertionError(f"the page did not take the step: {page_state(page)}") from exc
    return page.get_attribute(".game", "data-preview-ready") == "true"


def play_action_by_steps(page: Any, rng: random.Random, words: tuple[str, ...] = ()) -> list[str]:
    """Through the page, one step at a time (the page keeps them, and takes a step with
    one option itself) until the whole action is previewed, then confirmed once; at each
    step an option holding the first of `words` that some option holds, else any."""
    labels: list[str] = []
    while True:
        wait_my_options(page)
        if labels and page.get_attribute(".game", "data-steps") == "0" and page.locator(
                ".decision .prompt").inner_text().startswith("Choose an action"):
            return labels
        while page.get_attribute(".game", "data-preview-ready") != "true":
            options = page.locator(".decision ul.options button.option:not([disabled])")
            wanted = next((found for word in words
                           if (found := options.filter(has_text=word)).count()), options)
            target = any_of(wanted, rng)
            labels.append(target.inner_text())
            take_step(page, target.click)
        confirm_preview(page)
        if page.get_attribute(".game", "data-my-turn") != "true":
            return labels


def play_step(page: Any, rng: random.Random, on_board: bool = False) -> str:
    """Through the page: one step of an action, on the board when it offers one there,
    else from the list of the step's options; confirmed when it made the action whole."""
    wait_my_options(page)
    # the step's own options on the board (not the places whole actions go through)
    board = page.locator("svg.board [data-action-id].legal:not(.target)")
    if on_board and board.count():
        target = any_of(board, rng)
        label = target.get_attribute("aria-label") or ""
        # the keyboard's way: focus the board element, press Enter
        target.focus()
        previewed = take_step(page, lambda: page.keyboard.press("Enter"))
    else:
        target = any_of(page.locator(".decision ul.options button.option:not([disabled])"), rng)
        label = target.inner_text()
        previewed = take_step(page, target.click)
    if previewed:
        confirm_preview(page)
    return label


def received_texts(page: Any) -> list[tuple[int, str, str]]:
    """(request number, URL, text) of every chunk of every answer the page read."""
    return [(r["request"], r["url"], r["text"])
            for r in page.evaluate("window.__received || []")]


def new_page(browser: Any, width: int = 1400, height: int = 1000) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(RECORD_NETWORK)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page



def wait_until(page: Any, done: Callable[[], bool], failure: str) -> None:
    """Until `done()`, checked while the page waits (Playwright calls the tests' event and
    route handlers meanwhile)."""
    deadline = time.monotonic() + PAGE_TIMEOUT_MS / 1000
    while not done() and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert done(), failure


class HeldGet:
    """The page's first GET of `url` (a glob), its answer held back until `release()`: the
    window of a page still awaiting the server, opened deterministically."""

    def __init__(self, page: Any, url: str) -> None:
        self.page = page
        self.held: list[Any] = []
        page.route(url, self._route)

    def _route(self, route: Any) -> None:
        if route.request.method == "GET" and not self.held:
            self.held.append(route)
        else:
            route.continue_()

    def wait(self) -> None:
        """Until the page has made the request."""
        wait_until(self.page, lambda: bool(self.held), "the page did not make the request")

    def release(self) -> None:
        self.held[0].continue_()


def create_in_page(page: Any, base: str, players: int, roles: list[str],
                   names: list[str] | None = None, seed: int | None = None,
                   fields: dict[str, str] | None = None, ruleset: str | None = None) -> str:
    """Fills the lobby's form (`fields`: more of its inputs and selects by CSS selector,
    in order) and creates the game; returns its id."""
    page.goto(base + "/")
    page.wait_for_selector("form.create-form")
    if ruleset is not None:
        page.select_option("#create-ruleset", ruleset)
    page.select_option("#create-players", str(players))
    for seat, role in enumerate(roles):
        page.select_option(f"#seat-{seat}-role", role)
        if names:
            page.fill(f"#seat-{seat}-name", names[seat])
    if seed is not None:
        page.fill("#create-seed", str(seed))
    for selector, value in (fields or {}).items():
        if page.locator(selector).evaluate("e => e.tagName") == "SELECT":
            page.select_option(selector, value)
        else:
            page.fill(selector, value)
    page.click("form.create-form button[type=submit]")
    page.wait_for_selector(".game[data-version]")
    match = re.search(r"#/game/([^/]+)", page.url)
    assert match, page.url
    return match.group(1)


def invite_tokens(page: Any) -> dict[int, str]:
    """The tokens in the host's invite links (#/play/ID/SEAT/TOKEN)."""
    tokens = {}
    for link in page.locator("input.invite-link").all():
        seat = int(link.get_attribute("data-seat"))
        tokens[seat] = link.input_value().rsplit("/", 1)[1]
    return tokens


def shot(page: Any, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)


def server_has_bot_seats(rest: Rest) -> bool:
    schemas = rest.call("GET", "/openapi.json")["components"]["schemas"]
    return "botSeats" in schemas["CreateGameRequest"]["properties"]
