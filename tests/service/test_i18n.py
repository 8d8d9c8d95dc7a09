"""The service's catalogues (service/i18n): every text in both languages with the same
placeholders, every reason and engine refusal covered, labels for every name a ruleset
describes, and Accept-Language negotiation."""

from __future__ import annotations

import pytest

import brass
from brass.board import describe_ruleset
from brass_service.errors import ServiceError, all_reasons, from_engine_error
from brass_service.i18n import LANGUAGES, Text, negotiate, placeholders
from brass_service.i18n.errors_catalogue import ERRORS
from brass_service.i18n.labels import ruleset_labels
from brass_service.i18n.reasons_catalogue import REASONS_ZH

RULESETS = ("birmingham", "pittsburgh")


def test_every_message_is_in_both_languages_with_the_same_placeholders() -> None:
    for message_id, texts in ERRORS.items():
        assert set(texts) == set(LANGUAGES), message_id
        assert all(texts[language].strip() for language in LANGUAGES), message_id
        assert placeholders(texts["en"]) == placeholders(texts["zh-Hans"]), message_id


def test_every_error_reason_has_its_sentence() -> None:
    missing = [reason for reason in all_reasons() if f"error.{reason}" not in ERRORS]
    assert not missing, f"add these reasons to service/i18n/errors_catalogue.py: {missing}"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_engine_reason_has_chinese_words(ruleset: str) -> None:
    codes = {r["code"] for r in describe_ruleset(ruleset)["reasons"]}
    assert codes == set(REASONS_ZH[ruleset]) & codes
    assert not codes - set(REASONS_ZH[ruleset]), codes - set(REASONS_ZH[ruleset])
    assert all(REASONS_ZH[ruleset][code] for code in codes)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_labels_cover_every_name_in_both_languages(ruleset: str) -> None:
    description = describe_ruleset(ruleset)
    labels = ruleset_labels(description)
    assert set(labels) == set(LANGUAGES)
    for table, english in labels["en"].items():
        assert english.keys() == labels["zh-Hans"][table].keys(), table
        assert all(labels["zh-Hans"][table].values()), table
    assert set(labels["en"]["decision_kinds"]) == set(description["decision_kinds"])
    assert set(labels["en"]["option_kinds"]) == {a["kind"] for a in description["actions"]}
    events = {kind for kind, _ in brass.get_ruleset(ruleset).event_names}
    assert set(labels["en"]["events"]) == events
    assert set(labels["en"]["cards"]) == {a["value"] for a in description["actions"]
                                          if a["kind"] == "card"}
    # every tile and place the board data names (Pittsburgh's events name tiles by id, its
    # pipelines end at oilfields), in words in both languages
    board = description.get("board") or {}
    assert set(labels["en"]["tiles"]) >= {
        t["id"] for t in board.get("tiles", []) + board.get("link_tiles", [])}
    assert set(labels["en"]["locations"]) == {
        p["id"] for p in board.get("locations", []) + board.get("oilfields", [])}
    for language in LANGUAGES:
        assert not any("_" in words for words in labels[language]["tiles"].values())
    if ruleset == "pittsburgh":
        assert labels["zh-Hans"]["tiles"]["mfg_3"] == "制造业 III（威士忌酒箱）"
        # the Chinese rule text's names (pittsburgh_tutorial_zh.txt, section 十)
        assert [labels["zh-Hans"]["tiles"][t] for t in ("ht_whiskey", "pipe_reserve",
                                                          "polyphase", "light_train")] == [
            "重型列车（威士忌型）", "预备管线", "多相交流发电机（皇冠明珠 IV）", "轻型列车"]
        assert labels["en"]["tiles"]["ht_resource_coke"] == "Heavy Train (coke)"
        # the data file's merchant and oilfield tiles, a placeholder marked as such
        assert labels["en"]["tiles"]["mt_auto_vp8"] == "Merchant tile: Automobile Plant (8 VP)"
        assert labels["zh-Hans"]["tiles"]["of_money8"] == "油田板块：$8，1 桶"
        assert labels["zh-Hans"]["tiles"]["ph_mt_mfg_income3"] == (
            "商人板块：制造业（收入 3 格）（占位数据）")
        assert labels["en"]["tiles"]["ph_mt_mfg_income3"].endswith(" (placeholder data)")
    # every game option has a title, and no ruling switch is shown as its bare ruling
    keys = {o["key"] for o in description["options"]}
    assert set(labels["en"]["option_titles"]) == set(labels["en"]["options"]) == keys
    for language in LANGUAGES:
        assert not any("RULINGS.md" in words for words in labels[language]["options"].values())
    assert set(labels["en"]["option_values"]) == {
        f"{o['key']}={value}" for o in description["options"] if o["type"] == "enum"
        for value in o["allowed"]}


@pytest.mark.parametrize(("header", "language"), [
    (None, "en"), ("", "en"), ("zh", "zh-Hans"), ("zh-CN", "zh-Hans"),
    ("zh-Hans", "zh-Hans"), ("zh_cn", "zh-Hans"), ("fr-FR, de", "en"),
    ("en-US,en;q=0.9,zh-CN;q=0.8", "en"), ("zh-CN;q=0.4, en;q=0.3", "zh-Hans"),
    ("en;q=0.2, zh;q=0.9", "zh-Hans"), ("zh;q=0", "en"), ("zh;q=abc, en", "en"),
    ("*", "en"), ("zh-TW", "en"),
])
def test_negotiation(header: str | None, language: str) -> None:
    assert negotiate(header) == language


def test_a_text_keeps_its_english_format_and_renders_in_chinese() -> None:
    text = Text("unknown_game", game_id="abc")
    assert text == "no game has id 'abc'"
    error = ServiceError("UNKNOWN_GAME", text, game_id="abc")
    assert error.message_in("en") == "no game has id 'abc'"
    assert error.message_in("zh-Hans") == "没有编号为 'abc' 的对局"
    assert error.to_json("zh-Hans")["error"]["reason"] == "UNKNOWN_GAME"
    assert error.to_status_proto("zh-Hans").message == "没有编号为 'abc' 的对局"
    # a message without its id: the reason's sentence, then the English detail
    plain = ServiceError("INVALID_ARGUMENT", "players must be 2..4", field="players")
    assert plain.message_in("zh-Hans") == "请求无效（players must be 2..4）"


def test_an_engine_refusal_speaks_its_reason_in_chinese() -> None:
    game = brass.Game.new(2, seed=1)
    item = game.unavailable()[0]
    try:
        game.apply(item[0])
        raise AssertionError("an unavailable option was applied")
    except brass.EngineError as exc:
        error = from_engine_error(exc, game.ruleset)
    assert error.message_in("en").endswith(f") is not legal now: {item[2]}")
    chinese = error.message_in("zh-Hans")
    assert chinese.startswith(f"选项 {item[0]}（type:")
    assert chinese.endswith(f"）现在不可用：{REASONS_ZH['birmingham'][item[1]]}")
