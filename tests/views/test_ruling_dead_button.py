"""The ruling page and the dead button (D11): the two boxes, the seats they lay out, the hand
they send to the engine, and the page opened for an event's table filling them in."""

from __future__ import annotations

import json
import re

import pytest

from tdsystem.simulation.seatings import arrange
from tests.views.test_ruling import URL, tag, text

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
FOUR = [("Ellen", 500), ("Alice", 500), ("Carol", 500), ("Dianne", 500)]


def form(players=FOUR, actions=(), **settings) -> dict:
    names = [name for name, _ in players]
    data = {
        "structure": "no-limit",
        "small_blind": "4",
        "big_blind": "8",
        "ante": "0",
        "ante_type": "each",
        "incomplete_raise": "full-bet",
        "pot_limit_preflop": "true-pot",
        "seat_name": names,
        "seat_stack": [str(stack) for _, stack in players],
        "act_player": [str(names.index(who)) for who, _, _ in actions],
        "act_do": [do for _, do, _ in actions],
        "act_to": [to for _, _, to in actions],
    }
    data.update(settings)
    return data


def labels(response) -> list[str]:
    page = response.content.decode()
    return re.findall(
        r'<span class="pos(?: blind)?">([^<]*)</span>\s*<input name="seat_name"', page
    )


def hand_sent(response) -> dict:
    found = re.search(
        r'<textarea[^>]*id="hand-json">(.*?)</textarea>', response.content.decode(), re.S
    )
    assert found
    return json.loads(found.group(1).replace("&quot;", '"'))


@pytest.fixture
def floor(client, floor_person):
    client.force_login(floor_person)
    return client


def test_the_page_offers_both_boxes_with_their_explanation(floor):
    response = floor.get(URL)

    page = text(response)
    assert "No small blind this hand (dead small blind)" in page
    assert "The button is on an empty seat (dead button)" in page
    assert "the first row is the small blind" in page
    assert 'aria-describedby="help-dead-button"' in tag(response, "id_dead_button")
    assert "checked" not in tag(response, "id_dead_small_blind")


def test_a_dead_small_blind_lays_out_the_button_then_the_big_blind(floor):
    response = floor.post(URL, form(dead_small_blind="on"))

    assert labels(response) == ["BTN", "BB", "UTG", "CO"]
    sent = hand_sent(response)
    assert sent["dead_small_blind"] is True and "dead_button" not in sent
    page = text(response)
    assert "Carol to act" in page
    assert (
        "dead small blind: nobody posts the small blind this hand, Alice posts the big blind"
        in page
    )


def test_a_dead_button_starts_the_rows_with_the_small_blind(floor):
    actions = [
        ("Carol", "call", ""),
        ("Dianne", "call", ""),
        ("Ellen", "call", ""),
        ("Alice", "check", ""),
    ]
    response = floor.post(URL, form(actions=actions, dead_button="on"))

    assert labels(response) == ["SB", "BB", "UTG", "CO"]
    page = text(response)
    assert "clockwise from the first player after the empty button seat" in page
    assert "Ellen to act" in page  # the small blind opens the flop
    assert hand_sent(response)["dead_button"] is True


def test_both_make_the_first_row_the_big_blind(floor):
    response = floor.post(URL, form(dead_small_blind="on", dead_button="on"))

    assert labels(response) == ["BB", "UTG", "UTG+1", "CO"]
    assert "Alice to act" in text(response)


def test_pot_limit_counts_the_dead_small_blind_in_the_maximum(floor):
    response = floor.post(URL, form(structure="pot-limit", dead_small_blind="on"))

    page = text(response)
    assert "Raise to 28 (pot)" in page
    assert "the dead small blind counts as if posted (TDA 54-B)" in page


def test_heads_up_a_dead_button_is_refused_on_the_box(floor):
    response = floor.post(URL, form(players=FOUR[:2], dead_button="on"))

    assert "heads-up there is no dead button or dead small blind" in text(response)
    assert "invalid" in tag(response, "id_dead_button")


def test_ticking_a_box_redraws_the_seats(floor):
    response = floor.post(URL, form(dead_button="on", op="layout"), **HTMX)

    body = response.content.decode()
    assert body.lstrip().startswith('<div id="workspace">')
    assert labels(response) == ["SB", "BB", "UTG", "CO"]


def test_the_page_opened_for_a_table_fills_in_a_dead_button(floor, event):
    # The player on seat 3 left: the button is on that empty seat.
    arrange(event, {1: [1, 2, 4, 5, 6]}, positions={1: (3, 4, 5)})

    response = floor.get(URL, {"event": event.pk, "table": 1})

    names = re.findall(r'name="seat_name"[^>]*value="([^"]*)"', response.content.decode())
    assert names == ["T1S4", "T1S5", "T1S6", "T1S1", "T1S2"]
    assert "checked" in tag(response, "id_dead_button")
    assert "checked" not in tag(response, "id_dead_small_blind")
    assert labels(response)[:2] == ["SB", "BB"]
    assert "Table 1: the players" in text(response)


def test_the_page_opened_for_a_table_fills_in_a_dead_small_blind(floor, event):
    arrange(event, {1: [1, 2, 4, 5]}, positions={1: (2, 3, 4)})

    response = floor.get(URL, {"event": event.pk, "table": 1})

    names = re.findall(r'name="seat_name"[^>]*value="([^"]*)"', response.content.decode())
    assert names == ["T1S2", "T1S4", "T1S5", "T1S1"]
    assert "checked" in tag(response, "id_dead_small_blind")
    assert "checked" not in tag(response, "id_dead_button")
    assert "Seat 4" not in names


def test_a_table_the_event_does_not_have_leaves_the_page_as_it_was(floor, event):
    response = floor.get(URL, {"event": event.pk, "table": 99})

    assert response.status_code == 200
    assert "checked" not in tag(response, "id_dead_button")
    assert "Table 99" not in text(response)
