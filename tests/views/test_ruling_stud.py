"""The ruling page plays seven-card stud: the game selector, the bring-in chosen from the
seats, the completion, and the floor naming who opens each later street."""

from __future__ import annotations

import json

import pytest

from tdsystem.rulings import services
from tdsystem.rulings.services import ActionRow, SeatRow, TableSettings
from tests.views.test_ruling import form, text

pytestmark = pytest.mark.django_db

URL = "/console/rulings/"
PLAYERS = [("Ann", 200), ("Bob", 200), ("Cat", 200), ("Dan", 200)]
SEAT = {name: i for i, (name, _) in enumerate(PLAYERS)}
STUD = {
    "game": "stud",
    "small_bet": "10",
    "big_bet": "20",
    "ante": "1",
    "bring_in": "3",
    "bring_in_seat": "1",
    "raise_cap": "3",
}


def stud_form(actions=(), **settings) -> dict:
    rows = [(str(SEAT[who]), do, to) for who, do, to in actions]
    return form(PLAYERS, rows, **{**STUD, **settings})


@pytest.fixture
def floor(client, floor_person):
    client.force_login(floor_person)
    return client


def test_it_offers_stud_as_a_game_of_its_own(floor):
    page = floor.get(URL).content.decode()

    assert '<option value="stud">Seven-card stud</option>' in page


def test_it_rules_on_third_street_after_the_bring_in(floor):
    response = floor.post(URL, stud_form())

    page = text(response)
    assert "Cat to act" in page
    assert "Owes 3 to call" in page
    assert "completed to the small bet, 10: completing counts as the bet" in page
    assert 'value="append:2:raise:10"' in response.content.decode()  # the completion tap
    assert '"bring_in_player": "Bob"' in response.context["hand_json"]


def test_it_asks_who_opens_the_next_street_and_takes_the_tap(floor):
    called = [("Cat", "call", ""), ("Dan", "call", ""), ("Ann", "call", "")]

    asked = floor.post(URL, stud_form(called))
    tapped = floor.post(URL, {**stud_form(called), "op": "first:fourth:3"})

    assert "Who opens fourth street?" in text(asked)
    assert 'value="first:fourth:3"' in asked.content.decode()
    assert "Dan to act" in text(tapped)
    select = tapped.content.decode().split('id="id_first_fourth"')[1].split("</select>")[0]
    assert '<option value="3" selected>Dan</option>' in select
    assert json.loads(tapped.context["hand_json"])["first_to_act"] == {"fourth": "Dan"}


def test_it_marks_the_bring_in_seat_and_asks_for_it_when_missing(floor):
    response = floor.post(URL, stud_form(bring_in_seat=""))

    assert "Bring-in: choose the player who brings in (the lowest card)." in text(response)
    assert [s["position"] for s in floor.post(URL, stud_form()).context["seats"]] == [
        "1",
        "BI",
        "3",
        "4",
    ]


def test_an_engine_refusal_is_shown_on_its_row(floor):
    response = floor.post(URL, stud_form([("Cat", "raise", "20")]))

    assert "Action 1: Cat may not raise to 20: in fixed limit the raise is to 10 (D5)" in text(
        response
    )


def test_the_services_build_the_stud_hand():
    settings = TableSettings(
        game="stud",
        small_bet=10,
        big_bet=20,
        ante=1,
        bring_in=3,
        bring_in_seat=0,
        bring_in_completes=True,
        first_to_act=(1, None, None, None),
    )
    seats = [SeatRow("Ann", "100"), SeatRow("Bob", "100")]

    draft = services.hand_build(settings=settings, seats=seats, actions=[ActionRow("1", "call")])

    assert draft.hand == {
        "game": "stud",
        "structure": "fixed-limit",
        "bets": [10, 20],
        "ante": 1,
        "bring_in": 3,
        "bring_in_player": "Ann",
        "bring_in_completes": True,
        "incomplete_raise": "full-bet",
        "first_to_act": {"fourth": "Bob"},
        "rule_set": "tda-2024",
        "players": [{"name": "Ann", "stack": 100}, {"name": "Bob", "stack": 100}],
        "actions": [{"player": "Bob", "do": "call"}],
    }
    assert services.hand_rule(draft).ruling["street"] == "fourth"
