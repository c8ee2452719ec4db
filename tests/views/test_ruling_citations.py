"""The ruling page cites the rule numbers of the event's set, not the engine's TDA 2024."""

from __future__ import annotations

import pytest

from tdsystem.rulings.citations import cite_for
from tests.fixtures import make_event
from tests.views.test_ruling import URL, floor, text  # noqa: F401 (floor: a fixture)
from tests.views.test_ruling_dead_button import form

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("code", "cited"),
    [("tda-2024", "(TDA 54-B)"), ("tda-2026", "(TDA 54-B)"), ("wsop-2026", "(WSOP 2026)")],
)
def test_a_ruling_for_an_event_cites_its_set(floor, code, cited):  # noqa: F811
    event = make_event(600, rule_set=code)
    data = form(structure="pot-limit", dead_small_blind="on")
    data.update(event=str(event.pk), loaded_event=str(event.pk))
    page = text(floor.post(URL, data))
    assert f"the dead small blind counts as if posted {cited}" in page


def test_a_ruling_without_an_event_keeps_the_engines_words(floor):  # noqa: F811
    page = text(floor.post(URL, form(structure="pot-limit", dead_small_blind="on")))
    assert "the dead small blind counts as if posted (TDA 54-B)" in page


def test_each_engine_number_becomes_the_sets_own():
    tda26 = make_event(600, name="2026", rule_set="tda-2026")
    wsop = make_event(600, name="WSOP", rule_set="wsop-2026")
    note = "the big blind posts the small blind (TDA 34-B); halt (TDA 11-D), not TDA 11-DX"
    assert cite_for(note, tda26) == (
        "the big blind posts the small blind (TDA 36-B); halt (TDA 12-D), not TDA 11-DX"
    )
    assert cite_for(note, wsop) == (
        "the big blind posts the small blind (WSOP R87); halt (WSOP R67), not TDA 11-DX"
    )
