"""The ruling page follows the event's rule set: the raise cap heads-up (D5, a setting of the
set), the rule numbers it cites, and a ruling shared by a permanent link."""

from __future__ import annotations

import json

import pytest

from tests.views.test_ruling import form, text

pytestmark = pytest.mark.django_db

URL = "/console/rulings/"
THREE = [("A", 1000), ("B", 1000), ("C", 1000)]
SEAT = {"A": 0, "B": 1, "C": 2}


def limit_form(actions, **settings) -> dict:
    """A 10/20 fixed-limit hand, one raise after the bet: on the flop B bets, C folds and A
    raises, so the cap is reached heads-up (D5)."""
    rows = [(str(SEAT[who]), do, to) for who, do, to in actions]
    return form(
        players=THREE,
        actions=rows,
        structure="fixed-limit",
        small_blind="5",
        big_blind="10",
        ante="0",
        small_bet="10",
        big_bet="20",
        raise_cap="1",
        **settings,
    )


HEADS_UP_BEFORE_THE_CAP = [
    ("A", "call", ""),
    ("B", "call", ""),
    ("C", "check", ""),
    ("B", "bet", "10"),
    ("C", "fold", ""),
    ("A", "raise", "20"),
]


@pytest.fixture
def floor(client, floor_person):
    client.force_login(floor_person)
    return client


def hand_of(response) -> dict:
    page = response.content.decode()
    start = page.index('id="hand-json">') + len('id="hand-json">')
    import html

    return json.loads(html.unescape(page[start : page.index("</textarea>", start)]))


@pytest.mark.parametrize(
    ("reading", "may_reraise"), [("kept", False), ("until-capped", True), ("at-start", False)]
)
def test_the_floor_chooses_when_the_cap_is_lifted_heads_up(floor, reading, may_reraise):
    response = floor.post(URL, limit_form(HEADS_UP_BEFORE_THE_CAP, raise_cap_heads_up=reading))

    assert hand_of(response)["raise_cap_heads_up"] == reading
    assert ("may not raise" not in text(response)) is may_reraise


def test_an_event_opens_the_page_with_its_rule_sets_reading(floor, event):
    event.rule_set = "wsop-2026"
    event.save(update_fields=["rule_set"])

    page = floor.get(f"{URL}?event={event.pk}").content.decode()

    assert '<option value="until-capped" selected>' in page


def test_an_event_override_reaches_the_page(floor, event):
    event.rule_overrides = {"limit_cap_heads_up": "at-start"}
    event.save(update_fields=["rule_overrides"])

    page = floor.get(f"{URL}?event={event.pk}").content.decode()

    assert '<option value="at-start" selected>' in page
