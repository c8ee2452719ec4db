"""The bust-out API: token writes (400 names the field, 409 for conflicts), public results."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.urls import reverse

from tdsystem.results import services
from tdsystem.results.models import BustOut, Finish
from tdsystem.seating.models import Entry, Move
from tdsystem.simulation.seatings import ACTOR, arrange

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))


@pytest.fixture
def room(event):
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    return event, people


def post(client, path, token, body):
    return client.post(
        path,
        data=json.dumps(body) if not isinstance(body, str) else body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


def record_url(event):
    return reverse("api:bustout", args=[event.pk])


def test_it_records_a_bust_out_and_answers_the_place_and_the_moves(client, floor_token, room):
    event, people = room
    answer = post(client, record_url(event), floor_token, {"entries": [people["T2S4"].number]})
    assert answer.status_code == 201
    body = answer.json()
    assert body["finishes"] == [
        {
            "entry": people["T2S4"].number,
            "player": "T2S4",
            "place": 17,
            "place_to": 17,
            "place_label": "17",
            "prize": "0.00",
            "starting_stack": None,
        }
    ]
    assert body["players_left"] == 16 and body["rebalance"] == "balance"
    (move,) = body["moves"]
    assert (move["player"], move["to_table"], move["to_seat"]) == ("T1S8", 2, 4)
    assert body["winner"] is None


def test_simultaneous_bust_outs_take_stacks_by_entry_number(client, floor_token, room):
    event, people = room
    a, b = people["T1S1"].number, people["T1S2"].number
    answer = post(
        client,
        record_url(event),
        floor_token,
        {"entries": [a, b], "table": 1, "stacks": {str(a): 9000, str(b): 3000}},
    )
    assert answer.status_code == 201
    places = {f["entry"]: f["place_label"] for f in answer.json()["finishes"]}
    assert places == {a: "16", b: "17"}


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({}, "entries", "list of the entry numbers"),
        ({"entries": ["x"]}, "entries", "whole numbers"),
        ({"entries": [999]}, "entries", "no entry #999"),
        ({"entries": [1], "table": "one"}, "table", "whole number"),
        ({"entries": [1], "table": 2}, "table", "sits at table 1, not table 2"),
        ({"entries": [1, 2]}, "stacks", "start of the hand"),
        ({"entries": [1, 2], "stacks": [1, 2]}, "stacks", "an object"),
        ({"entries": [1, 2], "stacks": {"1": -5, "2": 4}}, "stacks", "whole number"),
        ({"entries": [1, 10], "stacks": {"1": 5, "10": 4}}, "entries", "each table"),
    ],
)
def test_bad_input_answers_400_naming_the_field_and_changes_nothing(
    client, floor_token, room, body, field, message
):
    event, _ = room
    answer = post(client, record_url(event), floor_token, body)
    assert answer.status_code == 400, answer.json()
    assert answer.json()["field"] == field and message in answer.json()["error"]
    assert not BustOut.objects.exists() and not Finish.objects.exists()
    assert Entry.objects.filter(status="active").count() == 17


def test_bad_json_is_a_400(client, floor_token, room):
    event, _ = room
    answer = post(client, record_url(event), floor_token, "{nope")
    assert answer.status_code == 400 and "JSON" in answer.json()["error"]


def test_already_out_is_a_409(client, floor_token, room):
    event, people = room
    post(client, record_url(event), floor_token, {"entries": [people["T2S4"].number]})
    answer = post(client, record_url(event), floor_token, {"entries": [people["T2S4"].number]})
    assert answer.status_code == 409
    assert "already out (place 17)" in answer.json()["error"] and "field" not in answer.json()


def test_it_undoes_a_bust_out_and_refuses_a_clashing_undo_with_409(client, floor_token, room):
    event, people = room
    first = post(client, record_url(event), floor_token, {"entries": [people["T2S4"].number]})
    bustout = first.json()["bustout"]
    undo_url = reverse("api:undo", args=[event.pk, bustout])
    answer = post(client, undo_url, floor_token, {})
    assert answer.status_code == 200
    assert answer.json()["entries"] == [
        {"entry": people["T2S4"].number, "player": "T2S4", "table": 2, "seat": 4}
    ]
    assert answer.json()["moves_withdrawn"] == 1 and not Move.objects.exists()
    answer = post(client, undo_url, floor_token, {})
    assert answer.status_code == 409 and "undone already" in answer.json()["error"]
    missing = reverse("api:undo", args=[event.pk, 9999])
    answer = post(client, missing, floor_token, {})
    assert answer.status_code == 400 and answer.json()["field"] == "bustout"


def test_writes_need_a_staff_token_with_the_bustout_right(client, table_device, room):
    from tests.personas import make_token

    event, people = room
    body = {"entries": [people["T2S4"].number]}
    assert post(client, record_url(event), "nonsense", body).status_code == 401
    answer = post(client, record_url(event), make_token(table_device), body)
    assert answer.status_code == 403
    assert client.get(record_url(event)).status_code == 405
    assert not BustOut.objects.exists()


def test_an_unknown_event_is_a_404(client, floor_token, db):
    answer = post(client, reverse("api:bustout", args=[999]), floor_token, {"entries": [1]})
    assert answer.status_code == 404 and answer.json() == {"error": "no event 999"}


def test_results_are_public_json(client, room):
    event, people = room
    services.payout_plan_update(event_id=event.pk, table="top-2", unit=Decimal(1), actor=ACTOR)
    services.bustout_record(event_id=event.pk, entry_ids=[people["T1S1"].pk], actor=ACTOR)
    body = client.get(reverse("api:results", args=[event.pk])).json()
    assert body["entries"] == 17 and body["players_left"] == 16
    assert body["prize_pool"] == "1700.00" and body["payouts"] == ["1105.00", "595.00"]
    assert body["results"] == [
        {
            "place": 17,
            "place_to": 17,
            "place_label": "17",
            "player": "T1S1",
            "entry": people["T1S1"].number,
            "prize": "0.00",
            "paid": False,
        }
    ]
    assert client.get(reverse("api:results", args=[999])).status_code == 404
