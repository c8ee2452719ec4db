"""Each input rule is stated once: the API's schema and the pages' forms take a range from
the owning app's constant and say it; the pages answer bad input with a message and
change nothing; query parameters that are not numbers just show the page without them."""

from __future__ import annotations

import json

import pytest
from django.http import QueryDict
from django.urls import reverse
from pydantic import ValidationError

from tdsystem.api.schemas import BustOutIn, HandIn
from tdsystem.core.forms import whole_number
from tdsystem.core.models import LogEntry
from tdsystem.results.forms import BustOutForm, ChipCountForm, HandFinishedForm, chips_value
from tdsystem.results.models import BustOut, ChipCount, Finish, HandForHand
from tdsystem.results.services import MAX_CHIPS, MINUTES_PER_HAND_MAX
from tdsystem.seating.forms import TABLE_NUMBER_MAX, TablesForm
from tdsystem.seating.models import Entry, EventTable
from tdsystem.seating.services import HAND_MAX
from tdsystem.simulation.seatings import arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def room(event):
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    return event, people


def api(client, path, token, body):
    return client.post(
        path,
        json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


def unchanged(event) -> bool:
    return (
        not BustOut.objects.exists()
        and not Finish.objects.exists()
        and not ChipCount.objects.exists()
        and Entry.objects.filter(event=event, status="active").count() == 17
        and not LogEntry.objects.filter(action__in=["bustout.record", "table.hand"]).exists()
    )


# One constant, two ways in ------------------------------------------------------------------


def test_the_hand_count_range_is_one_constant_for_the_api_and_the_pages():
    for good in (0, HAND_MAX):
        assert HandIn(hand=good).hand == good
        assert HandFinishedForm({"hand": str(good)}).is_valid()
    for bad in (-1, HAND_MAX + 1, True, "0", None):
        with pytest.raises(ValidationError):
            HandIn(hand=bad)
    for bad in ("-1", str(HAND_MAX + 1), "+0", "٣", "1.0"):
        form = HandFinishedForm({"hand": bad})
        assert not form.is_valid() and f"{HAND_MAX:,}" in form.errors["hand"][0]
    assert f"{HAND_MAX:,}" in HandIn.model_fields["hand"].description


def test_the_chips_range_is_one_constant_for_the_api_and_the_pages():
    body = {"entries": [1, 2], "stacks": {"1": MAX_CHIPS, "2": 0}}
    assert BustOutIn(**body).stacks == {"1": MAX_CHIPS, "2": 0}
    with pytest.raises(ValidationError):
        BustOutIn(entries=[1, 2], stacks={"1": MAX_CHIPS + 1, "2": 0})
    assert chips_value(f"{MAX_CHIPS:,}") == MAX_CHIPS
    for bad in (str(MAX_CHIPS + 1), "²", "-5", "1.5"):
        with pytest.raises(ValueError, match=f"{MAX_CHIPS:,}"):
            chips_value(bad)
    assert f"{MAX_CHIPS:,}" in BustOutIn.model_fields["stacks"].description
    assert not ChipCountForm({"entry": "1", "chips": str(MAX_CHIPS + 1)}).is_valid()


def test_the_bust_out_hand_and_table_ranges_are_the_same_for_the_api_and_the_console():
    rules = BustOutIn.model_fields
    assert f"{TABLE_NUMBER_MAX:,}" in rules["table"].description
    assert f"{HAND_MAX:,}" in rules["hand"].description
    for name, high in (("table", TABLE_NUMBER_MAX), ("hand", HAND_MAX)):
        assert BustOutIn(entries=[1], **{name: high}) and BustOutIn(entries=[1], **{name: 1})
        for bad in (0, high + 1):
            with pytest.raises(ValidationError):
                BustOutIn(entries=[1], **{name: bad})
            form = BustOutForm(QueryDict(f"entry=1&{name}={bad}"))
            assert not form.is_valid() and f"{high:,}" in form.errors[name][0]
    assert not TablesForm({"numbers": f"1-{TABLE_NUMBER_MAX + 1}", "seats": "9"}).is_valid()


def test_the_shared_query_parser_takes_ascii_digits_in_range_only():
    assert whole_number(" 12 ", high=99) == 12 and whole_number("0", low=0, high=9) == 0
    for bad in ("", None, "0", "100", "+3", "3.0", "²", "٣", "1e3", "9" * 40):
        assert whole_number(bad, high=99) is None


# The API answers 400 {"error", "field"} and changes nothing --------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"entries": [1], "hand": 0}, "hand"),
        ({"entries": [1], "hand": 3_000_000_000}, "hand"),  # past a 32-bit column
        ({"entries": [1], "table": TABLE_NUMBER_MAX + 1}, "table"),
        ({"entries": [1, 2], "stacks": {"1": MAX_CHIPS + 1, "2": 4}}, "stacks"),
        ({"entries": [1, 2], "stacks": {"1": True, "2": 4}}, "stacks"),
    ],
)
def test_the_api_answers_400_naming_the_field(client, floor_token, room, body, field):
    event, _ = room
    answer = api(client, reverse("api:bustout", args=[event.pk]), floor_token, body)
    assert answer.status_code == 400, answer.json()
    assert answer.json()["field"] == field and answer.json()["error"].startswith(f"{field}: ")
    assert unchanged(event)


def test_the_hand_api_refuses_a_count_past_the_range(client, floor_token, room):
    event, _ = room
    url = reverse("api:hand", args=[event.pk, 1])
    answer = api(client, url, floor_token, {"hand": HAND_MAX + 1})
    assert answer.status_code == 400 and answer.json()["field"] == "hand"
    assert f"{HAND_MAX:,}" in answer.json()["error"]
    assert EventTable.objects.get(event=event, number=1).hand_number == 0


# The console pages say why and change nothing ----------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"table": "2", "entry": "²"}, "Tick the players who are out"),
        ({"table": "2", "entry": "9" * 30}, "Tick the players who are out"),
        ({"table": "9" * 30, "entry": "T2S4"}, "99,999"),
        ({"table": "2", "entry": "T2S4", "hand": "0"}, "1,000,000,000"),
        ({"table": "2", "entry": "T2S4", "stack-T2S4": "²"}, "not a number of chips"),
        ({"table": "2", "entry": "T2S4", "stack-T2S4": "9" * 16}, "999,999,999,999,999"),
    ],
)
def test_a_bad_bust_out_post_says_why_and_changes_nothing(
    client, floor_person, room, data, message
):
    event, people = room
    pk = str(people["T2S4"].pk)
    data = {k.replace("T2S4", pk): v.replace("T2S4", pk) for k, v in data.items()}
    client.force_login(floor_person)
    for answer in ("console", "table"):
        url = reverse("results:bustout", args=[event.pk])
        response = client.post(url, data | {"answer": answer}, **HTMX)
        assert response.status_code == 200 and message in response.content.decode()
    assert unchanged(event)


def test_a_bad_chip_count_or_short_big_blind_says_why_and_changes_nothing(client, floor_person):
    house = make_event(600, name="House", bb_must_cover_sb=True)
    people = arrange(house, {1: [1, 2, 3]}, positions={1: (1, 2, 3)})
    number = str(people["T1S3"].number)
    client.force_login(floor_person)
    posts = [
        ("chips", {"entry": number, "chips": "١٢"}, "not a number of chips"),
        ("chips", {"entry": number, "chips": "0"}, "above 0"),
        ("chips", {"entry": "9" * 30, "chips": "100"}, "Entry number: a whole number"),
        ("short_big_blind", {"entry": number, "chips": "-3"}, "not a number of chips"),
        ("short_big_blind", {"entry": "²", "chips": "3"}, "Entry number: a whole number"),
    ]
    for name, data, message in posts:
        response = client.post(reverse(f"results:{name}", args=[house.pk]), data, **HTMX)
        assert message in response.content.decode(), (name, data)
    assert not ChipCount.objects.exists() and not Finish.objects.exists()
    assert Entry.objects.get(pk=people["T1S3"].pk).chips_removed == 0


def test_hand_for_hand_minutes_out_of_range_say_why_and_change_nothing(client, director, room):
    event, _ = room
    client.force_login(director)
    url = reverse("results:hand_for_hand", args=[event.pk])
    for bad in ("0", str(MINUTES_PER_HAND_MAX + 1), "True", "²"):
        body = client.post(url, {"action": "start", "minutes": bad}, **HTMX).content.decode()
        assert f"a whole number from 1 to {MINUTES_PER_HAND_MAX}" in body
    assert not HandForHand.objects.filter(event=event, active=True).exists()
    client.post(url, {"action": "start", "minutes": str(MINUTES_PER_HAND_MAX)}, **HTMX)
    assert HandForHand.objects.get(event=event).minutes_per_hand == MINUTES_PER_HAND_MAX


# Query parameters ------------------------------------------------------------------------


@pytest.mark.parametrize("raw", ["²", "٣", "9" * 30, "-1", "+2"])
def test_a_query_that_is_not_a_number_shows_the_page_without_it(client, floor_person, room, raw):
    event, _ = room
    client.force_login(floor_person)
    pages = [
        (reverse("results:console", args=[event.pk]), {"table": raw}),
        (reverse("seating:moves", args=[event.pk]), {"table": raw}),
        (reverse("seating:lookup", args=[event.pk]), {"entry": raw}),
        (reverse("seating:lookup", args=[event.pk]), {"q": raw}),
    ]
    for url, query in pages:
        assert client.get(url, query).status_code == 200, (url, query)
    players = client.get(
        reverse("results:console", args=[event.pk]), {"part": "players", "table": raw}, **HTMX
    )
    assert 'name="entry"' not in players.content.decode()
