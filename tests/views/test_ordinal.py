"""The ordinal filter: English endings in English, the translators' pattern elsewhere."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import pgettext

from tdsystem.results.templatetags.results_tags import ordinal


def test_it_gives_english_endings_in_english():
    with translation.override("en"):
        got = [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112)]
    assert got == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th",
        "21st", "22nd", "23rd", "101st", "111th", "112th",
    ]  # fmt: skip


def test_it_leaves_what_is_not_a_number_as_it_is():
    assert ordinal("–") == "–"
    assert ordinal(None) == "None"


def test_it_reads_the_pattern_of_the_language():
    with translation.override("ja"):
        assert ordinal(3) == pgettext("ordinal", "%(n)srd") % {"n": 3}
        assert ordinal(13) == pgettext("ordinal", "%(n)sth") % {"n": 13}
