"""The ruling page says the engine's notes in the reader's language: each note's message
goes through gettext (here a made-up catalogue), the names stay as entered in <bdi>, lists
are joined in the language, and a translation that does not fit gives the English note."""

from __future__ import annotations

import pytest

from tdsystem.rulings import notes
from tests.fixtures import make_event
from tests.views.test_ruling import REFERENCE_ACTIONS, URL, floor, form, text  # noqa: F401
from tests.views.test_ruling_dead_button import form as four_seats

pytestmark = pytest.mark.django_db

SHORT_BIG_BLIND = (
    "%(name)s is all-in for %(posted)s of the %(blind)s big blind: callers owe the full %(blind)s"
)
ANOTHER_LANGUAGE = {
    SHORT_BIG_BLIND: "[%(name)s: tout %(posted)s / %(blind)s; on doit %(blind)s]",
    "the dead small blind counts as if posted (TDA 54-B)": "[petite morte comptée (TDA 54-B)]",
    "%(first)s; %(then)s": "%(first)s ;; %(then)s",
    "%(names)s and %(last)s": "%(names)s et %(last)s",
}


@pytest.fixture
def catalogue(monkeypatch):
    """A catalogue of another language for a few of the engine's messages."""
    monkeypatch.setattr(notes, "gettext", lambda msgid: ANOTHER_LANGUAGE.get(msgid, msgid))
    monkeypatch.setattr(notes, "pgettext", lambda context, msgid: " | " if msgid == ", " else msgid)
    return ANOTHER_LANGUAGE


def test_a_note_reads_in_the_readers_language(floor, catalogue):  # noqa: F811
    response = floor.post(URL, form(actions=REFERENCE_ACTIONS))
    assert "D8 [ Alice : tout 7 / 8; on doit 8]" in text(response)  # (tags read as spaces)
    assert "[<bdi>Alice</bdi>: tout 7 / 8; on doit 8]" in response.content.decode()
    # A message the catalogue lacks stays English, its name in <bdi> too.
    assert "paid to <bdi>Carol</bdi> at once" in response.content.decode()


def test_the_next_players_reasons_read_in_the_readers_language(floor, catalogue):  # noqa: F811
    response = floor.post(URL, form())
    assert "Dianne to act" in text(response)
    # Why Dianne owes the full 8.
    assert "[<bdi>Alice</bdi>: tout 7 / 8; on doit 8]" in response.content.decode()


def test_clauses_are_joined_and_the_events_rule_numbers_cited(floor, catalogue):  # noqa: F811
    event = make_event(600, rule_set="wsop-2026")
    data = four_seats(structure="pot-limit", dead_small_blind="on")
    data.update(event=str(event.pk), loaded_event=str(event.pk))
    page = text(floor.post(URL, data))
    assert "(antes and dead money included) ;; [petite morte comptée (WSOP 2026)]" in page


def test_a_translation_that_does_not_fit_gives_the_english_note(floor, catalogue):  # noqa: F811
    catalogue[SHORT_BIG_BLIND] = "[%(nom)s: tout %(posted)s]"  # a misspelt placeholder
    page = text(floor.post(URL, form(actions=REFERENCE_ACTIONS)))
    assert "D8 Alice is all-in for 7 of the 8 big blind: callers owe the full 8" in page


def test_names_are_escaped_and_lists_joined_in_the_language(catalogue):
    note = {
        "rule": "D9",
        "text": "English",
        "msgid": "nobody left could call a raise (%(callers)s can at most call, with %(totals)s)",
        "params": {
            "callers": {"and": ["<b>Ann</b>", "Bo", "Cy"]},
            "totals": {
                "commas": [{"msgid": "%(n)s (all-in for %(c)s)", "params": {"n": "Di", "c": 5}}]
            },
        },
    }
    assert notes.note_html(note) == (
        "nobody left could call a raise (<bdi>&lt;b&gt;Ann&lt;/b&gt;</bdi> | <bdi>Bo</bdi> et "
        "<bdi>Cy</bdi> can at most call, with <bdi>Di</bdi> (all-in for 5))"
    )


def test_a_stud_street_is_named_in_the_language(monkeypatch):
    monkeypatch.setitem(notes.STREETS, "fourth", "quatrième")
    note = {"rule": "D1", "text": "x", "msgid": "%(street)s street", "params": {"street": "fourth"}}
    assert notes.note_html(note) == "quatrième street"


def test_a_note_without_a_message_shows_its_text_escaped():
    assert notes.note_html({"rule": "D2", "text": "A & <B>"}) == "A &amp; &lt;B&gt;"


def test_the_players_state_and_the_street_read_in_the_readers_language():
    from django.utils import translation

    from tdsystem.rulings.templatetags.ruling_notes import engine_word

    assert engine_word("folded") == "folded" and engine_word("preflop") == "preflop"
    assert engine_word("something") == "something"  # not an engine word: shown as it is
    with translation.override("ja"):  # the committed Japanese catalogue
        assert str(engine_word("folded")) == "フォールド"
        assert str(engine_word("preflop")) == "プリフロップ"
        assert str(engine_word("something")) == "something"


def test_a_chip_amount_in_a_note_is_grouped_in_the_readers_separators():
    from django.utils import translation

    note = {"rule": "D3", "text": "", "msgid": "no limit: the most is all %(chips)s chips"}
    with translation.override("vi"):
        html = notes.note_html({**note, "params": {"chips": 10000}})
    assert "10.000" in html
