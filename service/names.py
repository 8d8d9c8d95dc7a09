"""Display names (CreateGame's seat_names, JoinGame's name): the one rule both calls apply.

A name is shown to every other player, in the web page and in other clients, so it must
show something, must not reorder or hide the text around it, and must not pass for another
seat's name. The rule (docs/SERVICE.md, "Display names"):

1. The name is normalized to NFC and spaces (category Zs) at either end are removed; that
   is the name stored and shown.
2. It is 1 to MAX_NAME_CHARS characters long (code points, after step 1).
3. It holds no control character (Unicode category Cc: C0, DEL, C1, tab and line breaks
   among them), no line or paragraph separator (Zl, Zp), no surrogate or private-use
   character (Cs, Co), and no format character (Cf: zero-width space U+200B, word joiner
   U+2060, the byte order mark, the bidi marks, embeddings, overrides and isolates
   U+200E-U+200F, U+202A-U+202E, U+2066-U+2069, tag characters...), except a zero-width
   joiner or non-joiner (U+200D, U+200C) between two visible characters (emoji sequences,
   Persian and Indic spelling), nor any other default-ignorable code point (Hangul fillers
   U+115F, U+1160, U+3164, U+FFA0, the combining grapheme joiner U+034F, Mongolian
   variation selectors...), which shows nothing. U+2800 (a blank Braille cell) is refused
   too.
4. It holds at least one visible character: a letter, number, punctuation mark or symbol
   (categories L, N, P, S) that is none of the above.
5. A combining mark (category M, variation selectors included) follows a visible
   character, and at most MAX_MARKS_PER_BASE marks follow any one character.

Two names are the same name when their `name_key`s are equal: NFKC of the case-folded
name with runs of white space made one space ("ANN", "ann", "Ａｎｎ" and "Ann" are one name).
"""

from __future__ import annotations

import re
import unicodedata

from .errors import ServiceError

MAX_NAME_CHARS = 64
MAX_MARKS_PER_BASE = 4
# Longer input is refused before it is normalized (NFC never shortens a name by more).
_MAX_RAW_CHARS = 4 * MAX_NAME_CHARS

# Characters that render as nothing (or blank) in every font though they are letters or
# symbols (the default-ignorable Hangul fillers, a blank Braille cell) or unassigned.
_SHOWS_NOTHING = frozenset("\u115f\u1160\u2065\u3164\uffa0\u2800")
_JOINERS = frozenset("\u200c\u200d")
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
_VISIBLE_CATEGORIES = frozenset("LNPS")

# For the OpenAPI document: a name holds a character of this class (the whole rule cannot be
# a regular expression; the server checks it). It lists white space as both readers of the
# document see it (ECMA-262's \s and Python's str.isspace differ on U+001C-U+001F), the
# control and format characters of the Basic Multilingual Plane, and the blank fillers.
NAME_PATTERN = (
    r"[^\x00-\x20\x7f-\xa0\xad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180f"
    r"\u2000-\u200f\u2028-\u202f\u205f-\u206f\u2800\u3000\u3164\ufe00-\ufe0f\ufeff"
    r"\uffa0\ufff9-\ufffb]"
)

_SPACES = re.compile(r"\s+")
# The space separators (category Zs) trimmed from either end of a name.
_ZS = ("\x20\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
       "\u200a\u202f\u205f\u3000")


def _bad(message: str, field: str) -> ServiceError:
    return ServiceError("INVALID_ARGUMENT", f"{field}: {message}", field=field)


def _describe(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} ({name})" if name else f"U+{ord(char):04X}"


def _is_visible(char: str) -> bool:
    return (char != "" and unicodedata.category(char)[0] in _VISIBLE_CATEGORIES
            and char not in _SHOWS_NOTHING)


def display_name(raw: str, field: str) -> str:
    """The name to store for `raw` (NFC, trimmed), or INVALID_ARGUMENT naming `field` and
    what is wrong (the character, by code point and Unicode name)."""
    if len(raw) > _MAX_RAW_CHARS:
        raise _bad(f"a name is at most {MAX_NAME_CHARS} characters", field)
    name = unicodedata.normalize("NFC", raw).strip(_ZS)
    if not name:
        raise _bad("a name is required (a visible character)", field)
    if len(name) > MAX_NAME_CHARS:
        raise _bad(f"a name is at most {MAX_NAME_CHARS} characters, not {len(name)}", field)
    visible = False
    marks = 0
    previous = ""
    for index, char in enumerate(name):
        category = unicodedata.category(char)
        if char in _JOINERS:
            after = name[index + 1] if index + 1 < len(name) else ""
            # after a visible character, or after the marks that follow one
            joins = (_is_visible(previous) or marks > 0) and _is_visible(after or " ")
            if not joins:
                raise _bad(f"{_describe(char)} may only join two visible characters", field)
            marks = 0
        elif category in _REFUSED_CATEGORIES:
            raise _bad(f"{_describe(char)} is not allowed in a name (control, format, "
                       "bidirectional and private-use characters are refused)", field)
        elif category[0] == "M":
            if not (_is_visible(previous) or marks > 0):
                raise _bad(f"the combining mark {_describe(char)} follows no visible "
                           "character", field)
            marks += 1
            if marks > MAX_MARKS_PER_BASE:
                raise _bad(f"at most {MAX_MARKS_PER_BASE} combining marks may follow one "
                           "character", field)
        elif char in _SHOWS_NOTHING:
            raise _bad(f"{_describe(char)} shows nothing and is not allowed in a name", field)
        else:
            marks = 0
            visible = visible or _is_visible(char)
        previous = char
    if not visible:
        raise _bad("a name needs a visible character (a letter, digit, punctuation mark "
                   "or symbol)", field)
    return name


def name_key(name: str) -> str:
    """What two names are compared by: equal keys are the same name."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return _SPACES.sub(" ", folded).strip()
