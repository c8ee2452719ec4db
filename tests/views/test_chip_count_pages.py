"""The chip count pages: the table page's counts (floor and table device), the console's
count list and history, and the public chip-count page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.events.services import clock_action
from tdsystem.results.models import ChipCount, ChipCountHistory
from tdsystem.results.services.chips import chip_counts_record
from tdsystem.seating.models import EventTable, TableDevice
from tdsystem.simulation.seatings import arrange

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
    assert "<bdi>T1S2</bdi>" in html and "42,000 · just now" in html and "not counted yet" in html
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
    assert 'value="12500"' in html and 'value="lots" aria-invalid="true"' in html  # kept
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


# The console ---------------------------------------------------------------------------


def console_url(event) -> str:
    return reverse("results:console", args=[event.pk])


def test_the_console_lists_the_players_by_chips_with_who_and_when(client, room, floor_person):
    event, people = room
    chip_counts_record(
        event_id=event.pk,
        counts={people["T1S1"].number: 9_000, people["T2S2"].number: 31_000},
        actor=FLOOR,
    )
    client.force_login(floor_person)
    html = client.get(console_url(event), {"part": "counts"}, **HTMX).content.decode()
    assert 'id="counts"' in html and "<html" not in html
    assert html.index("<bdi>T2S2</bdi>") < html.index("<bdi>T1S1</bdi>") < html.index("T1S2")
    assert "31,000" in html and "by fred" in html and html.count("not counted") == 4
    assert "(2 of 6 players counted)" in html
    page = client.get(console_url(event)).content.decode()
    assert 'id="counts"' in page and reverse("chips_screen", args=[event.pk]) in page


def test_the_console_warns_when_every_count_is_in_and_they_differ(client, room, floor_person):
    event, people = room
    counts = {e.number: event.starting_stack for e in people.values()}
    counts[people["T1S1"].number] -= 500
    chip_counts_record(event_id=event.pk, counts=counts, actor=FLOOR)
    client.force_login(floor_person)
    html = client.get(console_url(event), {"part": "counts"}, **HTMX).content.decode()
    assert "The counts add up to 500 less than the chips in play." in html


def test_the_console_shows_a_players_history_on_demand(client, room, floor_person):
    event, people = room
    number = people["T1S3"].number
    for chips in (10_000, 12_000, 8_000):
        chip_counts_record(event_id=event.pk, counts={number: chips}, actor=FLOOR)
    client.force_login(floor_person)
    url = reverse("results:chip_history", args=[event.pk, number])
    html = client.get(url, **HTMX).content.decode()
    assert f"Counts of #{number}" in html and 'id="tools"' in html
    assert html.index("8,000") < html.index("12,000") < html.index("10,000")
    assert client.get(url).status_code == 200  # without HTMX: the whole console


# The public chip-count page ------------------------------------------------------------


def screen_url(event) -> str:
    return reverse("chips_screen", args=[event.pk])


def test_the_public_page_ranks_the_counted_players_by_chips(client, room):
    event, people = room
    chip_counts_record(
        event_id=event.pk,
        counts={
            people["T1S1"].number: 9_000,
            people["T2S2"].number: 31_000,
            people["T1S3"].number: 20_000,
        },
        actor=FLOOR,
    )
    html = client.get(screen_url(event)).content.decode()  # anonymous
    assert html.index("T2S2") < html.index("T1S3") < html.index("T1S1")
    assert "T1S2" not in html  # never counted: only in the "counted" line
    assert "3 of 6 players counted" in html and "fred" not in html
    assert "table 2" in html and "31,000" in html
    # Level 1's big blind is 100: 31,000 chips are 310 big blinds.
    assert "310.0 BB" in html and "big blind 100" in html
    assert 'hx-trigger="every 15s"' in html
    board = client.get(screen_url(event), **HTMX).content.decode()
    assert 'id="board"' in board and "<html" not in board


def test_the_public_page_can_show_only_the_first_few(client, room):
    event, people = room
    counts = {e.number: 1_000 * (i + 1) for i, e in enumerate(people.values())}
    chip_counts_record(event_id=event.pk, counts=counts, actor=FLOOR)
    html = client.get(screen_url(event), {"top": "2"}).content.decode()
    assert "T2S3" in html and "T2S2" in html and "T2S1" not in html
    assert "the first 2" in html and "?top=2" in html


def test_the_public_page_reads_a_bounded_number_of_queries(
    client, room, django_assert_max_num_queries
):
    event, people = room
    chip_counts_record(
        event_id=event.pk, counts={e.number: 5_000 for e in people.values()}, actor=FLOOR
    )
    with django_assert_max_num_queries(13):  # 12, and the day's last hands (one read)
        client.get(screen_url(event))


def test_the_stable_address_leads_to_the_current_events_chip_counts(client, room):
    event, _ = room
    clock_action(event_id=event.pk, action="start", actor=FLOOR)
    answer = client.get(reverse("screen_chips"))
    assert answer.status_code == 302
    assert answer["Location"] == screen_url(event) + "?follow=1"
    page = client.get(answer["Location"]).content.decode()
    assert 'data-home="/chips/"' in page  # the follow script goes back to /chips/
