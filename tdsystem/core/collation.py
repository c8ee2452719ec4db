"""Names in the reader's order: the Unicode Collation Algorithm (pyuca, with the Unicode
default table), tailored for the reader's language as the Unicode CLDR tailors it, not
the database's byte order (docs/languages.md).

Every language: "ánh" sorts beside "Anh", not after "Zed"; "ＡＢＣ" (full width) beside
"abc"; upper and lower case together. The default table already puts the Arabic alphabet
in its order and kana in gojūon order. The reader's language (`get_language()`) adds:

- Vietnamese: ă, â, đ, ê, ô, ơ, ư are letters of their own, after their base letter
  (a ă â b c d đ e ê ... o ô ơ ... u ư v), and the tones order as the Vietnamese alphabet
  teaches them: none, huyền, hỏi, ngã, sắc, nặng (a à ả ã á ạ).
- Japanese: the long vowel mark "ー" counts as the vowel it lengthens ("コーヒー" as
  "コオヒイ", after "コウ"). Kanji stay in the table's code order: sorting them by reading
  needs the reading, which a name does not carry.
- Arabic: ة is a form of ت and ى a form of ي (after them, not letters of their own).

A tailoring writes the name over in characters of the Private Use Area that the shared
table is given weights for (a letter after all the base letter's words: a primary weight
above every letter's), so one table serves every language. PyICU would be the library
for this, but it builds against the system's ICU headers on every install; pyuca is pure
Python.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import lru_cache

from django.utils import translation
from pyuca import Collator  # type: ignore[import-untyped]

# Above every primary weight of the default table (at most 0xFFFF): a letter after all the
# words of its base letter.
_AFTER = 0x10000
# Vietnamese letters: base + one of these marks is a letter of its own.
_BREVE, _CIRCUMFLEX, _HORN = "\u0306", "\u0302", "\u031b"
_VI_LETTERS = {
    _BREVE: (frozenset("aA"), "\ue001"),
    _CIRCUMFLEX: (frozenset("aAeEoO"), "\ue002"),
    _HORN: (frozenset("oOuU"), "\ue003"),
}
_VI_STROKE = "\ue004"  # đ is d then this
# Tones in the Vietnamese order (secondary weights, the default table's five reordered).
_VI_TONES = {
    "\u0300": "\ue011",  # huyền
    "\u0309": "\ue012",  # hỏi
    "\u0303": "\ue013",  # ngã
    "\u0301": "\ue014",  # sắc
    "\u0323": "\ue015",  # nặng
}
_JA_LONG = "\ue021"  # after the vowel standing for "ー": a tertiary difference only
_AR_FORM = "\ue031"  # after ت for ة, after ي for ى: a secondary difference only

_WEIGHTS: dict[str, list[list[int]]] = {
    "\ue001": [[_AFTER + 1, 0x20, 0x02]],
    "\ue002": [[_AFTER + 2, 0x20, 0x02]],
    "\ue003": [[_AFTER + 3, 0x20, 0x02]],
    _VI_STROKE: [[_AFTER + 4, 0x20, 0x02]],
    "\ue011": [[0, 0x24, 0x02]],
    "\ue012": [[0, 0x25, 0x02]],
    "\ue013": [[0, 0x2D, 0x02]],
    "\ue014": [[0, 0x3B, 0x02]],
    "\ue015": [[0, 0x42, 0x02]],
    _JA_LONG: [[0, 0, 0x1F]],
    _AR_FORM: [[0, 0x8A, 0x02]],
}


@lru_cache(maxsize=1)
def _collator() -> Collator:
    collator = Collator()
    for char, elements in _WEIGHTS.items():
        collator.table.add([ord(char)], elements)
    return collator


def _vietnamese(name: str) -> str:
    out: list[str] = []
    for char in unicodedata.normalize("NFD", name):
        if char in "đĐ":
            out.append("d" if char == "đ" else "D")
            out.append(_VI_STROKE)
        elif char in _VI_LETTERS and out and _base(out) in _VI_LETTERS[char][0]:
            # The letter's mark goes right after the base, before any tone written first
            # (NFD puts the dot below of "ặ" before its breve).
            at = _base_at(out)
            out.insert(at + 1, _VI_LETTERS[char][1])
        else:
            out.append(_VI_TONES.get(char, char))
    return "".join(out)


def _base_at(out: list[str]) -> int:
    """Where the last base letter is, behind the marks written after it."""
    at = len(out) - 1
    while at > 0 and (unicodedata.combining(out[at]) or out[at] in _WEIGHTS):
        at -= 1
    return at


def _base(out: list[str]) -> str:
    return out[_base_at(out)]


_VOWELS = {"A": "あ", "I": "い", "U": "う", "E": "え", "O": "お"}
_LONG_MARKS = frozenset("\u30fc\uff70")  # ー and half-width ｰ


def _kana_vowel(char: str) -> str | None:
    """The vowel a kana ends on ("コ" → "お"), from its Unicode name."""
    name = unicodedata.name(char, "")
    if "KATAKANA LETTER" not in name and "HIRAGANA LETTER" not in name:
        return None
    return _VOWELS.get(name[-1])


def _japanese(name: str) -> str:
    out: list[str] = []
    vowel: str | None = None
    for char in unicodedata.normalize("NFD", name):
        if char in _LONG_MARKS and vowel:
            out += [vowel, _JA_LONG]
            continue
        out.append(char)
        if not unicodedata.combining(char):
            vowel = _kana_vowel(char)
    return "".join(out)


def _arabic(name: str) -> str:
    return name.replace("ة", "ت" + _AR_FORM).replace("ى", "ي" + _AR_FORM)


_TAILORINGS: dict[str, Callable[[str], str]] = {
    "vi": _vietnamese,
    "ja": _japanese,
    "ar": _arabic,
}


# Every name of the largest field (a Main Event's ten thousand entries), in each language
# its screens are read in, stays in: a bound below the field made each new seat list work
# every key out again.
@lru_cache(maxsize=1 << 16)
def _key(name: str, language: str) -> tuple[int, ...]:
    tailor = _TAILORINGS.get(language)
    key: tuple[int, ...] = _collator().sort_key(tailor(name) if tailor else name)
    return key


def name_order(name: str, language: str | None = None) -> tuple[int, ...]:
    """The sort key of a name as a reader of `language` (the active language when not
    given) reads it; use with `sorted(key=...)`."""
    code = (language or translation.get_language() or "en").split("-")[0]
    return _key(name, code)
