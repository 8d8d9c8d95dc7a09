"""The page in Chinese (issue 23 item 4): a browser whose language is Chinese gets the
lobby in Chinese and the server's refusals in Chinese; the EN / 中文 switch changes both at
once and is remembered."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from .helpers import Rest, shot, take_step, wait_page_version

pytestmark = [pytest.mark.xdist_group("browser"), pytest.mark.timeout(120)]


def test_the_page_follows_the_browser_language_and_the_switch(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    base, rest = site
    context = browser.new_context(viewport={"width": 1400, "height": 900}, locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "/")
    page.wait_for_selector("form.create-form")
    assert page.inner_text("#create-heading") == "创建对局"
    assert page.evaluate("document.documentElement.lang") == "zh-Hans"
    assert page.get_attribute("#language-switch button[data-language='zh-Hans']",
                              "aria-pressed") == "true"
    assert page.inner_text("#opt-beginner-hint") == "新手变体：只玩运河时代"
    shot(page, artifacts, "20-lobby-chinese")
    # Pittsburgh's options in words: titles and what each default means, the ruling
    # switches folded away under one heading, no bare ruling reference
    page.select_option("#create-ruleset", "RULESET_PITTSBURGH")
    page.wait_for_selector("details.rulings #opt-mfg_v_vp", state="attached")
    page.click("details.rulings summary")
    assert page.inner_text("label[for='opt-mfg_v_vp']") == "制造 V 的分数"
    assert page.inner_text("#opt-mfg_v_vp-hint") == "默认制造 V 计 12 分。（规则裁定 P37）"
    assert "（默认）" in page.inner_text("#opt-mfg_v_vp")
    assert page.locator("#opt-income_cost_unit option").all_inner_texts() == [
        "等级（默认）", "格数"]
    assert "RULINGS.md" not in page.inner_text("form.create-form")
    # the provisional data's placeholders in words, never their ids
    assert "牌堆" in page.inner_text("form.create-form")
    assert "PH1" not in page.inner_text("form.create-form")
    # the server's refusal comes in the page's language (Accept-Language)
    page.goto(base + "/#/game/no-such-game")
    page.wait_for_selector("p.error")
    assert "没有编号为 'no-such-game' 的对局" in page.inner_text("p.error")
    # a game in Chinese: headings, the decision's options by GetRuleset's labels, and the
    # engine's reasons for the unavailable ones from the server
    created = rest.call("POST", "/v1/games", body={"players": 2, "seed": "4"})
    seat = int(created["state"]["summary"].get("currentSeat", 0))
    token = {int(s.get("seat", 0)): s["token"] for s in created["seats"]}[seat]
    page.goto(f"{base}/#/play/{created['gameId']}/{seat}/{token}")
    page.wait_for_selector("ul.options button.option[data-option-id='0']")
    assert page.inner_text("#decision-heading") == "你的行动"
    assert page.inner_text("button.option[data-option-id='0']") == "建造"
    assert "贷款" in page.inner_text("ul.options")
    # the board's tooltips and the seat's mat in Chinese too
    assert not english_words([*board_titles(page), page.inner_text(".my-mat")])
    # the merchants' goods in their boxes: a character each (棉, 制, 陶), no Latin letter
    goods = page.locator("svg.board text.merchant-goods").all_text_contents()
    marks = set("".join(goods)) - {"—"}
    assert marks and marks <= {"棉", "制", "陶"}, goods
    # each merchant's tile as wide as its marks (two or three characters at the default zoom)
    overflowing = page.evaluate("""() => [...document.querySelectorAll('svg.board .merchant-space')]
        .map((g) => [g.querySelector('text').getBBox().width,
                     +g.querySelector('rect').getAttribute('width')])
        .filter(([text, tile]) => text > tile)""")
    assert not overflowing, overflowing
    # the whole-action filter's example, typed into it, finds some actions but not all
    example = page.get_attribute("#compound-filter", "placeholder")
    page.fill("#compound-filter", example.removeprefix("例如："))
    page.wait_for_function(
        "() => /显示 \\d+/.test(document.querySelector('#compound-count')?.textContent)")
    total, shown_count = map(int, re.findall(r"\d+", page.inner_text("#compound-count"))[:2])
    assert 0 < shown_count < total, page.inner_text("#compound-count")
    page.fill("#compound-filter", "")
    # an action step by step to its preview, a sentence in Chinese
    while not take_step(page, page.locator(".decision ul.options button.option").first.click):
        pass
    sentence = page.inner_text(".preview-sentence")
    assert "建造" in sentence and sentence.endswith("。"), sentence
    assert not re.search(r"[a-z]+:[a-z]|_", sentence), sentence
    shot(page, artifacts, "22-preview-chinese")
    page.click("button.cancel")
    # an action played meanwhile arrives on the stream and is logged in Chinese
    rest.play_one_action(created["gameId"], token, random.Random(5))
    page.wait_for_function(
        "() => (document.querySelector('section.log ol')?.textContent || '').includes('：')")
    assert page.inner_text("#log-heading") == "事件"
    assert "（" in page.inner_text("section.log ol")  # "{who}：{action}（{card}）"
    shot(page, artifacts, "21-game-chinese")
    # the switch: English at once, and remembered
    page.goto(base + "/")
    page.wait_for_selector("form.create-form")
    page.click("#language-switch button[data-language='en']")
    page.wait_for_function(
        "() => document.querySelector('#create-heading')?.textContent === 'Create a game'")
    assert page.evaluate("document.documentElement.lang") == "en"
    page.reload()
    page.wait_for_selector("form.create-form")
    assert page.inner_text("#create-heading") == "Create a game"
    page.select_option("#create-ruleset", "RULESET_PITTSBURGH")
    page.click("details.rulings summary")
    assert page.inner_text("label[for='opt-mfg_v_vp']") == "Manufacturing V's VP"
    assert page.inner_text("#opt-mfg_v_vp-hint") == (
        "By default Manufacturing V scores 12 VP. (ruling P37)")
    assert not errors
    context.close()


# ASCII words a Chinese page may show: roman levels, and the seats' names
ROMAN = re.compile(r"^[IVX]+$")


def english_words(texts: list[str]) -> set[str]:
    """The English words (or ids) in `texts`, but roman levels and the seats' names."""
    return {w for w in re.findall(r"[A-Za-z_]+", " ".join(texts))
            if not ROMAN.match(w) and w not in ("Ann", "Bob")}


def board_titles(page: Any) -> list[str]:
    """The board's tooltips (each slot, route, merchant and oilfield's <title>)."""
    return page.locator("svg.board title").evaluate_all("els => els.map(e => e.textContent)")


def test_a_pittsburgh_game_in_chinese_says_no_engine_word(
    browser: Any, site: tuple[str, Rest], artifacts: Path
) -> None:
    """A Pittsburgh game watched in Chinese while both seats play whole actions (builds
    first, so that tiles are named): the log, the last moves, the seats' tiles and the
    options and the board's tooltips hold no English word; each action is one line of the
    log."""
    base, rest = site
    created = rest.call("POST", "/v1/games", body={
        "players": 2, "seed": "11", "ruleset": "RULESET_PITTSBURGH",
        "seatNames": ["Ann", "Bob"]})
    game_id = created["gameId"]
    tokens = {int(s.get("seat", 0)): s["token"] for s in created["seats"]}
    context = browser.new_context(viewport={"width": 1400, "height": 900}, locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/#/play/{game_id}/0/{tokens[0]}")
    page.wait_for_selector("svg.board .oilfield")
    rng = random.Random(2)
    for kind in ("build", "build", "network", "build", "network", "develop"):
        state = rest.game(game_id)
        seat = int(state["summary"].get("currentSeat", 0))
        legal = rest.call("GET", f"/v1/games/{game_id}/actions?includeCompoundActions=true",
                          tokens[seat])
        choices = [c for c in legal["compoundActions"] if c["key"].startswith(f"type:{kind}")]
        rest.call("POST", f"/v1/games/{game_id}/actions", tokens[seat],
                  {"action": {"compound": {"ids": rng.choice(choices)["ids"]}},
                   "expectedVersion": legal["version"]})
    wait_page_version(page, int(rest.game(game_id)["summary"]["version"]))
    lines = page.locator(".event-log li").all_inner_texts()
    built = [line for line in lines if "建造" in line]
    assert len(built) >= 4, lines
    # one line per action: the card played closes the action's own sentence
    assert not [line for line in lines if re.search(r"：\S+（.+牌）$", line)], lines
    assert all(line.endswith("牌）") or "；" in line for line in built), built
    shown = [*lines, page.inner_text(".last-moves-card"), page.inner_text(".tiles-left"),
             page.inner_text(".decision"), *board_titles(page)]
    english = english_words(shown)
    assert not english, (english, shown)
    shot(page, artifacts, "23-pittsburgh-chinese")
    assert not errors
    context.close()
