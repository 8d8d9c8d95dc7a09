"""Figures of the web frontend (not run by default: `pytest -m slow tests/browser -s`):
page load time (median of cold loads, each in a new browser context), time per full game
played through the page (seat 0 by whole actions; the other seat a server bot when the
server has bot seats, else played over REST), and the bundle's size. Figures are printed,
never asserted: the machine is shared and noisy."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import pytest
from service.helpers import ServerProcess

from . import test_web_static
from .helpers import (
    Rest,
    create_in_page,
    current_seat,
    invite_tokens,
    new_page,
    play_whole_action,
    server_has_bot_seats,
    wait_page_version,
)

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser"), pytest.mark.timeout(1800)]

LOADS = 7
GAMES = 1


def test_page_load_and_full_game_through_the_page(
    browser: Any, web_server: ServerProcess
) -> None:
    base = f"http://127.0.0.1:{web_server.http_port}"
    rest = Rest(web_server.http_port)
    loads = []
    for _ in range(LOADS):
        page = new_page(browser)
        started = time.monotonic()
        page.goto(base + "/")
        page.wait_for_selector("#create-players option", state="attached")
        loads.append(time.monotonic() - started)
        page.context.close()
    bots = server_has_bot_seats(rest)
    idle = idle_bot_game(browser, base, rest) if bots else None
    games = []
    for game in range(GAMES):
        rng = random.Random(game)
        page = new_page(browser)
        roles = ["me", "bot:greedy"] if bots else ["me", "invite"]
        started = time.monotonic()
        game_id = create_in_page(page, base, 2, roles, ["Ada", "Bot"], 100 + game)
        tokens = invite_tokens(page)
        actions = 0
        while (seat := current_seat(state := rest.game(game_id))) is not None:
            if seat == 0:
                play_whole_action(page, rng)
                actions += 1
            elif bots:
                time.sleep(0.05)
            else:
                rest.play_one_action(game_id, tokens[seat], rng)
        wait_page_version(page, int(state["summary"]["version"]))
        page.wait_for_selector("ol.scores li")
        games.append((time.monotonic() - started, actions))
        page.context.close()
    print(f"page load (lobby ready, cold context): median {statistics.median(loads):.2f} s "
          f"over {LOADS} loads (min {min(loads):.2f}, max {max(loads):.2f})")
    if idle is not None:
        seconds, versions = idle
        print(f"idle full 2-player game of two server bots (greedy, random) watched in the page"
              f": {seconds:.1f} s to the final scores, {versions} decisions "
              f"({seconds / versions * 1000:.0f} ms each)")
    for seconds, actions in games:
        print(f"full 2-player game through the page against "
              f"{'a server bot' if bots else 'a REST seat'}: {seconds:.1f} s, "
              f"{actions} page actions ({seconds / actions:.2f} s each)")
    test_web_static.test_bundle_size()


def idle_bot_game(browser: Any, base: str, rest: Rest) -> tuple[float, int]:
    """A game of server bots only, created in the lobby and watched by its page (nobody
    acts in it): seconds from Create to the final scores on the page, and its decisions."""
    page = new_page(browser)
    started = time.monotonic()
    game_id = create_in_page(page, base, 2, ["bot:greedy", "bot:random"], ["Greedy", "Random"],
                             200)
    page.wait_for_selector("ol.scores li", timeout=1_200_000)
    seconds = time.monotonic() - started
    versions = int(rest.game(game_id)["summary"]["version"])
    page.context.close()
    return seconds, versions
