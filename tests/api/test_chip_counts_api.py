"""The chip count API: the count list (public) and a table's counts (staff token), through
the one chip count service."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tdsystem.core.models import LogEntry
from tdsystem.results.models import ChipCount, ChipCountHistory
from tdsystem.simulation.seatings import arrange

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(event):
    people = arrange(event, {1: [1, 2, 3], 2: [1, 2]})
    return event, people


def post(client, event, token, body):
    return client.post(
        reverse("api:chip_counts", args=[event.pk]),
        data=json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


def read(client, event):
    return client.get(reverse("api:chips", args=[event.pk]))


def test_it_records_counts_and_answers_them_with_the_total(client, floor_token, room):
    event, people = room
    a, b = people["T1S1"].number, people["T1S2"].number
    body = {"counts": [{"entry": a, "chips": 48_500}, {"entry": b, "chips": 21_000}], "table": 1}
    answer = post(client, event, floor_token, body)
    assert answer.status_code == 200, answer.content
    data = answer.json()
    assert data["saved"] == 2 and data["table"] == 1
    assert [(c["entry"], c["chips"], c["rank"]) for c in data["counts"]] == [
        (a, 48_500, 1),
        (b, 21_000, 2),
    ]
    assert data["total"]["counted"] == 2 and data["total"]["players_left"] == 5
    assert data["total"]["difference"] is None and data["total"]["warning"] is None
    assert ChipCountHistory.objects.count() == 2
    assert LogEntry.objects.get(action="chips.count").actor_label == "fred"


def test_the_count_list_is_public_by_chips_then_the_uncounted(client, floor_token, room):
    event, people = room
    stack = event.starting_stack
    counts = [{"entry": e.number, "chips": stack} for e in people.values()]
    counts[0]["chips"] = stack + 15_000
    post(client, event, floor_token, {"counts": counts})
    answer = read(client, event)
    assert answer.status_code == 200
    data = answer.json()
    assert data["counts"][0]["player"] == "T1S1" and data["counts"][0]["rank"] == 1
    assert data["total"]["all_counted"] and data["total"]["difference"] == 15_000
    assert data["total"]["warning"] == "The counts add up to 15,000 more than the chips in play."
    assert "counted_by" not in data["counts"][0]  # who counted stays on the staff pages


def test_the_count_list_shows_players_never_counted_last(client, floor_token, room):
    event, people = room
    post(client, event, floor_token, {"counts": [{"entry": people["T2S2"].number, "chips": 9}]})
    rows = read(client, event).json()["counts"]
    assert rows[0]["player"] == "T2S2" and rows[0]["rank"] == 1
    assert [r["chips"] for r in rows[1:]] == [None] * 4 and all(r["rank"] is None for r in rows[1:])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"counts": []}, "counts"),
        ({"counts": [{"entry": 1, "chips": 0}]}, "counts"),
        ({"counts": [{"entry": 1, "chips": "500"}]}, "counts"),
        ({"counts": [{"entry": 1, "chips": 5}, {"entry": 1, "chips": 6}]}, "counts"),
        ({"counts": [{"entry": 999, "chips": 5}]}, "entry"),
        ({"counts": [{"entry": 1, "chips": 5}, {"entry": 4, "chips": 5}], "table": 1}, "entry"),
    ],
)
def test_bad_counts_are_refused_and_change_nothing(client, floor_token, room, body, field):
    event, _ = room
    answer = post(client, event, floor_token, body)
    assert answer.status_code == 400, answer.content
    assert answer.json()["field"] == field or answer.json()["field"].startswith(field)
    assert not ChipCount.objects.exists() and not ChipCountHistory.objects.exists()


def test_a_write_needs_a_staff_token(client, room, table_device):
    from tests.personas import make_token

    event, people = room
    body = {"counts": [{"entry": people["T1S1"].number, "chips": 5}]}
    assert post(client, event, "nope", body).status_code == 401
    assert post(client, event, make_token(table_device), body).status_code == 403
    assert not ChipCount.objects.exists()


def test_an_unknown_event_is_a_404(client, floor_token):
    assert client.get("/api/events/99999/chips").status_code == 404
