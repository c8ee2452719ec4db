"""The end of a day's pages and API: the console's panel, the table page's countdown and bag
form, the clock JSON's last hands, the printable report."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tdsystem.seating.models import Bag, DayEnd, Entry, EventTable, TableDevice
from tdsystem.seating.services import table_hand_finish
from tdsystem.seating.services.dayend import day_end_start
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.personas import make_token

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# Four tables of three: the smallest field that has last hands (more than three tables).
LAYOUT = {1: [1, 4, 7], 2: [2, 5, 8], 3: [1, 3, 5], 4: [2, 4, 6]}


def play_out(event, number: int) -> None:
    table = EventTable.objects.get(event=event, number=number)
    for hand in range(table.hand_number, table.hand_number + table.hands_left):
        table_hand_finish(event_id=event.pk, table_number=number, expected_hand=hand, actor=ACTOR)


def bag_post(event, number: int, prefix: str = "A") -> dict:
    data = {}
    for entry in Entry.objects.filter(event=event, table__number=number):
        data[f"chips-{entry.seat}"] = f"{entry.number},000"
        data[f"bag-{entry.seat}"] = f"{prefix}{entry.number}"
    return data


def post_json(client, url: str, token: str, body: dict | None = None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    return client.post(url, json.dumps(body or {}), content_type="application/json", **headers)


def test_the_console_starts_the_last_hands_and_the_screens_show_them(client, event, director):
    arrange(event, LAYOUT)
    client.force_login(director)
    console = client.get(reverse("console:event", args=[event.pk])).content.decode()
    assert reverse("seating:day_end", args=[event.pk]) in console
    panel = client.get(reverse("seating:day_end", args=[event.pk]), **HTMX).content.decode()
    assert "Start the last hands" in panel
    answer = client.post(reverse("seating:day_end_start", args=[event.pk]), **HTMX)
    hands = DayEnd.objects.get(event=event).hands
    html = answer.content.decode()
    assert f"Last {hands} hands of the day" in html and "Balancing waits: last hands" in html
    clock = client.get(f"/api/events/{event.pk}/clock").json()
    assert clock["last_hands"] == {
        "day": 1,
        "hands": hands,
        "tables_playing": 4,
        "text": f"Last {hands} hands of the day",
    }
    screen = client.get(reverse("clock_screen", args=[event.pk])).content.decode()
    assert f"Last {hands} hands of the day" in screen and "js/last-hands.js" in screen
    again = client.post(reverse("seating:day_end_start", args=[event.pk]), **HTMX)
    assert "drawn already" in again.content.decode()


def test_the_table_page_counts_down_then_bags_the_table_all_at_once(client, event, floor_person):
    arrange(event, LAYOUT)
    hands = day_end_start(event_id=event.pk, actor=ACTOR, seed=3).hands
    client.force_login(floor_person)
    page = reverse("results:table", args=[event.pk, 1])
    assert f"{hands} hands left" in client.get(page).content.decode()
    for hand in range(hands - 1):
        table_hand_finish(event_id=event.pk, table_number=1, expected_hand=hand, actor=ACTOR)
    assert "Last hand" in client.get(page).content.decode()
    table_hand_finish(event_id=event.pk, table_number=1, expected_hand=hands - 1, actor=ACTOR)
    html = client.get(page).content.decode()
    assert "Bag your chips" in html and 'name="bag-7"' in html and "every 10s" not in html
    url = reverse("seating:table_bags", args=[event.pk, 1])
    partial = bag_post(event, 1)
    del partial["bag-7"]
    refused = client.post(url, partial, **HTMX).content.decode()
    assert "Seat 7, T1S7" in refused and 'value="2,000"' in refused
    assert not Bag.objects.exists()
    saved = client.post(url, bag_post(event, 1), **HTMX).content.decode()
    assert "3 bags saved" in saved and "This table is bagged." in saved
    assert sorted(Bag.objects.values_list("seat", "chips")) == [(1, 1000), (4, 2000), (7, 3000)]


def test_a_table_device_bags_only_its_own_table(client, event, table_device):
    arrange(event, LAYOUT)
    day_end_start(event_id=event.pk, actor=ACTOR, seed=3)
    play_out(event, 2)
    venue = EventTable.objects.get(event=event, number=1).venue_table
    TableDevice.objects.create(user=table_device, venue_table=venue)
    client.force_login(table_device)
    url = reverse("seating:table_bags", args=[event.pk, 2])
    assert client.post(url, bag_post(event, 2), **HTMX).status_code == 403
    assert not Bag.objects.exists()


def test_the_api_starts_bags_closes_and_draws_the_next_day(client, event, director):
    arrange(event, LAYOUT)
    token = make_token(director)
    base = f"/api/events/{event.pk}"
    started = post_json(client, base + "/day-end", token, {"seed": 4})
    assert started.status_code == 200 and 3 <= started.json()["hands"] <= 7
    body = {"bags": [{"seat": 1, "chips": 5000, "number": "A1"}]}
    assert post_json(client, base + "/tables/1/bags", token, body).status_code == 409
    assert (
        post_json(client, base + "/tables/1/bags", token, {"bags": [{"seat": 0}]}).status_code
        == 400
    )
    assert post_json(client, base + "/day-end/close", token).status_code == 409
    for number in LAYOUT:
        play_out(event, number)
        seats = Entry.objects.filter(event=event, table__number=number).values_list(
            "seat", "number"
        )
        bags = [{"seat": s, "chips": 10_000, "number": f"N{n}"} for s, n in seats]
        answer = post_json(client, base + f"/tables/{number}/bags", token, {"bags": bags})
        assert answer.status_code == 200 and len(answer.json()) == 3
    closed = post_json(client, base + "/day-end/close", token)  # 12 stacks of 10,000: they add up
    assert closed.status_code == 200 and closed.json()["closed_at"]
    drawn = post_json(client, base + "/day-end/next", token, {"seed": 1})
    assert drawn.json() == {"day": 2, "seated": 12}


def test_the_report_lists_the_bags_by_chips_and_by_table_and_checks_the_total(
    client, event, director
):
    arrange(event, LAYOUT)
    day_end_start(event_id=event.pk, actor=ACTOR, seed=3)
    client.force_login(director)
    for number in LAYOUT:
        play_out(event, number)
        client.post(reverse("seating:table_bags", args=[event.pk, number]), bag_post(event, number))
    html = client.get(reverse("seating:day_report", args=[event.pk])).content.decode()
    assert html.index("T4S6") < html.index("T1S1")  # the biggest bag first
    assert "12 bags, 78,000 chips" in html and "Table 4" in html
    # The event's chips in play are 12 starting stacks: the bags do not match them.
    assert "The bags differ from the chips in play by -42,000" in html


def test_a_bagged_table_shows_its_bags_and_no_bust_out_buttons(client, event, director):
    arrange(event, LAYOUT)
    day_end_start(event_id=event.pk, actor=ACTOR, seed=3)
    play_out(event, 1)
    client.force_login(director)
    page = reverse("results:table", args=[event.pk, 1])
    before = client.get(page).content.decode()
    assert before.count('class="out"') == 3  # played out, not bagged yet: still out-able
    saved = client.post(
        reverse("seating:table_bags", args=[event.pk, 1]), bag_post(event, 1), **HTMX
    )
    # The page's seats read again once the bags are in (the bag form is only its part).
    assert "seating-changed" in saved.headers["HX-Trigger-After-Settle"]
    for html in (client.get(page).content.decode(), client.get(page, **HTMX).content.decode()):
        assert 'class="out"' not in html and "is out?" not in html
        assert "Several out on one hand" not in html
        for entry in Entry.objects.filter(event=event, table__number=1):
            assert f'data-bag="A{entry.number}"' in html
            assert f"{entry.number},000" in html and f"bag A{entry.number}" in html
    # A table still playing its last hands keeps its buttons.
    other = client.get(reverse("results:table", args=[event.pk, 2])).content.decode()
    assert other.count('class="out"') == 3 and "data-bag=" not in other
