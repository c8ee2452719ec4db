"""Reserved seats and "do not move" on the console's entry panel, table cards and table page."""

from __future__ import annotations

import pytest

from tdsystem.seating.models import Entry
from tdsystem.simulation.seatings import arrange

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def action(event, entry, name: str) -> str:
    return f"/console/events/{event.pk}/seating/entries/{entry.pk}/{name}"


def test_the_floor_reserves_a_seat_on_the_entry_panel_and_the_cards_show_it(
    client, event, director
):
    people = arrange(event, {1: [1, 2, 3, 4], 2: [1, 2, 3, 4]})
    client.force_login(director)
    panel = client.get(f"/console/events/{event.pk}/seating/entries/{people['T1S2'].pk}/", **HTMX)
    assert "Reserve a seat" in panel.content.decode() and "(TDA 9)" in panel.content.decode()
    answer = client.post(
        action(event, people["T1S2"], "reserve"),
        {"seat": "6", "table": "", "reason": "wheelchair"},
        **HTMX,
    )
    html = answer.content.decode()
    assert "Seat 6 kept for the player at any table" in html
    assert "Give up the reserved seat" in html
    assert "seating-changed" in answer.headers["HX-Trigger"]
    entry = Entry.objects.get(pk=people["T1S2"].pk)
    assert (entry.table.number, entry.seat, entry.reserve_reason) == (1, 6, "wheelchair")
    cards = client.get(f"/console/events/{event.pk}/seating/?part=tables", **HTMX)
    assert "Seat 6 kept for this player: wheelchair" in cards.content.decode()
    table_page = client.get(f"/console/events/{event.pk}/tables/1/")
    assert ">reserved</span>" in table_page.content.decode()


def test_do_not_move_says_a_break_still_moves_the_player_and_can_be_cleared(
    client, event, director
):
    people = arrange(event, {1: [1, 2, 3]})
    client.force_login(director)
    answer = client.post(action(event, people["T1S1"], "hold"), {"reason": "medical"}, **HTMX)
    html = answer.content.decode()
    assert "Not moved when balancing (medical)" in html
    assert "If their table breaks, they still move." in html
    assert Entry.objects.get(pk=people["T1S1"].pk).do_not_move
    client.post(action(event, people["T1S1"], "unhold"), **HTMX)
    assert not Entry.objects.get(pk=people["T1S1"].pk).do_not_move


def test_the_panel_says_what_is_wrong_with_a_reservation(client, event, director):
    people = arrange(event, {1: [1, 2, 3]})
    client.force_login(director)
    bad_seat = client.post(
        action(event, people["T1S1"], "reserve"), {"seat": "0", "reason": "x"}, **HTMX
    )
    assert "Seat: a whole number from 1 to 10" in bad_seat.content.decode()
    no_reason = client.post(action(event, people["T1S1"], "reserve"), {"seat": "2"}, **HTMX)
    assert "Reason:" in no_reason.content.decode()
    assert Entry.objects.get(pk=people["T1S1"].pk).reserved_seat is None


def test_nobody_signed_out_can_reserve_a_seat(client, event):
    people = arrange(event, {1: [1, 2, 3]})
    answer = client.post(action(event, people["T1S1"], "reserve"), {"seat": "2", "reason": "x"})
    assert answer.status_code in (302, 403)
    assert Entry.objects.get(pk=people["T1S1"].pk).reserved_seat is None
