"""The table page (results:table): the seat's "Out" goes through the one bust-out service,
"Hand finished" states its hand-count rule once, and a refused table is in the audit log."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tdsystem.core.models import LogEntry
from tdsystem.results.models import BustOut, Finish
from tdsystem.results.services import handforhand_start
from tdsystem.seating.models import Entry, EventTable, TableDevice
from tdsystem.simulation.seatings import ACTOR, arrange

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))
HTMX = {"HTTP_HX_REQUEST": "true"}


def table_url(event, number: int, rest: str = "") -> str:
    return reverse("results:table", args=[event.pk, number]) + rest


def bustout_url(event) -> str:
    return reverse("results:bustout", args=[event.pk])


def hand_numbers(event) -> dict[int, int]:
    return dict(EventTable.objects.filter(event=event).values_list("number", "hand_number"))


# The seat's "Out" ---------------------------------------------------------------------------


def test_the_seats_out_posts_to_the_one_bust_out_route(client, event, floor_person):
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    client.force_login(floor_person)
    html = client.get(table_url(event, 2)).content.decode()
    assert html.count(f'hx-post="{bustout_url(event)}"') == 8
    # Each answers above the seats, outside the part that reads itself on seating-changed.
    assert html.count('hx-target="#bustout-answer"') == 8 and html.count('data-release="li"') == 8
    assert html.index('id="bustout-answer"') < html.index('<section id="table"')
    assert 'hx-trigger="seating-changed from:body' in html
    assert f'name="entry" value="{people["T2S4"].pk}"' in html
    assert 'name="answer" value="table"' in html


def test_the_table_pages_bust_out_records_a_finish_through_the_service(client, event, floor_person):
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    out = people["T2S4"]
    client.force_login(floor_person)
    data = {"answer": "table", "table": 2, "entry": out.pk}
    response = client.post(bustout_url(event), data, **HTMX)
    body = response.content.decode()
    # The bust-out's own fragment, above the seats; the seats read themselves again.
    assert 'id="table"' not in body and "<html" not in body
    assert f"#{out.number} T2S4 is out: 17th place" in body and "1 move slip:" in body
    assert json.loads(response["HX-Trigger"]) == {
        "results-changed": {"target": "body"},
        "seating-changed": {"target": "body"},
    }
    # The move it set off shows among the table's moves; the seat is taken again.
    seats = client.get(table_url(event, 2), **HTMX).content.decode()
    assert "T1S8" in seats and "arriving from table 1 seat 8" in seats
    bustout = BustOut.objects.get()
    finish = Finish.objects.get(entry=out)
    assert (finish.bustout, finish.place, bustout.table_number) == (bustout, 17, 2)
    assert bustout.moves.count() == 1 and bustout.rebalance["kind"] == "balance"
    assert LogEntry.objects.filter(action="bustout.record").count() == 1
    assert not LogEntry.objects.filter(action="entry.eliminate").exists()


def test_a_bust_out_from_the_table_page_without_htmx_comes_back_with_a_message(
    client, event, floor_person
):
    people = arrange(event, {1: [1, 2, 3, 4]}, positions={1: (1, 2, 3)})
    client.force_login(floor_person)
    data = {"answer": "table", "table": 1, "entry": people["T1S2"].pk}
    response = client.post(bustout_url(event), data, follow=True)
    assert response.redirect_chain[-1][0] == table_url(event, 1)
    assert "T1S2 is out: 4th place" in response.content.decode()


def test_the_table_page_explains_a_refused_bust_out_and_changes_nothing(
    client, event, floor_person
):
    people = arrange(event, {1: [1, 2, 3], 2: [1, 2, 3]})
    client.force_login(floor_person)
    data = {"answer": "table", "table": 1, "entry": people["T2S1"].pk}
    response = client.post(bustout_url(event), data, **HTMX)
    body = response.content.decode()
    # The seats again, with the reason, in place of the seats (not where a bust-out goes).
    assert 'id="table"' in body and "sits at table 2, not table 1" in body
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#table", "outerHTML")
    assert "HX-Trigger" not in response
    assert not Finish.objects.exists()
    assert Entry.objects.filter(status="active").count() == 6


def test_no_seat_has_its_own_out_during_hand_for_hand(client, event, floor_person):
    arrange(event, {1: FULL, 2: FULL}, positions={1: (1, 2, 3), 2: (1, 2, 3)})
    handforhand_start(event_id=event.pk, actor=ACTOR, minutes_per_hand=2)
    client.force_login(floor_person)
    html = client.get(table_url(event, 1)).content.decode()
    # Stacks are needed then: the bust-out console records it, with its own form.
    assert f'hx-post="{bustout_url(event)}"' not in html
    assert "Record a bust-out…" in html


def test_a_table_device_sees_no_out_and_may_not_bust(client, event, table_device):
    people = arrange(event, {7: [1, 2, 3]}, positions={7: (1, 2, 3)})
    venue = EventTable.objects.get(event=event, number=7).venue_table
    TableDevice.objects.create(user=table_device, venue_table=venue)
    client.force_login(table_device)
    html = client.get(table_url(event, 7)).content.decode()
    assert "Hand finished" in html and f'hx-post="{bustout_url(event)}"' not in html
    data = {"answer": "table", "table": 7, "entry": people["T7S1"].pk}
    assert client.post(bustout_url(event), data).status_code == 403
    assert not Finish.objects.exists()


# "Hand finished": one form for the hand count ---------------------------------------------


@pytest.mark.parametrize("bad", ["", "x", "-1", "+0", "1.5", "1e3", "1000000001", "٣"])
def test_a_bad_hand_count_on_the_table_page_answers_why_and_changes_nothing(
    client, event, floor_person, bad
):
    arrange(event, {1: [1, 2, 3, 4]}, positions={1: (1, 2, 3)})
    client.force_login(floor_person)
    body = client.post(table_url(event, 1, "hand"), {"hand": bad}, **HTMX).content.decode()
    assert 'id="table"' in body and "Hand count: " in body and "the hand count" in body
    assert hand_numbers(event) == {1: 0}
    assert not LogEntry.objects.filter(action="table.hand").exists()


def test_a_bad_hand_count_on_the_bustout_console_answers_why_and_changes_nothing(
    client, event, director
):
    arrange(event, {1: FULL, 2: FULL}, positions={1: (1, 2, 3), 2: (1, 2, 3)})
    handforhand_start(event_id=event.pk, actor=ACTOR, minutes_per_hand=2)
    client.force_login(director)
    url = reverse("results:hand_finished", args=[event.pk, 1])
    for bad in ({}, {"hand": "one"}, {"hand": "99999999999"}):
        body = client.post(url, bad, **HTMX).content.decode()
        assert 'id="hfh"' in body and "the hand count" in body
    assert hand_numbers(event) == {1: 0, 2: 0}
    assert not LogEntry.objects.filter(action="table.hand").exists()


def test_the_hand_count_the_page_showed_finishes_the_hand(client, event, floor_person):
    arrange(event, {1: [1, 2, 3, 4]}, positions={1: (1, 2, 3)})
    client.force_login(floor_person)
    body = client.post(table_url(event, 1, "hand"), {"hand": "0"}, **HTMX).content.decode()
    assert "Hand 2: button on seat 2" in body
    assert hand_numbers(event) == {1: 1}


# Refusals are in the audit log ------------------------------------------------------------


def test_a_table_device_opening_another_table_is_logged(client, event, table_device):
    arrange(event, {5: [1, 2, 3], 7: [1, 2, 3]}, positions={5: (1, 2, 3), 7: (1, 2, 3)})
    venue = EventTable.objects.get(event=event, number=7).venue_table
    TableDevice.objects.create(user=table_device, venue_table=venue)
    client.force_login(table_device)
    assert client.get(table_url(event, 7)).status_code == 200
    assert not LogEntry.objects.filter(action="access.refused").exists()
    assert client.get(table_url(event, 5)).status_code == 403
    assert client.post(table_url(event, 5, "hand"), {"hand": "0"}).status_code == 403
    refused = LogEntry.objects.filter(action="access.refused").order_by("pk")
    assert [(r.actor, r.data["path"], r.data["method"]) for r in refused] == [
        (table_device, table_url(event, 5), "GET"),
        (table_device, table_url(event, 5, "hand"), "POST"),
    ]
    assert "needs the right table" in refused[0].summary
    assert hand_numbers(event) == {5: 0, 7: 0}


def test_an_untied_device_is_refused_every_table_and_logged_once_a_minute(
    client, event, table_device
):
    arrange(event, {5: [1, 2, 3]}, positions={5: (1, 2, 3)})
    client.force_login(table_device)
    for _ in range(3):  # the page's poll: one line in the log, not one a poll
        assert client.get(table_url(event, 5)).status_code == 403
    refused = LogEntry.objects.get(action="access.refused")
    assert refused.actor == table_device and refused.data["path"] == table_url(event, 5)
