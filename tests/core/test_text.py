"""Text people read: stored in NFC, spaces trimmed and collapsed, no control or invisible
character, within the field's length; every script's names pass (tdsystem/core/text.py)."""

from __future__ import annotations

import unicodedata

import pytest
from django.core.exceptions import ValidationError
from hypothesis import given, settings
from hypothesis import strategies as st

from tdsystem.core.forms import TextField
from tdsystem.core.text import INVISIBLE, MARKS_MAX, TextRefused, text_normal, text_printable

NAMES = [
    "José Lee",
    "محمد بن سلمان",  # Arabic
    "می\u200cخواهم",  # Persian: a zero-width non-joiner between joining letters
    "क्\u200dष",  # Devanagari: a zero-width joiner after a virama
    "山田 太郎",
    "やまだ たろう",
    "Nguyễn Văn Ánh",
    "Đặng Thị Ngọc",
    "שָׁלוֹם",  # Hebrew with points
    "Ελένη",
    "Анна",
    "👍🏽 Sam 🇫🇷",  # an emoji, a skin tone, a flag
    "O'Brien-Smith",
]

REFUSED = [
    ("\u202eevil\u202c gnaY", "U+202E RIGHT-TO-LEFT OVERRIDE", 1),
    ("\x07\x1b[31mRed", "U+0007", 1),
    ("Ann\x85Lee", "U+0085", 4),  # C1
    ("\ufeffAnn", "U+FEFF ZERO WIDTH NO-BREAK SPACE", 1),  # a byte order mark
    ("A\u200bnn", "U+200B ZERO WIDTH SPACE", 2),
    ("\u200b", "U+200B ZERO WIDTH SPACE", 1),
    ("Ann\u2066Lee", "U+2066 LEFT-TO-RIGHT ISOLATE", 4),
    ("Ann\u200fLee", "U+200F RIGHT-TO-LEFT MARK", 4),
    ("Ann\x00Lee", "U+0000", 4),
    ("Ann\x7f", "U+007F", 4),
    ("An\ud800n", "U+D800", 3),  # half of a surrogate pair
    ("\u3164", "U+3164 HANGUL FILLER", 1),
    ("so\u00adft", "U+00AD SOFT HYPHEN", 3),
    ("👨\u200d👩\u200d👧", "U+200D ZERO WIDTH JOINER", 2),  # a family of emoji
    ("A\u200cB", "U+200C ZERO WIDTH NON-JOINER", 2),  # Latin needs no joiner
]


@pytest.mark.parametrize("name", NAMES)
def test_it_keeps_the_names_of_every_script(name):
    assert text_normal(name, max_length=120) == unicodedata.normalize("NFC", name)


@pytest.mark.parametrize(("text", "char", "at"), REFUSED)
def test_it_refuses_a_control_or_invisible_character_naming_it_and_where(text, char, at):
    with pytest.raises(TextRefused) as refused:
        text_normal(text)
    assert f"character {at} ({char})" in str(refused.value)


def test_nfc_and_nfd_are_one_spelling():
    nfd = unicodedata.normalize("NFD", "José Nguyễn")
    assert nfd != "José Nguyễn"
    assert text_normal(nfd) == "José Nguyễn"


def test_it_strips_and_collapses_every_kind_of_space():
    assert text_normal("  Ann \t\n Lee\u00a0\u3000Jr  ") == "Ann Lee Jr"
    assert text_normal("   ") == ""


def test_a_multi_line_text_keeps_its_line_breaks():
    assert text_normal(" Colour up\r\n\r\n  the  25s \n\n", multiline=True) == (
        "Colour up\n\nthe 25s"
    )


def test_the_length_is_counted_on_the_text_as_stored():
    assert text_normal(" " * 300 + "Ann" + " " * 300, max_length=3) == "Ann"
    decomposed = unicodedata.normalize("NFD", "é" * 120)  # 240 code points, 120 as stored
    assert text_normal(decomposed, max_length=120) == "é" * 120
    with pytest.raises(TextRefused, match="at most 120 characters"):
        text_normal("x" * 121, max_length=120)


def test_it_refuses_a_letter_stacked_with_marks():
    assert text_normal("a" + "\u0301" * MARKS_MAX)
    with pytest.raises(TextRefused, match="accents or marks on one letter"):
        text_normal("Zalgo" + "\u0301\u0316\u0317" * 4)


def test_the_printable_text_of_a_stored_name_drops_what_is_refused():
    assert text_printable("\u202eevil\x07 Ann\u200b\ud800\tLee\n") == "evil Ann\tLee\n"
    assert text_printable("می\u200cخواهم") == "می\u200cخواهم"


def test_the_form_field_says_the_rule_in_the_form_s_words():
    field = TextField(max_length=8)
    assert field.clean("  1A ") == "1A"
    with pytest.raises(ValidationError) as refused:
        field.clean("\u202e1A")
    assert refused.value.code == "text" and "(U+202E RIGHT-TO-LEFT" in refused.value.messages[0]
    with pytest.raises(ValidationError, match="at most 8 characters"):
        field.clean(unicodedata.normalize("NFD", "é") * 9)
    assert field.clean(unicodedata.normalize("NFD", "é") * 8) == "é" * 8


# Properties ---------------------------------------------------------------------------------

ANY = st.text(st.characters(exclude_categories=()), max_size=60)  # surrogates too
READABLE = st.text(
    st.characters(categories=("L", "N", "P", "S", "Zs"), exclude_characters="".join(INVISIBLE)),
    max_size=60,
)
TEXT = st.one_of(ANY, READABLE, st.text(max_size=60))


def _allowed(text: str, at: int) -> bool:
    char = text[at]
    category = unicodedata.category(char)
    if category == "Cf":
        return char in "\u200c\u200d"  # a joiner, where its script needs it
    return category not in ("Cc", "Cs") and char not in INVISIBLE


@settings(max_examples=300)
@given(TEXT, st.integers(min_value=0, max_value=80), st.booleans())
def test_any_text_comes_out_normal_or_is_refused(value, most, multiline):
    try:
        text = text_normal(value, max_length=most, multiline=multiline)
    except TextRefused as refused:
        assert str(refused)
        return
    assert unicodedata.is_normalized("NFC", text)
    assert all(_allowed(text, at) or (multiline and c == "\n") for at, c in enumerate(text))
    assert text == text.strip()
    assert "  " not in text
    assert len(text) <= most
    assert text_normal(text, max_length=most, multiline=multiline) == text  # idempotent


@given(READABLE)
def test_readable_text_is_never_refused_only_tidied(value):
    text = text_normal(value)
    assert text == " ".join(unicodedata.normalize("NFC", value).split())
