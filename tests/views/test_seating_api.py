"""The seating JSON API: the public seats list and the staff writes."""

from __future__ import annotations

import json

import pytest

from tdsystem.results.services import bustout_record
from tdsystem.seating.models import Entry, EventTable, Move
from tdsystem.simulation.seatings import ACTOR, arrange, field
from tests.personas import make_token

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))


def post(client, url: str, token: str | None, body: dict | str | None = None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    data = body if isinstance(body, str) else json.dumps(body or {})
    return client.post(url, data, content_type="application/json", **headers)


def test_it_lists_every_active_entry_with_table_and_seat(client, event):
    people = arrange(event, {2: [4, 7]})
    Entry.objects.filter(pk=people["T2S7"].pk).update(status="busted", table=None, seat=None)
    response = client.get(f"/api/events/{event.pk}/seats")
    assert response.status_code == 200
    assert response.json() == [
        {"player": "T2S4", "entry": people["T2S4"].number, "table": 2, "seat": 4}
    ]
    assert client.get("/api/events/999/seats").status_code == 404


@pytest.fixture
def screen_clock(monkeypatch):
    """The screen cache on a clock the test moves (seconds), empty before and after."""
    from tdsystem.core import screencache

    now = [1000.0]
    monkeypatch.setattr(screencache, "_now", lambda: now[0])
    screencache.clear()
    yield now
    screencache.clear()


def test_it_reads_the_seats_once_a_second_for_a_room_of_phones(
    client, event, settings, screen_clock, django_assert_num_queries
):
    """Thousands of phones ask for the seat list: its answer is made once per
    SCREEN_CACHE_SECONDS in each language (the sort is the reader's), then sent from
    memory without a query."""
    settings.SCREEN_CACHE_SECONDS = 60
    arrange(event, {1: [1, 2]})
    url = f"/api/events/{event.pk}/seats"
    first = client.get(url)
    with django_assert_num_queries(0):
        again = client.get(url)
    assert again.content == first.content
    assert "no-cache" in again["Cache-Control"] and again["Content-Type"] == first["Content-Type"]
    with django_assert_num_queries(2):  # another language reads the list in its own order
        assert client.get(url + "?lang=ja").json() == first.json()
    assert client.get("/api/events/999/seats").status_code == 404  # not kept as an answer


def test_a_bust_out_and_its_move_show_within_the_cache_seconds(
    client, event, settings, screen_clock
):
    """The seats JSON is at most SCREEN_CACHE_SECONDS old: the bust-out and the balancing
    move it sets off are in it once that time has passed, and the seat lookup page, read
    fresh, shows the move at once."""
    settings.SCREEN_CACHE_SECONDS = 1
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    url = f"/api/events/{event.pk}/seats"
    lookup = f"/events/{event.pk}/seats/?q=T1S8"
    before = client.get(url).json()
    assert 'id="found-table">1<' in client.get(lookup).content.decode()
    bustout_record(event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR)
    page = client.get(lookup).content.decode()
    assert 'id="found-table">2<' in page and 'id="found-seat">4<' in page
    screen_clock[0] += 0.9
    assert client.get(url).json() == before  # within the second: the answer kept
    screen_clock[0] += 0.11
    seats = {row["player"]: (row["table"], row["seat"]) for row in client.get(url).json()}
    assert "T2S4" not in seats and seats["T1S8"] == (2, 4)
    assert len(seats) == len(before) - 1


def test_it_lists_recent_moves_publicly(client, event):
    people = arrange(event, {1: [1]})
    Move.objects.create(
        event=event,
        entry=people["T1S1"],
        from_table=1,
        from_seat=1,
        to_table=1,
        to_seat=2,
        reason="balance",
        dealt_in=False,
    )
    (move,) = client.get(f"/api/events/{event.pk}/moves").json()
    assert move["text"] == "T1S1: table 1 seat 1 to table 1 seat 2 (waits for the button)"
    assert (move["to_table"], move["to_seat"], move["acknowledged"]) == (1, 2, False)


def test_it_needs_a_staff_token_for_writes(client, event, table_device, floor_token):
    url = f"/api/events/{event.pk}/entries"
    assert post(client, url, None, {"name": "Sam"}).status_code == 401
    assert post(client, url, "td_not_a_token", {"name": "Sam"}).status_code == 401
    assert post(client, url, make_token(table_device), {"name": "Sam"}).status_code == 403
    assert not Entry.objects.exists()
    response = post(client, url, floor_token, {"name": "Sam Lee", "member_id": "M1"})
    assert response.status_code == 201
    body = response.json()
    assert "/me/" in body.pop("player_url")  # the player's own page (tests/players)
    assert body | {"chips": 0} == {
        "entry": 1,
        "player": "Sam Lee",
        "note": "",
        "status": "active",
        "table": None,
        "seat": None,
        "chips": 0,
        "place": None,
        "dealt_in": True,
        "moves": [],
    }
    assert client.get(url).status_code == 405


def test_it_names_the_field_of_bad_input_and_changes_nothing(client, event, floor_token):
    url = f"/api/events/{event.pk}/entries"
    response = post(client, url, floor_token, {"name": "  "})
    assert response.status_code == 400 and response.json()["field"] == "name"
    response = post(client, url, floor_token, {"name": "Sam", "member_id": 7})
    assert response.json() == {
        "error": "member_id: a string of at most 40 characters that finds the player again",
        "field": "member_id",
    }
    response = post(client, url, floor_token, "{not json")
    assert response.status_code == 400 and "JSON" in response.json()["error"]
    response = post(client, f"/api/events/{event.pk}/draw", floor_token, {"seed": "abc"})
    assert response.json()["field"] == "seed"
    assert not Entry.objects.exists()
    assert post(client, "/api/events/999/draw", floor_token).status_code == 404


def test_it_draws_and_answers_409_to_a_second_draw(client, event, floor_token):
    field(event, players=10, tables=2)
    Entry.objects.update(table=None, seat=None)
    response = post(client, f"/api/events/{event.pk}/draw", floor_token, {"seed": 3})
    assert response.json() == {"seated": 10}
    before = list(Entry.objects.values_list("table", "seat"))
    again = post(client, f"/api/events/{event.pk}/draw", floor_token, {"seed": 4})
    assert again.status_code == 409 and "drawn already" in again.json()["error"]
    assert list(Entry.objects.values_list("table", "seat")) == before


def test_it_finishes_a_hand_once(client, event, floor_token):
    arrange(event, {4: [1, 2, 3]}, positions={4: (1, 2, 3)})
    url = f"/api/events/{event.pk}/tables/4/hand"
    response = post(client, url, floor_token, {"hand": 0})
    assert response.json() == {
        "table": 4,
        "hand": 1,
        "button": 2,
        "small_blind": 3,
        "big_blind": 1,
        "hand_for_hand": None,
    }
    assert post(client, url, floor_token, {"hand": 0}).status_code == 409
    missing = post(client, f"/api/events/{event.pk}/tables/9/hand", floor_token, {"hand": 0})
    assert missing.status_code == 400 and missing.json()["field"] == "table"


def test_a_single_bust_out_answers_the_place_and_the_move_slips(client, event, floor_token):
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    url = f"/api/events/{event.pk}/bustouts"
    one = {"entries": [people["T2S4"].number]}
    body = post(client, url, floor_token, one).json()
    ((finish,), rebalance) = body["finishes"], body["rebalance"]
    assert (finish["place"], finish["player"], rebalance) == (17, "T2S4", "balance")
    (move,) = body["moves"]
    assert (move["player"], move["from_table"], move["from_seat"]) == ("T1S8", 1, 8)
    assert (move["to_table"], move["to_seat"], move["reason"]) == (2, 4, "balance")
    again = post(client, url, floor_token, one)
    assert again.status_code == 409 and "already out" in again.json()["error"]
    assert Move.objects.count() == 1
    missing = post(client, url, floor_token, {"entries": [999]})
    assert missing.status_code == 400 and missing.json()["field"] == "entries"
    gone = f"/api/events/{event.pk}/entries/{people['T1S1'].number}/eliminate"
    assert post(client, gone, floor_token).status_code == 404  # folded into bustouts


def test_it_acknowledges_a_move(client, event, floor_token):
    people = arrange(event, {1: [1, 2]})
    move = Move.objects.create(
        event=event,
        entry=people["T1S1"],
        from_table=3,
        from_seat=1,
        to_table=1,
        to_seat=1,
        reason="break",
    )
    url = f"/api/events/{event.pk}/moves/{move.pk}/ack"
    assert post(client, url, floor_token).json()["acknowledged"] is True
    assert post(client, url, floor_token).status_code == 200
    assert post(client, f"/api/events/{event.pk}/moves/999/ack", floor_token).status_code == 404
    assert EventTable.objects.filter(event=event).count() == 1
