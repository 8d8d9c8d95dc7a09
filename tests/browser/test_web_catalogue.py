"""The web page's own words (static/i18n.js, the account pages' static/i18n_accounts.js and
the game screen's static/i18n_game.js, which i18n.js merges in): every key in English and
in Simplified Chinese with the same placeholders, and every key the page's modules ask for
is there."""

from __future__ import annotations

import re
from importlib import resources

STATIC = resources.files("brass_service.api").joinpath("static")
_ENTRY = re.compile(r"^\s+'([\w.]+)': '((?:[^'\\]|\\.)*)',$", re.MULTILINE)


def _catalogue() -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {"en": {}, "zh-Hans": {}}
    for name, start_text in (("i18n.js", "export const CATALOGUE = {"),
                             ("i18n_accounts.js", "export const ACCOUNT_CATALOGUE = {"),
                             ("i18n_game.js", "export const GAME_CATALOGUE = {")):
        text = STATIC.joinpath(name).read_text(encoding="utf-8")
        start = text.index(start_text)
        english = text.index("  en: {", start)
        chinese = text.index("  'zh-Hans': {", english)
        end = text.index("\n};", chinese)
        for lang, part in (("en", text[english:chinese]), ("zh-Hans", text[chinese:end])):
            entries = dict(_ENTRY.findall(part))
            twice = entries.keys() & found[lang].keys()
            assert not twice, (name, twice)
            found[lang] |= entries
    return found


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_every_page_text_is_in_both_languages() -> None:
    catalogue = _catalogue()
    assert len(catalogue["en"]) > 80
    assert catalogue["en"].keys() == catalogue["zh-Hans"].keys(), (
        catalogue["en"].keys() ^ catalogue["zh-Hans"].keys())
    for key, english in catalogue["en"].items():
        chinese = catalogue["zh-Hans"][key]
        assert english and chinese, key
        assert _placeholders(english) == _placeholders(chinese), key
    assert catalogue["zh-Hans"]["era.canal"] == "运河时代"
    assert catalogue["zh-Hans"]["era.rail"] == "铁路时代"


def test_every_key_the_page_uses_is_in_the_catalogue() -> None:
    keys = _catalogue()["en"].keys()
    used: set[str] = set()
    for entry in STATIC.iterdir():
        if entry.name.endswith(".js"):
            used |= set(re.findall(r"\bt\('([\w.]+)'", entry.read_text(encoding="utf-8")))
    assert len(used) > 80
    assert used <= keys, used - keys
