"""Text a person types and other people read: a player's name, an event's, a flight's, a
structure's, a note, a member id, a bag number. One rule for the pages' forms
(`core.forms.TextField`), the API's schemas (`api.schemas.PlainText`) and the imports.

`text_normal` gives the text as it is stored and shown, or refuses it with a sentence for
people (`TextRefused`):

- Unicode NFC: "José" typed as e + combining accent (a Mac, a phone) and as é is one
  name, stored one way.
- Whitespace: stripped at both ends; each run inside (tabs, line breaks, no-break and
  ideographic spaces) becomes one space. A multi-line text keeps its line breaks, each
  line treated so.
- Refused, naming the character and where it is: controls (C0, DEL, C1: category Cc),
  format characters (Cf: bidi embeddings, overrides, isolates and marks, zero-width
  spaces, the byte order mark, the soft hyphen, invisible operators, tag characters),
  halves of a surrogate pair (Cs: a broken character that no database stores),
  characters that show as nothing (Hangul fillers, the combining grapheme joiner, Khmer
  inherent vowels, the blank braille pattern), and more than MARKS_MAX accents or marks
  stacked on one letter (text stacked out of its line).
- Kept: the letters and marks of every script (Arabic, Japanese, Vietnamese, Devanagari...),
  emoji, private-use and not yet assigned characters, and the zero-width joiner and
  non-joiner where a script needs them: after a virama, and the non-joiner between
  joining letters as Persian writes (RFC 5892's CONTEXTJ rules, checked by the idna
  library). An emoji sequence joined by a zero-width joiner (a family, a profession) is
  refused for that reason; a single emoji, skin tones and flags pass.
- Bounded: at most `max_length` characters, counted on the text as stored.
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext
from idna.core import valid_contextj

from .numbers import grouped

MARKS_MAX = 5  # Hebrew with points and Tibetan stacks need 4; stacked "Zalgo" text dozens
JOINERS = frozenset("\u200c\u200d")  # zero-width non-joiner, zero-width joiner
# Letters and marks with no glyph: a name of them looks blank, or like another name.
INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
LINE_BREAKS = frozenset("\n\r\u2028\u2029")
SPACES = frozenset("\t") | LINE_BREAKS  # the controls taken as whitespace


class TextRefused(ValueError):
    """Text that cannot be stored as typed; the message says why, for people."""


def _refused_at(text: str, at: int) -> bool:
    """Whether the character at `at` is one a person cannot read (see the module)."""
    char = text[at]
    category = unicodedata.category(char)
    if category in ("Cc", "Cs"):
        return char not in SPACES
    if category == "Cf":
        # (valid_contextj reads the character before the first as the last one's)
        return char not in JOINERS or at == 0 or not valid_contextj(text, at)
    return char in INVISIBLE


def _character(char: str, at: int) -> TextRefused:
    name = unicodedata.name(char, "")
    shown = f"U+{ord(char):04X} {name}" if name else f"U+{ord(char):04X}"
    return TextRefused(
        gettext(
            "character %(at)s (%(char)s) is invisible or a control character: type the "
            "text again without it"
        )
        % {"at": at + 1, "char": shown}
    )


def _line(text: str) -> str:
    return " ".join(text.split())


def text_normal(value: str, *, max_length: int | None = None, multiline: bool = False) -> str:
    """The text as stored and shown (the module says how), or TextRefused."""
    text = unicodedata.normalize("NFC", value)
    marks = 0
    for at, char in enumerate(text):
        if _refused_at(text, at):
            raise _character(char, at)
        marks = marks + 1 if unicodedata.category(char).startswith("M") else 0
        if marks > MARKS_MAX:
            raise TextRefused(
                gettext("character %(at)s: at most %(most)s accents or marks on one letter")
                % {"at": at + 1, "most": MARKS_MAX}
            )
    if multiline:
        lines = "".join("\n" if c in LINE_BREAKS else c for c in text.replace("\r\n", "\n"))
        text = "\n".join(_line(line) for line in lines.split("\n")).strip("\n")
    else:
        text = _line(text)
    if max_length is not None and len(text) > max_length:
        raise TextRefused(
            gettext("at most %(most)s characters (this is %(count)s)")
            % {"most": grouped(max_length), "count": grouped(len(text))}
        )
    return text


def text_printable(value: str) -> str:
    """`value` without the characters text_normal refuses (whitespace kept): for text
    stored before the rule, on its way out (a CSV export)."""
    return "".join(char for at, char in enumerate(value) if not _refused_at(value, at))
