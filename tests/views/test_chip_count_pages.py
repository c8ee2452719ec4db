"""The chip count pages: the table page's counts (floor and table device), the console's
count list and history, and the public chip-count page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.results.models import ChipCount, ChipCountHistory
from tdsystem.results.services.chips import chip_counts_record
from tdsystem.seating.models import EventTable, TableDevice
from tdsystem.seating.testing import arrange

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
FLOOR = Actor(label="fred")


@pytest.fixture
def room(event):
    people = arrange(event, {1: [1, 2, 3], 2: [1, 2, 3]})
    return event, people


def chips_url(event, number: int) -> str:
    return reverse("results:table_chips", args=[event.pk, number])


def table_url(event, number: int) -> str:
    return reverse("results:table", args=[event.pk, number])


def counts_of(people, **typed: str) -> dict[str, str]:
    return {f"count-{people[name].number}": value for name, value in typed.items()}


def tie_device(device, event, number: int) -> None:
    venue_table = EventTable.objects.get(event=event, number=number).venue_table
    TableDevice.objects.create(user=device, venue_table=venue_table)


# The table page ------------------------------------------------------------------------


def test_the_table_page_lists_its_players_with_one_numeric_input_each(client, room, floor_person):
    event, people = room
    chip_counts_record(event_id=event.pk, counts={people["T1S2"].number: 42_000}, actor=FLOOR)
    client.force_login(floor_person)
    html = client.get(table_url(event, 1)).content.decode()
    assert html.count('inputmode="numeric"') == 3
    assert f'name="count-{people["T1S1"].number}"' in html
    assert f'name="count-{people["T2S1"].number}"' not in html
    assert "<bdi>T1S2</bdi>" in html and "42,000 · 0" in html and "not counted yet" in html
    assert f'hx-post="{chips_url(event, 1)}"' in html and "Save counts" in html


def test_save_counts_records_every_typed_count_at_once_and_skips_blanks(client, room, floor_person):
    event, people = room
    client.force_login(floor_person)
    data = counts_of(people, T1S1="12 500", T1S2="", T1S3="31,000")
    answer = client.post(chips_url(event, 1), data, **HTMX)
    html = answer.content.decode()
    assert answer.status_code == 200 and 'id="table-chips"' in html and "<html" not in html
    assert "2 counts saved" in html
    assert dict(ChipCount.objects.values_list("entry__player__name", "chips")) == {
        "T1S1": 12_500,
        "T1S3": 31_000,
    }
    assert ChipCountHistory.objects.count() == 2
    log = LogEntry.objects.get(action="chips.count")
    assert log.data["table"] == 1 and log.actor_label == floor_person.username
    # After a save: the total, partial here (2 of 6 counted).
    stack = event.starting_stack
    assert f"Counted 43,500 of {6 * stack:,} chips in play (2 of 6 players counted)" in html


def test_a_bad_value_refuses_the_whole_form_naming_the_player(client, room, floor_person):
    event, people = room
    client.force_login(floor_person)
    data = counts_of(people, T1S1="12500", T1S2="lots", T1S3="9000")
    html = client.post(chips_url(event, 1), data, **HTMX).content.decode()
    assert "Seat 2, T1S2: " in html and "not a number of chips" in html
    assert 'value="12500"' in html and 'value="lots"' in html  # what was typed stays
    assert not ChipCount.objects.exists() and not ChipCountHistory.objects.exists()
    data = counts_of(people, T1S1="12500", T1S3="0")
    html = client.post(chips_url(event, 1), data, **HTMX).content.decode()
    assert "Seat 3, T1S3: give a chip count above 0" in html
    assert not ChipCount.objects.exists()
    html = client.post(chips_url(event, 1), {}, **HTMX).content.decode()
    assert "Type at least one count." in html


def test_a_count_for_a_player_who_has_left_the_table_refuses_the_form(client, room, floor_person):
    event, people = room
    client.force_login(floor_person)
    data = counts_of(people, T1S1="12500", T2S1="9000")
    html = client.post(chips_url(event, 1), data, **HTMX).content.decode()
    assert f"#{people['T2S1'].number} is no longer at this table" in html
    assert not ChipCount.objects.exists()


def test_without_htmx_save_counts_comes_back_to_the_table_page(client, room, floor_person):
    event, people = room
    client.force_login(floor_person)
    answer = client.post(chips_url(event, 2), counts_of(people, T2S3="8000"), follow=True)
    assert answer.redirect_chain[-1][0] == table_url(event, 2)
    assert "1 count saved" in answer.content.decode()


def test_a_table_device_counts_its_own_table_only(client, room, table_device):
    event, people = room
    tie_device(table_device, event, 1)
    client.force_login(table_device)
    answer = client.post(chips_url(event, 1), counts_of(people, T1S1="20000"), **HTMX)
    assert answer.status_code == 200 and "1 count saved" in answer.content.decode()
    assert ChipCountHistory.objects.get().actor_label == table_device.username
    refused = client.post(chips_url(event, 2), counts_of(people, T2S1="20000"), **HTMX)
    assert refused.status_code == 403
    # Table 2's players posted to its own table's address: refused by the seat check.
    sneaky = client.post(chips_url(event, 1), counts_of(people, T2S1="20000"), **HTMX)
    assert "no longer at this table" in sneaky.content.decode()
    assert ChipCount.objects.count() == 1


def test_the_table_page_warns_after_a_save_when_the_counts_do_not_add_up(
    client, room, floor_person
):
    event, people = room
    stack = event.starting_stack
    chip_counts_record(
        event_id=event.pk,
        counts={people[n].number: stack for n in ("T2S1", "T2S2", "T2S3")},
        actor=FLOOR,
    )
    client.force_login(floor_person)
    typed = {"T1S1": str(stack), "T1S2": str(stack), "T1S3": str(stack + 15_000)}
    html = client.post(chips_url(event, 1), counts_of(people, **typed), **HTMX).content.decode()
    assert "(6 of 6 players counted)" in html
    assert "The counts add up to 15,000 more than the chips in play." in html
    typed["T1S3"] = str(stack)
    html = client.post(chips_url(event, 1), counts_of(people, **typed), **HTMX).content.decode()
    assert "counts match the chips in play" in html and "chip-warning" not in html
