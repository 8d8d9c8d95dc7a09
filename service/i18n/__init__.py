"""Languages of the service's texts: negotiation from Accept-Language, catalogues by message id.

English is the default and the source of every message's format; Simplified Chinese
("zh-Hans") is the other language. A text with dynamic detail is a Text: a str (its English
rendering, so everything that handled plain messages still does) that also keeps its
message id and parameters, so that it can be rendered again in the caller's language.
"""

from __future__ import annotations

import re
import string
from contextvars import ContextVar
from typing import Any

from .errors_catalogue import ERRORS
from .reasons_catalogue import REASONS_ZH

ENGLISH = "en"
CHINESE = "zh-Hans"
LANGUAGES = (ENGLISH, CHINESE)

# The language of the request being answered; set by each transport from its header.
LANGUAGE: ContextVar[str] = ContextVar("brass_language", default=ENGLISH)

# The core's refusal of one option: "action 3 (type:sell) is not legal now: <its reason>".
_ENGINE_REFUSAL = re.compile(r"action (?P<id>\d+) \((?P<name>[^)]*)\) is not legal now: ")

_CHINESE_TAGS = frozenset({"zh", "zh-cn", "zh-hans", "zh-sg", "zh-hans-cn", "zh-hans-sg"})


def _language_of_tag(tag: str) -> str | None:
    tag = tag.strip().lower().replace("_", "-")
    if tag in _CHINESE_TAGS:
        return CHINESE
    if tag == "en" or tag.startswith("en-"):
        return ENGLISH
    return None


def negotiate(header: str | None) -> str:
    """The language to answer in for an Accept-Language value: the supported language of
    the highest q-value (the first listed among equals), English when none is supported."""
    if not header:
        return ENGLISH
    best, best_q = ENGLISH, 0.0
    for item in header[:512].split(","):
        tag, _, params = item.partition(";")
        q = 1.0
        params = params.strip().lower()
        if params.startswith("q="):
            try:
                q = float(params[2:])
            except ValueError:
                continue
        language = _language_of_tag(tag)
        if language is not None and q > best_q:
            best, best_q = language, q
    return best


def placeholders(template: str) -> frozenset[str]:
    """The named fields of a catalogue text."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


def render(message_id: str, language: str, params: dict[str, Any]) -> str:
    """A catalogue text in `language` with its parameters filled in."""
    texts = ERRORS[message_id]
    return texts.get(language, texts[ENGLISH]).format(**params)


class Text(str):
    """A message in English (its str value) that knows its id and parameters."""

    message_id: str
    params: dict[str, Any]

    def __new__(cls, message_id: str, **params: Any) -> Text:
        text = super().__new__(cls, render(message_id, ENGLISH, params))
        text.message_id, text.params = message_id, params
        return text

    def in_language(self, language: str) -> str:
        return str(self) if language == ENGLISH else render(self.message_id, language, self.params)


def reason_text(ruleset: str | None, code: str, english: str, language: str) -> str:
    """An engine refusal's message in `language`: the core's own English, or the catalogue's
    text of the code for the ruleset (its generic one when the ruleset is not known)."""
    if language == ENGLISH:
        return english
    table = REASONS_ZH.get(ruleset or "", {})
    return table.get(code) or REASONS_ZH["*"].get(code) or english


def error_message(reason: str, english: str, language: str, *,
                  engine_reason: str | None = None, ruleset: str | None = None) -> str:
    """A ServiceError's message in `language`: its Text rendered again, an engine reason's
    text, or the reason's own sentence with the English detail after it."""
    if language == ENGLISH:
        return english
    if isinstance(english, Text):
        return english.in_language(language)
    if engine_reason and (engine_reason in REASONS_ZH["*"]
                          or engine_reason in REASONS_ZH.get(ruleset or "", {})):
        words = reason_text(ruleset, engine_reason, english, language)
        refusal = _ENGINE_REFUSAL.match(english)
        if refusal is None:
            return words
        return render("illegal_action", language, {**refusal.groupdict(), "reason": words})
    generic = ERRORS.get(f"error.{reason}")
    if generic is None:
        return english
    return f"{generic[language]}（{english}）"
